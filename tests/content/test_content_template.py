"""Placeholders in drill text: found, rendered, and every other brace left alone."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tutor.content.template import placeholders, render


def test_placeholders_are_identifiers_in_single_braces():
    text = "x = torch.randn({a}, {b_2}); d = {'k': 1}; f'{x:.2f}' {1} {a b} {{c}}"
    assert placeholders(text) == {"a", "b_2"}


def test_escaped_braces_are_not_placeholders_but_triple_braces_are():
    assert placeholders("{{a}}") == set()
    assert placeholders("{{{a}}}") == {"a"}


def test_render_replaces_only_declared_names():
    code = 'x = torch.zeros({n}); d = {"k": {n}}; s = {m}; print(f"{x.shape} {{n}}")'
    out = render(code, {"n": 3})
    assert out == 'x = torch.zeros(3); d = {"k": 3}; s = {m}; print(f"{x.shape} {{n}}")'


def test_render_unescapes_only_when_asked():
    assert render("{{n}} is {n}", {"n": 4}) == "{{n}} is 4"
    assert render("{{n}} is {n}", {"n": 4}, unescape=True) == "{n} is 4"


def test_render_uses_str_of_values():
    assert render("({a}, {b})", {"a": 2, "b": (1, 2)}) == "(2, (1, 2))"


@given(st.text(alphabet="{}abc:'\" ()", max_size=40))
def test_render_without_params_is_identity(text):
    assert render(text, {}) == text


@given(st.text(alphabet="{}xy ", max_size=30))
def test_render_touches_only_placeholders(text):
    # rendering x as itself changes nothing; text without {x} is never changed
    assert render(text, {"x": "{x}"}) == text
    if "x" not in placeholders(text):
        assert render(text, {"x": "7"}) == text
