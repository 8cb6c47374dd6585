"""The benchmark lab: its screen, widgets and styles."""
