"""The class report as text and CSV (`tutor class report`): tables to read, full answers below
them, the gradebook, and the rows of a spreadsheet."""

from __future__ import annotations

import textwrap
from typing import Any

from tutor.content.wording import plural

#: the columns of ``--csv``: one table of rows, its first column saying which table a row is in
CSV_COLUMNS = [
    "table", "name", "title", "chapter", "learners", "attempts", "correct", "mastered",
    "median_seconds", "common_wrong", "wrong_groups", "drills_tried", "chapters_done",
    "lessons_read", "last_attempt", "drills", "learners_done", "learners_active",
    "median_mastered", "answer", "seed", "status", "feedback",
]  # fmt: skip
#: a cell of the text gradebook: mastered, a mastery that did not replay, tried, not tried
MARKS = {"mastered": "✓", "not reproduced": "✗", "tried": "·", "not tried": ""}
#: drill columns per block of the text gradebook
BLOCK = 12


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]


def _when(iso: str | None) -> str:
    return iso[:16].replace("T", " ") if iso else "-"


def _learners(report: dict[str, Any]) -> list[str]:
    rows = [["learner", "attempts", "drills tried", "mastered", "chapters done", "lessons read",
             "last attempt"]]  # fmt: skip
    for lr in report["learners"]:
        done = ", ".join(map(str, lr["chapters_done"])) or "-"
        read = ", ".join(map(str, lr["lessons_read"])) or "-"
        rows.append([lr["learner"], str(lr["attempts"]), str(lr["drills_tried"]),
                     str(lr["drills_mastered"]), done, read, _when(lr["last_attempt"])])  # fmt: skip
    return ["", "Learners", *_table(rows)]


def _chapters(report: dict[str, Any]) -> list[str]:
    rows = [["chapter", "drills", "done by", "lesson read by", "active", "attempts",
             "median mastered"]]  # fmt: skip
    for ch in report["chapters"]:
        rows.append([str(ch["chapter"]), str(ch["drills"]), str(ch["learners_done"]),
                     str(ch["lessons_read"]), str(ch["learners_active"]), str(ch["attempts"]),
                     str(ch["median_mastered"])])  # fmt: skip
    return ["", "Chapters", *_table(rows)]


def _drills(report: dict[str, Any]) -> list[str]:
    rows = [["drill", "ch", "learners", "attempts", "correct", "mastered", "median s",
             "last attempt"]]  # fmt: skip
    for d in report["drills"]:
        chapter = "?" if d["chapter"] is None else str(d["chapter"])
        seconds = "-" if d["median_seconds"] is None else f"{d['median_seconds']:g}"
        rows.append([d["drill"], chapter, str(d["learners"]), str(d["attempts"]),
                     str(d["correct"]), str(d["mastered"]), seconds,
                     _when(d["last_attempt"])])  # fmt: skip
    out = ["", "Drills (mastered: learners who answered right with at most one hint, before the "
           "answer was shown; median s: the median time to answer)", *_table(rows)]  # fmt: skip
    return out + _wrong(report)


def _wrong(report: dict[str, Any]) -> list[str]:
    """Below the table: each drill's wrong answers, grouped by what they did, then the most
    common ones in full (never cut)."""
    out: list[str] = []
    for d in report["drills"]:
        if not d["wrong_groups"]:
            continue
        out += ["", f"{d['drill']}" + (f" ({d['title']})" if d["title"] else "")]
        out.append("  what the wrong answers did:")
        for g in d["wrong_groups"]:
            out.append(f"    {g['count']} × {g['label']} ({plural(g['learners'], 'learner')})")
        if d["common_wrong"]:
            out.append("  most common wrong answers:")
        for w in d["common_wrong"]:
            out.append(f"    {w['count']} ×")
            out += [textwrap.indent(line, "        ") for line in w["answer"].splitlines()]
    return ["", "Wrong answers, drill by drill", *out[1:]] if out else []


def gradebook(report: dict[str, Any]) -> list[str]:
    """The learner x drill matrix as text: blocks of numbered drill columns, then the key."""
    drills, rows = report["matrix"]["drills"], report["matrix"]["learners"]
    out = ["", "Gradebook (✓ mastered, ✗ a mastery that did not replay, · tried, blank: not "
           "tried; the number: attempts)"]  # fmt: skip
    if not drills or not rows:
        return [*out, "(no attempts)"]
    for start in range(0, len(drills), BLOCK):
        part = drills[start : start + BLOCK]
        table = [["learner", *(f"[{start + i + 1}]" for i in range(len(part)))]]
        for row in rows:
            cells = [row["cells"][d] for d in part]
            table.append([row["learner"], *(
                f"{MARKS[c['status']]}{c['attempts']}" if c["attempts"] else "" for c in cells)])  # fmt: skip
        out += ["", *_table(table)]
    out.append("")
    out += [f"[{i + 1}] {d}" for i, d in enumerate(drills)]
    return out


def _similar(report: dict[str, Any]) -> list[str]:
    if "similar" not in report:
        return []
    out = ["", "Similar answers (the same once names, spacing and comments are normalised; the "
           "drill's own starter, reference and wrong answers left out)"]  # fmt: skip
    if not report["similar"]:
        return [*out, "(none)"]
    for s in report["similar"]:
        out.append(f"{s['drill']}: {', '.join(s['learners'])} ({s['size']} tokens)")
        out += [textwrap.indent(line, "    ") for line in s["answer"].splitlines()]
    return out


def _verify(report: dict[str, Any]) -> list[str]:
    v = report.get("verify")
    if v is None:
        return []
    out = ["", f"Verification: {plural(v['checked'], 'mastering attempt')} replayed through the "
           f"grader, {v['reproduced']} reproduced"]  # fmt: skip
    for f in v["not_reproduced"]:
        out.append(f"  NOT REPRODUCED: {f['learner']} {f['drill']} seed {f['seed']}: "
                   f"{f['status']}: {f['feedback']}")  # fmt: skip
    for f in v["not_checked"]:
        out.append(f"  not checked: {f['learner']} {f['drill']} seed {f['seed']}: {f['reason']}")
    return out


def text(report: dict[str, Any], *, only_matrix: bool = False) -> str:
    """The whole report as text (``only_matrix``: the gradebook alone)."""
    head = [f"Class report over {plural(len(report['learners']), 'learner file')}.",
            report["self_reported"]]  # fmt: skip
    if only_matrix:
        return "\n".join(head + gradebook(report) + _verify(report))
    body = _learners(report) + _chapters(report) + _drills(report) + gradebook(report)
    return "\n".join(head + body + _similar(report) + _verify(report))


def csv_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    """The summary tables as rows of one CSV table (``table`` says which)."""
    rows: list[dict[str, Any]] = []
    for lr in report["learners"]:
        rows.append({**lr, "table": "learner", "name": lr["learner"],
                     "mastered": lr["drills_mastered"],
                     "chapters_done": " ".join(map(str, lr["chapters_done"])),
                     "lessons_read": " ".join(map(str, lr["lessons_read"]))})  # fmt: skip
    for ch in report["chapters"]:
        rows.append({**ch, "table": "chapter", "name": f"chapter {ch['chapter']}"})
    for d in report["drills"]:
        wrong = " | ".join(f"{w['answer']} ({w['count']})" for w in d["common_wrong"])
        groups = " | ".join(f"{g['label']} ({g['count']})" for g in d["wrong_groups"])
        rows.append({**d, "table": "drill", "name": d["drill"], "common_wrong": wrong,
                     "wrong_groups": groups})  # fmt: skip
    for s in report.get("similar", []):
        rows.append({"table": "similar", "name": s["drill"], "learners": " ".join(s["learners"]),
                     "answer": s["answer"]})  # fmt: skip
    v = report.get("verify") or {"not_reproduced": []}
    for f in v["not_reproduced"]:
        rows.append({"table": "not reproduced", "name": f["drill"], "learners": f["learner"],
                     "seed": f["seed"], "status": f["status"], "feedback": f["feedback"]})  # fmt: skip
    return rows


def matrix_csv(report: dict[str, Any]) -> tuple[list[str], list[dict[str, Any]]]:
    """The gradebook as one row per learner (for a spreadsheet or an LMS import): learner,
    file, drills mastered and tried, then per drill its status and its attempts."""
    drills = report["matrix"]["drills"]
    header = ["learner", "file", "mastered", "tried"]
    for d in drills:
        header += [d, f"{d} attempts"]
    files = {lr["learner"]: lr["file"] for lr in report["learners"]}
    rows = []
    for row in report["matrix"]["learners"]:
        out: dict[str, Any] = {"learner": row["learner"], "file": files.get(row["learner"], ""),
                               "mastered": row["mastered"], "tried": row["tried"]}  # fmt: skip
        for d in drills:
            out[d] = row["cells"][d]["status"]
            out[f"{d} attempts"] = row["cells"][d]["attempts"]
        rows.append(out)
    return header, rows
