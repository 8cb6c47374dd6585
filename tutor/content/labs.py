"""The live labs: one row each, the one table every part of the tutor reads.

A row is everything about a lab: its name, title and chapter, its probe and data model, its
parameters (``Param``: what the probe is asked, with their defaults, bounds and help), what one
run may use (``Limits``) and on which runtime it runs. Lessons and drills check their lab names
against it; the UI opens a lab's screen from it, lists its title (menus, command palette) and
draws its controls from the parameters; `tutor lab NAME` takes its options from the same
parameters. The screen and the command make every run with ``Lab.call_for``, so the two cannot
drift apart. It is torch-free and imports nothing of its rows: every part is named as
``"module:attribute"`` and imported only when used. docs/internals.md has the checklist for
adding a lab.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, TypeVar

from tutor.content.lab_params import Param, Value, resolve
from tutor.probes import lab_defaults as d
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
    params: tuple[Param, ...] = ()
    """What the probe is asked, in the order the screen and ``--help`` show them."""
    check: str = ""
    """``tutor.probes.data_MODULE:function`` (torch-free) that refuses, with a ``ValueError``
    sentence, arguments that are fine one by one but not together (one value per rank), before
    any sandbox starts; called with the probe's arguments."""

    def param(self, key: str) -> Param:
        """The parameter ``key`` (KeyError if the lab has none)."""
        for param in self.params:
            if param.key == key:
                return param
        raise KeyError(f"the {self.name} lab has no parameter {key!r}")

    def preset(self, preset: Mapping[str, str] | None) -> tuple[dict[str, Value], dict[str, str]]:
        """Every parameter's value from a preset (a ``lab:`` link's query, a drill's ``setup``
        under ``also``), else its default; and, by key, a sentence for each preset value that
        could not be read (its default stands in)."""
        preset = preset or {}
        values: dict[str, Value] = {}
        problems: dict[str, str] = {}
        for param in self.params:
            text = preset.get(param.key) or (preset.get(param.also) if param.also else None)
            values[param.key] = param.value_of_default()
            if text is not None:
                try:
                    values[param.key] = param.parse_text(text)
                except ValueError as err:
                    problems[param.key] = str(err)
        return values, problems

    def call_for(self, values: Mapping[str, Value], **extra: Any) -> ProbeCall:
        """The run that ``values`` (by parameter key; a missing one is its default) ask for,
        once the row's ``check`` passes them (``ValueError`` with its sentence otherwise);
        ``extra`` goes to the probe as it is (what no control sets: a checkpoint to resume)."""
        kwargs = {
            p.probe_arg: values[p.key] if p.key in values else p.value_of_default()
            for p in self.params
        }
        kwargs.update(extra)
        if self.check:
            resolve(self.check)(**kwargs)
        return self.call(**kwargs)

    def call(self, **kwargs: Any) -> ProbeCall:
        """One run of the probe with ``kwargs`` (its own keywords): its limits and runtime."""
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
    *params: Param,
    runtime: str | None = None,
    limits_for: str = "",
    check: str = "",
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
        params=params,
        check=f"tutor.probes.{check}" if check else "",
    )


def _code(default: str, help: str, title: str, **more: Any) -> Param:
    """The code a lab runs: the command's argument, the screen's editor."""
    return Param(
        "code", "code", default, help, positional=True, metavar="CODE", title=title, **more
    )


#: every live lab, in the order menus list them
LABS: tuple[Lab, ...] = (
    _row(
        "stride", "Stride map", 1, "stride_map:stride_map", "data_stride_map:StrideMap",
        "StrideLab", Limits(10, 1024),
        Param("expr", "text", d.STRIDE_EXPR, "A tensor expression (names the setup binds are in scope).", positional=True, label="expression", title="tensor expression · enter runs", placeholder="a tensor expression", width="1fr"),
        Param("view", "text", "-1", "Try t.view(SHAPE).", label="view shape", title="try view(…)", placeholder="view shape", width="22"),
        Param("setup", "text", "", "Code to run first (names it binds are in scope).", control="none"),
    ),
    _row(
        "tape", "Autograd tape", 2, "tape:tape", "data_tape:Tape", "TapeLab", Limits(30, 1024),
        _code(d.TAPE_CODE, "Forward code ending in a scalar assigned to a name.", "forward code · the last assigned name is the scalar · ctrl+r runs", also="setup"),
    ),
    _row(
        "loop", "Training-loop debugger", 4, "loop_trace:trace", "data_loop_trace:LoopTrace",
        "LoopLab", Limits(60, 2048),
        Param("problem", "choice", "line", "What the loop fits (line: one batch, overfit).", choices=d.LOOP_PROBLEMS, label="problem"),
        Param("bug", "choice", "none", "The bug switched on.", choices=d.LOOP_BUGS, label="bug"),
        Param("lr", "float", None, "Learning rate (default: the problem's).", label="lr", placeholder="auto"),
        Param("steps", "int", None, "Number of steps (default 200).", label="steps", placeholder="auto"),
    ),
    _row(
        "ledger", "Parameter & memory ledger", 1, "ledger:ledger", "data_ledger:Ledger",
        "LedgerLab", Limits(20, 2048),
        Param("expr", "code", d.LEDGER_CODE, "A module (nn and torch in scope; the last line builds it).", arg="code", positional=True, metavar="MODULE_EXPR", label="module", title="module (last line builds it; ctrl+r counts)"),
        Param("batch", "int", 64, "Batch size of the forward pass.", label="batch"),
        Param("input_shape", "text", None, "One sample's shape, e.g. 784 or 3,32,32.", parse="tutor.probes.data_ledger:parse_shape", label="input shape (one sample)", placeholder="from 1st layer"),
    ),
    _row(
        "logits", "Cross-entropy logits", 4, "logits:logits", "data_logits:LogitsResult",
        "LogitsLab", Limits(10, 1024),
        Param("logits", "text", "2, 1, 0.1", "The logits.", parse="tutor.probes.data_logits:parse_logits", label="logits"),
        Param("target", "int", 0, "The target class.", arg="target_class", control="none"),
        Param("softmax_first", "flag", False, "Apply softmax before CrossEntropyLoss (the bug).", control="none"),
        check="data_logits:check",
    ),
    _row(
        "checkpoint", "Device & checkpoint", 4, "checkpoint:checkpoint",
        "data_checkpoint:Checkpoint", "CheckpointLab", Limits(30, 1024),
    ),
    _row(
        "loader", "DataLoader timeline", 5, "loader:loader", "data_loader:LoaderRun",
        "LoaderLab", Limits(120, 2048),
        Param("samples", "int", 10, "Items in the dataset.", low=1, high=d.LOADER_MAX_SAMPLES, label="samples", width="16"),
        Param("batch", "int", 3, "Items per batch.", low=1, high=d.LOADER_MAX_SAMPLES, label="batch", width="16"),
        Param("workers", "int", 0, "Worker processes (0: the main process loads).", low=0, high=d.LOADER_MAX_WORKERS, choices=tuple(range(d.LOADER_MAX_WORKERS + 1)), shown="{} workers", width="17"),
        Param("drop_last", "flag", False, "Drop a last batch smaller than --batch.", label="drop_last", width="auto"),
    ),
    _row(
        "guards", "Guard viewer", 6, "guards:guards", "data_guards:GuardReport", "GuardsLab",
        Limits(60, 2048),
        _code(d.GUARDS_CODE, "Code that defines `f` and `calls`, a list of argument tuples.", "define f and calls · ctrl+r compiles and calls", also="setup"),
        Param("backend", "choice", "eager", "The torch.compile backend.", choices=d.GUARDS_BACKENDS, control="none"),
        limits_for="data_guards:limits_for",
    ),
    _row(
        "graph", "Graph viewer", 7, "graph:graph", "data_graph:GraphView", "GraphLab",
        Limits(60, 2048),
        _code(d.GRAPH_CODE, "Code that defines `model` and `args`.", "define model and args · ctrl+r exports", also="setup"),
    ),
    _row(
        "race", "Dispatch race", 9, "race:race", "data_race:Race", "RaceLab", Limits(120, 2048),
        Param("n", "int", 256, "Batch size.", low=1, high=d.RACE_MAX_N, label="N", width="16"),
        Param("op", "choice", "linear", "The work both sides do.", choices=d.RACE_OPS, label="op", width="1fr"),
        Param("dim", "int", 64, "Features of each sample.", low=1, high=d.RACE_MAX_DIM, control="none"),
    ),
    _row(
        "ranks", "Rank timeline", 8, "ranks:ranks", "data_ranks:Ranks", "RanksLab",
        Limits(60, 2048),
        Param("world", "int", 4, "Ranks to start.", low=d.RANKS_MIN_WORLD, high=d.RANKS_MAX_WORLD, choices=tuple(range(d.RANKS_MIN_WORLD, d.RANKS_MAX_WORLD + 1)), shown="{} ranks", width="15"),
        Param("op", "choice", "all_reduce", "The collective.", choices=d.RANKS_OPS, width="20"),
        Param("values", "text", None, "One number per rank, e.g. 1,2,3,4 (default r + 1).", parse="tutor.probes.data_ranks:parse_values", label="values", title="values: one number per rank, e.g. 1,2,3,4", placeholder="rank r starts from r + 1", width="1fr"),
        Param("slow", "int", None, "A rank that works longer first.", arg="slow_rank", low=0, high=d.RANKS_MAX_WORLD - 1, choices=(None, *range(d.RANKS_MAX_WORLD)), shown="slow {}", width="15"),
        Param("delay_ms", "float", 300.0, "How much longer the slow rank works.", low=0, high=d.RANKS_MAX_DELAY_MS, control="none"),
        Param("skip", "int", None, "A rank that never calls the op.", arg="skip_rank", low=0, high=d.RANKS_MAX_WORLD - 1, choices=(None, *range(d.RANKS_MAX_WORLD)), shown="skip {}", width="15"),
        Param("timeout", "float", 2.0, "Seconds a rank waits in the collective.", arg="timeout_s", low=d.RANKS_MIN_TIMEOUT_S, high=d.RANKS_MAX_TIMEOUT_S, control="none"),
        check="data_ranks:check",
    ),
    _row(
        "bench", "Benchmark lab", 9, "bench:bench", "data_bench:Bench", "BenchLab",
        Limits(60, 2048),
        _code(d.BENCH_CODE, "Code that defines `fn`, a zero-argument callable.", "code (defines fn)"),
        Param("threads", "int", 1, "Threads the honest timer pins torch to.", low=1, high=d.BENCH_MAX_THREADS, label="threads", title="Timer threads"),
        limits_for="data_bench:limits_for",
    ),
    _row(
        "train", "Training run", 12, "train:train", "data_train:TrainRun", "TrainLab",
        Limits(30, 2048),
        Param("epochs", "int", 3, "Epochs to train.", low=1, high=d.TRAIN_MAX_EPOCHS, label="epochs", width="12"),
        Param("backend", "choice", "eager", "Eager torch, torch.compile, or torch_xla.", choices=d.TRAIN_BACKENDS, label="backend", width="20"),
        Param("config", "code", d.TRAIN_CONFIG, "Python that defines `model` (and optionally lr, batch_size, momentum, gamma).", label="config (Python)"),
        Param("seed", "int", 0, "The run's seed.", control="none"),
        limits_for="data_train:limits_for",
    ),
    _row(
        "bridges", "Two-bridge ledger", 10, "bridges:bridges", "data_bridges:Bridges",
        "BridgesLab", Limits(300, 8192),
        _code(d.BRIDGES_CODE, "Code that defines `model`, `args` and optionally `forward(model, *args)`.", "code"),
        runtime="xla",
    ),
    _row(
        "recompile", "Recompilation counter", 11, "recompile:recompile",
        "data_recompile:Recompile", "RecompileLab", Limits(300, 8192),
        Param("sizes", "text", d.RECOMPILE_SIZES, "The batch sizes the loop sees, in order, separated by commas.", parse="tutor.probes.data_recompile:parse_sizes", label="batch sizes", width="1fr"),
        Param("pad_to", "int", None, "Pad every batch to this many rows.", low=1, high=d.RECOMPILE_MAX_BATCH, label="pad to", placeholder="largest", width="14"),
        runtime="xla",
        check="data_recompile:check_sizes",
    ),
)  # fmt: skip

_BY_NAME = {lab.name: lab for lab in LABS}

#: the lab names, in table order
LAB_NAMES: tuple[str, ...] = tuple(_BY_NAME)


def get_lab(name: str) -> Lab:
    """The row of the lab ``name`` (KeyError if there is no such lab)."""
    return _BY_NAME[name]


__all__ = [
    "LABS",
    "LAB_NAMES",
    "Lab",
    "Limits",
    "Param",
    "ProbeCall",
    "Value",
    "get_lab",
    "resolve",
]
