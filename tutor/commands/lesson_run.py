"""Run a lesson's snippets in the sandbox; record their output, or check it for drift.

A lesson (see docs/internals.md, "Lesson files") holds runnable snippets: fenced blocks whose
info string is ``python run``. Each one's recorded output is the ``output`` fence right after it
(blank lines between are allowed). The blocks come from ``tutor.content.lesson_text``; each
snippet runs alone in a fresh sandbox run, and its output is either written back (``record``,
through ``tutor.content.lesson_outputs``, which touches no other byte) or compared with what is
written (``check``).

A snippet declaring a runtime (``python run runtime=xla``, or ``runtime: xla`` in the front
matter) runs on that runtime (a ``SandboxPool`` starts each one once); where it is not built the
snippet is skipped with the reason, a drift only where the runtime is required
(``TUTOR_REQUIRE_XLA=1``).

The recorded output of a run is its stdout, plus a last line ``ExceptionType: message`` when it
raised, so a lesson can show a real error (``tutor.content.lesson_outputs.recorded_output``, which
the lesson screen uses too). Outputs are compared after removing trailing whitespace (per line,
and trailing blank lines): that is the only normalisation.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from tutor.content.lesson_outputs import (
    apply_outputs,
    normalise,
    recorded_output,
    recorded_torch_version,
    set_torch_version,
    short_diff,
)
from tutor.content.lesson_text import (
    LessonText,
    SnippetBlock,
    front_matter_defaults,
    parse_lesson_text,
)
from tutor.sandbox.pool import SandboxPool
from tutor.sandbox.result import RunResult, Status
from tutor.sandbox.runtimes import RuntimeNotBuilt, RuntimeNotFound, required
from tutor.settings import runtime_limits

if TYPE_CHECKING:
    from tutor.sandbox.sync import Sandbox

#: defaults for one snippet run (a lesson snippet is small; a cold torch op may take a moment)
SNIPPET_TIMEOUT = 20.0
SNIPPET_MEMORY_MB = 2048

_VERSION_CODE = "print(torch.__version__)"


class Runner(Protocol):
    """What the tool needs from a sandbox (``tutor.sandbox.Sandbox`` fits)."""

    def run(
        self, code: str, *, timeout: float = ..., memory_mb: int = ..., profile: str | None = ...
    ) -> RunResult: ...


@dataclass
class Drift:
    """A snippet whose fresh output differs from the recorded one (or has none recorded)."""

    file: str
    line: int
    message: str
    recorded: str | None
    actual: str | None
    diff: str = ""

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class LessonReport:
    """What checking or recording one lesson found."""

    file: str
    snippets: int = 0
    drifts: list[Drift] = field(default_factory=list)
    recorded: int = 0
    """how many output blocks ``record`` wrote or changed"""
    changed: bool = False
    torch: str | None = None
    """the torch version named in the front matter (the one that recorded the outputs)"""
    runtime: str | None = None
    """the runtime the front matter names (None: the default runtime)"""
    ran: str | None = None
    """the torch version of that runtime now (``check``; None when it is not built)"""
    skipped: list[str] = field(default_factory=list)
    """``file:line needs the xla runtime: ...`` for each snippet whose runtime is not built"""

    @property
    def ok(self) -> bool:
        return not self.drifts

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "ok": self.ok}


# --- outputs ------------------------------------------------------------------------------------


class SnippetRunError(Exception):
    """A snippet could not produce an output to record (timeout, crash, sandbox failure)."""


def output_of(result: RunResult) -> str:
    """The recordable output of a run (``recorded_output``); a run with none raises
    ``SnippetRunError`` with the reason."""
    out = recorded_output(result)
    if out is not None:
        return out
    if result.status is Status.error:
        raise SnippetRunError(f"snippet failed without an exception: {result.reason}")
    raise SnippetRunError(f"snippet did not finish: {result.reason or result.status.value}")


def run_snippet(
    runner: Runner,
    code: str,
    *,
    timeout: float = SNIPPET_TIMEOUT,
    memory_mb: int = SNIPPET_MEMORY_MB,
    profile: str | None = None,
) -> str:
    """Run one snippet alone in a fresh sandbox run and return its recordable output;
    ``profile`` is its limits profile (``limits=compile``), None for the default."""
    return output_of(runner.run(code, timeout=timeout, memory_mb=memory_mb, profile=profile))


def runtime_torch_version(runner: Runner) -> str:
    """The torch version of the sandbox runtime (the one that produces the outputs)."""
    result = runner.run(_VERSION_CODE, timeout=SNIPPET_TIMEOUT, memory_mb=SNIPPET_MEMORY_MB)
    if not result.ok:
        raise SnippetRunError(f"could not read the runtime's torch version: {result.reason}")
    return result.stdout.strip()


# --- the two operations ---------------------------------------------------------------------------


def _display(path: Path, root: Path | None) -> str:
    if root is not None:
        try:
            return str(path.resolve().relative_to(root.resolve()))
        except ValueError:
            pass
    return str(path)


def check_lesson(
    path: Path,
    runner: Sandbox | SandboxPool,
    *,
    root: Path | None = None,
    version: str | None = None,
    timeout: float = SNIPPET_TIMEOUT,
    memory_mb: int = SNIPPET_MEMORY_MB,
) -> LessonReport:
    """Re-run every snippet of one lesson and compare with its recorded output; ``version``
    is the default runtime's torch when the caller knows it (the report's ``ran`` names the
    torch of the lesson's own runtime)."""
    name = _display(path, root)
    text = path.read_text(encoding="utf-8")
    doc = parse_lesson_text(text)
    blocks = doc.snippets
    report = LessonReport(
        file=name,
        snippets=len(blocks),
        torch=recorded_torch_version(text),
        runtime=front_matter_defaults(doc).get("runtime"),
    )
    report.drifts += _unclosed(name, doc)
    with _Runners(runner) as runners:
        for block in blocks:
            box = runners.get(name, block, report)
            if box is not None:
                report.drifts += _check_block(
                    name, block, box, timeout=timeout, memory_mb=memory_mb
                )
        if blocks:
            report.ran = runners.torch_of(report.runtime, version)
    return report


def check_snippet(
    path: Path,
    line: int,
    runner: Sandbox | SandboxPool,
    *,
    root: Path | None = None,
    timeout: float = SNIPPET_TIMEOUT,
    memory_mb: int = SNIPPET_MEMORY_MB,
) -> list[Drift]:
    """Re-run the one snippet whose code fence is on ``line`` (1-based) and compare."""
    name = _display(path, root)
    for block in parse_lesson_text(path.read_text(encoding="utf-8")).snippets:
        if block.line == line:
            report = LessonReport(file=name)
            with _Runners(runner) as runners:
                box = runners.get(name, block, report)
                if box is not None:
                    report.drifts += _check_block(
                        name, block, box, timeout=timeout, memory_mb=memory_mb
                    )
            return report.drifts
    raise KeyError(f"{name}:{line}: no `python run` snippet starts on this line")


def _profile(block: SnippetBlock) -> str | None:
    """The snippet's limits profile: its own, else its runtime's (``compile`` on xla)."""
    return block.limits or runtime_limits(block.runtime)


class _Runners:
    """The runner of each snippet's runtime: a ``SandboxPool`` as given, or one around a plain
    runner (the default runtime's), whose other sandboxes close with it."""

    def __init__(self, runner: Sandbox | SandboxPool) -> None:
        self.made = not isinstance(runner, SandboxPool)
        self.pool: SandboxPool = (
            runner if isinstance(runner, SandboxPool) else SandboxPool(given={None: runner})
        )

    def torch_of(self, named: str | None, default: str | None) -> str | None:
        """The torch a lesson's front matter names: that of the runtime its ``runtime:`` names
        (``named``); ``default``, the default runtime's when the caller knows it, for a lesson
        that names none; None when the lesson's runtime is not built."""
        if named is None and default is not None:
            return default
        try:
            return runtime_torch_version(self.pool.get(named))
        except (RuntimeNotBuilt, RuntimeNotFound):
            return None

    def get(self, name: str, block: SnippetBlock, report: LessonReport) -> Runner | None:
        """The snippet's runner, or None when its runtime is not built (noted in ``report``)."""
        try:
            return self.pool.get(block.runtime)
        except RuntimeNotBuilt as exc:
            if required(exc.name):
                flag = f"TUTOR_REQUIRE_{exc.name.upper()}=1"
                report.drifts.append(Drift(name, block.line, f"{exc.needs} ({flag})", None, None))
            else:
                report.skipped.append(f"{name}:{block.line} {exc.needs}")
        except RuntimeNotFound as exc:
            report.drifts.append(Drift(name, block.line, str(exc), None, None))
        return None

    def __enter__(self) -> _Runners:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.made:
            self.pool.close()


def _unclosed(name: str, doc: LessonText) -> list[Drift]:
    """A fence that never closes hides the rest of the lesson: report it."""
    return [Drift(name, line, message, None, None) for line, message in doc.problems]


def _check_block(
    name: str, block: SnippetBlock, runner: Runner, *, timeout: float, memory_mb: int
) -> list[Drift]:
    recorded = normalise(block.output)
    try:
        actual = run_snippet(
            runner, block.code, timeout=timeout, memory_mb=memory_mb, profile=_profile(block)
        )
    except SnippetRunError as exc:
        return [Drift(name, block.line, str(exc), recorded, None)]
    if recorded is None:
        msg = "snippet has no recorded output (run `tutor lesson record`)"
        return [Drift(name, block.line, msg, None, actual)]
    if recorded != actual:
        diff = short_diff(recorded, actual)
        return [Drift(name, block.line, "snippet output drifted", recorded, actual, diff)]
    return []


def record_lesson(
    path: Path,
    runner: Sandbox | SandboxPool,
    *,
    root: Path | None = None,
    version: str | None = None,
    timeout: float = SNIPPET_TIMEOUT,
    memory_mb: int = SNIPPET_MEMORY_MB,
) -> LessonReport:
    """Run every snippet of one lesson and write the outputs (and the torch version) back.

    A snippet that cannot finish (timeout, crash) is reported and its block left as it was.
    """
    name = _display(path, root)
    raw = path.read_bytes()
    text = raw.decode("utf-8")
    doc = parse_lesson_text(text)
    blocks = doc.snippets
    report = LessonReport(file=name, snippets=len(blocks))
    if doc.problems:  # never write into a file whose fences do not close
        report.drifts += _unclosed(name, doc)
        return report
    outputs: dict[int, str] = {}
    with _Runners(runner) as runners:
        for block in blocks:
            box = runners.get(name, block, report)
            if box is None:
                continue
            try:
                actual = run_snippet(
                    box, block.code, timeout=timeout, memory_mb=memory_mb, profile=_profile(block)
                )
            except SnippetRunError as exc:
                report.drifts.append(
                    Drift(name, block.line, str(exc), normalise(block.output), None)
                )
                continue
            outputs[block.open_idx] = actual
            if normalise(block.output) != actual:
                report.recorded += 1
        if blocks:
            version = runners.torch_of(front_matter_defaults(doc).get("runtime"), version)
    new = apply_outputs(text, outputs)
    if blocks and version:
        new = set_torch_version(new, version)
    if new != text:
        path.write_bytes(new.encode("utf-8"))
        report.changed = True
    return report


def lesson_files(root: Path) -> list[Path]:
    """Every lesson file (``lessons/NN-*.md``) under the project root, in chapter order."""
    return sorted((root / "lessons").glob("[0-9][0-9]-*.md"))


def resolve_lessons(targets: Iterable[str], root: Path) -> list[Path]:
    """Turn ``CHAPTER`` numbers and paths into lesson files (all lessons when empty)."""
    targets = list(targets)
    if not targets:
        return lesson_files(root)
    found: list[Path] = []
    for target in targets:
        if target.isdigit():
            matches = sorted((root / "lessons").glob(f"{int(target):02d}-*.md"))
            if not matches:
                raise FileNotFoundError(f"no lesson for chapter {target} in {root / 'lessons'}")
            found.extend(matches)
        else:
            path = Path(target)
            if not path.is_file():
                raise FileNotFoundError(f"no such lesson file: {target}")
            found.append(path)
    return found
