"""The Device & checkpoint lab: its screen, widgets and styles."""
