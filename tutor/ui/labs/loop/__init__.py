"""The Training-loop debugger lab: its screen, widgets and styles."""
