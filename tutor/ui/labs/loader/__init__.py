"""The loader lab: its screen, batch timeline widget and styles."""
