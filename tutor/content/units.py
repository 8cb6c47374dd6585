"""The units a predict answer may carry, and the one a drill asks in (torch-free).

A unit is spelled many ways (``MiB``, ``mib``, ``mebibytes``); ``canonical`` maps each spelling
to one name. Units come in families (bytes, time, percent): an answer in another unit than the
drill's is never read as the bare number, because the number then means something else.
A drill names its unit with ``unit``; without it, the unit is the one its prompt names, when
the prompt names exactly one (``prompt_unit``), from the spellings that cannot be ordinary words
or code (``B``, ``s``, ``%`` and ``us`` are not looked for in prompts).
"""

from __future__ import annotations

import re

#: canonical unit -> (family, spellings read in answers; matched without regard to case)
UNITS: dict[str, tuple[str, tuple[str, ...]]] = {
    "B": ("bytes", ("B", "byte", "bytes")),
    "kB": ("bytes", ("kB", "kilobyte", "kilobytes")),
    "KiB": ("bytes", ("KiB", "kibibyte", "kibibytes")),
    "MB": ("bytes", ("MB", "megabyte", "megabytes")),
    "MiB": ("bytes", ("MiB", "mebibyte", "mebibytes")),
    "GB": ("bytes", ("GB", "gigabyte", "gigabytes")),
    "GiB": ("bytes", ("GiB", "gibibyte", "gibibytes")),
    "TB": ("bytes", ("TB", "terabyte", "terabytes")),
    "TiB": ("bytes", ("TiB", "tebibyte", "tebibytes")),
    "ns": ("time", ("ns", "nanosecond", "nanoseconds")),
    "µs": ("time", ("µs", "μs", "us", "microsecond", "microseconds")),
    "ms": ("time", ("ms", "msec", "millisecond", "milliseconds")),
    "s": ("time", ("s", "sec", "secs", "second", "seconds")),
    "min": ("time", ("min", "mins", "minute", "minutes")),
    "h": ("time", ("h", "hr", "hrs", "hour", "hours")),
    "%": ("percent", ("%", "percent", "pct")),
}

_SPELLINGS = {s.lower(): unit for unit, (_, spellings) in UNITS.items() for s in spellings}
#: spellings too common as words or code to tell a prompt's unit by
_NOT_IN_PROMPTS = {"b", "byte", "s", "sec", "secs", "second", "us", "%", "min", "mins", "h",
                   "hr", "hrs", "hour", "pct"}  # fmt: skip
_PROMPT_WORD = re.compile(r"(?<![\w.])([A-Za-zµμ]+)(?![\w(])")


def canonical(word: str) -> str | None:
    """The canonical unit ``word`` spells (``mib`` -> ``MiB``), or None when it is no unit."""
    return _SPELLINGS.get(word.strip().lower())


def family(unit: str) -> str:
    """The family of a canonical unit: ``bytes``, ``time`` or ``percent``."""
    return UNITS[unit][0]


def known_unit(name: str) -> str:
    """``name`` as its canonical unit; ValueError naming the known ones when it is none."""
    unit = canonical(name)
    if unit is None:
        raise ValueError(f"unknown unit {name!r}: one of {', '.join(UNITS)}")
    return unit


def prompt_unit(prompt: str) -> str | None:
    """The one unit a prompt names (``... its size in MiB ...``), or None when it names none or
    several different ones."""
    found = set()
    for match in _PROMPT_WORD.finditer(prompt):
        word = match.group(1)
        if word.lower() in _NOT_IN_PROMPTS:
            continue
        unit = canonical(word)
        if unit is not None and word in UNITS[unit][1]:  # as spelled in the table
            found.add(unit)
    return found.pop() if len(found) == 1 else None
