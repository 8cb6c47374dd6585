"""The Autograd tape lab: its screen, widgets and styles."""
