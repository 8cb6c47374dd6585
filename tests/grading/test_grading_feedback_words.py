"""Feedback reads right: an exception quoted keeps torch's own punctuation ("cpu!" is not
followed by a second stop, "cpu!."; a message without one gets one), one entry is one entry,
and a backend torch.compile cannot use is told what the backend did, not torch's advice on
reporting bugs."""

from __future__ import annotations

from tutor.grading.codecheck import judge_code


def _raised(message: str) -> str:
    error = {"type": "RuntimeError", "message": message, "line": 2}
    return judge_code({"stage": "answer_error", "error": error})[0].feedback


def test_an_exception_that_ends_its_own_sentence_is_not_given_another_stop():
    said = _raised("Tensor on device meta is not on the expected device cpu!")
    assert said == (
        "Your code raised RuntimeError at line 2: "
        "Tensor on device meta is not on the expected device cpu!"
    )
    assert _raised("shapes differ.").endswith("shapes differ.")
    assert _raised("shapes differ").endswith("shapes differ.")


def test_an_answer_of_one_entry_is_one_entry():
    from tutor.grading.predict import judge_predict

    items = [{"type": "str", "value": name} for name in ("aten.permute.default", "aten.mm.default")]
    verdict = judge_predict({"type": "list", "items": items}, None, "['aten.linear.default']", 1e-4)
    assert verdict.feedback.startswith("Your answer has 1 entry; the result has 2.")


def test_the_entries_that_differ_are_all_named():
    """One wrong entry is named; several are named together; when every entry differs the
    feedback says so, not that entry 0 is wrong."""
    from tutor.grading.predict import judge_predict

    truth = {"type": "list", "items": [{"type": "int", "value": v} for v in (2, 2, 2)]}
    said = {  # and the hint: work out the entries named, or redo the whole computation
        "[2, 5, 2]": ("Entry 1 (counting from 0) is wrong.", "values"),
        "[1, 2, 1]": ("Entries 0 and 2 (counting from 0) are wrong.", "values"),
        "[1, 1, 1]": ("Every entry is wrong.", "value"),
    }
    for answer, (feedback, category) in said.items():
        verdict = judge_predict(truth, None, answer, 1e-4)
        assert not verdict.correct and verdict.feedback.startswith(feedback), verdict.feedback
        assert verdict.category == category, answer
    floats = {"type": "list", "items": [{"type": "float", "value": v} for v in (0.5, 1.5)]}
    verdict = judge_predict(floats, None, "[1.0, 2.0]", 1e-4)
    assert verdict.feedback.startswith("Every entry is wrong."), verdict.feedback


def test_a_backend_torch_cannot_use_is_told_what_it_did_not_torchs_advice(sandbox):
    from tutor.content.catalog import Catalog
    from tutor.grading.engine import grade

    ref = Catalog.load().drill("guards/counting-backend")
    broken = (
        "def count(gm, example_inputs):\n    sizes.append(len(gm.graph.nodez))\n    return gm\n"
    )
    said = {
        "the starter returns None": (
            ref.drill.starter,
            "AssertionError: compiler_fn did not return callable",
        ),
        "a typo inside the backend": (
            broken,
            "AttributeError: 'Graph' object has no attribute 'nodez'",
        ),
    }
    for what, (answer, teaches) in said.items():
        verdict = grade(ref, answer, 1, sandbox)
        assert not verdict.correct, what
        assert verdict.feedback == (
            f"The check failed: torch.compile could not use your backend: {teaches}"
        ), (what, verdict.feedback)


def test_one_graph_break_left_is_counted_in_words_that_agree(sandbox):
    from tutor.content.catalog import Catalog
    from tutor.grading.engine import grade

    ref = Catalog.load().drill("guards/fix-item-break")
    kept_item = "def normalise(x):\n    m = x.mean().item()\n    return (x - m) / x.std()\n"
    verdict = grade(ref, kept_item, 1, sandbox)
    assert not verdict.correct
    assert verdict.feedback == "The check failed: graph breaks left: 1 (one graph needs 0)"


def test_a_backend_that_counts_the_wrong_nodes_is_told_what_each_entry_counts(sandbox):
    from tutor.content.catalog import Catalog
    from tutor.grading.engine import grade

    ref = Catalog.load().drill("guards/counting-backend")
    want = "each entry should count its graph's call_function and call_method nodes, [2, 3]"
    said = {
        "len(gm.graph.nodes)": "[4, 5]; " + want + "; yours count every node, the placeholders "
        "and the output too",
        'sum(n.op == "call_function" for n in gm.graph.nodes)': "[1, 1]; " + want + "; yours "
        "count the call_function nodes alone",
        "7": "[7, 7]; " + want,
    }
    for counted, feedback in said.items():
        answer = (
            f"def count(gm, example_inputs):\n    sizes.append({counted})\n    return gm.forward\n"
        )
        verdict = grade(ref, answer, 1, sandbox)
        assert verdict.feedback == f"The check failed: sizes recorded: {feedback}", counted
    twice = "def count(gm, example_inputs):\n    sizes.extend([2, 3])\n    return gm.forward\n"
    assert grade(ref, twice, 1, sandbox).feedback == (
        "The check failed: sizes recorded: [2, 3, 2, 3]; the backend receives 2 graphs, and each "
        "should add one entry"
    )


def test_a_check_that_meets_a_known_failure_says_what_it_means(sandbox):
    """Two graphs drills whose common mistakes ended in torch's raw text (a 25-line
    GuardOnDataDependentSymNode, an UnboundLocalError about a variable the learner never wrote)
    say what the mistake does instead."""
    from tutor.content.catalog import Catalog
    from tutor.grading.engine import grade

    catalog = Catalog.load()
    item = "class Gate(nn.Module):\n    def forward(self, x):\n        if x.sum().item() > 0:\n"
    item += "            return x * 2\n        return x - 1\n"
    rewire = (
        "def clamp_linears(gm, lo, hi):\n    for node in list(gm.graph.nodes):\n"
        "        if node.op == 'call_module' and isinstance(gm.get_submodule(node.target), nn.Linear):\n"
        "            with gm.graph.inserting_after(node):\n"
        "                new = gm.graph.call_function(torch.clamp, (node,), {'min': lo, 'max': hi})\n"
        "            node.replace_all_uses_with(new)\n{lint}    gm.recompile()\n    return gm\n"
    )
    said = [
        ("graphs/export-both-branches", item, "export still meets a Python decision"),
        ("graphs/clamp-linears", rewire.replace("{lint}", ""), "takes its own output as input"),
        ("graphs/clamp-linears", rewire.replace("{lint}", "    gm.graph.lint()\n"), "own output"),
    ]
    for drill, answer, words in said:
        verdict = grade(catalog.drill(drill), answer, 1, sandbox)
        assert not verdict.correct and words in verdict.feedback, (drill, verdict.feedback)


def test_a_bf16_loss_is_told_why_it_stayed_bf16(xla_sandbox):
    from tutor.content.catalog import Catalog
    from tutor.grading.engine import grade

    ref = Catalog.load().drill("tpu-practice/fix-bf16-loss")
    inputs_up = ref.drill.starter.replace("logits = x @ w", "logits = x.float() @ w.float()")
    for answer in (ref.drill.starter, inputs_up):
        verdict = grade(ref, answer, 1, xla_sandbox)
        assert not verdict.correct and "neither of autocast's lists" in verdict.feedback, (
            verdict.feedback
        )


def test_an_exception_without_a_message_in_the_check_is_not_called_an_assertion():
    # an EOFError from torch.load on a half-written file has no message
    def said(check: dict) -> str:
        value = {"stage": "done", "forbidden": [], "failure": None, "assert": check}
        return judge_code(value)[0].feedback

    assert said({"ok": False, "type": "EOFError", "message": ""}) == "The check raised EOFError."
    assert said({"ok": False, "type": "AssertionError", "message": ""}) == (
        "The check failed: the assertion failed"
    )
    assert said({"ok": False, "type": "KeyError", "message": "'w'"}) == (
        "The check raised KeyError: 'w'"
    )


def test_many_random_trials_are_said_as_ranges():
    """A few random trials are listed one by one; twenty are said as each size's span, one
    sentence that fits a narrow screen rather than twenty sizes over four lines."""
    from tutor.grading.shown import sizes_text

    def random(**sizes: int) -> dict:
        return {"kind": "random", "sizes": sizes}

    few = [random(n=4), random(n=2)]
    assert sizes_text(few) == "This attempt tries 2 random (n=4) (n=2)."
    many = [random(n=n, d=8 if n % 2 else 3) for n in range(2, 22)]
    assert (
        sizes_text(many) == "This attempt tries 20 random sizes, n from 2 to 21 and d from 3 to 8."
    )
    edges = [{"kind": "edge", "sizes": {"n": 0}}, *[random(n=5, d=d) for d in range(1, 9)]]
    assert (
        sizes_text(edges)
        == "This attempt tries edge sizes (n=0); 8 random sizes, n=5 and d from 1 to 8."
    )


def test_items_are_listed_in_words():
    from tutor.content.wording import listed

    assert [listed(items) for items in ([], ["n"], ["n", "d"], ["0", "2", "5"])] == [
        "",
        "n",
        "n and d",
        "0, 2 and 5",
    ]
