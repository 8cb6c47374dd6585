"""Pack checks of ``uses``: a drill may call the functions of earlier code drills' references.

A used drill must be an earlier code or fix drill of the same pack whose reference reads the
same in every variant (no params of its own) and needs nothing but the pack's ``setup`` (no
``setup`` of its own), since its reference is run before the using drill's setup.
"""

from __future__ import annotations

import difflib
from typing import Any

from tutor.content.check_rules import Report
from tutor.content.positions import Path

__all__ = ["check_uses"]


def check_uses(drills: list[Any], i: int, report: Report) -> None:
    """Problems of ``drills[i]``'s ``uses`` list, each at its entry."""
    uses = drills[i].get("uses")
    if not isinstance(uses, list):
        return
    ids = [d.get("id") if isinstance(d, dict) else None for d in drills]
    for j, name in enumerate(uses):
        if not isinstance(name, str):
            continue
        where: Path = ("drills", i, "uses", j)
        if name not in ids:
            known = [x for x in ids[:i] if isinstance(x, str)]
            close = difflib.get_close_matches(name, known, n=1)
            hint = f" (did you mean `{close[0]}`?)" if close else ""
            report(where, f"no drill `{name}` in this pack{hint}")
            continue
        k = ids.index(name)
        if k >= i:
            what = "is this drill" if k == i else f"comes after this drill (drills[{k}])"
            report(where, f"`{name}` {what}: a drill may use only the drills before it")
            continue
        used = drills[k]
        if used.get("kind") not in ("code", "fix"):
            report(where, f"`{name}` is a {used.get('kind')} drill: only code and fix drills "
                   "have a reference whose functions can be called")  # fmt: skip
        elif used.get("params"):
            report(where, f"`{name}` has params: the functions it gives must read the same in "
                   "every variant, so a used drill draws its sizes in `check.params`")  # fmt: skip
        elif str(used.get("setup") or "").strip():
            report(where, f"`{name}` has a setup of its own, which is not given with its "
                   "reference: put what its reference needs in the pack's `setup`")  # fmt: skip
    if len(set(map(str, uses))) < len(uses):
        report(("drills", i, "uses"), "a drill is named twice in `uses`")
