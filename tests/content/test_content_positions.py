"""YAML to data with positions: values, keys, merges, duplicates and syntax errors."""

from __future__ import annotations

import datetime

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.content.positions import dotted, parse_located

TEXT = """\
pack: demo
n: 3
drills:
  - id: a
    check:
      trials: 20
  - id: b
    flags: [yes, ~, '1', 0x10, 1.5]
when: 2024-01-02
"""


def test_values_and_keys_are_located_1_based():
    data, loc, problems = parse_located(TEXT, "f.yaml")
    assert problems == []
    assert data["drills"][0]["check"]["trials"] == 20
    assert loc.at(("drills", 0, "check", "trials")) == (6, 15)
    assert loc.key_at(("drills", 0, "check", "trials")) == (6, 7)
    assert loc.at(("drills", 1)) == (7, 5)
    assert loc.at(("drills", 1, "flags", 3)) == (8, TEXT.splitlines()[7].index("0x10") + 1)


def test_lookup_falls_back_to_the_nearest_enclosing_value():
    _, loc, _ = parse_located(TEXT, "f.yaml")
    # a block mapping starts where its first key is written
    assert loc.at(("drills", 0, "check", "missing", 4)) == (6, 7)
    assert loc.at(("nowhere",)) == (1, 1)


def test_scalars_follow_yaml_1_1_like_safe_load():
    data, _, _ = parse_located(TEXT, "f.yaml")
    assert data["n"] == 3
    assert data["drills"][1]["flags"] == [True, None, "1", 16, 1.5]
    assert data["when"] == datetime.date(2024, 1, 2)
    data, _, _ = parse_located("a: !!str 12\nb: 'true'\nc: |\n  1\n", "f.yaml")
    assert data == {"a": "12", "b": "true", "c": "1\n"}


def test_duplicate_keys_are_problems_at_the_second_key():
    _, _, problems = parse_located("a: 1\nb:\n  c: 1\n  c: 2\n", "f.yaml")
    assert [str(p) for p in problems] == [
        "f.yaml:4:3: b.c: duplicate key `c` (first written at line 3)"
    ]


def test_merge_keys_merge_without_overriding():
    data, loc, problems = parse_located("base: &b {x: 1, y: 2}\nd:\n  <<: *b\n  y: 3\n", "f.yaml")
    assert problems == []
    assert data["d"] == {"x": 1, "y": 3}
    assert loc.at(("d", "x")) == (1, 14)


def test_syntax_error_has_position_and_context():
    data, _, problems = parse_located("a: [1, 2\nb: 3\n", "f.yaml")
    assert data is None
    (problem,) = problems
    assert (problem.line, problem.col, problem.field) == (2, 2, "yaml")
    assert "that starts at line 1, col 4" in problem.message


def test_line_offset_shifts_everything():
    _, loc, problems = parse_located("a: 1\na: 2\n", "f.md", line_offset=1)
    assert loc.at(("a",)) == (2, 4)
    assert str(problems[0]) == "f.md:3:1: a: duplicate key `a` (first written at line 2)"


def test_dotted_paths():
    assert dotted(("drills", 2, "check", "trials")) == "drills[2].check.trials"
    assert dotted((3, "title")) == "[3].title"
    assert dotted(()) == ""


def test_recursive_alias_is_a_problem_not_a_crash():
    data, _, problems = parse_located("a: &x [1, *x]\n", "f.yaml")
    assert data == {"a": [1, None]}
    assert [str(p) for p in problems] == [
        "f.yaml:1:4: a[1]: an alias may not refer to a node that contains it"
    ]


SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)
DOCS = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=6).filter(lambda k: k != "<<"), inner, max_size=4)
    ),
    max_leaves=25,
)


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, (*path, i))


@settings(max_examples=150, deadline=None)
@given(DOCS, st.booleans())
def test_same_data_as_safe_load_and_every_value_located(doc, flow):
    text = yaml.safe_dump({"root": doc}, default_flow_style=flow, allow_unicode=True)
    data, loc, problems = parse_located(text, "f.yaml")
    assert problems == []
    assert data == yaml.load(text, Loader=yaml.CSafeLoader)
    for path in _paths(data):
        assert path in loc.values
