"""One use of something a drill's rules refuse (shared by the two halves of the AST pass)."""

from __future__ import annotations

from dataclasses import dataclass

from tutor.probes.data_grading import METHODS_INTO

__all__ = ["METHODS_INTO", "Use"]


@dataclass(frozen=True)
class Use:
    """One use of a refused construct: which entry of ``forbid`` (or which dynamic access),
    where, how it was written, and why it is refused when that is not plain from the name."""

    name: str
    line: int
    written: str
    why: str = ""

    def __str__(self) -> str:
        how = "" if self.written == self.name else f" (as `{self.written}`)"
        because = f": {self.why}" if self.why else ""
        return f"line {self.line}: `{self.name}`{how}{because}"
