"""`tutor doctor`: each runtime's torch and backends, the containment in force, and a self-test."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from tutor.content.wording import plural


def _backend_line(backends: dict[str, Any]) -> str:
    parts = []
    for name in ("cpu", "cuda", "mps", "xla", "torchax", "inductor"):
        info = backends.get(name, {})
        mark = "yes" if info.get("available") else "no"
        extra = []
        if name == "cuda" and info.get("available"):
            extra.append(plural(int(info.get("devices", 0)), "device"))
        if name == "xla" and (info.get("pjrt_device") or info.get("device_type")):
            extra.append(f"PJRT {info.get('device_type') or info.get('pjrt_device')}")
        if name == "inductor" and info.get("available"):
            extra.append(f"torch.compile with {info.get('compiler')}")
        if name in ("xla", "inductor") and not info.get("available") and info.get("detail"):
            extra.append(info["detail"])
        if info.get("version") and info.get("available"):
            extra.append(info["version"])
        parts.append(f"{name} {mark}" + (f" ({', '.join(extra)})" if extra else ""))
    return " | ".join(parts)


def _print_human(report: dict[str, Any]) -> None:
    click.echo(f"runtime {report['runtime']}: {' '.join(report['command'])}")
    if "error" in report:
        click.echo(f"  FAILED to start: {report['error']}")
        return
    click.echo(f"  torch {report.get('torch')} (Python {report.get('python')})")
    click.echo(f"  backends: {_backend_line(report.get('backends', {}))}")
    if report.get("backends_error"):
        click.echo(f"  backends probe failed: {report['backends_error']}")
    containment = report.get("containment", {})
    click.echo("  containment:")
    for line in containment.get("described", []):
        click.echo(f"    on   {line}")
    for line in containment.get("missing", []):
        click.echo(f"    MISSING  {line}")
    for module, error in (report.get("probe_errors") or {}).items():
        click.echo(f"  probe {module} does not import: {error}")
    if report.get("selftest"):
        click.echo("  self-test:")
        for check in report["selftest"]:
            click.echo(
                f"    {'pass' if check['ok'] else 'FAIL'}  {check['name']}: {check['detail']}"
            )


@click.command()
@click.option(
    "--runtime", default=None, help="Check only this runtime (a config name or a Python)."
)
@click.option(
    "--containment",
    type=click.Choice(["auto", "bwrap", "rlimits"]),
    default=None,
    help="Force a containment layer.",
)
@click.option("--no-selftest", is_flag=True, help="Skip the containment self-test.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def doctor(
    ctx: click.Context,
    runtime: str | None,
    containment: str | None,
    no_selftest: bool,
    as_json: bool,
) -> None:
    """Report runtimes, torch versions, backends, containment layers, and a self-test."""
    from tutor.sandbox.doctor import doctor_report
    from tutor.sandbox.runtimes import RuntimeNotFound, configured_runtimes

    if runtime is None and ctx.obj is not None:
        runtime = getattr(ctx.obj, "runtime", None)
    names: list[str | None] = [runtime] if runtime else [None]
    if not runtime:
        names += [name for name in configured_runtimes() if name != "default"]
    reports = []
    for name in names:
        try:
            report = doctor_report(name, containment=containment, selftest=not no_selftest)
        except RuntimeNotFound as exc:
            report = {"runtime": name, "command": [], "ok": False, "error": str(exc)}
        reports.append(report)
        if not as_json:
            _print_human(report)
    ok = all(report.get("ok") for report in reports)
    if as_json:
        click.echo(json.dumps({"ok": ok, "runtimes": reports}))
    sys.exit(0 if ok else 1)
