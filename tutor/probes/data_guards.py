"""The guard viewer's data: what ``torch.compile`` made of a function over a list of calls
(torch-free; filled by ``tutor.probes.guards``, drawn by the guards lab and ``tutor lab guards``)."""

from __future__ import annotations

from pydantic import BaseModel

from tutor.probes import lab_defaults as defaults

#: the backends the lab offers (inductor needs a C++ compiler and the ``compile`` limits)
BACKENDS = defaults.GUARDS_BACKENDS


def limits_for(backend: str = "eager", **_: object) -> dict[str, str]:
    """The sandbox limits for compiling with ``backend`` (the lab row's ``limits_for``): the
    ``compile`` profile for inductor (it writes and builds C++), else the row's."""
    return {"profile": "compile"} if backend == "inductor" else {}


class GraphBreak(BaseModel):
    """One graph break, as ``torch._dynamo.explain`` reports it."""

    reason: str
    """The first line of Dynamo's reason (``Failed to trace builtin operator``, ...)."""
    line: int | None
    """The line of the learner's code where the graph broke (1-based), if Dynamo says."""


class Recompile(BaseModel):
    """A call that compiled again, and the guard whose failure made it."""

    call: int
    """0-based index into ``calls``."""
    reason: str
    """The first failed guard: ``k == 2``, ``tensor 'x' size mismatch at index 0. ...``."""


class GuardReport(BaseModel):
    """Graphs, breaks, guards, recompiles and ops of one function compiled over its calls."""

    graphs: int
    """Graphs captured on the first call (``explain``'s ``graph_count``)."""
    graph_breaks: list[GraphBreak]
    guards: list[str]
    """The guard set installed by the first compile, one readable line per guard."""
    recompiles: list[Recompile]
    ops: list[list[str]]
    """The ops of each graph of the first call, by name (``sin``, ``mul``, ``relu``)."""
    compiles: int = 0
    """How many times the backend was handed a graph over all calls."""
    backend: str = "eager"
