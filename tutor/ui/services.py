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

    def new_seed(self, avoid: set[int] | frozenset[int] = ...) -> int:
        """A seed for a fresh variant."""
        ...


def services(node: DOMNode) -> Services:
    """The app ``node`` belongs to (``node`` itself when it is the app), as its services."""
    return cast("Services", node if isinstance(node, App) else node.app)
