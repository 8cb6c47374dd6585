"""`tutor pack check --watch`: check, then re-check on every save only the drills that changed.

The folders holding the named packs are watched (editors often save by writing a new file and
renaming it over the old one, so watching the file itself would lose it). A saved pack is
loaded again; a drill is re-run in the sandbox when it is new or any of its keys changed, and
every drill of the pack is when a key of the pack that reaches them changed (``pack``,
``torch``, ``regression_seeds``). The sandbox stays up between checks.
"""

from __future__ import annotations

import json
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from tutor.content.problems import errors
from tutor.content.wording import plural

if TYPE_CHECKING:
    from tutor.content.models import Pack
    from tutor.content.problems import Problem
    from tutor.sandbox.pool import SandboxPool

#: how long (ms) to wait for more changes before a check: an editor's save is several events
DEBOUNCE_MS = 300


def fingerprints(pack: Pack) -> dict[str, str]:
    """Drill id -> its content as JSON, plus ``""`` -> the pack keys every drill depends on."""
    prints = {d.id: d.model_dump_json() for d in pack.drills}
    prints[""] = json.dumps([pack.pack, pack.torch, pack.regression_seeds])
    return prints


def changed_drills(before: dict[str, str] | None, after: dict[str, str]) -> list[str]:
    """The ids of the drills to check again, in file order."""
    drills = [d for d in after if d]
    if before is None or before.get("") != after[""]:
        return drills
    return [d for d in drills if before.get(d) != after[d]]


def _files(targets: list[Path]) -> dict[Path, Path]:
    """The pack files of ``targets`` now (a folder may have gained one): resolved -> as named."""
    from tutor.content.sources import expand

    return {f.resolve(): f for t in targets if t.exists() for f in expand(t)}


def _roots(targets: list[Path]) -> list[Path]:
    """The folders to watch: each named folder, and the folder of each named file."""
    roots = {(t if t.is_dir() else t.parent).resolve() for t in targets}
    return sorted(r for r in roots if r.is_dir())


class Watcher:
    """The state of a watch: the last good fingerprints of each pack file, and the printer."""

    def __init__(self, ctx: click.Context, targets: list[Path], **options: Any) -> None:
        self.ctx = ctx
        self.targets = targets
        self.as_json: bool = options["as_json"]
        self.no_run: bool = options["no_run"]
        self.sweep: dict[str, Any] = options["sweep"]
        self.known: dict[Path, dict[str, str]] = {}
        self.sandbox: SandboxPool | None = None

    def first(self) -> None:
        """The full check of every target, as ``tutor pack check`` runs it."""
        from tutor.commands.pack_run import report_check, run_check

        packs, problems, sweeps, skipped = run_check(
            self.ctx, self.targets, no_run=self.no_run, sweep=self.sweep, pool=self.sandbox
        )
        for pack in packs:
            if pack.source is not None:
                self.known[Path(pack.source).resolve()] = fingerprints(pack)
        report_check(packs, problems, as_json=self.as_json, skipped=skipped, sweeps=sweeps)

    def again(self, file: Path) -> None:
        """Check one saved pack file: the schema, then only its changed drills."""
        from tutor.commands.context import settings_of
        from tutor.content.loader import load_pack_located
        from tutor.content.pack_lint import check_paths

        packs, problems = check_paths([file], settings_of(self.ctx))
        checked: list[str] = []
        sweeps: list[Any] = []
        if packs:
            pack, locator = load_pack_located(file)
            prints = fingerprints(pack)
            checked = changed_drills(self.known.get(file.resolve()), prints)
            self.known[file.resolve()] = prints
            if checked and not self.no_run:
                sweeps, found = self._run(pack, locator, checked)
                problems += found
        self._report(file, checked, problems, sweeps, loaded=bool(packs))

    def _run(self, pack: Pack, locator: Any, ids: list[str]) -> tuple[list[Any], list[Problem]]:
        from tutor.grading.packcheck import run_checks
        from tutor.grading.sweep import regression_only, sweep_pack, sweep_seeds

        assert self.sandbox is not None
        problems = run_checks(pack, locator, self.sandbox, only=ids)
        broken = {p.field.split(".")[0] for p in problems}
        skip = [i for i in range(len(pack.drills)) if f"drills[{i}]" in broken]
        trials, seed, budget = self.sweep["trials"], self.sweep["seed"], self.sweep["budget"]
        if trials is None:
            sweeps, more = sweep_pack(pack, locator, self.sandbox, regression_only,
                                      budget=budget, answers=False, only=ids, skip=skip)  # fmt: skip
            sweeps = []
        else:
            seeds_of = lambda p, d: sweep_seeds(p, d, trials, seed)  # noqa: E731
            sweeps, more = sweep_pack(pack, locator, self.sandbox, seeds_of,
                                      budget=budget, only=ids, skip=skip)  # fmt: skip
        return sweeps, problems + more

    def _report(self, file: Path, checked: list[str], problems: list[Problem], sweeps: list[Any],
                *, loaded: bool) -> None:  # fmt: skip
        from tutor.commands.pack_run import report_sweep

        refused = errors(problems)
        if self.as_json:
            data = {"file": str(file), "loaded": loaded, "checked": checked, "ok": not refused,
                    "problems": [p.to_dict() for p in problems]}  # fmt: skip
            if self.sweep["trials"] is not None:
                data["sweep"] = [s.to_dict() for s in sweeps]
            click.echo(json.dumps(data))
            sys.stdout.flush()
            return
        stamp = time.strftime("%H:%M:%S")
        what = ", ".join(checked) if checked else "no drill changed"
        if not loaded:
            what = "does not load: nothing was run (the problems below)"
        click.echo(f"[{stamp}] {file}: {what}")
        if sweeps:
            report_sweep(sweeps)
        for problem in problems:
            click.echo(str(problem), err=True)
        click.echo(f"{plural(len(refused), 'problem')}" if refused else "ok")
        sys.stdout.flush()


def watch_packs(ctx: click.Context, targets: list[Path], **options: Any) -> None:
    """Check ``targets``, then check again whatever changes until interrupted (Ctrl-C)."""
    import watchfiles

    roots = _roots(targets)
    if not roots:
        raise click.UsageError("nothing to watch: name pack files or folders that exist")
    watcher = Watcher(ctx, targets, **options)
    with ExitStack() as stack:
        if not watcher.no_run:
            from tutor.commands.context import open_pool

            watcher.sandbox = stack.enter_context(open_pool(ctx))
        changes = watchfiles.watch(
            *roots, debounce=DEBOUNCE_MS, rust_timeout=200, yield_on_timeout=True
        )
        try:
            next(changes)  # the watch is set up: nothing saved from now on is missed
            watcher.first()
            _say(watcher, {"watching": [str(r) for r in roots]},
                 f"watching {', '.join(map(str, roots))} (Ctrl-C stops)")  # fmt: skip
            for batch in changes:
                files = _files(targets)
                for file in sorted({Path(p).resolve() for _c, p in batch} & files.keys()):
                    watcher.again(files[file])
        except KeyboardInterrupt:
            _say(watcher, {"stopped": True}, "stopped watching")


def _say(watcher: Watcher, data: dict[str, Any], text: str) -> None:
    if watcher.as_json:
        click.echo(json.dumps(data))
    else:
        click.echo(text, err=True)
    sys.stdout.flush()
