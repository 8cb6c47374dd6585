"""Composing YAML with libyaml, and the fast conversion of a node tree to plain data.

The document is composed by libyaml with a lean resolver (SafeLoader's YAML 1.1 implicit tags,
without the path resolvers nothing here uses), then ``plain`` turns the nodes into dicts, lists
and scalars. ``plain`` handles the everyday document; anything unusual (merge keys, duplicate or
non-text keys, recursive aliases) raises ``NeedsFullBuild`` so the caller can use the slower
builder that records positions and reports problems.
"""

from __future__ import annotations

from typing import Any

import yaml

_STR = "tag:yaml.org,2002:str"
_SEQ = "tag:yaml.org,2002:seq"
_MAP = "tag:yaml.org,2002:map"
_CONSTRUCTORS = yaml.constructor.SafeConstructor.yaml_constructors
_IMPLICIT = yaml.resolver.Resolver.yaml_implicit_resolvers


_INT = "tag:yaml.org,2002:int"
_SCALAR = yaml.ScalarNode
_SEQUENCE = yaml.SequenceNode
_TAGS: dict[str, str] = {}
"""plain scalar -> its resolved tag (keys and short values repeat a lot in packs)"""


def _resolve(self: Any, kind: type, value: str, implicit: tuple[bool, bool]) -> str:
    """SafeLoader's YAML 1.1 tag resolution, minus the unused path resolvers (much faster)."""
    if kind is _SCALAR:
        if implicit[0]:
            tag = _TAGS.get(value)
            return tag if tag is not None else _resolve_plain(value)
        return _STR
    return _SEQ if kind is _SEQUENCE else _MAP


def _resolve_plain(value: str) -> str:
    tag = _STR
    for candidate, regexp in _IMPLICIT.get(value[:1], ()):
        if regexp.match(value):
            tag = candidate
            break
    if len(value) <= 40 and len(_TAGS) < 20_000:
        _TAGS[value] = tag
    return tag


try:
    from yaml.cyaml import CParser
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    CParser = None

if CParser is not None:

    class _Loader(CParser, yaml.constructor.SafeConstructor, yaml.resolver.BaseResolver):
        """libyaml's composer with a lean resolver; nodes are turned into data by _Builder."""

        def __init__(self, stream: str) -> None:
            CParser.__init__(self, stream)
            yaml.constructor.SafeConstructor.__init__(self)
            yaml.resolver.BaseResolver.__init__(self)

        resolve = _resolve
        # libyaml's composer calls these around every node to track path resolvers, which
        # are not used here: builtins that accept the same arguments make them near-free.
        descend_resolver = slice  # called as (parent, index)
        ascend_resolver = tuple  # called as ()

else:  # pragma: no cover - PyYAML built without libyaml

    class _Loader(yaml.SafeLoader):  # type: ignore[no-redef]
        """The pure-Python loader, when libyaml is missing."""


class NeedsFullBuild(Exception):
    """The document needs the full builder (and may have problems to report)."""


_CONSTRUCTOR = yaml.constructor.SafeConstructor()


MAX_DEPTH = 1000
"""How deeply collections may nest (libyaml's composer recurses in C once per level, and
overflows the C stack some tens of thousands of levels down)."""


class TooDeep(Exception):
    """The document nests collections more than ``MAX_DEPTH`` deep (args: line, column)."""


def check_depth(text: str, limit: int = MAX_DEPTH) -> None:
    """Raise TooDeep if ``text`` nests collections more than ``limit`` deep.

    Cheap for ordinary files: flow collections nest only through brackets, and every block
    collection sits at its own indentation column (a sequence may share its parent key's), so
    the depth is at most the brackets plus twice the longest line. Only a file where that bound
    passes ``limit`` has its parser events counted (libyaml's parser does not recurse).
    """
    longest = max(map(len, text.splitlines()), default=0)
    if text.count("[") + text.count("{") + 2 * (longest + 1) <= limit:
        return
    depth = 0
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > limit:
                raise TooDeep(event.start_mark.line + 1, event.start_mark.column + 1)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


def compose(text: str) -> yaml.Node | None:
    """The node tree of one YAML document (None for an empty one); raises yaml.YAMLError
    (and TooDeep before composing a document nested too deeply to compose safely)."""
    check_depth(text)
    return yaml.compose(text, Loader=_Loader)


MAX_VALUES = 200_000
"""The most values a document may expand to once its aliases are followed."""


class TooManyValues(Exception):
    """The document's aliases expand to more than ``MAX_VALUES`` values (an alias bomb)."""


def check_expansion(node: yaml.Node, limit: int = MAX_VALUES) -> int:
    """How many values ``node`` expands to, each alias counted in full; raises TooManyValues
    past ``limit``. Linear in the number of distinct nodes (an alias is the same node object
    again, so each node's count is computed once); a node inside itself counts once."""
    sizes: dict[int, int] = {}
    open_: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(node, False)]
    while stack:
        current, children_done = stack.pop()
        key = id(current)
        if type(current) is _SCALAR:
            sizes[key] = 1
            continue
        items = current.value
        children = items if type(current) is _SEQUENCE else [n for pair in items for n in pair]
        if children_done:
            open_.discard(key)
            total = 1 + sum(sizes.get(id(child), 1) for child in children)
            if total > limit:
                raise TooManyValues(total)
            sizes[key] = total
        elif key not in sizes and key not in open_:
            open_.add(key)
            stack.append((current, True))
            stack.extend(
                (child, False)
                for child in children
                if id(child) not in sizes and id(child) not in open_
            )
    return sizes[id(node)]


def plain(node: yaml.Node) -> Any:
    """The plain data of a node tree, as ``yaml.safe_load`` would give it."""
    try:
        return _plain(node)
    except RecursionError:
        raise NeedsFullBuild from None


def _plain(node: yaml.Node) -> Any:
    kind = type(node)
    if kind is _SCALAR:
        tag = node.tag
        if tag == _STR:
            return node.value
        if tag == _INT:
            value = node.value
            if value.isdigit() and (value[0] != "0" or value == "0"):  # plain decimal
                return int(value)
        return _CONSTRUCTORS.get(tag, _CONSTRUCTORS[None])(_CONSTRUCTOR, node)
    if kind is _SEQUENCE:
        return [_plain(item) for item in node.value]
    out: dict[str, Any] = {}
    for key_node, value_node in node.value:
        if type(key_node) is not _SCALAR or key_node.tag != _STR or key_node.value in out:
            raise NeedsFullBuild
        out[key_node.value] = _plain(value_node)
    return out
