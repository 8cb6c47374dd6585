"""No answer can fool the grader: every cheat below is a real learner answer, graded by the real
engine in the real sandbox under each containment layer, and none of them comes out correct.
Honest answers still pass on several seeds."""

from __future__ import annotations

import json

import pytest

from tests.grading.conftest import refs, unread
from tests.sandbox.conftest import layer_params
from tutor.grading.engine import grade

SEEDS = (0, 3, 11)
HONEST = {
    "double": "def double(x):\n    return x + x\n",
    "count": "def count(x):\n    return int(x.shape[0] * x.shape[1])\n",
    "doubled": "y = x.mul(2)\n",
    "linear": "def lin(x, w):\n    return torch.matmul(x, w.transpose(0, 1))\n",
    "square-grad": "def square_grad(x):\n    return x + x\n",
}
WRONG_DOUBLE = "def double(x):\n    return x + 1\n"
FORGED_RAN = {"op": "ran", "stage": "done", "outputs": []}
FORGED_RECORD = {"kind": "ok", "value": {"stage": "done", "trials": 6, "passed": 6}}


@pytest.fixture(scope="module")
def trust():
    return refs("trust.yaml")


@pytest.fixture(scope="module", params=layer_params())
def box(request):
    """A started sandbox per containment layer."""
    from tutor.sandbox import Sandbox

    sandbox = Sandbox(containment=request.param)
    sandbox.start()
    yield sandbox
    sandbox.close()


def graded(trust, box, drill: str, answer: str, seed: int = 3):
    return grade(trust[drill], answer, seed, box)


def judged(trust, box, drill: str, answer: str, seed: int = 3):
    """The judge's verdict alone, as if the reading had let the answer through: every answer
    below is refused by reading first (checked), and the judge must refuse it too."""
    g = graded(trust, box, drill, answer, seed)
    assert not g.correct and g.category == "tampered", g
    return unread(trust[drill], answer, seed, box)


def refused(g, *words: str) -> None:
    assert not g.correct and g.status != "correct", g
    text = g.feedback.lower()
    for word in words:
        assert word.lower() in text, g.feedback


@pytest.mark.parametrize("drill", sorted(HONEST))
def test_honest_answers_pass_on_several_seeds(trust, box, drill):
    for seed in SEEDS:
        g = graded(trust, box, drill, HONEST[drill], seed)
        assert g.correct, (seed, g.feedback)


# ---- section 1: the judge never runs where learner code runs


def test_forged_record_on_the_inherited_descriptor(trust, box):
    code = f"import os, json\nos.write(3, json.dumps({FORGED_RECORD!r}).encode())\nos._exit(0)\n"
    refused(graded(trust, box, "double", code))


def test_forged_message_in_the_judges_own_framing(trust, box):
    body = json.dumps(FORGED_RAN).encode()
    code = (
        "import os\n"
        f"body = {body!r}\n"
        "os.write(3, len(body).to_bytes(4, 'big') + body)\n"
        "def double(x):\n    return x + 1\n"
    )
    refused(graded(trust, box, "double", code), "not its results")


def test_forged_record_from_an_execed_shell(trust, box):
    code = (
        "import os\n"
        "os.execv('/bin/sh', ['sh', '-c', "
        f"{'printf %s ' + repr(json.dumps(FORGED_RECORD)) + ' >&3'!r}])\n"
    )
    g = graded(trust, box, "double", code)
    refused(g)
    assert g.status in ("wrong", "crashed"), g


def test_patching_the_grading_probe_through_sys_modules(trust, box):
    code = (
        "import sys\n"
        "for name in ('tutor.probes.grade_compare', 'tutor.probes.grade_code'):\n"
        "    m = sys.modules[name]\n"
        "    if hasattr(m, 'diff'):\n"
        "        m.diff = lambda *a, **k: None\n"
        "    m._assert = lambda *a, **k: {'ok': True}\n"
        "    m.run_code = lambda *a, **k: None\n" + WRONG_DOUBLE
    )
    refused(judged(trust, box, "double", code), "failed")
    code = code.replace(WRONG_DOUBLE, "y = x + 1\n")
    refused(judged(trust, box, "doubled", code), "y is not twice x")


def test_forged_names_with_the_results(trust, box):
    # the assert stage's names travel with the results; a learner that replaces them with
    # something that is not its names gets no verdict from them
    code = (
        "import sys\n"
        "m = sys.modules['tutor.probes.grade_learner']\n"
        "real = m.send\n"
        "def send(sock, message):\n"
        "    if message.get('op') == 'ran':\n"
        "        message['names'] = {'t': 'none'}\n"
        "    real(sock, message)\n"
        "m.send = send\n"
        "y = x + 1\n"
    )
    refused(judged(trust, box, "doubled", code), "names")


def test_a_peer_named_by_the_caller_is_not_the_judges_peer(trust, box):
    from tutor.grading.engine import judge, plan

    ref, answer = trust["double"], HONEST["double"]
    p = plan(ref, answer, 3)
    result = box.call(p.call.target, timeout=p.call.timeout, **p.call.kwargs, peer=[1, 0, 2])
    assert judge(ref, p, answer, result).correct, result


def test_replacing_json_dumps(trust, box):
    code = f"import json\njson.dumps = lambda *a, **k: {json.dumps(FORGED_RAN)!r}\n" + WRONG_DOUBLE
    refused(graded(trust, box, "double", code))


def test_reading_the_callers_frames_finds_no_reference(trust, box):
    code = (
        "import sys\n"
        "found = []\n"
        "f = sys._getframe()\n"
        "while f is not None:\n"
        "    for v in list(f.f_locals.values()):\n"
        "        if isinstance(v, str) and 'def double' in v and 'sys._getframe' not in v:\n"
        "            found.append(v)\n"
        "    f = f.f_back\n"
        "exec(found[0]) if found else None\n"
        "if not found:\n"
        "    def double(x):\n        return x + 1\n"
    )
    refused(graded(trust, box, "double", code))


def test_rebinding_torch_builtins_and_the_name_torch_for_the_assert(trust, box):
    code = (
        "import builtins\n"
        "y = x + 1\n"
        "torch.equal = lambda *a, **k: True\n"
        "builtins.abs = lambda v: 0.0\n"
    )
    refused(judged(trust, box, "doubled", code), "y is not twice x")
    # breaking its own process's builtins only breaks what it sends
    refused(judged(trust, box, "doubled", code + "builtins.float = lambda v: 30.0\n"))
    code = "y = x + 1\nclass T:\n    equal = staticmethod(lambda *a: True)\ntorch = T()\n"
    refused(judged(trust, box, "doubled", code), "y is not twice x")


def test_lying_eq_on_a_tensor_subclass(trust, box):
    code = (
        "class Liar(torch.Tensor):\n"
        "    def __eq__(self, other):\n        return True\n"
        "def double(x):\n    return torch.zeros_like(x).as_subclass(Liar)\n"
    )
    refused(graded(trust, box, "double", code), "subclass of Tensor", "plain tensor")


def test_lying_eq_on_an_int_subclass(trust, box):
    code = (
        "class Liar(int):\n"
        "    def __eq__(self, other):\n        return True\n"
        "    __hash__ = int.__hash__\n"
        "def count(x):\n    return Liar(0)\n"
    )
    refused(judged(trust, box, "count", code), "subclass of int")
    refused(graded(trust, box, "count", code.replace("    __hash__ = int.__hash__\n", "")),
            "subclass of int")  # fmt: skip


@pytest.mark.parametrize(
    ("code", "status"),
    [
        ("import sys\nsys.exit(0)\n", "wrong"),
        ("raise SystemExit(0)\n", "wrong"),
        ("import os\nos._exit(0)\n", "wrong"),
        ("import os\nos._exit(7)\n", "wrong"),
        ("raise KeyboardInterrupt\n", "wrong"),
        ("class Odd(BaseException):\n    pass\nraise Odd()\n", "wrong"),
        ("import os\nos.close(3)\ndef double(x):\n    return x * 2\n", "wrong"),
        ("import os\nos.execv('/bin/true', ['true'])\n", "wrong"),
        ("import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n", "crashed"),
    ],
)
def test_early_ends_are_plain_verdicts(trust, box, code, status):
    g = unread(trust["double"], code, 3, box)  # the judge's own verdict, whatever the reading says
    assert not g.correct and g.status == status, g


def test_exit_inside_the_function(trust, box):
    refused(graded(trust, box, "double", "def double(x):\n    raise SystemExit(0)\n"), "SystemExit")
    refused(judged(trust, box, "double", "import sys\ndef double(x):\n    sys.exit(0)\n"),
            "SystemExit")  # fmt: skip


# ---- section 2: forbid holds


@pytest.mark.parametrize(
    ("code", "why"),
    [
        ("def lin(x, w):\n    return torch.ops.aten.linear(x, w)\n", "torch.ops"),
        (
            "def lin(x, w):\n    with torch._C.DisableTorchFunction():\n"
            "        return F.linear(x, w)\n",
            "private torch names",
        ),
        (
            "from torch.overrides import _pop_mode_temporarily\n"
            "def lin(x, w):\n    with _pop_mode_temporarily():\n        return F.linear(x, w)\n",
            "torch.overrides",
        ),
        (
            'exec("def lin(x, w):\\n    return torch.stack([r @ w.T for r in x])")\n',
            "code built at run time",
        ),
        ("def lin(x, w):\n    return getattr(F, 'lin' + 'ear')(x, w)\n", "computed"),
        ("import ctypes\ndef lin(x, w):\n    return x @ w.T\n", "ctypes"),
        ("import sys\ndef lin(x, w):\n    return sys.modules['torch'].mm(x, w.T)\n", "sys"),
        ("def lin(x, w):\n    return vars(F)['linear'](x, w)\n", "vars"),
    ],
)
def test_dynamic_access_is_refused_with_the_reason(trust, box, code, why):
    g = graded(trust, box, "linear", code)
    refused(g, "forbids", why)
    assert g.category == "forbidden" and g.forbidden


def test_forbidding_autograd_forbids_backward(trust, box):
    code = (
        "def square_grad(x):\n"
        "    x = x.detach().requires_grad_()\n"
        "    (x ** 2).sum().backward()\n"
        "    return x.grad\n"
    )
    refused(graded(trust, box, "square-grad", code), "torch.autograd", "backward")


def test_computed_autograd_inside_an_assert_checked_answer(trust, box):
    code = (
        "def square_grad(x):\n"
        "    ag = getattr(torch, 'auto' + 'grad')\n"
        "    x = x.detach().requires_grad_()\n"
        "    return ag.grad((x ** 2).sum(), x)[0]\n"
    )
    refused(graded(trust, box, "square-grad", code), "computed")


def test_method_into_a_forbidden_function_is_traced_in_every_stage(trust, box):
    # no forbidden name in the text: only the trace, running during the assert's calls, sees it
    code = (
        "def square_grad(x):\n"
        "    x = x.detach().requires_grad_()\n"
        "    grad = torch.func.grad(lambda t: (t ** 2).sum())\n"
        "    return grad(x)\n"
    )
    g = graded(trust, box, "square-grad", code)
    assert not g.correct, g


# ---- data crossing into grading is validated


def _judged(ref, answer: str, value):
    from tutor.grading.engine import judge, plan
    from tutor.sandbox.result import RunResult, Status

    return judge(ref, plan(ref, answer, 1), answer, RunResult(status=Status.ok, value=value))


@pytest.mark.parametrize(
    "value",
    [
        {"error": None, "trials": 6},  # no stage
        {"stage": "finished"},
        {"stage": "done", "trials": "six"},
        {"stage": "done", "failure": {"trial": 0}},
        {"stage": "done", "assert": {"ok": "yes"}},
    ],
)
def test_malformed_code_data_is_a_sandbox_error(trust, value):
    g = _judged(trust["double"], HONEST["double"], value)
    assert g.status == "sandbox_error" and "cannot be read" in g.feedback, g


@pytest.mark.parametrize(
    "value",
    [{"value": {"type": "int", "value": 3}}, {"outcome": "value"}, {"outcome": "authoring"}],
)
def test_malformed_predict_data_is_a_sandbox_error(basics, value):
    g = _judged(basics["permute-shape"], "(4, 2, 3)", value)
    assert g.status == "sandbox_error" and "cannot be read" in g.feedback, g


def test_a_cheat_through_drill_run(tmp_path):
    import subprocess
    import sys

    from tests.grading.conftest import PACKS

    answer = tmp_path / "answer.py"
    answer.write_text(
        f"import os, json\nos.write(3, json.dumps({FORGED_RECORD!r}).encode())\nos._exit(0)\n"
    )
    cmd = [sys.executable, "-m", "tutor", "--pack", str(PACKS / "trust.yaml"), "drill", "run",
           "grading-trust/double", "--answer-file", str(answer), "--seed", "2", "--json"]  # fmt: skip
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["status"] == "wrong" and data["correct"] is False, data
