"""A class report: many learners' ``tutor progress export`` files summed up for an instructor.

Per drill (attempts, learners who mastered it, the most common wrong answers and the wrong
answers grouped by what they did), per learner (chapters done, drills mastered), per chapter, and
the learner x drill gradebook (``gradebook``). The files are what each learner's own tutor wrote
and handed in: the report says so, because nothing in them is verified (``--verify`` replays
the masteries: ``tutor.commands.class_verify``).

A file that cannot be read, is not a progress file, or repeats the attempts of a file already
read (the same progress handed in twice) is a ``FileProblem``; the other files are still
reported.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from statistics import median
from typing import Any

from pydantic import ValidationError

from tutor.progress.gradebook import matrix
from tutor.progress.outcomes import label
from tutor.progress.store import MASTERY_MAX_HINTS, Attempt
from tutor.progress.transfer import ProgressFile

SELF_REPORTED = (
    "These figures come from progress files the learners exported themselves; "
    "nothing in them is verified."
)
#: a progress file bigger than this is refused unread
MAX_BYTES = 64 * 1024 * 1024
#: how many of a drill's most common wrong answers are listed
COMMON_WRONG = 3


@dataclass(frozen=True)
class FileProblem:
    """A file left out of the report, and why."""

    file: str
    error: str

    def __str__(self) -> str:
        return f"{self.file}: {self.error}"


@dataclass(frozen=True)
class KnownDrill:
    """What the instructor's tutor knows of a drill: its chapter, title and kind, and the
    feedback of each of its ``wrong`` answers (to name the group of answers matching one)."""

    chapter: int
    title: str = ""
    kind: str = ""
    wrong: tuple[str, ...] = ()


@dataclass(frozen=True)
class Learner:
    """One learner's exported progress, named after its file."""

    name: str
    file: str
    doc: ProgressFile


def _reason(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"])
    return f"not a progress file: {where}: {first['msg']}" if where else first["msg"]


def read_learner(path: Path) -> Learner:
    """Read one export; raises ``ValueError`` with a plain reason when it cannot be used."""
    try:
        if not path.is_file():
            raise ValueError("no such file" if not path.exists() else "not a regular file")
        if path.stat().st_size > MAX_BYTES:
            raise ValueError(f"bigger than {MAX_BYTES // 2**20} MiB; not a progress export")
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"cannot read it: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ValueError("not a progress file: not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"not a progress file: not JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != "tutor-progress":
        raise ValueError("not a progress file: `tutor progress export` writes one")
    try:
        doc = ProgressFile.model_validate(data)
    except ValidationError as exc:
        raise ValueError(_reason(exc)) from None
    return Learner(name=path.stem, file=str(path), doc=doc)


def read_learners(paths: list[Path]) -> tuple[list[Learner], list[FileProblem]]:
    """Every readable export, each learner named by its file name (its path when two files
    share a name); a file repeating attempts of one read before is left out as a problem."""
    learners: list[Learner] = []
    problems: list[FileProblem] = []
    owner: dict[str, str] = {}
    for path in paths:
        try:
            learner = read_learner(path)
        except ValueError as exc:
            problems.append(FileProblem(str(path), str(exc)))
            continue
        uids = {a.uid for a in learner.doc.attempts}
        seen = sorted({owner[u] for u in uids if u in owner})
        if seen:
            problems.append(
                FileProblem(
                    str(path),
                    f"repeats attempts of {seen[0]} (the same progress handed in twice?); "
                    "left out so nothing is counted twice",
                )
            )
            continue
        owner.update(dict.fromkeys(uids, str(path)))
        learners.append(learner)
    stems = Counter(learner.name for learner in learners)
    learners = [
        Learner(name=lr.file, file=lr.file, doc=lr.doc) if stems[lr.name] > 1 else lr
        for lr in learners
    ]
    return learners, problems


def mastering(attempt: Attempt) -> bool:
    """Whether ``attempt`` masters its drill, as the tutor counts it: right, with at most one
    hint, before the answer was shown."""
    return attempt.correct and attempt.hints_used <= MASTERY_MAX_HINTS and not attempt.revealed


def _shown_answer(answer: str) -> str:
    """An answer as counted: trailing spaces and blank lines at either end do not matter."""
    return "\n".join(line.rstrip() for line in answer.strip("\n").splitlines()).strip()


def known_from_exports(
    learners: list[Learner], known: dict[str, KnownDrill]
) -> dict[str, KnownDrill]:
    """``known`` plus the drills the exports describe that it lacks (a pack the instructor's
    tutor does not load: its chapter and title as the learner's tutor knew them)."""
    out = dict(known)
    for learner in learners:
        for row in learner.doc.drills:
            out.setdefault(row.drill, KnownDrill(row.chapter, row.title, row.kind))
    return out


@dataclass
class _DrillTally:
    attempts: int = 0
    correct: int = 0
    learners: set[str] = field(default_factory=set)
    mastered: set[str] = field(default_factory=set)
    wrong: Counter[str] = field(default_factory=Counter)
    outcome_of: dict[str, Counter[str]] = field(default_factory=dict)
    groups: Counter[str] = field(default_factory=Counter)
    grouped: dict[str, set[str]] = field(default_factory=dict)
    seconds: list[float] = field(default_factory=list)
    last: str = ""


def _tally(learners: list[Learner]) -> dict[str, _DrillTally]:
    tallies: dict[str, _DrillTally] = {}
    for learner in learners:
        for a in learner.doc.attempts:
            t = tallies.setdefault(a.drill, _DrillTally())
            t.attempts += 1
            t.correct += a.correct
            t.learners.add(learner.name)
            t.last = max(t.last, a.at.isoformat())
            if a.seconds > 0:  # `drill run --record` measures no time
                t.seconds.append(a.seconds)
            if mastering(a):
                t.mastered.add(learner.name)
            if a.correct:
                continue
            t.groups[a.outcome] += 1
            t.grouped.setdefault(a.outcome, set()).add(learner.name)
            shown = _shown_answer(a.answer)
            if shown:
                t.wrong[shown] += 1
                t.outcome_of.setdefault(shown, Counter())[a.outcome] += 1
    return tallies


def _drills(learners: list[Learner], known: dict[str, KnownDrill]) -> list[dict[str, Any]]:
    tallies = _tally(learners)
    rows = []
    for drill in sorted(tallies, key=lambda d: (_chapter(known, d) or 99, d)):
        t = tallies[drill]
        facts = known.get(drill)
        wrong = facts.wrong if facts else ()
        rows.append(
            {
                "drill": drill,
                "title": facts.title if facts else "",
                "chapter": _chapter(known, drill),
                "learners": len(t.learners),
                "attempts": t.attempts,
                "correct": t.correct,
                "mastered": len(t.mastered),
                "median_seconds": round(median(t.seconds), 1) if t.seconds else None,
                "last_attempt": t.last or None,
                "common_wrong": [
                    {
                        "answer": answer,
                        "count": n,
                        "outcome": t.outcome_of[answer].most_common(1)[0][0],
                    }  # fmt: skip
                    for answer, n in t.wrong.most_common(COMMON_WRONG)
                ],
                "wrong_groups": [
                    {
                        "outcome": key,
                        "label": label(key, wrong),
                        "count": n,
                        "learners": len(t.grouped[key]),
                    }  # fmt: skip
                    for key, n in t.groups.most_common()
                ],
            }
        )
    return rows


def _chapter(known: dict[str, KnownDrill], drill: str) -> int | None:
    facts = known.get(drill)
    return facts.chapter if facts else None


def mastered_drills(learner: Learner) -> set[str]:
    """The drills ``learner`` mastered (``mastering``)."""
    return {a.drill for a in learner.doc.attempts if mastering(a)}


def _learners(learners: list[Learner]) -> list[dict[str, Any]]:
    rows = []
    for learner in learners:
        doc = learner.doc
        last = max((a.at for a in doc.attempts), default=None)
        rows.append(
            {
                "learner": learner.name,
                "file": learner.file,
                "attempts": len(doc.attempts),
                "drills_tried": len({a.drill for a in doc.attempts}),
                "drills_mastered": len(mastered_drills(learner)),
                "chapters_done": sorted({c.chapter for c in doc.chapters}),
                "lessons_read": sorted({lesson.chapter for lesson in doc.lessons}),
                "last_attempt": last.isoformat() if last else None,
            }
        )
    return rows


def _chapters(learners: list[Learner], known: dict[str, KnownDrill]) -> list[dict[str, Any]]:
    chapter_of = {d: k.chapter for d, k in known.items()}
    drills_in = Counter(chapter_of.values())
    numbers = set(drills_in)
    for learner in learners:
        numbers |= {c.chapter for c in learner.doc.chapters}
        numbers |= {lesson.chapter for lesson in learner.doc.lessons}
    rows = []
    for n in sorted(numbers):
        tried = [[a for a in lr.doc.attempts if chapter_of.get(a.drill) == n] for lr in learners]
        mastered = [len({d for d in mastered_drills(lr) if chapter_of.get(d) == n})
                    for lr in learners]  # fmt: skip
        rows.append(
            {
                "chapter": n,
                "drills": drills_in.get(n, 0),
                "learners_done": sum(n in {c.chapter for c in lr.doc.chapters} for lr in learners),
                "lessons_read": sum(n in {x.chapter for x in lr.doc.lessons} for lr in learners),
                "learners_active": sum(bool(t) for t in tried),
                "attempts": sum(len(t) for t in tried),
                "median_mastered": median(mastered) if mastered else 0,
            }
        )
    return rows


def class_report(
    learners: list[Learner], known: dict[str, KnownDrill], problems: list[FileProblem]
) -> dict[str, Any]:
    """The report as one JSON-ready dict. ``known`` describes the drills the instructor's tutor
    loads (in catalog order); a drill it lacks takes its chapter from the exports, else has
    chapter ``None`` and no chapter row."""
    known = known_from_exports(learners, known)
    return {
        "self_reported": SELF_REPORTED,
        "files": len(learners) + len(problems),
        "learners": _learners(learners),
        "drills": _drills(learners, known),
        "chapters": _chapters(learners, known),
        "matrix": matrix(learners, list(known), mastering),
        "errors": [{"file": p.file, "error": p.error} for p in problems],
    }
