"""The judge's reading of an answer: ``read_answer`` with the judge's own torch (runtime side).

``judge_reading(code, setup, forbid, allow, max_lines)`` returns the refusals as plain data
(``{"line", "written", "why", "rule", "name"}`` each), or one ``{"rule": "syntax", ...}`` entry
when the answer does not parse. An empty list: nothing refused; the answer may be run.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from tutor.probes.reading import read_answer
from tutor.probes.reading_torch import TorchResolver


def judge_reading(
    code: str, setup: str, forbid: list[str], allow: list[str], max_lines: int | None
) -> list[dict[str, Any]]:
    """Every refusal of ``code`` by the authoritative reading, as plain data."""
    try:
        refusals = read_answer(code, setup=setup, forbid=forbid, allow=allow,
                               max_lines=max_lines, resolver=TorchResolver())  # fmt: skip
    except SyntaxError as exc:
        return [{"line": exc.lineno or 0, "written": "", "why": exc.msg, "rule": "syntax",
                 "name": "syntax"}]  # fmt: skip
    except (ValueError, RecursionError, MemoryError) as exc:
        return [{"line": 0, "written": "", "why": f"it could not be read: {exc}",
                 "rule": "syntax", "name": "syntax"}]  # fmt: skip
    return [asdict(r) for r in refusals]
