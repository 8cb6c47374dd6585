"""What the home screen needs from the catalog, small enough to draw the first frame from, and
cached on disk so that frame needs neither YAML, pydantic nor Markdown.

``CatalogSummary.of(catalog)`` takes it from a loaded catalog; ``cached_summary(settings)``
reads it back from ``$TUTOR_HOME/cache/summary.json`` when no file it was made from changed
(the key lists every pack file, lesson file, ``chapters.yaml`` and content-layer module with its
size and modification time). The app draws home from it at once and loads the full catalog
after the first frame; any difference is redrawn then, and the cache rewritten.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tutor.paths import PROJECT_ROOT
from tutor.settings import Settings, home_dir

if TYPE_CHECKING:
    from tutor.content.catalog import Catalog

#: bump when the summary's shape changes: older caches are then ignored
FORMAT = 1


@dataclass(frozen=True)
class ChapterInfo:
    """A chapter as the home screen lists it."""

    number: int
    title: str
    thesis: str
    part: str
    labs: tuple[str, ...] = ()


@dataclass(frozen=True)
class DrillInfo:
    """A drill as chapter progress counts it."""

    full_id: str
    chapter: int
    quiz: bool
    title: str = ""


@dataclass
class CatalogSummary:
    """The chapters, which have lessons, every drill's id, chapter and quiz flag, and how many
    problems the packs and lessons have."""

    chapters: list[ChapterInfo] = field(default_factory=list)
    lessons: dict[int, str] = field(default_factory=dict)
    """chapter number -> lesson title"""
    drills: list[DrillInfo] = field(default_factory=list)
    problems: int = 0

    @classmethod
    def of(cls, catalog: Catalog) -> CatalogSummary:
        """The summary of a loaded catalog."""
        chapters = [
            ChapterInfo(c.number, c.title, c.thesis, c.part, tuple(c.labs))
            for c in catalog.chapters
        ]
        lessons = {n: lesson.title for n, lesson in catalog.lessons.items()}
        drills = [
            DrillInfo(r.full_id, r.chapter, bool(r.drill.quiz), r.drill.display_title)
            for r in catalog.drills()
        ]
        return cls(chapters, lessons, drills, len(catalog.problems))

    def drill_title(self, full_id: str) -> str | None:
        """The title of the drill ``full_id``, None if there is no such drill."""
        return next((d.title for d in self.drills if d.full_id == full_id), None)

    def drills_for(self, chapter: int) -> list[DrillInfo]:
        """The drills of one chapter, in catalog order."""
        return [d for d in self.drills if d.chapter == chapter]

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data (``from_json`` reads it back)."""
        return {
            "chapters": [asdict(c) for c in self.chapters],
            "lessons": {str(n): title for n, title in self.lessons.items()},
            "drills": [asdict(d) for d in self.drills],
            "problems": self.problems,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CatalogSummary:
        """The summary written by ``to_json``."""
        chapters = [
            ChapterInfo(c["number"], c["title"], c["thesis"], c["part"], tuple(c["labs"]))
            for c in data["chapters"]
        ]
        lessons = {int(n): str(title) for n, title in data["lessons"].items()}
        drills = [DrillInfo(**d) for d in data["drills"]]
        return cls(chapters, lessons, drills, int(data["problems"]))


def cache_path() -> Path:
    """Where the summary is cached."""
    return home_dir() / "cache" / "summary.json"


def _stamp(path: Path) -> list[str | int | None]:
    try:
        st = path.stat()
    except OSError:
        return [str(path), None, None]
    return [str(path), st.st_mtime_ns, st.st_size]


def source_key(settings: Settings) -> list[object]:
    """Every file the catalog is made from, with its size and modification time (packs of
    installed distributions through the folders they are installed in: not read here, since
    listing entry points costs more than the whole key; the catalog loaded after the first frame
    corrects any difference)."""
    from tutor.content.sources import builtin_pack_dir, expand, user_pack_dir

    packs = [builtin_pack_dir(), user_pack_dir(), *settings.packs]
    files = [f for root in packs for f in expand(root)]
    lessons = sorted((PROJECT_ROOT / "lessons").glob("*.md"))
    code = sorted((PROJECT_ROOT / "tutor" / "content").glob("*.py"))
    chapters = PROJECT_ROOT / "lessons" / "chapters.yaml"
    installed = sorted({Path(p) for p in sys.path if p.endswith("site-packages")})
    stamps = [_stamp(p) for p in [*files, *lessons, chapters, *code, *installed]]
    return [FORMAT, stamps]


def cached_summary(settings: Settings) -> CatalogSummary | None:
    """The cached summary, or None when there is none or a source file changed."""
    try:
        data = json.loads(cache_path().read_text(encoding="utf-8"))
        if data.get("key") != json.loads(json.dumps(source_key(settings))):
            return None
        return CatalogSummary.from_json(data["summary"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def write_summary(summary: CatalogSummary, settings: Settings) -> None:
    """Cache ``summary`` for the next start (quietly does nothing when it cannot write)."""
    path = cache_path()
    data = {"key": source_key(settings), "summary": summary.to_json()}
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}")
        tmp.write_text(json.dumps(data), encoding="utf-8")
        os.replace(tmp, path)
