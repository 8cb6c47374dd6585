"""The report behind ``tutor doctor``: per runtime, its torch, backends, containment layers
(active and missing, in plain words) and a self-test. Torch-free on this side."""

from __future__ import annotations

from tutor.sandbox.containment import LAYERS, missing_layers
from tutor.sandbox.runtimes import is_local, resolve_runtime
from tutor.sandbox.selftest import run_checks


def doctor_report(
    runtime: str | None = None, *, containment: str | None = None, selftest: bool = True
) -> dict:
    """Everything ``tutor doctor`` says about one runtime, as JSON-ready data."""
    from tutor.sandbox.supervisor import SandboxError
    from tutor.sandbox.sync import Sandbox

    command = resolve_runtime(runtime)
    report: dict = {"runtime": runtime or "default", "command": command, "ok": False}
    with Sandbox(runtime, containment=containment) as box:
        try:
            ready = box.start()
        except SandboxError as exc:
            report["error"] = str(exc)
            return report
        report |= {
            "torch": ready.get("torch"),
            "python": ready.get("python"),
            "executable": ready.get("executable"),
            "probe_errors": ready.get("probe_errors", {}),
        }
        layers = list(ready.get("layers", []))
        report["containment"] = {
            "active": layers,
            "described": [LAYERS.get(name, name) for name in layers],
            "missing": missing_layers(layers),
        }
        backends = box.call("tutor.probes.backends:report", timeout=60, memory_mb=8192)
        if backends.ok:
            report["backends"] = backends.value["backends"]
        else:
            report["backends"] = {}
            report["backends_error"] = backends.reason
        checks = run_checks(box.run, is_local(command)) if selftest else []
        report["selftest"] = [check.to_json() for check in checks]
    report["ok"] = backends.ok and all(check.ok for check in checks)
    return report
