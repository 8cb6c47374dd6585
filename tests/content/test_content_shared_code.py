"""Shared code (the pack's `setup`, a drill's `uses`), edges with a minimum and literal cases
held to the declared inputs: what loading gives each drill, and what `pack check` refuses."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tutor.content.loader import parse_pack
from tutor.content.models import Check
from tutor.content.pack_lint import check_paths
from tutor.content.problems import PackError
from tutor.grading.trials import trial_specs

HEAD = "pack: shared\ntitle: Shared code\nchapter: 1\n"


def code(ident: str, fn: str, body: str, **extra: str) -> str:
    """A code drill whose reference defines ``fn`` returning ``body`` (YAML, indented)."""
    lines = [f"  - id: {ident}", "    kind: code", "    prompt: x",
             f'    starter: "def {fn}(a):\\n    ...\\n"',
             f'    reference: "def {fn}(a):\\n    return {body}\\n"',
             f"    check: {{call: {fn}, args: {{a: {{tensor: [2]}}}}}}"]  # fmt: skip
    lines += [f"    {k}: {v}" for k, v in extra.items()]
    return "\n".join(lines) + "\n"


def load(text: str):
    return parse_pack(text, "shared.yaml")[0]


def problems(text: str) -> list[str]:
    with pytest.raises(PackError) as caught:
        parse_pack(text, "shared.yaml")
    return [f"{p.field}: {p.message}" for p in caught.value.problems]


def test_uses_gives_the_used_references_and_theirs_in_file_order_after_the_pack_setup():
    pack = load(
        HEAD
        + "setup: |\n  K = {n}\ndrills:\n"
        + code("first", "first", "a")
        + code("second", "second", "first(a)", uses="[first]")
        + code(
            "third",
            "third",
            "second(a) + K",
            uses="[second]",
            setup="'z = {n}'",
            params="{n: {int: [4, 4]}}",
        )  # fmt: skip
    )
    first, second, third = pack.drills
    assert first.setup_code({}) == "K = {n}"  # the pack's setup is never filled in
    assert second.used_drills == ("first",) and third.used_drills == ("first", "second")
    given = third.setup_code({"n": 4})
    assert given.index("def first") < given.index("def second") < given.index("z = 4")
    assert given.startswith("K = {n}\n")
    assert third.setup_place(1) == (("given",), 1)
    assert third.setup_place(given.count("\n") + 1) == (("setup",), 1)


def test_a_drill_without_shared_code_keeps_its_own_setup_exactly():
    pack = load(HEAD + "drills:\n" + code("only", "only", "a", setup="'x = {n}'",
                                          params="{n: {int: [2, 2]}}"))  # fmt: skip
    assert pack.drills[0].setup_code({"n": 2}) == "x = 2"
    assert pack.drills[0].setup_place(1) == (("setup",), 1)


def test_uses_entries_that_cannot_be_given_are_refused_at_the_entry():
    found = problems(
        HEAD
        + "drills:\n"
        + "  - {id: guess, kind: predict, prompt: x, ask: '1'}\n"
        + code("ones", "ones", "a")
        + code("varied", "varied", "a", params="{n: {int: [1, 2]}}")
        + code("own", "own", "a", setup="'y = 1'")
        + code(
            "user", "user", "ones(a)", uses="[onse, later, user, guess, varied, own, ones, ones]"
        )  # fmt: skip
        + code("later", "later", "a")
    )
    assert found == [
        "drills[4].uses: a drill is named twice in `uses`",
        "drills[4].uses[0]: no drill `onse` in this pack (did you mean `ones`?)",
        "drills[4].uses[1]: `later` comes after this drill (drills[5]): a drill may use only "
        "the drills before it",
        "drills[4].uses[2]: `user` is this drill: a drill may use only the drills before it",
        "drills[4].uses[3]: `guess` is a predict drill: only code and fix drills have a "
        "reference whose functions can be called",
        "drills[4].uses[4]: `varied` has params: the functions it gives must read the same in "
        "every variant, so a used drill draws its sizes in `check.params`",
        "drills[4].uses[5]: `own` has a setup of its own, which is not given with its "
        "reference: put what its reference needs in the pack's `setup`",
    ]


def test_a_drill_may_not_name_its_function_like_one_it_uses(tmp_path: Path):
    path = tmp_path / "clash.yaml"
    path.write_text(HEAD + "drills:\n" + code("ones", "ones", "a")
                    + code("again", "ones", "a + 1", uses="[ones]"))  # fmt: skip
    packs, found = check_paths([path])
    assert not packs
    assert [(p.field, p.message) for p in found] == [
        ("drills[1].check.call", "`ones` is also defined by the reference of `ones`, which "
         "this drill uses: name the drill's function differently")]  # fmt: skip


def test_the_pack_setup_must_compile(tmp_path: Path):
    path = tmp_path / "bad.yaml"
    path.write_text(HEAD + "setup: 'def (:'\ndrills:\n" + code("a", "a", "a"))
    _packs, found = check_paths([path])
    assert [(p.field, p.line) for p in found] == [("setup", 4)]


def test_nested_merge_keys_merge_all_the_way_down():
    pack = load(
        HEAD
        + "drills:\n"
        + "  - {id: a, kind: predict, prompt: x, ask: '1', hints: &h [one]}\n"
        + "  - &b {id: b, kind: predict, prompt: y, ask: '2', tags: [t]}\n"
        + "  - &c {<<: *b, id: c}\n"
        + "  - {<<: *c, id: d, prompt: z}\n"
    )
    assert [(d.id, d.prompt, d.tags) for d in pack.drills[1:]] == [
        ("b", "y", ["t"]), ("c", "y", ["t"]), ("d", "z", ["t"])]  # fmt: skip


def test_edges_with_a_minimum_try_min_and_the_next_size():
    check = Check.model_validate({
        "call": "f", "args": {"x": {"tensor": ["n", "m"]}}, "trials": 1,
        "params": {"n": {"int": [1, 5]}, "m": {"int": [0, 3]}},
        "edges": [{"param": "n", "min": 1}, "m"]})  # fmt: skip
    edges = [s["params"] for s in trial_specs(check, {}, 7) if s["kind"] == "edge"]
    assert [e["n"] for e in edges[:2]] == [1, 2] and [e["m"] for e in edges[2:]] == [0, 1]
    assert edges[0]["m"] in range(4) and edges[2]["n"] in range(1, 6)


def edge_pack(edges: str, n: str = "[2, 6]") -> str:
    return (HEAD + "drills:\n" + code("e", "e", "a").replace(
        "{call: e, args: {a: {tensor: [2]}}}",
        f"{{call: e, args: {{a: {{tensor: [n]}}}}, params: {{n: {{int: {n}}}}}, "
        f"edges: {edges}}}"))  # fmt: skip


def test_an_edge_outside_its_range_is_refused_but_a_plain_name_tries_0_and_1_anyway():
    assert problems(edge_pack("[{param: n, min: 1}]")) == [
        "drills[0].check.edges[0].min: edge sizes 1 and 2 are not both in `n`'s range [2, 6]"
    ]
    assert problems(edge_pack("[{param: n, min: 6}]")) == [
        "drills[0].check.edges[0].min: edge sizes 6 and 7 are not both in `n`'s range [2, 6]"
    ]
    assert problems(edge_pack("[{param: q, min: 1}]")) == [
        "drills[0].check.edges[0].param: `q` is not one of the check's own params (drawn per "
        "trial: n)"]  # fmt: skip
    assert load(edge_pack("[n]")).drills[0].check.edge_sizes == [("n", 0), ("n", 1)]
    assert load(edge_pack("[{param: n, min: 2}]")).warnings == []


CASES = """\
pack: cases
title: Cases
chapter: 1
drills:
  - id: c
    kind: code
    prompt: x
    starter: "def f(a, j, s, t, m, b):\\n    ...\\n"
    reference: "def f(a, j, s, t, m, b):\\n    return a\\n"
    check:
      call: f
      args:
        a: {tensor: [n], dtype: int64, range: [0, j - 1], sorted: true}
        j: {value: "{j}"}
        s: {tensor: [2], dtype: int64, unique: true}
        t: {tensor: [2], dtype: int64, sum: 4}
        m: {tensor: [2, k], dtype: bool, density: 0.5}
        b: {tensor: [n]}
      params: {n: {int: [1, 5]}, j: {int: [2, 5]}, k: {int: [1, 3]}}
      cases:
"""


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("{a: [0, 1, 4], j: 3}", "`a` holds 4, above its range [0, 2]"),
        ("{a: [-1], j: 3}", "`a` holds -1, below its range [0, 2]"),
        ("{a: [2, 1], j: 3}", "row 0 of `a` is not sorted: [2, 1]"),
        ("{s: [2, 2]}", "row 0 of `s` repeats 2"),
        ("{t: [1, 2]}", "row 0 of `t` adds up to 3, not 4"),
        ("{m: [[true, true], [true, false]]}", "`m` has 3 True of 4; `density` 0.5 asks for 2"),
        ("{m: [[1, 0], [0, 1]]}", "`m` is a bool tensor but holds 1"),
        (
            "{a: [0, 2]}",
            "`a` holds 2, above its range [0, 1] when j = 2 (drawn per trial; "
            "give it in the case to fix it)",
        ),
        ("{a: [0.5], j: 3}", "`a` is an integer tensor but holds 0.5"),
        ("{a: [[0]], j: 3}", "`a` has 2 dimensions; it is declared with 1 (n)"),
        (
            "{a: [0, 1], b: [1.0, 2.0, 3.0], j: 3}",
            "`b` makes `n` 3, but the case already makes it 2",
        ),
        ("{s: [1, 2, 1]}", "`s` has size 3 where its shape declares 2"),
        ("{b: [[1.0], [2.0, 3.0]]}", "`b` is ragged: its rows do not all have the same length"),
    ],
)
def test_a_case_that_breaks_the_declared_inputs_is_refused_naming_it(case, message):
    text = CASES + f"        - {{a: [0], j: 2}}\n        - {case}\n"
    assert problems(text) == [f"drills[0].check.cases[1]: case 1 breaks the declared inputs: "
                              f"{message}"]  # fmt: skip


def test_cases_that_keep_the_declarations_pass():
    good = ["{a: [0, 0, 2], j: 3}", "{a: [0]}", "{s: [1, 3], t: [4, 0], m: [[true, false], [false, true]]}",
            "{a: [], j: 2}", "{b: [1.5, 2.5], a: [0, 1], j: 2}"]  # fmt: skip
    pack = load(CASES + "".join(f"        - {c}\n" for c in good))
    assert len(pack.drills[0].check.cases) == len(good)


def test_the_chained_puzzle_pack_loads_with_every_drill_given_what_it_uses():
    path = Path(__file__).parents[1] / "grading" / "packs" / "chained-puzzles.yaml"
    packs, found = check_paths([path])
    assert found == [] and len(packs[0].drills) == 16
    by_id = {d.id: d for d in packs[0].drills}
    assert by_id["compress"].used_drills == ("triu", "cumsum")
    assert by_id["bincount"].used_drills == ("ones", "eye")
    assert "def cumsum(a):" in by_id["compress"].setup_code({})
    # the public set took 1,240 lines with every earlier function copied into each drill
    assert len(path.read_text().splitlines()) < 1240 // 3


def test_a_pack_setup_reaches_predict_drills_too():
    pack = load(HEAD + "setup: 'W = 3'\ndrills:\n  - {id: p, kind: predict, prompt: x, "
                "ask: 'W + {n}', params: {n: {int: [1, 1]}}, setup: 'V = {n}'}\n")  # fmt: skip
    assert pack.drills[0].setup_code({"n": 1}) == textwrap.dedent("W = 3\nV = 1")
