"""The live labs: each name maps to the screen that draws it (imported on demand)."""

from __future__ import annotations

import importlib

from textual.screen import Screen

#: lab name -> "module:ScreenClass"
LABS: dict[str, str] = {
    "stride": "tutor.ui.labs.stride.screen:StrideLab",
    "tape": "tutor.ui.labs.tape.screen:TapeLab",
    "loop": "tutor.ui.labs.loop.screen:LoopLab",
    "ledger": "tutor.ui.labs.ledger.screen:LedgerLab",
    "logits": "tutor.ui.labs.logits.screen:LogitsLab",
    "checkpoint": "tutor.ui.labs.checkpoint.screen:CheckpointLab",
    "race": "tutor.ui.labs.race.screen:RaceLab",
}

#: lab name -> the title shown in menus and the command palette
LAB_TITLES: dict[str, str] = {
    "stride": "Stride map",
    "tape": "Autograd tape",
    "loop": "Training-loop debugger",
    "ledger": "Parameter & memory ledger",
    "logits": "Cross-entropy logits",
    "checkpoint": "Device & checkpoint",
    "race": "Dispatch race",
}


def lab_screen(name: str, preset: dict[str, str] | None = None) -> Screen:
    """A new screen for the lab ``name`` (KeyError if there is no such lab)."""
    module, cls = LABS[name].split(":")
    return getattr(importlib.import_module(module), cls)(preset=preset)
