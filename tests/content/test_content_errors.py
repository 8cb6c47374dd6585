"""Every kind of pack problem, reported at its exact file:line:col with the field and a fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.content.loader import load_pack, load_pack_located, parse_pack
from tutor.content.problems import PackError, Problem

PACKS = Path(__file__).parent / "packs"


def problems_of(name: str) -> list[str]:
    """The problems of a fixture pack, without the file part (which is checked separately)."""
    path = PACKS / "errors" / name
    with pytest.raises(PackError) as info:
        load_pack(path)
    for p in info.value.problems:
        assert Path(p.file).resolve() == path.resolve()
    return [f"{p.line}:{p.col}: {p.field}: {p.message}" for p in info.value.problems]


def test_problem_prints_as_file_line_col_field_message():
    problem = Problem("p.yaml", 3, 9, "drills[0].id", "bad id")
    assert str(problem) == "p.yaml:3:9: drills[0].id: bad id"
    error = PackError([problem, problem])
    assert error.problems == [problem, problem]
    assert str(error) == "p.yaml:3:9: drills[0].id: bad id\np.yaml:3:9: drills[0].id: bad id"


def test_unknown_keys_at_the_key_with_a_suggestion():
    assert problems_of("unknown-key.yaml") == [
        "7:5: drills[0].promt: unknown key `promt` (did you mean `prompt`?)",
        "10:5: drills[0].check: unknown key `check` "
        "(a predict drill has no `check`; code and fix drills do)",
    ]


def test_unknown_kinds_at_the_kind_value():
    assert problems_of("unknown-kind.yaml") == [
        "6:11: drills[0].kind: unknown kind `predcit` (did you mean `predict`?)",
        "10:11: drills[1].kind: unknown kind `essay` (one of predict, order, choice, code, fix)",
    ]


def test_missing_fields_at_the_enclosing_mapping_with_the_reason():
    assert problems_of("missing.yaml") == [
        "5:5: drills[0].ask: field required: `ask` "
        "(a predict drill needs the expression whose value is the truth)",
        "8:5: drills[1].kind: field required: `kind` (one of predict, order, choice, code, fix)",
        "10:5: drills[2].reference: field required: `reference` "
        "(a code drill needs a correct answer to grade against)",
        "10:5: drills[2].check: field required: `check` "
        "(a code drill needs to say how answers are graded)",
        "16:5: drills[3].starter: field required: `starter` "
        "(a fix drill needs the broken code the learner repairs)",
    ]


def test_wrong_types_and_bounds_in_plain_words():
    assert problems_of("types.yaml") == [
        "1:7: pack: `Bad Id` is not a valid id: use lowercase letters, digits and '-', "
        "starting with a letter or digit",
        '2:8: title: expected text, got `2024` (quote it: "2024")',
        "3:10: chapter: must be at most 12, got `13`",
        "12:15: drills[0].check.trials: expected an integer, got `many`",
        "13:18: drills[0].check.tolerance: must be at least 0.0, got `-1`",
        "15:25: drills[0].check.args.x.tensor[1]: expected an integer or text (a param name)",
        "16:12: drills[0].check.args.y: expected `{tensor: [shape, ...]}` or `{value: ...}`",
        "17:12: drills[0].hints: expected a list (`- item` lines or `[a, b]`), got `a single hint`",
    ]


def test_pack_level_checks_all_reported_in_one_pass():
    assert problems_of("checks.yaml") == [
        "9:16: drills[0].params.a.int: empty range [5, 2]: low must not exceed high "
        "(did you mean [2, 5]?)",
        "10:19: drills[0].params.b.choice: empty choice: list at least one value",
        "15:26: drills[0].hints[0]: `{nope}` is not a declared param (declared: a, b, c)",
        "18:9: drills[1].id: duplicate id `ranges` (first used by drills[0], line 5)",
        "22:7: drills[1].choices: exactly one answer must be correct, found 2",
        "22:18: drills[1].choices[0].answer: `{x}` is not a declared param "
        "(this drill declares no params; write `{{` and `}}` for literal braces)",
        "30:7: drills[2].lines: an order drill needs at least two lines, found 1",
        "33:39: drills[3].prompt: `{m}` is not a declared param (declared: n)",
        "41:25: drills[3].check.args.a.tensor[1]: `m` in the shape is not a declared param "
        "(declared: n)",
        "42:21: drills[3].check.args.b.value: `{k}` is not a declared param (declared: n)",
    ]


def test_yaml_syntax_error_with_position():
    assert problems_of("syntax.yaml") == [
        "8:8: yaml: YAML syntax: did not find expected ',' or ']' "
        "(while parsing a flow sequence that starts at line 7, col 13)"
    ]


def test_duplicate_key_is_an_error():
    assert problems_of("duplicate-key.yaml") == [
        "9:5: drills[0].prompt: duplicate key `prompt` (first written at line 7)"
    ]


def test_choice_params_narrow_to_the_member_written():
    text = "pack: p\ntitle: t\nchapter: 1\ndrills:\n  - id: a\n    kind: predict\n"
    text += "    prompt: x\n    ask: '1'\n    params:\n      n: {int: [1, 2, 3]}\n"
    text += "      m: {choice: 5}\n"
    with pytest.raises(PackError) as info:
        parse_pack(text, "t.yaml")
    assert [str(p) for p in info.value.problems] == [
        "t.yaml:10:16: drills[0].params.n.int: expected `[low, high]`: two integers, "
        "both inclusive",
        "t.yaml:11:19: drills[0].params.m.choice: expected a list (`- item` lines or `[a, b]`), "
        "got `5`",
    ]


def test_empty_and_non_mapping_files():
    with pytest.raises(PackError) as info:
        parse_pack("", "e.yaml")
    assert str(info.value.problems[0]).startswith("e.yaml:1:1: yaml: the file is empty")
    with pytest.raises(PackError) as info:
        parse_pack("- 1\n- 2\n", "l.yaml")
    assert [str(p) for p in info.value.problems] == [
        "l.yaml:1:1: document: expected a mapping (`key: value` lines), got a list"
    ]


def test_the_packs_md_example_loads_with_positions(tmp_path):
    pack, locator = load_pack_located(PACKS / "packs-example.yaml")
    assert pack.pack == "views-and-copies"
    assert [d.kind for d in pack.drills] == ["predict", "order", "choice", "code", "fix"]
    assert pack.source == PACKS / "packs-example.yaml"
    assert locator.at(("drills", 3, "check", "trials")) == (65, 15)
    assert locator.key_at(("drills", 0, "ask")) == (19, 5)


def test_unknown_lab_and_bad_torch_specifier():
    from tutor.content.pack_rules import LAB_NAMES

    assert problems_of("labs-and-torch.yaml") == [
        '4:8: torch: `2.4+` is not a version specifier (write e.g. ">=2.4" or ">=2.4,<3")',
        "10:10: drills[0].lab: unknown lab `strid` (did you mean `stride`?)",
        f"15:10: drills[1].lab: unknown lab `heatmap` (one of {', '.join(LAB_NAMES)})",
    ]


def test_yaml_typed_scalars_and_keys_read_as_written():
    text = "pack: p\ntitle: yes\nchapter: 1\n3: x\ndrills:\n  - id: a\n    kind: predict\n"
    text += "    prompt: x\n    ask: y\n"
    with pytest.raises(PackError) as info:
        parse_pack(text, "k.yaml")
    assert [str(p) for p in info.value.problems] == [
        'k.yaml:2:8: title: expected text, got `true` (quote it: "true")',
        "k.yaml:4:1: 3: unknown key `3`",
    ]


def test_placeholder_problem_points_into_a_block_of_text():
    text = "pack: p\ntitle: t\nchapter: 1\ndrills:\n  - id: a\n    kind: predict\n"
    text += "    prompt: |\n      First line.\n      Then {zz} and {{zz}}.\n    ask: '1'\n"
    with pytest.raises(PackError) as info:
        parse_pack(text, "b.yaml")
    assert [str(p) for p in info.value.problems] == [
        "b.yaml:9:12: drills[0].prompt: `{zz}` is not a declared param "
        "(this drill declares no params; write `{{` and `}}` for literal braces)"
    ]


def test_code_that_cannot_compile_is_found_by_pack_check():
    from tutor.content.pack_lint import check_paths

    path = PACKS / "errors" / "code.yaml"
    load_pack(path)  # the catalog loads it: compiling is pack check's job
    packs, problems = check_paths([path])
    assert packs == []
    assert [f"{p.line}:{p.col}: {p.field}: {p.message}" for p in problems] == [
        "10:21: drills[0].setup: not valid Python: expected ':'",
        "12:12: drills[0].ask: not one Python expression: invalid syntax",
        "23:13: drills[1].check.call: `f` is not defined at the top level of the reference",
        "24:34: drills[1].check.assert: not valid Python: invalid syntax",
        "31:19: drills[2].reference: not valid Python: '[' was never closed",
    ]
