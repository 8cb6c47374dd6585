"""The training-run lab: its screen, widgets and styles."""
