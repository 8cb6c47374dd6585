"""What screens and widgets may ask of the app: its services, typed (Textual types ``self.app``
as a plain ``App``). ``services(widget)`` is the app seen through this protocol."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, cast

from textual.app import App

if TYPE_CHECKING:
    from textual.dom import DOMNode

    from tutor.content.catalog import Catalog
    from tutor.content.summary import CatalogSummary
    from tutor.progress.database import StoreError
    from tutor.progress.store import Store
    from tutor.sandbox.supervisor import AsyncSandbox
    from tutor.settings import Settings
    from tutor.ui.prefs import Prefs
    from tutor.ui.runtimes import Sandboxes


class Services(Protocol):
    """The tutor app's services (``tutor.ui.app.TutorApp`` provides them)."""

    settings: Settings
    store: Store
    store_problem: StoreError | None
    summary: CatalogSummary

    @property
    def catalog(self) -> Catalog:
        """The chapters, lessons and drill packs."""
        ...

    @property
    def prefs(self) -> Prefs:
        """The learner's screen preferences, kept across launches."""
        ...

    @property
    def sandbox(self) -> AsyncSandbox:
        """The one sandbox every screen and lab runs torch in."""
        ...

    @property
    def sandboxes(self) -> Sandboxes:
        """A sandbox per runtime, for content that declares one (``runtime: xla``)."""
        ...

    def new_seed(self, avoid: set[int] | frozenset[int] = ...) -> int:
        """A seed for a fresh variant."""
        ...

    def home_drawn(self) -> None:
        """The home screen has drawn its first frame."""
        ...

    def report_store(self) -> None:
        """Tell the learner what happened to saving their progress, if anything did."""
        ...

    def resume_location(self) -> tuple[str, str] | None:
        """Where the learner left off (``("lesson", "3")``, ``("drill", full_id)``)."""
        ...

    def resume_label(self) -> str | None:
        """A short label for the continue action."""
        ...

    def action_help(self) -> None:
        """Show the keys of the current screen."""
        ...

    def action_pick_lab(self, names: list[str] | None = None) -> None:
        """Choose a lab from a list and open it."""
        ...

    def action_problems(self) -> None:
        """List the problems found in the drill packs."""
        ...

    def action_go_home(self) -> None:
        """Close every screen above the home screen."""
        ...

    def action_toggle_theme(self) -> None:
        """Switch between the dark and the light theme."""
        ...


def services(node: DOMNode) -> Services:
    """The app ``node`` belongs to (``node`` itself when it is the app), as its services."""
    return cast("Services", node if isinstance(node, App) else node.app)
