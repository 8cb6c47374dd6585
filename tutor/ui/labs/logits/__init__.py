"""The Cross-entropy logits lab: its screen, widgets and styles."""
