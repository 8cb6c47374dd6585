"""`tutor pack try PATH [DRILL]`: the tutor on just one pack, as a learner sees it.

The app shows the drills of the packs under ``PATH`` (nothing else: no built-in packs, no
lessons), grades answers in the real sandbox, and keeps progress in a throwaway store that is
deleted when it quits. Saving a pack file reloads it: the drill list is redrawn, and an open
drill whose text changed is opened again on the same variant (a drill that no longer loads
stays as it was, and the problem is shown).
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events, work
from textual.binding import Binding

from tutor.content.wording import plural
from tutor.ui.app import TutorApp
from tutor.ui.screens.drills import DrillListScreen

if TYPE_CHECKING:
    from tutor.content.catalog import Catalog
    from tutor.content.problems import Problem


def load_only(paths: list[Path]) -> tuple[Catalog, list[Problem]]:
    """A catalog of the packs under ``paths`` and the twelve chapters, nothing else."""
    from tutor.content.catalog import Catalog, load_packs
    from tutor.content.lessons import load_chapters
    from tutor.content.sources import expand

    packs, problems = load_packs([f for p in paths for f in expand(p)])
    return Catalog(packs=packs, problems=problems, chapters=load_chapters()), problems


def _prints(catalog: Catalog) -> dict[str, str]:
    return {ref.full_id: ref.drill.model_dump_json() for ref in catalog.drills()}


class PackDrills(DrillListScreen):
    """Every drill of the packs tried; leaving it quits."""

    BINDINGS = [Binding("escape", "back", "Quit")]

    def action_back(self) -> None:
        self.app.exit()


class TryApp(TutorApp):
    """The tutor on the packs under ``paths`` only, reloading them when they are saved."""

    SUB_TITLE = "trying a pack: progress is thrown away on quit"

    def __init__(
        self, paths: list[Path], catalog: Catalog, *, drill: str | None = None, **kwargs: Any
    ) -> None:
        super().__init__(catalog=catalog, **kwargs)
        self.paths = paths
        self.start_drill = drill
        self.reloads = 0
        """how many saves have been loaded (tests wait on ``reloaded``)"""
        self.reloaded = asyncio.Event()
        self._stop = threading.Event()

    def on_mount(self, event: events.Mount) -> None:
        from tutor.ui.screens.drill import DrillScreen

        event.prevent_default()  # the list of this pack, not the home screen

        self.title = "tutor · " + ", ".join(p.pack for p in self.catalog.packs)
        self.push_screen(PackDrills(None))
        if self.start_drill:
            queue = [ref.full_id for ref in self.catalog.drills()]
            self.push_screen(DrillScreen(self.start_drill, queue=queue))
        if self._warm_sandbox:
            self._warm()
        self._follow()

    def on_unmount(self) -> Any:
        self._stop.set()
        return super().on_unmount()

    @work(thread=True, exclusive=True, group="pack-watch", exit_on_error=False)
    def _follow(self) -> None:
        """Wait for saves of the pack files (in a thread) and reload on each."""
        import watchfiles

        roots = sorted({(p if p.is_dir() else p.parent).resolve() for p in self.paths})
        for batch in watchfiles.watch(*roots, debounce=300, stop_event=self._stop):
            files = {f.resolve() for f in self._files()}
            if {Path(p).resolve() for _c, p in batch} & files:
                self.call_from_thread(self.reload)

    def _files(self) -> list[Path]:
        from tutor.content.sources import expand

        return [f for p in self.paths if p.exists() for f in expand(p)]

    def reload(self) -> None:
        """Load the packs again; redraw the list and reopen the open drill if it changed."""
        from tutor.content.summary import CatalogSummary
        from tutor.ui.screens.drill import DrillScreen

        catalog, problems = load_only(self.paths)
        before = _prints(self.catalog)
        if problems:
            shown = "\n".join(str(p) for p in problems[:3])
            self.notify(shown, title="The pack does not load", severity="error", markup=False)
        if catalog.packs or not problems:
            after = _prints(catalog)
            changed = {d for d in after if before.get(d) != after[d]}
            gone = set(before) - set(after)
            self._catalog = catalog
            self.summary = CatalogSummary.of(catalog)
            for screen in list(self.screen_stack):
                if isinstance(screen, DrillListScreen):
                    screen.refresh_list()
            top = self.screen
            if isinstance(top, DrillScreen) and top.full_id in gone:
                self.pop_screen()
                self.notify(f"{top.full_id} is no longer in the pack.", severity="warning")
            elif isinstance(top, DrillScreen) and top.full_id in changed:
                again = DrillScreen(top.full_id, queue=top.queue, seed=top.variant.seed)
                self.switch_screen(again)
            if not problems:
                self.notify(f"Reloaded: {plural(len(changed), 'drill')} changed.", timeout=3)
        self.reloads += 1
        self.reloaded.set()


def run_try(paths: list[Path], drill: str | None, catalog: Catalog, runtime: str | None) -> None:
    """Run the preview with a throwaway progress store (deleted on quit)."""
    import tempfile

    from tutor.progress.store import Store
    from tutor.settings import Settings

    with tempfile.TemporaryDirectory(prefix="tutor-try-") as tmp:
        store = Store(Path(tmp) / "progress.db")
        try:
            settings = Settings(packs=list(paths), runtime=runtime)
            TryApp(paths, catalog, drill=drill, settings=settings, store=store).run()
        finally:
            store.close()
