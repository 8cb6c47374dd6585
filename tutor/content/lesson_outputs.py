"""Writing a lesson's recorded outputs back into its text, touching nothing else.

Every other line of the file, its line ending included, stays byte-identical. Outputs are
compared after removing trailing whitespace (per line, and trailing blank lines): that is the only
normalisation. Blocks are found by ``tutor.content.lesson_text``, the one parser of lesson text.
"""

from __future__ import annotations

import difflib
import re
from typing import Protocol

from tutor.content.lesson_text import OUTPUT_INFO, parse_lesson_text

_TORCH_LINE = re.compile(r"^torch\s*:.*$")


def _bare(line: str) -> str:
    return line.rstrip("\r\n")


def normalise(text: str | None) -> str | None:
    """Trailing whitespace removed from every line, and trailing blank lines dropped."""
    if text is None:
        return None
    return "\n".join(line.rstrip() for line in text.splitlines()).rstrip("\n")


class Raised(Protocol):
    """The exception a run raised (``tutor.sandbox.result.ExceptionInfo`` fits)."""

    @property
    def type(self) -> str: ...
    @property
    def message(self) -> str: ...


class Ran(Protocol):
    """A finished or failed run (``tutor.sandbox.result.RunResult`` fits)."""

    @property
    def status(self) -> str: ...
    @property
    def stdout(self) -> str: ...
    @property
    def exception(self) -> Raised | None: ...


def recorded_output(run: Ran) -> str | None:
    """The output a lesson records for one run of a snippet, normalised: what it printed, then,
    when it raised, a last line ``Type: message`` (``Type`` alone when the message is empty).
    None when the run did not finish (timed out, crashed, the sandbox failed) or failed
    without naming an exception: there is nothing to record.

    The one definition: ``tutor lesson record`` writes it, ``tutor lesson check`` compares with
    it, and the lesson screen's live panel shows it and says whether it matches."""
    if run.status not in ("ok", "error"):
        return None
    out = run.stdout
    if run.status == "error":
        raised = run.exception
        if raised is None:
            return None
        if out and not out.endswith("\n"):
            out += "\n"
        out += f"{raised.type}: {raised.message}" if raised.message else raised.type
    return normalise(out) or ""


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
    doc = parse_lesson_text(text)
    if doc.problems:
        line, message = doc.problems[0]
        raise ValueError(f"line {line}: {message}")
    lines = doc.lines
    blocks = {b.open_idx: b for b in doc.snippets}
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
            if at == len(lines) and lines and not lines[-1].endswith(("\n", "\r")):
                lines[-1] += eol
            lines[at:at] = new
    return "".join(lines)


def recorded_torch_version(text: str) -> str | None:
    """The ``torch:`` field of the front matter (unquoted), or None when there is none."""
    doc = parse_lesson_text(text)
    lines, span = doc.lines, doc.front_matter
    if span is None:
        return None
    for i in range(span[0] + 1, span[1]):
        bare = _bare(lines[i])
        if _TORCH_LINE.match(bare):
            return bare.split(":", 1)[1].strip().strip("\"'") or None
    return None


def set_torch_version(text: str, version: str) -> str:
    """Set the front matter's ``torch:`` field to ``version``, touching no other line."""
    doc = parse_lesson_text(text)
    lines, span = doc.lines, doc.front_matter
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
