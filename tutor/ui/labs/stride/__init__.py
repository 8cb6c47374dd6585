"""The Stride map lab: its screen, widgets and styles."""
