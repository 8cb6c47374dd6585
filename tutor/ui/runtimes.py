"""The app's sandboxes, one per runtime: the default one, and each runtime that content declares
(``runtime: xla``), made on first use and started in the background with its progress shown."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tutor.sandbox.supervisor import AsyncSandbox

#: how often the "starting the xla runtime… Ns" line is redrawn (seconds)
TICK = 1.0


class Sandboxes:
    """Sandboxes by runtime name for one app; ``default`` is the app's ``--runtime``."""

    def __init__(self, default: str | None, main: Callable[[], AsyncSandbox]) -> None:
        self.default = default
        self._main = main
        self._others: dict[str, AsyncSandbox] = {}

    def name_of(self, declared: str | None) -> str | None:
        """The runtime content declaring ``declared`` runs on (None: the app's default)."""
        from tutor.sandbox.pool import runtime_of

        name = runtime_of(declared, self.default)
        return None if name == self.default else name

    def get(self, declared: str | None) -> AsyncSandbox:
        """The sandbox for ``declared``; raises ``RuntimeNotFound``/``RuntimeNotBuilt`` (e.g.
        "the xla runtime is not built: run `make xla-runtime`") when it cannot be had."""
        name = self.name_of(declared)
        if name is None:
            return self._main()
        if name not in self._others:
            from tutor.sandbox import AsyncSandbox

            self._others[name] = AsyncSandbox(name)
        return self._others[name]

    async def ready(self, declared: str | None, show: Callable[[str], None]) -> AsyncSandbox:
        """The started sandbox for ``declared``. Starting a runtime other than the default
        takes seconds (torch and its bridge import): ``show`` gets "starting the xla
        runtime… Ns" every second meanwhile."""
        box = self.get(declared)
        name = self.name_of(declared)
        if name is None or box.ready is not None:
            return box
        start = asyncio.ensure_future(box.start())
        began = time.monotonic()
        while not start.done():
            show(f"starting the {name} runtime… {time.monotonic() - began:.0f}s")
            await asyncio.wait({start}, timeout=TICK)
        await start
        return box

    async def close(self) -> None:
        """Close the sandboxes made here (the default one is the app's to close)."""
        others, self._others = self._others, {}
        for box in others.values():
            await box.close()
