"""The Textual app: owns the catalog, the progress store and the one shared sandbox, and
navigates between screens when widgets post the requests in ``tutor.ui.messages``.

Nothing here imports torch: all torch work happens in the sandbox runtime.
"""

from __future__ import annotations

import contextlib
import os
import random
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from textual import events, work
from textual.app import App
from textual.binding import Binding
from textual.theme import Theme

from tutor.content.wording import plural
from tutor.settings import Settings
from tutor.ui.messages import OpenLab
from tutor.ui.screens.navigation import Navigator
from tutor.ui.screens.palette import TutorCommands

if TYPE_CHECKING:
    from tutor.content.catalog import Catalog
    from tutor.content.summary import CatalogSummary
    from tutor.progress.database import StoreError
    from tutor.progress.store import Store
    from tutor.sandbox.supervisor import AsyncSandbox
    from tutor.ui.prefs import Prefs
    from tutor.ui.runtimes import Sandboxes

DARK = Theme(
    name="tutor-dark",
    primary="#E8833A",
    secondary="#5FA8D3",
    accent="#F2C14E",
    success="#6CC16C",
    warning="#F2C14E",
    error="#E5484D",
    foreground="#E6E1DA",
    background="#16181D",
    surface="#1E2128",
    panel="#2A2E37",
    dark=True,
)
LIGHT = Theme(
    name="tutor-light",
    primary="#B4530F",
    secondary="#1F6F9E",
    accent="#8A5A00",
    success="#2E7D32",
    warning="#8A5A00",
    error="#B3261E",
    foreground="#1C1B19",
    background="#FAF8F4",
    surface="#F0ECE4",
    panel="#E3DDD2",
    dark=False,
)


def default_theme() -> str:
    """``TUTOR_THEME=light|dark`` wins; else a light terminal background announced by
    ``COLORFGBG`` (e.g. ``0;15``) picks the light theme; else dark."""
    choice = os.environ.get("TUTOR_THEME", "").strip().lower()
    if choice in ("light", "dark"):
        return f"tutor-{choice}"
    background = os.environ.get("COLORFGBG", "").split(";")[-1]
    return "tutor-light" if background in ("7", "15") else "tutor-dark"


class TutorApp(Navigator, App[None]):
    """The tutor. ``catalog``, ``store`` and ``sandbox`` may be injected (tests); ``seed`` fixes
    the random variants drawn for drills so runs are reproducible."""

    CSS_PATH = [Path(__file__).with_name("tutor.tcss")]
    TITLE = "tutor"
    SUB_TITLE = "think in PyTorch"
    COMMANDS = App.COMMANDS | {TutorCommands}
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (112, "-wide")]
    BINDINGS = [
        Binding("question_mark", "help", "Keys", key_display="?"),
    ]

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        catalog: Catalog | None = None,
        store: Store | None = None,
        sandbox: AsyncSandbox | None = None,
        seed: int | None = None,
        warm_sandbox: bool = True,
        store_problem: StoreError | None = None,
    ) -> None:
        super().__init__()
        self.settings = settings or Settings()
        self._catalog: Catalog | None = catalog
        self._catalog_lock = threading.Lock()
        self.summary: CatalogSummary
        """What home draws: the catalog's chapters, lessons and drill ids (cached on disk)."""
        from tutor.content.summary import CatalogSummary, cached_summary

        if catalog is not None:
            self.summary = CatalogSummary.of(catalog)
        else:
            cached = cached_summary(self.settings)
            if cached is not None:
                self.summary = cached  # the catalog loads after the first frame
            else:
                self.catalog  # noqa: B018 - loads it and sets the summary
        if store is None:
            from tutor.progress.opening import open_store

            store, store_problem = open_store()
        if sandbox is None:
            from tutor.sandbox.runtimes import resolve_runtime

            resolve_runtime(self.settings.runtime)  # an unknown runtime fails here, not later
        self.store = store
        """The learner's progress (SQLite)."""
        self.store_problem = store_problem
        """Why the progress file could not be opened (a StoreError; ``store`` is a stand-in)."""
        self._sandbox: AsyncSandbox | None = sandbox
        self._sandboxes: Sandboxes | None = None
        self._prefs: Prefs | None = None
        self.seed = seed
        """A fixed seed for reproducible variants (None: random)."""
        self._rng = random.Random(seed)
        self._warm_sandbox = warm_sandbox
        self.register_theme(DARK)
        self.register_theme(LIGHT)
        self._first_theme(default_theme())

    def _first_theme(self, name: str) -> None:
        """Set the theme before the style sheets are first parsed, as Textual's theme watcher
        does but without the full re-parse it schedules (a tenth of the first frame's time)."""
        self.set_reactive(App.theme, name)
        dark = self.current_theme.dark
        self.update_classes(
            {f"-theme-{name}": True, "-dark-mode": dark, "-light-mode": not dark}, update=False
        )
        self._refresh_truecolor_filter(self.ansi_theme)
        self.stylesheet.set_variables(self.get_css_variables())  # nothing is parsed yet

    # --- the catalog ----------------------------------------------------------------------

    @property
    def catalog(self) -> Catalog:
        """The chapters, lessons and drill packs: loaded on first use (home draws from the cached
        summary, and a worker loads the catalog right after the first frame)."""
        with self._catalog_lock:
            if self._catalog is None:
                from tutor.content.catalog import Catalog
                from tutor.content.summary import CatalogSummary, write_summary

                self._catalog = Catalog.load(self.settings)
                self.summary = CatalogSummary.of(self._catalog)
                write_summary(self.summary, self.settings)
            return self._catalog

    @property
    def prefs(self) -> Prefs:
        """The learner's screen preferences (``tutor.ui.prefs``), read on first use."""
        if self._prefs is None:
            from tutor.ui.prefs import Prefs

            self._prefs = Prefs.load()
        return self._prefs

    @property
    def sandboxes(self) -> Sandboxes:
        """A sandbox per runtime: content declaring ``runtime: xla`` runs on that runtime,
        started on demand (``tutor.ui.runtimes``)."""
        if self._sandboxes is None:
            from tutor.ui.runtimes import Sandboxes

            self._sandboxes = Sandboxes(self.settings.runtime, lambda: self.sandbox)
        return self._sandboxes

    @property
    def sandbox(self) -> AsyncSandbox:
        """The one sandbox every screen and lab runs torch in (made on first use; warmed up
        right after the first frame)."""
        if self._sandbox is None:
            from tutor.sandbox import AsyncSandbox

            self._sandbox = AsyncSandbox(self.settings.runtime)
        return self._sandbox

    @work(thread=True, exclusive=True, group="catalog", exit_on_error=False)
    def _load_catalog(self) -> None:
        before = self.summary
        self.catalog  # noqa: B018 - loads it
        if self.summary != before:
            self.call_from_thread(self._summary_changed)

    def _summary_changed(self) -> None:
        """The packs or lessons changed since the summary was cached: redraw home."""
        from tutor.ui.screens.home import HomeScreen

        for screen in self.screen_stack:
            if isinstance(screen, HomeScreen):
                screen.refresh_progress()

    # --- lifecycle ------------------------------------------------------------------------

    def on_mount(self, event: events.Mount) -> None:
        from tutor.ui.hangup import watch_terminal
        from tutor.ui.screens.home import HomeScreen

        watch_terminal(self)
        home = HomeScreen()  # it calls home_drawn after its first frame
        if self.is_headless:
            self.push_screen(home)
        else:  # once the mount is over: a screen pushed during it is laid out and drawn while
            # Textual holds back the output, then drawn again (a tenth of the first frame)
            self.call_later(self.push_screen, home)

    def home_drawn(self) -> None:
        """Called once the home screen has been drawn: warm the sandbox, report problems."""
        from tutor.ui.screens.store_problem import offer_choices

        if self._catalog is None:
            self._load_catalog()
        if self._warm_sandbox:
            self._warm()
        if self.store_problem is not None:
            offer_choices(self, self.store_problem)
        self.report_store()
        problems = self.summary.problems
        if problems:
            self.notify(
                f"{plural(problems, 'problem')} in drill packs; broken packs were skipped. "
                "See 'Pack problems' in the command palette.",
                title="Packs",
                severity="warning",
                timeout=8,
            )

    def report_store(self) -> None:
        """Tell the learner what happened to saving their progress, if anything did."""
        from tutor.ui.screens.store_problem import report_store

        report_store(self)

    @work(exclusive=True, group="sandbox-warm", exit_on_error=False)
    async def _warm(self) -> None:
        try:
            await self.sandbox.start()
        except Exception as exc:  # shown, never fatal: the doctor screen explains
            self.notify(
                f"Sandbox failed to start: {exc}", title="Sandbox", severity="error", markup=False
            )

    async def on_unmount(self) -> None:
        if self._sandboxes is not None:
            with contextlib.suppress(Exception):
                await self._sandboxes.close()
        if self._sandbox is not None:
            with contextlib.suppress(Exception):  # closing must never block quitting
                await self._sandbox.close()

    # --- seeds and locations ---------------------------------------------------------------

    def new_seed(self, avoid: set[int] | frozenset[int] = frozenset()) -> int:
        """A seed for a fresh variant (reproducible when the app was given a seed)."""
        from tutor.grading.variants import new_seed

        return new_seed(self._rng, avoid)

    def resume_location(self) -> tuple[str, str] | None:
        """Where the learner left off, if it still exists in the catalog."""
        location = self.store.last_location()
        if not location:
            return None
        kind, ident = (location[0], str(location[1]))
        if kind == "lesson" and ident.isdigit() and int(ident) in self.summary.lessons:
            return kind, ident
        if kind == "drill" and self.summary.drill_title(ident) is not None:
            return self._onward(ident)
        return None

    def _onward(self, drill: str) -> tuple[str, str] | None:
        """Where to continue after ``drill``: itself until it is mastered, then the next drill
        of its chapter not mastered (in list order, from it on), then the next chapter's unread
        lesson or drill not mastered; None once everything after it is done."""
        mastered = self.store.mastered_set()
        if drill not in mastered:
            return "drill", drill
        chapter = next(d.chapter for d in self.summary.drills if d.full_id == drill)
        same = [d.full_id for d in self.summary.drills if d.chapter == chapter]
        at = same.index(drill)
        for full_id in same[at + 1 :] + same[:at]:
            if full_id not in mastered:
                return "drill", full_id
        for later in sorted({c.number for c in self.summary.chapters if c.number > chapter}):
            if later in self.summary.lessons and not self.store.lesson_read(later):
                return "lesson", str(later)
            left = [d for d in self.summary.drills if d.chapter == later]
            following = next((d.full_id for d in left if d.full_id not in mastered), None)
            if following is not None:
                return "drill", following
        return None

    def resume_label(self) -> str | None:
        """A short label for the continue action."""
        location = self.resume_location()
        if location is None:
            return None
        kind, ident = location
        if kind == "lesson":
            return f"lesson {ident} · {self.summary.lessons[int(ident)]}"
        return f"drill · {self.summary.drill_title(ident)}"

    # --- actions -------------------------------------------------------------------------------

    def action_help(self) -> None:
        from tutor.ui.screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            return
        keys: dict[str, tuple[str, str]] = {}
        declared = {
            b.action for b in getattr(type(self.screen), "BINDINGS", []) if isinstance(b, Binding)
        }
        for node, binding, enabled, _tooltip in self.active_bindings.values():
            useful = binding.show or binding.action in declared
            generic = (
                isinstance(node, App) or node is self.screen and binding.action not in declared
            )
            if binding.description and enabled and useful and not generic and not binding.system:
                display = binding.key_display or self.get_key_display(binding)
                said = binding.tooltip or binding.description  # the longer, where there is one
                keys.setdefault(binding.action, (display, said))
        self.push_screen(HelpScreen(list(keys.values())))

    def action_pick_lab(self, names: list[str] | None = None) -> None:
        """Choose a lab from a list and open it."""
        from tutor.ui.screens.pickers import LabPicker

        def opened(name: str | None) -> None:
            if name:
                self.post_message(OpenLab(name))

        self.push_screen(LabPicker(names), opened)

    def action_problems(self) -> None:
        from tutor.ui.screens.pickers import ProblemsScreen

        self.push_screen(ProblemsScreen([str(p) for p in getattr(self.catalog, "problems", [])]))

    def action_go_home(self) -> None:
        """Close every screen above the home screen."""
        from tutor.ui.screens.home import HomeScreen

        while len(self.screen_stack) > 1 and not isinstance(self.screen, HomeScreen):
            self.pop_screen()

    def action_toggle_theme(self) -> None:
        self.theme = "tutor-light" if self.theme == "tutor-dark" else "tutor-dark"


def run_app(settings: Settings) -> None:
    """Build the catalog, store and sandbox for ``settings`` and run the tutor.

    An unknown ``--runtime`` is reported in one line (exit status 2), not a traceback.
    """
    from tutor.sandbox.runtimes import RuntimeNotFound

    try:
        app = TutorApp(settings)
    except RuntimeNotFound as exc:
        print(f"tutor: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    app.run()
