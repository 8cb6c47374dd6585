"""The loop stepper's playhead and the labs' input parsers, checked on generated input."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tutor.probes.data_ledger import parse_shape
from tutor.probes.data_logits import parse_logits
from tutor.ui.labs.loop.loop_playhead import Playhead

ACTIONS = st.sampled_from(["line", "step", "jump", "rewind", "finish"])


@given(steps=st.integers(0, 50), actions=st.lists(ACTIONS, max_size=60), jump=st.integers(1, 20))
def test_playhead_stays_in_the_run(steps, actions, jump):
    head = Playhead(steps=steps)
    for action in actions:
        before = head.done
        if action == "line":
            head.next_line()
            assert head.done == min(before + 1, head.end)
        elif action == "step":
            head.next_step()
            assert head.done % head.width == 0 and (head.done > before or head.at_end)
        elif action == "jump":
            head.advance_steps(jump)
        elif action == "rewind":
            head.rewind()
        else:
            head.finish()
        assert 0 <= head.done <= head.end
        assert head.completed * head.width <= head.done
        if head.done:
            assert head.step * head.width + head.line + 1 == head.done
        else:
            assert head.step == head.line == -1


@given(st.lists(st.integers(1, 4096), min_size=1, max_size=5), st.sampled_from([", ", "x", " "]))
def test_parse_shape_round_trip(dims, sep):
    assert parse_shape(sep.join(map(str, dims))) == dims


@given(st.lists(st.floats(-1e4, 1e4, allow_nan=False), min_size=2, max_size=12))
def test_parse_logits_round_trip(values):
    assert parse_logits(", ".join(repr(v) for v in values)) == values
