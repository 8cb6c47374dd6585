"""The catalog: every pack, chapter and lesson the tutor knows, loaded without torch.

Broken packs and lessons are reported in ``Catalog.problems`` and skipped; everything else loads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tutor.content.loader import load_pack_located
from tutor.content.models import Chapter, Drill, Lesson, Pack
from tutor.content.positions import Locator
from tutor.content.problems import PackError, Problem, errors
from tutor.content.sources import pack_paths
from tutor.settings import Settings


@dataclass(frozen=True)
class DrillRef:
    """A drill together with its pack, its full id (``pack/drill``) and its chapter."""

    full_id: str
    pack: Pack
    drill: Drill
    chapter: int

    @property
    def title(self) -> str:
        """The drill's title (its id, made readable, when it has none)."""
        return self.drill.display_title


def load_packs(
    files: list[Path],
    inspect: Callable[[Pack, Locator], list[Problem]] | None = None,
) -> tuple[list[Pack], list[Problem]]:
    """Load pack files in order; broken ones and repeated pack ids become problems.

    ``inspect`` adds checks of a loaded pack (``tutor pack check`` adds the static code checks);
    a pack it finds errors in (not just warnings) is left out like a broken one.
    """
    packs: list[Pack] = []
    problems: list[Problem] = []
    owners: dict[str, Path | None] = {}
    for file in files:
        try:
            pack, locator = load_pack_located(file)
        except PackError as exc:
            problems += exc.problems
            continue
        except Exception as exc:  # a bug or an odd file must not stop the other packs
            message = f"could not be loaded: {type(exc).__name__}: {exc}"
            problems.append(Problem(str(file), 1, 1, "file", message))
            continue
        extra = inspect(pack, locator) if inspect is not None else []
        problems += extra
        if errors(extra):
            continue
        if pack.pack in owners:
            line, col = locator.at(("pack",))
            message = f"pack id `{pack.pack}` is already used by {owners[pack.pack]}"
            problems.append(Problem(locator.file, line, col, "pack", message))
            continue
        owners[pack.pack] = file
        packs.append(pack)
    return packs, problems


@dataclass
class Catalog:
    """Loaded packs, chapters and lessons, with the problems of what could not be loaded."""

    packs: list[Pack] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    chapters: list[Chapter] = field(default_factory=list)
    lessons: dict[int, Lesson] = field(default_factory=dict)

    @classmethod
    def load(cls, settings: Settings | None = None, *, builtin: bool = True) -> Catalog:
        """Load everything. ``builtin=False`` skips the shipped packs and lessons (chapters
        always load); ``settings`` defaults to ``TUTOR_PACKS`` only."""
        from tutor.content.lessons import load_chapters, load_lessons

        settings = settings if settings is not None else Settings.from_options()
        files, problems = pack_paths(settings, builtin=builtin)
        packs, pack_problems = load_packs(files)
        catalog = cls(packs=packs, problems=problems + pack_problems)
        try:
            catalog.chapters = load_chapters()
        except PackError as exc:
            catalog.problems += exc.problems
        if builtin:
            catalog.lessons, lesson_problems = load_lessons()
            catalog.problems += lesson_problems
        catalog._index()
        return catalog

    def _index(self) -> None:
        self._refs = [
            DrillRef(pack.full_id(d), pack, d, pack.chapter_of(d))
            for pack in self.packs
            for d in pack.drills
        ]
        self._by_id = {ref.full_id: ref for ref in self._refs}

    def drills(self) -> list[DrillRef]:
        """Every drill, pack by pack, in file order."""
        if not hasattr(self, "_refs"):
            self._index()
        return list(self._refs)

    def drill(self, full_id: str) -> DrillRef:
        """The drill with this ``pack/drill`` id; KeyError if there is none."""
        if not hasattr(self, "_by_id"):
            self._index()
        return self._by_id[full_id]

    def drills_for(self, chapter: int) -> list[DrillRef]:
        """The drills of one chapter, in catalog order."""
        return [ref for ref in self.drills() if ref.chapter == chapter]

    def pack(self, pack_id: str) -> Pack:
        """The loaded pack with this id; KeyError if there is none."""
        for pack in self.packs:
            if pack.pack == pack_id:
                return pack
        raise KeyError(pack_id)
