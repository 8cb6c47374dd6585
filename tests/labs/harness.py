"""What the lab UI tests share: the bare app that shows one lab screen, waiting for its workers,
typing into a field, and the recorded probe data the snapshots draw.

Import it as ``from labs.harness import ...`` (``tests/labs`` is a package); the ``sandbox``
fixture is in ``conftest.py``."""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel
from textual.app import App
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input

from tutor.sandbox import AsyncSandbox
from tutor.ui.runtimes import Sandboxes

M = TypeVar("M", bound=BaseModel)

DATA = Path(__file__).parent / "data"
"""Probe data recorded for the stride, tape, checkpoint and race snapshots (plain JSON)."""
DATA_F = Path(__file__).parent / "data_f"
"""Recordings that keep the call that made them (``record.py`` writes and re-runs them)."""

_spec = importlib.util.spec_from_file_location("lab_recordings", DATA_F / "record.py")
assert _spec and _spec.loader
recordings = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(recordings)


class LabApp(App[None]):
    """A bare app that holds a sandbox (or None: nothing runs) and shows one lab screen. A lab
    whose row names another runtime (xla) gets that runtime's sandbox from ``sandboxes``, as in
    the tutor: made and started on demand, closed with the app."""

    def __init__(self, screen: Screen, sandbox: AsyncSandbox | None = None) -> None:
        super().__init__()
        self.sandbox = sandbox
        self.sandboxes = Sandboxes(None, lambda: sandbox)
        self.lab = screen

    def on_mount(self) -> None:
        self.push_screen(self.lab)

    async def on_unmount(self) -> None:
        await self.sandboxes.close()


async def settle(app: App, pilot) -> None:
    """Let workers finish and the screen redraw."""
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


async def replace_text(pilot, field: Input, text: str) -> None:
    """Clear ``field`` and type ``text`` into it key by key."""
    field.focus()
    field.value = ""
    await pilot.press(*text)


def recorded(model: type[M], name: str) -> M:
    """The recorded probe data ``name`` as ``model``: a recording of ``data_f/`` if ``record.py``
    knows the name, else the JSON file ``data/NAME``."""
    if name in recordings.SPECS:
        return model.model_validate(recordings.load(name))
    return model.model_validate(json.loads((DATA / name).read_text()))


def rerun(name: str) -> tuple[dict, dict]:
    """The recording ``name`` made again now with real torch (in-process), and as kept."""
    target, kwargs = recordings.SPECS[name]
    return recordings.run(target, kwargs), recordings.load(name)


def kept(name: str, current: dict) -> dict:
    """The JSON file ``data/NAME`` a snapshot draws, rewritten from ``current`` (what the probe
    says now) first when ``TUTOR_RECORD=1``."""
    path = DATA / name
    if os.environ.get("TUTOR_RECORD") == "1":
        path.write_text(json.dumps(current, indent=1) + "\n")
    return json.loads(path.read_text())


def drawn(widget: Widget) -> list[str]:
    """The rows a widget draws, trailing spaces dropped."""
    return [s.text.rstrip() for s in widget.render_lines(widget.region.reset_offset)]
