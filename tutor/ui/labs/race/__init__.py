"""The Dispatch race lab: its screen, widgets and styles."""
