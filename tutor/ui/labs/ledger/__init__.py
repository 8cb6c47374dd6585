"""The Parameter & memory ledger lab: its screen, widgets and styles."""
