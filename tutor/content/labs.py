"""The live labs: one row each, the one table every part of the tutor reads.

Lessons and drills check their lab names against it, the UI opens a lab's screen and lists its
title (menus, command palette) from it, and `tutor lab NAME` finds the headless command in it.
It is torch-free and imports nothing of its rows: every part is named as ``"module:attribute"``
and imported only when used. Adding a lab is adding its folder (``tutor/ui/labs/NAME/``), its
probe and data model (``tutor/probes/NAME.py``, ``tutor/probes/data_NAME.py``), its command
(``tutor/commands/labs/NAME.py``) and its row here; docs/internals.md has the checklist.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Lab:
    """One live lab and where each of its parts lives."""

    name: str
    """What lessons (``lab:NAME`` links, ``labs:``), drills (``lab:``) and ``tutor lab`` call it."""
    title: str
    """Shown in menus, the command palette and the lab's title bar."""
    chapter: int
    """The chapter that introduces it (``lessons/chapters.yaml`` lists it under that chapter)."""
    probe: str
    """``tutor.probes.MODULE:FUNCTION``: the runtime-side function that asks torch."""
    data: str
    """``tutor.probes.data_MODULE:Model``: the torch-free pydantic model the probe returns."""
    screen: str
    """``tutor.ui.labs.NAME.screen:Class``: the Textual screen that draws the data."""
    command: str
    """``tutor.commands.labs.NAME:function``: the click command behind ``tutor lab NAME``."""


def _row(name: str, title: str, chapter: int, probe: str, data: str, screen: str) -> Lab:
    """A row whose screen and command sit where the checklist puts them."""
    return Lab(
        name=name,
        title=title,
        chapter=chapter,
        probe=f"tutor.probes.{probe}",
        data=f"tutor.probes.{data}",
        screen=f"tutor.ui.labs.{name}.screen:{screen}",
        command=f"tutor.commands.labs.{name}:{name}",
    )


#: every live lab, in the order menus list them
LABS: tuple[Lab, ...] = (
    _row("stride", "Stride map", 1, "stride_map:stride_map", "data_stride_map:StrideMap", "StrideLab"),
    _row("tape", "Autograd tape", 2, "tape:tape", "data_tape:Tape", "TapeLab"),
    _row("loop", "Training-loop debugger", 4, "loop_trace:trace", "data_loop_trace:LoopTrace", "LoopLab"),
    _row("ledger", "Parameter & memory ledger", 1, "ledger:ledger", "data_ledger:Ledger", "LedgerLab"),
    _row("logits", "Cross-entropy logits", 4, "logits:logits", "data_logits:LogitsResult", "LogitsLab"),
    _row("checkpoint", "Device & checkpoint", 4, "checkpoint:checkpoint", "data_checkpoint:Checkpoint", "CheckpointLab"),
    _row("loader", "DataLoader timeline", 5, "loader:loader", "data_loader:LoaderRun", "LoaderLab"),
    _row("guards", "Guard viewer", 6, "guards:guards", "data_guards:GuardReport", "GuardsLab"),
    _row("graph", "Graph viewer", 7, "graph:graph", "data_graph:GraphView", "GraphLab"),
    _row("race", "Dispatch race", 9, "race:race", "data_race:Race", "RaceLab"),
    _row("ranks", "Rank timeline", 8, "ranks:ranks", "data_ranks:Ranks", "RanksLab"),
    _row("bench", "Benchmark lab", 9, "bench:bench", "data_bench:Bench", "BenchLab"),
    _row("train", "Training run", 12, "train:train", "data_train:TrainRun", "TrainLab"),
    _row("bridges", "Two-bridge ledger", 10, "bridges:bridges", "data_bridges:Bridges", "BridgesLab"),
    _row("recompile", "Recompilation counter", 11, "recompile:recompile", "data_recompile:Recompile", "RecompileLab"),
)  # fmt: skip

_BY_NAME = {lab.name: lab for lab in LABS}

#: the lab names, in table order
LAB_NAMES: tuple[str, ...] = tuple(_BY_NAME)


def get_lab(name: str) -> Lab:
    """The row of the lab ``name`` (KeyError if there is no such lab)."""
    return _BY_NAME[name]


def resolve(target: str) -> Any:
    """Import ``"module:attribute"`` and return the attribute (never for a probe: torch)."""
    module, attr = target.split(":")
    return getattr(importlib.import_module(module), attr)
