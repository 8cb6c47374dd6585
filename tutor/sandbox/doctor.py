"""The report behind ``tutor doctor``: per runtime, its torch, backends, containment layers
(active and missing, in plain words) and a self-test. Torch-free on this side.

``doctor_progress`` gathers it in a running ``AsyncSandbox`` (the doctor screen uses the app's
own) and yields the report as it grows; ``doctor_report`` starts a runtime of its own and
returns the whole report (the command)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from tutor.sandbox.containment import LAYERS, missing_layers
from tutor.sandbox.runtimes import is_local
from tutor.sandbox.selftest import check_names, run_check
from tutor.sandbox.supervisor import AsyncSandbox, SandboxError

#: what the report says while the runtime starts
STARTING = "starting the runtime (it imports torch)"
#: what the report says while the backends are asked for
BACKENDS = "asking the runtime for its backends"


async def doctor_progress(
    box: AsyncSandbox, runtime: str | None = None, *, selftest: bool = True
) -> AsyncIterator[dict[str, Any]]:
    """The report for the runtime ``box`` runs, yielded after each step completes.

    Each yielded dict is the report so far (a fresh copy): ``waiting`` says what is being done
    now and ``pending`` lists the self-test checks not run yet; the last one has neither.
    """
    report: dict[str, Any] = {"runtime": runtime or "default", "command": box.command}
    report |= {"ok": False, "waiting": STARTING}
    yield dict(report)
    try:
        ready = await box.start()
    except SandboxError as exc:
        report.pop("waiting")
        yield report | {"error": str(exc)}
        return
    layers = list(ready.get("layers", []))
    report |= {
        "torch": ready.get("torch"),
        "python": ready.get("python"),
        "executable": ready.get("executable"),
        "probe_errors": ready.get("probe_errors", {}),
        "containment": {
            "active": layers,
            "described": [LAYERS.get(name, name) for name in layers],
            "missing": missing_layers(layers),
        },
        "waiting": BACKENDS,
    }
    yield dict(report)
    backends = await box.call("tutor.probes.backends:report", timeout=60, memory_mb=8192)
    report["backends"] = backends.value["backends"] if backends.ok else {}
    if not backends.ok:
        report["backends_error"] = backends.reason
    local = is_local(box.command)
    names = check_names(local) if selftest else []
    report["selftest"] = []
    ok = backends.ok
    for done, name in enumerate(names):
        yield report | {"waiting": f"self-test: {name}", "pending": names[done:]}
        check = await run_check(name, box.run, local)
        report["selftest"] = [*report["selftest"], check.to_json()]
        ok = ok and check.ok
    report.pop("waiting")
    report["ok"] = ok
    yield report


def doctor_report(
    runtime: str | None = None, *, containment: str | None = None, selftest: bool = True
) -> dict[str, Any]:
    """Everything ``tutor doctor`` says about one runtime, as JSON-ready data (blocking: starts
    a runtime of its own and stops it)."""

    async def gather() -> dict[str, Any]:
        async with AsyncSandbox(runtime, containment=containment) as box:
            steps = [step async for step in doctor_progress(box, runtime, selftest=selftest)]
        return steps[-1]

    return asyncio.run(gather())
