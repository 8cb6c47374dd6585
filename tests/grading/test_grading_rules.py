"""Rules an answer must follow (`allow`, `max_lines`), the comparison an author chooses, and
the feedback of a `wrong` answer, graded by the real engine in the real sandbox."""

from __future__ import annotations

import pytest

from tests.grading.conftest import refs
from tutor.content.problems import errors
from tutor.grading.codecheck import judge_static
from tutor.grading.engine import grade
from tutor.probes.reading import count_lines

RIGHT = "def counts(a, j):\n    return (a[:, None] == torch.arange(j)).sum(0)\n"


@pytest.fixture(scope="module")
def rules():
    return refs("rules.yaml")


def graded(rules, sandbox, drill: str, answer: str, seed: int = 3):
    return grade(rules[drill], answer, seed, sandbox)


def test_the_honest_answer_passes_on_several_seeds(rules, sandbox):
    for seed in (0, 5, 12):
        g = graded(rules, sandbox, "counts", RIGHT, seed)
        assert g.correct, g.feedback


def test_a_call_outside_the_allow_list_is_refused_by_reading(rules, sandbox):
    g = graded(
        rules, sandbox, "counts", "def counts(a, j):\n    return torch.bincount(a, minlength=j)\n"
    )
    assert not g.correct and g.category == "not_allowed"
    assert "line 2: `torch.bincount`" in g.feedback and "`torch.arange`" in g.feedback


def test_a_method_outside_the_allow_list_is_refused_by_reading(rules, sandbox):
    code = "def counts(a, j):\n    return (a[:, None] == torch.arange(j)).long().sum(0)\n"
    assert judge_static(rules["counts"].drill, code) is not None  # refused before running
    g = graded(rules, sandbox, "counts", code)
    assert not g.correct and g.category == "not_allowed"
    assert "line 2: `" in g.feedback and "`Tensor.long` is not in" in g.feedback
    assert "does not allow" in g.feedback


def test_operators_indexing_and_shape_are_always_allowed(rules, sandbox):
    code = "def counts(a, j):\n    return ((a[:, None] - torch.arange(j) == 0) * 1).sum(0) + a.shape[0] * 0\n"
    assert graded(rules, sandbox, "counts", code).correct


@pytest.mark.parametrize(
    ("code", "why"),
    [
        ("def counts(a, j):\n    return torch.ops.aten.bincount(a, None, j)\n", "torch.ops"),
        ("def counts(a, j):\n    return getattr(a, 'bin' + 'count')(minlength=j)\n", "computed"),
        ("def counts(a, j):\n    return eval('a.bincount(minlength=j)')\n", "built at run time"),
        ("exec('def counts(a, j):\\n    return a.bincount(minlength=j)')\n", "built at run time"),
        ("def counts(a, j):\n    return __import__('torch').bincount(a, minlength=j)\n",
         "built at run time"),
        ("def counts(a, j):\n    with torch._C.DisableTorchFunction():\n"
         "        return a.bincount(minlength=j)\n", "private torch names"),
        ("from torch.overrides import _pop_mode_temporarily\n"
         "def counts(a, j):\n    with _pop_mode_temporarily():\n"
         "        return a.bincount(minlength=j)\n", "torch.overrides"),
        ("import sys\ndef counts(a, j):\n    return sys.modules['torch'].bincount(a, minlength=j)\n",
         "sys"),
        ("def counts(a, j):\n    return vars(torch)['bincount'](a, minlength=j)\n", "vars"),
        ("import importlib\ndef counts(a, j):\n"
         "    return importlib.import_module('torch').bincount(a, minlength=j)\n", "importlib"),
    ],
)  # fmt: skip
def test_every_way_around_the_allow_list_is_refused(rules, sandbox, code, why):
    g = graded(rules, sandbox, "counts", code)
    assert not g.correct and g.forbidden, g
    assert why.lower() in g.feedback.lower(), g.feedback


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("import operator\ndef counts(a, j):\n    return operator.methodcaller('bincount', minlength=j)(a)\n",
         "line 1: `import operator`"),
        ("def counts(a, j):\n    return list(map(torch.Tensor.bincount, [a]))[0][:j]\n",
         "line 2: `torch.Tensor.bincount`"),
    ],
)  # fmt: skip
def test_calls_through_other_names_are_refused_by_reading(rules, sandbox, code, words):
    assert judge_static(rules["counts"].drill, code) is not None
    g = graded(rules, sandbox, "counts", code)
    assert not g.correct and words in g.feedback, g.feedback


def test_max_lines_counts_code_lines_of_function_bodies():
    assert count_lines('def f(a,\n      b):\n    """doc"""\n    # note\n\n    return a\n') == 1
    assert count_lines("g = lambda a: a\ndef f(a):\n    x = (a +\n         1)\n    return x\n") == 4


def test_joining_statements_on_one_line_does_not_escape_max_lines(rules):
    code = "def counts(a, j):\n    h = a[:, None] == torch.arange(j); return h.sum(0)\n"
    assert count_lines(code) == 2
    verdict = judge_static(rules["counts"].drill, code)
    assert verdict is not None and verdict[0].category == "max_lines"
    assert count_lines("def f(x):\n    if x: return 1\n    return 2\n") == 3


def test_max_lines_refuses_a_longer_answer_without_running_it(rules):
    code = "def counts(a, j):\n    hits = a[:, None] == torch.arange(j)\n    return hits.sum(0)\n"
    verdict = judge_static(rules["counts"].drill, code)
    assert verdict is not None and verdict[0].category == "max_lines"
    assert "2 lines of code" in verdict[0].feedback and "at most 1 line" in verdict[0].feedback


def test_a_wrong_answers_feedback_is_shown_when_the_answer_fails_the_same_way(rules, sandbox):
    code = "def counts(a, j):\n    return (torch.arange(j) == a[:, None]).sum(1)\n"
    g = graded(rules, sandbox, "counts", code)
    assert not g.correct and "You summed over the wrong axis." in g.feedback
    other = "def counts(a, j):\n    return (a[:, None] == torch.arange(j)).sum(0) * 2\n"
    g = graded(rules, sandbox, "counts", other)
    assert not g.correct and "wrong axis" not in g.feedback


def test_a_failure_names_the_input_expected_got_and_index(rules, sandbox):
    code = "def counts(a, j):\n    return (a[:, None] == torch.arange(j)).sum(0) * 2\n"
    g = graded(rules, sandbox, "counts", code)
    f = g.failure
    assert f is not None and f["inputs"] and f["expected"] and f["got"]
    assert f["what"] == "values" and isinstance(f["index"], list)
    assert f["inputs"] in g.feedback and f"index {f['index']}" in g.feedback


def test_the_smallest_failing_input_is_an_edge_size_when_one_fails(rules, sandbox):
    code = "def counts(a, j):\n    return (a[:, None] == torch.arange(j)).sum(0)[: len(a) or 1]\n"
    g = graded(rules, sandbox, "counts", code)
    assert not g.correct and g.failure["kind"] == "edge"
    assert "a: shape (0,)" in g.failure["inputs"] and "an edge size" in g.feedback


def test_distinct_dims_make_a_transposed_shape_fail(rules, sandbox):
    g = graded(rules, sandbox, "transpose-free", "def ones_t(x):\n    return torch.ones_like(x)\n")
    assert not g.correct and g.category in ("shape", "broadcasting")


def test_order_free_comparison_as_a_set(rules, sandbox):
    flipped = "def common(a, b):\n    return torch.unique(a[torch.isin(a, b)]).flip(0)\n"
    g = graded(rules, sandbox, "common", flipped)
    assert g.correct and "only which values appear matters" in g.feedback
    g = graded(rules, sandbox, "common", "def common(a, b):\n    return a + 1\n")
    assert not g.correct and "(compared as sets of values)" in g.feedback
    g = graded(rules, sandbox, "common", "def common(a, b):\n    return a\n")
    assert not g.correct and "(compared as sets of values)" in g.feedback


def test_broadcastable_shape_and_any_numeric_dtype(rules, sandbox):
    g = graded(rules, sandbox, "row-sums", "def row_sums(x):\n    return x.sum(1, keepdim=True)\n")
    assert g.correct, g.feedback
    assert "broadcasts" in g.feedback and "any numeric dtype" in g.feedback
    g = graded(rules, sandbox, "row-sums", "def row_sums(x):\n    return x.sum(0, keepdim=True)\n")
    assert not g.correct and "does not broadcast" in g.feedback


def test_sorted_comparison_ignores_order_only(rules, sandbox):
    code = "def evens_first(x):\n    return torch.cat([x[x % 2 == 0].flip(0), x[x % 2 == 1]])\n"
    assert graded(rules, sandbox, "shuffle", code).correct
    g = graded(rules, sandbox, "shuffle", "def evens_first(x):\n    return x + 0 * x[:1]\n")
    assert not g.correct  # every value, but odds may come first: the assert refuses it


def _pack(tmp_path, drill_yaml: str):
    path = tmp_path / "p.yaml"
    text = "pack: p\ntitle: P\nchapter: 1\ndrills:\n" + "".join(
        "  " + line + "\n" for line in drill_yaml.strip("\n").splitlines()
    )
    path.write_text(text, encoding="utf-8")
    return path


COUNTS = """
- id: counts
  kind: code
  prompt: Count.
  starter: |
    def counts(a, j):
        ...
  reference: |
    def counts(a, j):
        return (a[:, None] == torch.arange(j)).sum(0)
  check:
    call: counts
    args:
      a: {tensor: [n], dtype: int64, range: [0, j - 1]}
      j: {value: "{j}"}
    params:
      n: {int: [2, 6]}
      j: {int: [2, 4]}
"""


@pytest.mark.parametrize(
    ("rules", "words"),
    [
        ("allow: [torch.where, torch.Tensor.sum]", "line 2: `torch.arange`"),
        ("allow: [torch.arange]", "`Tensor.sum` is not in"),
        ("forbid: [torch.Tensor.sum]", "`torch.Tensor.sum`"),
        ("allow: [torch.arange, torch.Tensor.sum]\nmax_lines: 1\nsetup: ''", None),
    ],
)
def test_pack_check_proves_the_reference_obeys_its_rules(tmp_path, sandbox, rules, words):
    from tutor.grading.packcheck import check_pack

    extra = "".join("  " + line + "\n" for line in rules.splitlines())
    problems = errors(check_pack(_pack(tmp_path, COUNTS + extra), sandbox))
    if words is None:
        assert problems == []
        return
    (p,) = problems
    assert p.field == "drills[0].reference" and "breaks the drill's own rules" in p.message
    assert words in p.message, p.message


def test_pack_check_names_inputs_that_cannot_be_drawn(tmp_path, sandbox):
    from tutor.grading.packcheck import check_pack

    text = COUNTS.replace("range: [0, j - 1]}", "range: [0, j - 1], unique: true}")
    (p,) = errors(check_pack(_pack(tmp_path, text), sandbox))
    assert p.field == "drills[0].check.args" and "do not fit in [0, " in p.message


def test_the_ported_puzzle_of_the_docs_passes_pack_check(tmp_path, sandbox):
    from pathlib import Path

    from tutor.grading.packcheck import check_pack

    doc = (Path(__file__).parents[2] / "docs" / "packs.md").read_text(encoding="utf-8")
    start = doc.index("pack: port-a-puzzle")
    path = tmp_path / "port.yaml"
    path.write_text(doc[start : doc.index("```", start)], encoding="utf-8")
    assert check_pack(path, sandbox) == []


def test_pack_check_names_a_case_that_cannot_be_built(tmp_path):
    from tutor.content.pack_lint import check_paths

    text = COUNTS + "    cases:\n      - {a: [[0], [1, 2]], j: 3}\n"
    _packs, problems = check_paths([_pack(tmp_path, text)])
    (p,) = errors(problems)
    assert p.field == "drills[0].check.cases[0]" and "`a` is ragged" in p.message
