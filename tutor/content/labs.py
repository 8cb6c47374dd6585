"""The live labs: one row each, the one table every part of the tutor reads.

Lessons and drills check their lab names against it, the UI opens a lab's screen and lists its
title (menus, command palette) from it, and `tutor lab NAME` finds the headless command in it.
A row also says what one run of the lab's probe may use (its ``Limits``) and on which runtime
it runs: the screen and the command both make their runs with ``Lab.call``, so the two cannot
drift apart. It is torch-free and imports nothing of its rows: every part is named as
``"module:attribute"`` and imported only when used. docs/internals.md has the checklist for
adding a lab.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, TypeVar

from tutor.settings import runtime_limits

if TYPE_CHECKING:
    from pydantic import BaseModel

M = TypeVar("M", bound="BaseModel")


@dataclass(frozen=True)
class Limits:
    """What one run of a lab's probe may use in the sandbox."""

    timeout: float
    """Seconds of wall time."""
    memory_mb: int
    """Megabytes of memory."""
    profile: str | None = None
    """A limits profile whose floors apply too (``compile``); None: the runtime's own."""


@dataclass(frozen=True)
class Lab:
    """One live lab: where each of its parts lives, and how its probe runs."""

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
    limits: Limits
    """What one run of the probe may use, in the TUI and from the command line alike."""
    runtime: str | None = None
    """The runtime the probe needs (``xla``); None: the one the tutor was started on."""
    limits_for: str = ""
    """``tutor.probes.data_MODULE:function`` (torch-free) for a lab whose limits or runtime
    depend on what it is asked: called with the probe's arguments, it returns the fields of
    ``Limits`` to change and ``runtime`` to use instead (an empty dict: none)."""

    def call(self, **kwargs: Any) -> ProbeCall:
        """One run of the probe with ``kwargs``: its limits and runtime, as every caller
        (screen or command) makes it."""
        limits, runtime = self.limits, self.runtime
        if self.limits_for:
            changes = dict(resolve(self.limits_for)(**kwargs))
            runtime = changes.pop("runtime", runtime)
            limits = replace(limits, **changes)
        if limits.profile is None:
            limits = replace(limits, profile=runtime_limits(runtime))
        return ProbeCall(self, kwargs, limits, runtime)


@dataclass(frozen=True)
class ProbeCall:
    """One run of a lab's probe: what it is asked, under which limits, on which runtime."""

    lab: Lab
    """The lab whose probe runs."""
    kwargs: dict[str, Any] = field(default_factory=dict)
    """The probe's arguments (JSON values)."""
    limits: Limits = Limits(10.0, 1024)
    """What the run may use."""
    runtime: str | None = None
    """The runtime the run needs; None: the one the tutor was started on."""

    def options(self) -> dict[str, Any]:
        """The limits as ``Sandbox.call`` takes them (``timeout``, ``memory_mb``, ``profile``)."""
        out: dict[str, Any] = {"timeout": self.limits.timeout, "memory_mb": self.limits.memory_mb}
        if self.limits.profile is not None:
            out["profile"] = self.limits.profile
        return out

    def data(self, value: object, model: type[M]) -> M:
        """The probe's answer as ``model`` (the row's data model), every string stripped of
        terminal controls (it may quote the learner's code or torch's messages about it)."""
        from tutor.safe_text import strip_all

        return model.model_validate(strip_all(value))


def _row(
    name: str,
    title: str,
    chapter: int,
    probe: str,
    data: str,
    screen: str,
    limits: Limits,
    *,
    runtime: str | None = None,
    limits_for: str = "",
) -> Lab:
    """A row whose screen and command sit where the checklist puts them."""
    return Lab(
        name=name,
        title=title,
        chapter=chapter,
        probe=f"tutor.probes.{probe}",
        data=f"tutor.probes.{data}",
        screen=f"tutor.ui.labs.{name}.screen:{screen}",
        command=f"tutor.commands.labs.{name}:{name}",
        limits=limits,
        runtime=runtime,
        limits_for=f"tutor.probes.{limits_for}" if limits_for else "",
    )


#: every live lab, in the order menus list them
LABS: tuple[Lab, ...] = (
    _row("stride", "Stride map", 1, "stride_map:stride_map", "data_stride_map:StrideMap", "StrideLab", Limits(10, 1024)),
    _row("tape", "Autograd tape", 2, "tape:tape", "data_tape:Tape", "TapeLab", Limits(30, 1024)),
    _row("loop", "Training-loop debugger", 4, "loop_trace:trace", "data_loop_trace:LoopTrace", "LoopLab", Limits(60, 2048)),
    _row("ledger", "Parameter & memory ledger", 1, "ledger:ledger", "data_ledger:Ledger", "LedgerLab", Limits(20, 2048)),
    _row("logits", "Cross-entropy logits", 4, "logits:logits", "data_logits:LogitsResult", "LogitsLab", Limits(10, 1024)),
    _row("checkpoint", "Device & checkpoint", 4, "checkpoint:checkpoint", "data_checkpoint:Checkpoint", "CheckpointLab", Limits(30, 1024)),
    _row("loader", "DataLoader timeline", 5, "loader:loader", "data_loader:LoaderRun", "LoaderLab", Limits(120, 2048)),
    _row("guards", "Guard viewer", 6, "guards:guards", "data_guards:GuardReport", "GuardsLab", Limits(60, 2048), limits_for="data_guards:limits_for"),
    _row("graph", "Graph viewer", 7, "graph:graph", "data_graph:GraphView", "GraphLab", Limits(60, 2048)),
    _row("race", "Dispatch race", 9, "race:race", "data_race:Race", "RaceLab", Limits(120, 2048)),
    _row("ranks", "Rank timeline", 8, "ranks:ranks", "data_ranks:Ranks", "RanksLab", Limits(60, 2048)),
    _row("bench", "Benchmark lab", 9, "bench:bench", "data_bench:Bench", "BenchLab", Limits(60, 2048), limits_for="data_bench:limits_for"),
    _row("train", "Training run", 12, "train:train", "data_train:TrainRun", "TrainLab", Limits(30, 2048), limits_for="data_train:limits_for"),
    _row("bridges", "Two-bridge ledger", 10, "bridges:bridges", "data_bridges:Bridges", "BridgesLab", Limits(300, 8192), runtime="xla"),
    _row("recompile", "Recompilation counter", 11, "recompile:recompile", "data_recompile:Recompile", "RecompileLab", Limits(300, 8192), runtime="xla"),
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
