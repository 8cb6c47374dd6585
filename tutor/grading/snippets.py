"""Run a lesson's snippets in the sandbox; record their output, or check it for drift.

A lesson (see docs/internals.md, "Lesson files") holds runnable snippets: fenced blocks whose
info string is ``python run``. Each one's recorded output is the ``output`` fence right after it
(blank lines between are allowed). This module finds those blocks by line, runs each snippet
alone in a fresh sandbox run, and either writes the output back (``record``) or compares it with
what is written (``check``). Nothing else in the file is touched: every other line, its line
ending included, stays byte-identical.

The recorded output of a run is its stdout, plus a last line ``ExceptionType: message`` when it
raised, so a lesson can show a real error. Outputs are compared after removing trailing
whitespace (per line, and trailing blank lines): that is the only normalisation.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from tutor.sandbox.result import RunResult, Status

RUN_INFO = "python run"
OUTPUT_INFO = "output"

#: defaults for one snippet run (a lesson snippet is small; a cold torch op may take a moment)
SNIPPET_TIMEOUT = 20.0
SNIPPET_MEMORY_MB = 2048

_FENCE_OPEN = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})(?P<info>[^`]*?)\s*$")
_TORCH_LINE = re.compile(r"^torch\s*:.*$")
_VERSION_CODE = "print(torch.__version__)"


class Runner(Protocol):
    """What the tool needs from a sandbox (``tutor.sandbox.Sandbox`` fits)."""

    def run(self, code: str, *, timeout: float = ..., memory_mb: int = ...) -> RunResult: ...


@dataclass
class SnippetBlock:
    """One ``python run`` block of a lesson file and its ``output`` block, located by line.

    Line numbers are 0-based indexes into the file's lines (``line`` is 1-based, for people).
    """

    code: str
    open_idx: int
    """index of the code fence's opening line"""
    close_idx: int
    """index of the code fence's closing line"""
    output: str | None = None
    output_open_idx: int | None = None
    output_close_idx: int | None = None

    @property
    def line(self) -> int:
        """The 1-based line of the code fence (what messages name)."""
        return self.open_idx + 1


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

    def as_dict(self) -> dict:
        return {
            "file": self.file,
            "line": self.line,
            "message": self.message,
            "recorded": self.recorded,
            "actual": self.actual,
            "diff": self.diff,
        }


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

    @property
    def ok(self) -> bool:
        return not self.drifts

    def as_dict(self) -> dict:
        return {
            "file": self.file,
            "snippets": self.snippets,
            "ok": self.ok,
            "recorded": self.recorded,
            "changed": self.changed,
            "torch": self.torch,
            "drifts": [d.as_dict() for d in self.drifts],
        }


# --- parsing ------------------------------------------------------------------------------------


def _split_lines(text: str) -> list[str]:
    """Lines with their endings kept (so joining them gives the text back, byte for byte)."""
    return text.splitlines(keepends=True)


def _bare(line: str) -> str:
    return line.rstrip("\r\n")


def _find_close(lines: list[str], start: int, fence: str) -> int | None:
    """The index of the line closing a fence opened with ``fence``, searching from ``start``."""
    char, n = fence[0], len(fence)
    closing = re.compile(rf"^ {{0,3}}{re.escape(char)}{{{n},}}\s*$")
    for i in range(start, len(lines)):
        if closing.match(_bare(lines[i])):
            return i
    return None


def front_matter_span(lines: list[str]) -> tuple[int, int] | None:
    """``(open, close)`` indexes of the ``---`` lines around the front matter, if any."""
    if not lines or _bare(lines[0]).strip() != "---":
        return None
    for i in range(1, len(lines)):
        if _bare(lines[i]).strip() in ("---", "..."):
            return (0, i)
    return None


def parse_snippets(text: str) -> list[SnippetBlock]:
    """Every ``python run`` block of a lesson's text, with its recorded ``output`` block."""
    lines = _split_lines(text)
    span = front_matter_span(lines)
    i = span[1] + 1 if span else 0
    blocks: list[SnippetBlock] = []
    pending: SnippetBlock | None = None  # a snippet still looking for its output block
    while i < len(lines):
        bare = _bare(lines[i])
        m = _FENCE_OPEN.match(bare)
        if not m:
            if bare.strip():
                pending = None  # prose between a snippet and a fence: that fence is not its output
            i += 1
            continue
        fence, info = m.group("fence"), m.group("info").strip()
        close = _find_close(lines, i + 1, fence)
        if close is None:  # an unclosed fence runs to the end of the file (CommonMark)
            close = len(lines)
        body = "".join(lines[i + 1 : close])
        if info.split() == RUN_INFO.split():
            pending = SnippetBlock(code=body, open_idx=i, close_idx=close)
            blocks.append(pending)
        elif info.split() == [OUTPUT_INFO] and pending is not None:
            pending.output = body
            pending.output_open_idx, pending.output_close_idx = i, close
            pending = None
        else:
            pending = None
        i = close + 1
    return blocks


# --- outputs ------------------------------------------------------------------------------------


def normalise(text: str | None) -> str | None:
    """Trailing whitespace removed from every line, and trailing blank lines dropped."""
    if text is None:
        return None
    return "\n".join(line.rstrip() for line in text.splitlines()).rstrip("\n")


class SnippetRunError(Exception):
    """A snippet could not produce an output to record (timeout, crash, sandbox failure)."""


def output_of(result: RunResult) -> str:
    """The recordable output of a run: stdout, then ``Type: message`` if it raised."""
    if result.status not in (Status.ok, Status.error):
        reason = result.reason or result.status.value
        raise SnippetRunError(f"snippet did not finish: {reason}")
    out = result.stdout
    if result.status is Status.error:
        exc = result.exception
        if exc is None:
            raise SnippetRunError(f"snippet failed without an exception: {result.reason}")
        if out and not out.endswith("\n"):
            out += "\n"
        out += f"{exc.type}: {exc.message}" if exc.message else exc.type
    return normalise(out) or ""


def run_snippet(
    runner: Runner,
    code: str,
    *,
    timeout: float = SNIPPET_TIMEOUT,
    memory_mb: int = SNIPPET_MEMORY_MB,
) -> str:
    """Run one snippet alone in a fresh sandbox run and return its recordable output."""
    return output_of(runner.run(code, timeout=timeout, memory_mb=memory_mb))


def runtime_torch_version(runner: Runner) -> str:
    """The torch version of the sandbox runtime (the one that produces the outputs)."""
    result = runner.run(_VERSION_CODE, timeout=SNIPPET_TIMEOUT, memory_mb=SNIPPET_MEMORY_MB)
    if not result.ok:
        raise SnippetRunError(f"could not read the runtime's torch version: {result.reason}")
    return result.stdout.strip()


def short_diff(recorded: str, actual: str, *, limit: int = 12) -> str:
    """A unified diff of recorded vs actual output, cut to ``limit`` lines."""
    lines = list(
        difflib.unified_diff(
            recorded.splitlines(), actual.splitlines(), "recorded", "actual", lineterm="", n=1
        )
    )
    if len(lines) > limit:
        lines = lines[:limit] + [f"... ({len(lines) - limit} more diff lines)"]
    return "\n".join(lines)


# --- writing ------------------------------------------------------------------------------------


def _eol(lines: list[str], idx: int) -> str:
    """The line ending used at ``idx`` (or the file's first one; ``\\n`` by default)."""
    for line in [lines[idx]] if 0 <= idx < len(lines) else []:
        if line.endswith("\r\n"):
            return "\r\n"
        if line.endswith("\n"):
            return "\n"
    for line in lines:
        if line.endswith("\r\n"):
            return "\r\n"
        if line.endswith("\n"):
            return "\n"
    return "\n"


def _fence_for(output: str) -> str:
    """A backtick fence longer than any backtick run inside ``output``."""
    longest = max((len(m) for m in re.findall(r"`+", output)), default=0)
    return "`" * max(3, longest + 1)


def _output_lines(output: str, eol: str) -> list[str]:
    fence = _fence_for(output)
    body = [line + eol for line in output.split("\n")] if output else []
    return [f"{fence}{OUTPUT_INFO}{eol}", *body, f"{fence}{eol}"]


def apply_outputs(text: str, outputs: dict[int, str]) -> str:
    """Write ``outputs`` (snippet fence index -> output) into ``text``, touching nothing else.

    A snippet's existing ``output`` block is replaced; a snippet without one gets a new block on
    the line after its closing fence. Blocks whose content is already equal are left as written.
    """
    lines = _split_lines(text)
    blocks = {b.open_idx: b for b in parse_snippets(text)}
    # edit from the bottom up so earlier indexes stay valid
    for open_idx in sorted(outputs, reverse=True):
        block = blocks[open_idx]
        output = outputs[open_idx]
        if block.output is not None and normalise(block.output) == normalise(output):
            continue
        eol = _eol(lines, block.close_idx)
        new = _output_lines(output, eol)
        if block.output_open_idx is not None and block.output_close_idx is not None:
            lines[block.output_open_idx : block.output_close_idx + 1] = new
        else:
            at = block.close_idx + 1
            if at > len(lines):  # unclosed code fence at the end of the file
                at = len(lines)
            if at == len(lines) and lines and not lines[-1].endswith(("\n", "\r")):
                lines[-1] += eol
            lines[at:at] = new
    return "".join(lines)


def recorded_torch_version(text: str) -> str | None:
    """The ``torch:`` field of the front matter (unquoted), or None when there is none."""
    lines = _split_lines(text)
    span = front_matter_span(lines)
    if span is None:
        return None
    for i in range(span[0] + 1, span[1]):
        bare = _bare(lines[i])
        if _TORCH_LINE.match(bare):
            return bare.split(":", 1)[1].strip().strip("\"'") or None
    return None


def set_torch_version(text: str, version: str) -> str:
    """Set the front matter's ``torch:`` field to ``version``, touching no other line."""
    lines = _split_lines(text)
    span = front_matter_span(lines)
    value = f'torch: "{version}"'
    if span is None:
        eol = _eol(lines, 0)
        return "".join([f"---{eol}", f"{value}{eol}", f"---{eol}", *lines])
    start, end = span
    for i in range(start + 1, end):
        if _TORCH_LINE.match(_bare(lines[i])):
            eol = lines[i][len(_bare(lines[i])) :]
            if _bare(lines[i]) != value:
                lines[i] = value + eol
            return "".join(lines)
    lines.insert(end, value + _eol(lines, end))
    return "".join(lines)


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
    runner: Runner,
    *,
    root: Path | None = None,
    timeout: float = SNIPPET_TIMEOUT,
    memory_mb: int = SNIPPET_MEMORY_MB,
) -> LessonReport:
    """Re-run every snippet of one lesson and compare with its recorded output."""
    name = _display(path, root)
    text = path.read_text(encoding="utf-8")
    blocks = parse_snippets(text)
    report = LessonReport(file=name, snippets=len(blocks), torch=recorded_torch_version(text))
    for block in blocks:
        report.drifts.extend(
            _check_block(name, block, runner, timeout=timeout, memory_mb=memory_mb)
        )
    return report


def check_snippet(
    path: Path,
    line: int,
    runner: Runner,
    *,
    root: Path | None = None,
    timeout: float = SNIPPET_TIMEOUT,
    memory_mb: int = SNIPPET_MEMORY_MB,
) -> list[Drift]:
    """Re-run the one snippet whose code fence is on ``line`` (1-based) and compare."""
    name = _display(path, root)
    for block in parse_snippets(path.read_text(encoding="utf-8")):
        if block.line == line:
            return _check_block(name, block, runner, timeout=timeout, memory_mb=memory_mb)
    raise KeyError(f"{name}:{line}: no `python run` snippet starts on this line")


def _check_block(
    name: str, block: SnippetBlock, runner: Runner, *, timeout: float, memory_mb: int
) -> list[Drift]:
    recorded = normalise(block.output)
    try:
        actual = run_snippet(runner, block.code, timeout=timeout, memory_mb=memory_mb)
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
    runner: Runner,
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
    blocks = parse_snippets(text)
    report = LessonReport(file=name, snippets=len(blocks))
    outputs: dict[int, str] = {}
    for block in blocks:
        try:
            actual = run_snippet(runner, block.code, timeout=timeout, memory_mb=memory_mb)
        except SnippetRunError as exc:
            report.drifts.append(Drift(name, block.line, str(exc), normalise(block.output), None))
            continue
        outputs[block.open_idx] = actual
        if normalise(block.output) != actual:
            report.recorded += 1
    new = apply_outputs(text, outputs)
    if blocks:
        new = set_torch_version(new, version or runtime_torch_version(runner))
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
