"""Where the project's own files are (no imports beyond the standard library: the sandbox
runtime reads it too)."""

from pathlib import Path

#: The repository root: ``tutor/``, ``lessons/`` and ``drills/`` live here.
PROJECT_ROOT = Path(__file__).resolve().parent.parent
