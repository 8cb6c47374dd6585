"""The rank timeline lab: its screen, widgets and styles."""
