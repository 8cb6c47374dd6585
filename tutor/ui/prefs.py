"""The learner's screen preferences, kept across launches in ``$TUTOR_HOME/prefs.json``.

One so far: whether a lesson snippet's recorded output shows before the snippet is run (folded
by default, so the recording does not answer the "predict before you run" question). A missing
or damaged file means the defaults; a file that cannot be written keeps the choice for the
session and says why once."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from tutor.settings import home_dir


def prefs_path() -> Path:
    """Where the preferences live."""
    return home_dir() / "prefs.json"


@dataclass
class Prefs:
    """The preferences, with their defaults."""

    show_recorded: bool = False
    """Show each snippet's recorded output before it is run (else folded until run or asked)."""

    @classmethod
    def load(cls) -> Prefs:
        """The saved preferences (the defaults where the file is missing, damaged or odd)."""
        try:
            data = json.loads(prefs_path().read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls()
        if not isinstance(data, dict):
            return cls()
        known = {f.name: f.type for f in fields(cls)}
        kept = {k: v for k, v in data.items() if k in known and isinstance(v, bool)}
        return cls(**kept)

    def save(self) -> str | None:
        """Write the preferences (atomically); the reason in a few words when they cannot be."""
        path = prefs_path()
        temp = path.with_name(path.name + ".tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            temp.write_text(json.dumps(asdict(self), indent=2) + "\n", encoding="utf-8")
            os.replace(temp, path)
        except OSError as exc:
            return f"{exc.strerror or exc} ({path})"
        return None
