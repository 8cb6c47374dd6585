"""tutor: a terminal tutor that teaches you to think in PyTorch."""

__version__ = "0.1.0"
