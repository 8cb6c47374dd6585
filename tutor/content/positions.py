"""YAML to plain data, remembering where every key and value was written.

The document is composed with libyaml (see ``yamltree``) and the node tree is turned into
dicts, lists and scalars, so each value's path (``("drills", 3, "check")``) can be mapped to its
1-based ``(line, col)``. Duplicate keys are reported, not silently merged.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import yaml

from tutor.content.problems import Problem
from tutor.content.yamltree import (
    MAX_DEPTH,
    MAX_VALUES,
    NeedsFullBuild,
    TooDeep,
    TooManyValues,
    check_expansion,
    compose,
    plain,
)

Path = tuple[str | int, ...]
Position = tuple[int, int]

_STR = "tag:yaml.org,2002:str"
_MERGE = "tag:yaml.org,2002:merge"
_CONSTRUCTORS = yaml.constructor.SafeConstructor.yaml_constructors


@dataclass
class Locator:
    """Positions of the values (and mapping keys) of one YAML document.

    The positions are indexed on first use from the composed document (``root``), so loading
    a clean file never pays for them.
    """

    file: str
    line_offset: int = 0
    """added to every line (for YAML embedded in a larger file, e.g. front matter)"""
    text: str = field(default="", repr=False)
    """the YAML source (to find text inside a value)"""
    root: yaml.Node | None = field(default=None, repr=False)
    """the composed document, until its positions are indexed"""
    _positions: tuple[dict[Path, Position], dict[Path, Position]] | None = field(
        default=None, repr=False
    )
    """(values, keys) once indexed"""

    @property
    def values(self) -> dict[Path, Position]:
        """1-based (line, col) of every value, by path (unshifted)."""
        return self._indexed()[0]

    @property
    def keys(self) -> dict[Path, Position]:
        """1-based (line, col) of every mapping key, by the path of its value (unshifted)."""
        return self._indexed()[1]

    def _indexed(self) -> tuple[dict[Path, Position], dict[Path, Position]]:
        if self._positions is None:
            self._positions = ({}, {})
            if self.root is not None:
                _Builder(self, []).build(self.root, ())
            self.root = None
        return self._positions

    def at(self, path: Path) -> Position:
        """Where the value at ``path`` starts; else the nearest enclosing value that exists."""
        path = tuple(path)
        while path:
            pos = self.values.get(path)
            if pos is not None:
                return self._shift(pos)
            path = path[:-1]
        return self._shift(self.values.get((), (1, 1)))

    def key_at(self, path: Path) -> Position:
        """Where the key of the mapping entry at ``path`` is written (falls back to ``at``)."""
        pos = self.keys.get(tuple(path))
        return self._shift(pos) if pos is not None else self.at(path)

    def find(self, path: Path, needle: str) -> Position:
        """Where ``needle`` is first written inside the value at ``path`` (e.g. a placeholder
        in a block of text); the value's own position when it cannot be found."""
        start = self.at(path)
        if not self.text:
            return start
        lines = self.text.split("\n")
        row, col = start[0] - self.line_offset - 1, start[1] - 1
        for i in range(row, min(len(lines), row + 10_000)):
            found = lines[i].find(needle, col if i == row else 0)
            if found >= 0:
                return (i + 1 + self.line_offset, found + 1)
        return start

    def _shift(self, pos: Position) -> Position:
        return (pos[0] + self.line_offset, pos[1])


def _pos(node: yaml.Node) -> Position:
    return (node.start_mark.line + 1, node.start_mark.column + 1)


class _Builder:
    """Turns a composed node tree into plain data, filling a Locator and a problem list."""

    def __init__(self, locator: Locator, problems: list[Problem]) -> None:
        self.locator = locator
        self.problems = problems
        assert locator._positions is not None, "build only while indexing"
        self.values, self.keys = locator._positions
        self.constructor = yaml.constructor.SafeConstructor()
        self.open: set[int] = set()
        """ids of the container nodes being built (to catch recursive aliases)"""

    def problem(self, node: yaml.Node, path: Path, message: str) -> None:
        line, col = self.locator._shift(_pos(node))
        self.problems.append(Problem(self.locator.file, line, col, dotted(path) or "yaml", message))

    def scalar(self, node: yaml.ScalarNode) -> Any:
        tag = node.tag
        if tag == _STR:
            return node.value
        return _CONSTRUCTORS.get(tag, _CONSTRUCTORS[None])(self.constructor, node)

    def build(self, node: yaml.Node, path: Path) -> Any:
        mark = node.start_mark
        self.values[path] = (mark.line + 1, mark.column + 1)
        if type(node) is yaml.ScalarNode:
            return self.scalar(node)
        if id(node) in self.open:  # an alias to one of its own ancestors
            self.problem(node, path, "an alias may not refer to a node that contains it")
            return None
        self.open.add(id(node))
        try:
            if isinstance(node, yaml.SequenceNode):
                return [self.build(item, (*path, i)) for i, item in enumerate(node.value)]
            return self._mapping(node, path)
        finally:
            self.open.discard(id(node))

    def _mapping(self, node: yaml.MappingNode, path: Path) -> dict[Any, Any]:
        out: dict[Any, Any] = {}
        merged: list[tuple[yaml.Node, yaml.Node]] = []
        keys = self.keys
        for key_node, value_node in node.value:
            if key_node.tag == _STR and key_node.value not in out:  # the common case, inlined
                key = key_node.value
                mark = key_node.start_mark
                keys[(*path, key)] = (mark.line + 1, mark.column + 1)
                out[key] = self.build(value_node, (*path, key))
            elif key_node.tag == _MERGE:
                merged.extend(self._merge_sources(value_node, path))
            else:
                self._entry(out, key_node, value_node, path, explicit=True)
        for key_node, value_node in merged:
            self._entry(out, key_node, value_node, path, explicit=False)
        return out

    def _merge_sources(
        self, node: yaml.Node, path: Path, seen: frozenset[int] = frozenset()
    ) -> Iterator[tuple[yaml.Node, yaml.Node]]:
        """The entries ``<<`` merges in, a merged mapping's own ``<<`` included (its explicit
        keys come first, so they win over what it merges itself)."""
        sources = node.value if isinstance(node, yaml.SequenceNode) else [node]
        for source in sources:
            if not isinstance(source, yaml.MappingNode):
                self.problem(source, path, "`<<` merges a mapping (or a list of mappings) only")
            elif id(source) in seen:
                self.problem(source, path, "an alias may not refer to a node that contains it")
            else:
                inner = [(k, v) for k, v in source.value if k.tag == _MERGE]
                yield from ((k, v) for k, v in source.value if k.tag != _MERGE)
                for _key, value in inner:
                    yield from self._merge_sources(value, path, seen | {id(source)})

    def _entry(
        self,
        out: dict[Any, Any],
        key_node: yaml.Node,
        value_node: yaml.Node,
        path: Path,
        *,
        explicit: bool,
    ) -> None:
        if not isinstance(key_node, yaml.ScalarNode):
            self.problem(key_node, path, "a key must be plain text, not a list or mapping")
            return
        key = key_node.value  # keys are names: kept as written (`1:` is the key "1")
        if key in out:
            if explicit:
                first = self.locator._shift(self.keys[(*path, key)])
                self.problem(
                    key_node,
                    (*path, key),
                    f"duplicate key `{key}` (first written at line {first[0]})",
                )
            return
        self.keys[(*path, key)] = _pos(key_node)
        out[key] = self.build(value_node, (*path, key))


def dotted(path: Path) -> str:
    """``("drills", 2, "check", "trials")`` -> ``drills[2].check.trials``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def parse_located(text: str, file: str, line_offset: int = 0) -> tuple[Any, Locator, list[Problem]]:
    """Parse one YAML document into plain data, its Locator, and the problems found.

    A syntax error gives ``(None, locator, [problem])``; duplicate keys are problems but the
    data is still returned (the first value wins).
    """
    locator = Locator(file=file, line_offset=line_offset, text=text)
    problems: list[Problem] = []
    try:
        node = compose(text)
    except TooDeep as exc:
        line, col = exc.args
        message = f"collections nested more than {MAX_DEPTH} deep: not loaded"
        problems.append(Problem(file, line + line_offset, col, "yaml", message))
        return None, locator, problems
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        what = exc.problem or exc.context or "invalid YAML"
        if exc.context and exc.problem:
            what = f"{exc.problem} ({exc.context}"
            if exc.context_mark is not None:
                what += f" that starts at line {exc.context_mark.line + 1 + line_offset}"
                what += f", col {exc.context_mark.column + 1}"
            what += ")"
        problems.append(Problem(file, line + line_offset, col, "yaml", f"YAML syntax: {what}"))
        return None, locator, problems
    except yaml.YAMLError as exc:
        problems.append(Problem(file, 1 + line_offset, 1, "yaml", f"YAML error: {exc}"))
        return None, locator, problems
    if node is None:
        return None, locator, problems
    if "&" in text:  # anchors, so maybe aliases: bound what they expand to
        try:
            check_expansion(node)
        except TooManyValues:
            message = (
                f"aliases expand to more than {MAX_VALUES:,} values (an alias bomb?): not loaded"
            )
            problems.append(Problem(file, 1 + line_offset, 1, "yaml", message))
            return None, locator, problems
    try:
        try:
            data = plain(node)
            locator.root = node
        except NeedsFullBuild:
            # merge keys, duplicate or non-text keys, recursive aliases: the full builder
            # indexes the positions and reports the problems
            locator._positions = ({}, {})
            data = _Builder(locator, problems).build(node, ())
    except RecursionError:
        message = "collections nested too deeply: not loaded"
        problems.append(Problem(file, 1 + line_offset, 1, "yaml", message))
        return None, locator, problems
    except yaml.constructor.ConstructorError as exc:
        mark = exc.problem_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problems.append(Problem(file, line + line_offset, col, "yaml", f"YAML: {exc.problem}"))
        return None, locator, problems
    return data, locator, problems
