"""The two-bridge ledger lab: its screen, widgets and styles."""
