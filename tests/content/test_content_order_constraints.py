"""Order drills' `constraints` and `run` in a pack file: the forms they take, and every
mistake reported at its file:line:col (torch-free)."""

from __future__ import annotations

import pytest

from tutor.content.loader import parse_pack
from tutor.content.models import OrderDrill, OrderRule
from tutor.content.problems import PackError

HEAD = "pack: p\ntitle: P\nchapter: 1\ndrills:\n"
DRILL = """  - id: o
    kind: order
    prompt: Order them.
    lines:
      - optimizer.zero_grad()
      - out = model(x)
      - loss = criterion(out, y)
      - loss.backward()
      - optimizer.step()
"""


def problems(tail: str) -> list[str]:
    with pytest.raises(PackError) as err:
        parse_pack(HEAD + DRILL + tail, "p.yaml")
    return [str(p) for p in err.value.problems]


def test_both_forms_load_and_name_lines_by_text_or_number():
    pack, _ = parse_pack(
        HEAD + DRILL + "    constraints:\n"
        "      - [out = model(x), 'loss = criterion(out, y)', 4, 5]\n"
        "      - order: [1, loss.backward()]\n"
        "        why: Clearing them there throws away what the step reads.\n",
        "p.yaml",
    )
    drill = pack.drills[0]
    assert isinstance(drill, OrderDrill)
    assert drill.rules == [
        OrderRule(order=["out = model(x)", "loss = criterion(out, y)", 4, 5]),
        OrderRule(
            order=[1, "loss.backward()"], why="Clearing them there throws away what the step reads."
        ),
    ]


def test_a_constraint_that_lines_breaks_is_refused_at_its_line_and_column():
    found = problems("    constraints:\n      - [loss.backward(), 3]\n")
    assert found == [
        "p.yaml:15:27: drills[0].constraints[0][1]: `lines` puts line 3 (`loss = criterion(out, "
        "y)`) before line 4 (`loss.backward()`), which this constraint forbids: `lines` is "
        "shown as the answer, so it must keep every constraint"
    ]


@pytest.mark.parametrize(
    ("written", "message"),
    [
        ("[1, 6]", "p.yaml:15:13: drills[0].constraints[0][1]: there is no line 6: `lines` has 5 "
         "(numbered from 1)"),
        ("[1, loss.backwards()]", "p.yaml:15:13: drills[0].constraints[0][1]: "
         "`loss.backwards()` is not one of the drill's lines (did you mean `loss.backward()`?)"),
        ("[2, 2]", "p.yaml:15:13: drills[0].constraints[0][1]: line 2 is named twice"),
        ("[2]", "p.yaml:15:9: drills[0].constraints[0]: a constraint names two lines or more, "
         "each to come before the next"),
        ("[true, 2]", "p.yaml:15:10: drills[0].constraints[0][0]: name a line by its full text "
         "or its number (from 1)"),
        ("'1 before 2'", "p.yaml:15:9: drills[0].constraints[0]: expected a list of lines (each "
         "its text or its number) or `{order: [lines...], why: ...}`"),
        ("{order: [1, 2], whyy: x}", "p.yaml:15:25: drills[0].constraints[0].whyy: unknown key "
         "`whyy` (did you mean `why`?)"),
    ],
)  # fmt: skip
def test_each_mistake_in_a_constraint_is_named_where_it_is(written, message):
    assert problems(f"    constraints:\n      - {written}\n") == [message]


def test_a_line_written_twice_cannot_be_named():
    text = HEAD + DRILL.replace("      - optimizer.step()\n", "      - out = model(x)\n")
    with pytest.raises(PackError) as err:
        parse_pack(text + "    constraints:\n      - [2, 4]\n", "p.yaml")
    (problem,) = err.value.problems
    assert problem.field == "drills[0].constraints[0][0]" and (problem.line, problem.col) == (
        15,
        10,
    )
    assert "written the same as line 5" in problem.message


def test_a_run_needs_its_assert():
    found = problems("    run: {}\n")
    assert found == ["p.yaml:14:10: drills[0].run.assert: field required: `assert`"]
