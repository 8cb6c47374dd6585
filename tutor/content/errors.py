"""Pydantic validation errors rewritten as problems an instructor can act on.

Each error of ``ValidationError.errors()`` is walked along the data and the model types at once,
so union tags in the error location (``"predict"``, ``"IntParam"``) are recognised and dropped
from the field path, a union's errors are narrowed to the member the author clearly meant, and
the message says what was expected in plain words at the offending value's position.
"""

from __future__ import annotations

import difflib
import re
import types
import typing
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Tag, ValidationError

from tutor.content.models import KINDS, Pack
from tutor.content.positions import Locator, Path, dotted
from tutor.content.problems import Problem
from tutor.content.wording import (
    FORMS,
    reason_for,
    type_message,
)

_MISSING = object()


@dataclass
class _Located:
    """One pydantic error placed in the data: its path and the union choices along the way."""

    error: dict[str, Any]
    path: Path
    model: type[BaseModel] | None
    """the model that owns the last path element (for missing and unknown keys)"""
    target: Any = None
    """the type validated at ``path`` (for a model-level validator's error)"""
    sites: list[tuple[Path, str, tuple[Any, ...]]] = field(default_factory=list)
    """(path of a union value, the member tag in the error, the union's members)"""


def _unwrap(tp: Any) -> Any:
    while True:
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            tp = typing.get_args(tp)[0]
        elif origin in (typing.Union, types.UnionType):
            members = [a for a in typing.get_args(tp) if a is not type(None)]
            if len(members) != 1:
                return tp
            tp = members[0]
        else:
            return tp


def _members(tp: Any) -> tuple[Any, ...]:
    """A union's members (each as written: a member's ``Tag`` is read by ``_tag_of``)."""
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        return tuple(a for a in typing.get_args(tp) if a is not type(None))
    return ()


def _tag_of(member: Any) -> str:
    if typing.get_origin(member) is typing.Annotated:
        for meta in member.__metadata__:
            if isinstance(meta, Tag):  # a member of a union with a callable discriminator
                return str(meta.tag)
    member = _unwrap(member)
    if isinstance(member, type) and issubclass(member, BaseModel):
        kind = member.model_fields.get("kind")
        if kind is not None and typing.get_origin(kind.annotation) is typing.Literal:
            return str(typing.get_args(kind.annotation)[0])
        return member.__name__
    return getattr(member, "__name__", str(member))


def _field_type(model: type[BaseModel], key: Any) -> Any:
    for name, info in model.model_fields.items():
        if (info.alias or name) == key:
            return info.annotation
    return None


def field_names(model: type[BaseModel]) -> list[str]:
    """The keys a model accepts in a file (aliases where set)."""
    return [info.alias or name for name, info in model.model_fields.items() if name != "source"]


def _locate(error: dict[str, Any], root: type[BaseModel]) -> _Located:
    """Walk the error's location along the model types: union tags become sites, the rest
    the path of the offending value in the data."""
    tp: Any = root
    path: list[str | int] = []
    located = _Located(error, (), None)
    for elem in error["loc"]:
        tp = _unwrap(tp)
        members = _members(tp)
        if members:
            tags = {_tag_of(m): m for m in members}
            if elem in tags:
                located.sites.append((tuple(path), elem, members))
                tp = tags[elem]
                continue
        path.append(elem)
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            located.model = tp
            tp = _field_type(tp, elem)
        else:
            located.model = None
            args = typing.get_args(tp)
            origin = typing.get_origin(tp)
            if origin is dict:
                tp = args[1]
            elif origin is tuple and isinstance(elem, int) and args:
                tp = args[min(elem, len(args) - 1)]
            elif origin is list and args:
                tp = args[0]
            else:
                tp = None
    located.path = tuple(path)
    located.target = _unwrap(tp) if tp is not None else None
    return located


def _value_at(data: Any, path: Path) -> Any:
    node = data
    for elem in path:
        try:
            node = node[elem]
        except (KeyError, IndexError, TypeError):
            return _MISSING
    return node


def _choose(node: Any, members: tuple[Any, ...]) -> str | None:
    """The tag of the union member the author meant, judged by the keys written (a list: the
    member that is a list)."""
    if isinstance(node, list):
        lists = [_tag_of(m) for m in members if typing.get_origin(_unwrap(m)) is list]
        return lists[0] if len(lists) == 1 else None
    if not isinstance(node, dict):
        return None
    tags = [_tag_of(m) for m in members]
    if isinstance(node.get("kind"), str) and node["kind"] in tags:
        return str(node["kind"])
    scores = []
    for member in members:
        m = _unwrap(member)
        if isinstance(m, type) and issubclass(m, BaseModel):
            scores.append((len(set(node) & set(field_names(m))), _tag_of(member)))
    scores.sort(reverse=True)
    if scores and scores[0][0] > 0 and (len(scores) == 1 or scores[1][0] < scores[0][0]):
        return scores[0][1]
    return None


def _describe(member: Any) -> str:
    return FORMS.get(_tag_of(member), f"a {_tag_of(member)}")


def translate(
    exc: ValidationError,
    data: Any,
    locator: Locator,
    root: type[BaseModel],
    prefix: Path = (),
) -> list[Problem]:
    """Every error of ``exc`` as a Problem, union noise removed, in file order.

    ``data`` is what was validated against ``root``; ``prefix`` is its path in the document
    (for a value validated on its own, such as one item of a list).
    """
    problems: dict[tuple[Any, ...], Problem] = {}
    chosen: dict[Path, str | None] = {}
    for error in exc.errors():
        located = _locate(dict(error), root)
        for site, tag, members in located.sites:
            if site not in chosen:
                chosen[site] = _choose(_value_at(data, site), members)
            if chosen[site] is None:
                line, col = locator.at((*prefix, *site))
                forms = " or ".join(_describe(m) for m in members)
                field = dotted((*prefix, *site))
                problem = Problem(locator.file, line, col, field, f"expected {forms}")
                problems.setdefault((site, "union"), problem)
                break
            if chosen[site] != tag:
                break
        else:
            problem = _problem(located, data, _Shifted(locator, prefix))
            problems.setdefault(
                (problem.line, problem.col, problem.field, problem.message), problem
            )
    return sorted(problems.values(), key=lambda p: (p.line, p.col))


class _Shifted:
    """A locator seen from a sub-value: paths are prefixed before lookup."""

    def __init__(self, locator: Locator, prefix: Path) -> None:
        self.file, self.locator, self.prefix = locator.file, locator, prefix

    def at(self, path: Path) -> tuple[int, int]:
        return self.locator.at((*self.prefix, *path))

    def key_at(self, path: Path) -> tuple[int, int]:
        return self.locator.key_at((*self.prefix, *path))


def _suggest(word: str, candidates: list[str]) -> str:
    close = difflib.get_close_matches(str(word), candidates, n=1, cutoff=0.6)
    return f" (did you mean `{close[0]}`?)" if close else ""


def _other_kinds(model: Any, key: Any) -> str:
    """`` (only code and fix drills have `check`)`` when another drill kind has the key."""
    own = _tag_of(model) if model is not None else None
    if own not in KINDS:
        return ""
    owners = [
        _tag_of(m)
        for m in typing.get_args(_unwrap(typing.get_args(_field_type(Pack, "drills"))[0]))
        if _tag_of(m) != own and key in field_names(m)
    ]
    if not owners:
        return ""
    return f" (a {own} drill has no `{key}`; {' and '.join(owners)} drills do)"


def _problem(located: _Located, data: Any, locator: _Shifted) -> Problem:
    error, path, model = located.error, located.path, located.model
    kind = error["type"]
    value = _value_at(data, path)
    where = locator.at(path)
    field = path
    if kind == "missing":
        name = path[-1] if path else "?"
        where = locator.at(path[:-1])
        message = f"field required: `{name}`" + reason_for(model, name)
    elif kind == "extra_forbidden":
        where = locator.key_at(path)
        names = field_names(model) if model else []
        message = f"unknown key `{path[-1]}`" + _suggest(str(path[-1]), names)
        if "did you mean" not in message:
            message += _other_kinds(model, path[-1])
    elif kind == "union_tag_invalid":
        tag = error["ctx"]["tag"]
        tags = re.findall(r"'([^']*)'", error["ctx"]["expected_tags"])
        field = (*path, "kind")
        where = locator.at(field)
        message = f"unknown kind `{tag}`" + _suggest(tag, tags)
        if "did you mean" not in message:
            message += f" (one of {', '.join(tags)})"
    elif kind == "union_tag_not_found":
        field = (*path, "kind")
        message = "field required: `kind` (one of predict, order, choice, code, fix)"
    elif kind == "value_error":
        text = str(error["ctx"]["error"])
        m = re.match(r"^(\w+): (.*)$", text, re.S)
        target = located.target
        is_model = isinstance(target, type) and issubclass(target, BaseModel)
        if m and is_model and m.group(1) in field_names(target):
            field = (*path, m.group(1))
            where = locator.at(field)
            text = m.group(2)
        message = text
    else:
        message = type_message(error, value if value is not _MISSING else None, path)
    line, col = where
    name = dotted((*locator.prefix, *field)) or "document"
    return Problem(locator.file, line, col, name, message)
