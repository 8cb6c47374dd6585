"""Problems found in content files, reported as ``file:line:col: field: message``."""

from __future__ import annotations

from dataclasses import dataclass

from tutor.safe_text import strip_controls


@dataclass(frozen=True, order=True)
class Problem:
    """One actionable problem at a position (1-based line and column) in a file.

    ``field`` is the dotted path of the offending value, e.g. ``drills[2].check.trials``
    (empty for problems of the whole file, such as a YAML syntax error). ``severity`` is
    ``error`` (the pack is refused) or ``warning`` (said, but the pack passes).
    """

    file: str
    line: int
    col: int
    field: str
    message: str
    severity: str = "error"

    def __str__(self) -> str:
        """``file:line:col: field: message`` (``field: warning: message`` for a warning),
        stripped of control sequences (a file name or a quoted value may hold them)."""
        kind = "warning: " if self.severity == "warning" else ""
        return strip_controls(
            f"{self.file}:{self.line}:{self.col}: {self.field}: {kind}{self.message}"
        )

    def to_dict(self) -> dict[str, str | int]:
        """The problem as JSON-ready data."""
        return {
            "file": self.file,
            "line": self.line,
            "col": self.col,
            "field": self.field,
            "message": self.message,
            "severity": self.severity,
        }


def errors(problems: list[Problem]) -> list[Problem]:
    """The problems that refuse a pack (warnings are said, but the pack passes)."""
    return [p for p in problems if p.severity == "error"]


class PackError(Exception):
    """A content file could not be loaded; ``problems`` says everything that is wrong."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))
