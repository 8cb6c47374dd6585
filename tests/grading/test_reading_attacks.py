"""The reading refuses every way around a drill's check or rules we know of, naming the line
and why, both in the torch-free pre-pass and with the judge's real torch (the authoritative
reading); whatever the pre-pass refuses, the judge's reading refuses too."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from tutor.probes.reading import Refusal, read_answer, static_resolver
from tutor.probes.reading_torch import TorchResolver

TRAIN = """
def _train(step, x, y):
    model = nn.Linear(1, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    losses = [step(model, opt, nn.MSELoss(), x, y) for _ in range(200)]
    return losses, model.weight.item(), model.bias.item()

def train_step_check(step):
    return _train(step, torch.ones(4, 1), torch.ones(4, 1))

_backward_calls = []
model = nn.Linear(2, 1)
model.register_full_backward_hook(lambda m, gi, go: _backward_calls.append(1))
"""
NO_FLIP = {"forbid": ["for", "while", "torch.flip"]}
PUZZLE = {"allow": ["torch.arange", "torch.where"], "forbid": ["for", "while"], "max_lines": 1}
OUTER = {"forbid": ["for", "while", "torch.outer", "torch.einsum"]}


@dataclass
class Attack:
    """An answer, the drill it attacks, and where and why it must be refused. ``static``: the
    torch-free pre-pass refuses it too (False: only the judge's torch can tell)."""

    code: str
    line: int
    words: str
    rules: dict = field(default_factory=dict)
    setup: str = ""
    static: bool = True


ATTACKS = {
    # -- forbidden calls run where the trace cannot see them
    "thread": Attack(
        "import threading\ndef rev(x):\n    out = []\n"
        "    t = threading.Thread(target=out.append, args=(x,))\n    t.start()\n    t.join()\n"
        "    return out[0]\n", 4, "threads", NO_FLIP),
    "thread pool": Attack(
        "from concurrent.futures import ThreadPoolExecutor\ndef rev(x):\n"
        "    with ThreadPoolExecutor() as pool:\n        return pool.submit(abs, x).result()\n",
        3, "threads", NO_FLIP),
    "process pool": Attack(
        "import multiprocessing\ndef rev(x):\n    with multiprocessing.Pool(2) as p:\n"
        "        return p.map(abs, [x])[0]\n", 3, "pickles" if False else "bytes back", NO_FLIP),
    "fork": Attack("import os\ndef rev(x):\n    if os.fork() == 0:\n        os._exit(0)\n    return x\n",
                   3, "processes", NO_FLIP),
    "torch.os fork": Attack("def rev(x):\n    torch.os.fork()\n    return x\n", 2, "processes",
                            NO_FLIP, static=False),
    "torch multiprocessing": Attack(
        "def rev(x):\n    return torch.multiprocessing.get_context('fork')\n", 2, "bytes back", NO_FLIP),
    "dataloader workers": Attack(
        "def rev(x):\n    return next(iter(torch.utils.data.DataLoader([x], num_workers=2)))\n",
        2, "processes", NO_FLIP),
    # -- tensor subclasses and torch function modes
    "one-line subclass": Attack(
        "T = type('T', (torch.Tensor,), {'__torch_function__': classmethod(lambda *a, **k: 0)})\n",
        1, "three it builds a class", NO_FLIP),
    "subclass": Attack("class T(torch.Tensor):\n    pass\n", 1, "subclass of Tensor", NO_FLIP),
    "subclass of a parameter": Attack("class T(nn.Parameter):\n    pass\n", 1, "subclass of Tensor",
                                      NO_FLIP),
    "torch function hook": Attack(
        "class M:\n    def __torch_function__(self, *a):\n        return 0\n", 2, "intercepts"),
    "function mode": Attack("from torch.overrides import TorchFunctionMode\n", 1, "interpreter"),
    "dispatch mode": Attack("from torch.utils._python_dispatch import TorchDispatchMode\n", 1,
                            "interpreter"),
    # -- the grader itself
    "the trace": Attack("import tutor.probes.forbid_trace\n", 1, "the grader itself"),
    "the trace, from": Attack("from tutor.probes import forbid_trace as ft\n", 1, "grader itself"),
    # -- builtins that call tensor methods
    "reversed": Attack("def rev(x):\n    return reversed(x)\n", 2, "calls `Tensor.flip`", NO_FLIP),
    "python lists under allow": Attack(
        "def reverse(a, i):\n    return a[list(reversed(range(i)))]\n", 2, "`reversed`", PUZZLE),
    "range under allow": Attack("def reverse(a):\n    return a[range(len(a) - 1, -1, -1)]\n", 2,
                                "the builtin `range`", PUZZLE),
    "int under allow": Attack("def f(x):\n    return torch.arange(int(x.sum()))\n", 2,
                              "`Tensor.item`", PUZZLE),
    # -- other array libraries, directly or through torch's own attributes
    "numpy": Attack("import numpy\ndef rev(x):\n    return x\n", 1, "only torch", NO_FLIP),
    "numpy as np": Attack("import numpy as np\ndef rev(x):\n    return torch.tensor(np.flip(x.numpy()))\n",
                          3, "another array library", NO_FLIP),
    "torch.storage.np": Attack(
        "def rev(x):\n    return torch.tensor(torch.storage.np.flip(x.numpy()).copy())\n",
        2, "another array library", NO_FLIP, static=False),
    "autocast np": Attack(
        "def rev(x):\n    return torch.tensor(torch.amp.autocast_mode.np.flip(x.numpy()).copy())\n",
        2, "another array library", NO_FLIP, static=False),
    "torch.builtins": Attack("x = torch.builtins.exec('y = 1')\n", 1, "interpreter", static=False),
    "torch.sys": Attack("x = torch.sys.modules\n", 1, "interpreter", static=False),
    "F.torch": Attack("def f(a, b):\n    return F.torch.outer(a, b)\n", 2, "forbids `torch.outer`",
                      OUTER, static=False),
    "same object": Attack("def f(a, b):\n    return torch.functional.einsum('i,j->ij', a, b)\n", 2,
                          "forbids `torch.einsum`", OUTER, static=False),
    # -- a forbidden name behind a default argument, called in a thread
    "default argument": Attack(
        "import threading\ndef rev(x, t=[torch][0]):\n    out = []\n"
        "    threading.Thread(target=lambda: out.append(t.flip(x, [0]))).start()\n    return x\n",
        2, "never as a value", NO_FLIP),
    # -- T1: rebinding what the setup binds, every way
    "def": Attack("def _train(step, x, y):\n    return [0.0], 3.0, -1.0\n", 1, "may not rebind",
                  setup=TRAIN),
    "assign": Attack("train_step_check = lambda step: ([0.0], 3.0, -1.0)\n", 1, "may not rebind",
                     setup=TRAIN),
    "import as": Attack("from math import sqrt as train_step_check\n", 1, "may not rebind",
                        setup=TRAIN),
    "for": Attack("for train_step_check in [print]:\n    pass\n", 1, "may not rebind", setup=TRAIN),
    "with": Attack("import contextlib\nwith contextlib.nullcontext(1) as model:\n    pass\n", 2,
                   "may not rebind", setup=TRAIN),
    "global": Attack("def f():\n    global model\n    model = None\nf()\n", 3, "may not rebind",
                     setup=TRAIN),
    "walrus": Attack("print(model := None)\n", 1, "may not rebind", setup=TRAIN),
    "walrus in a comprehension": Attack("[(model := v) for v in [1]]\n", 1, "may not rebind",
                                        setup=TRAIN),
    "del": Attack("del model\n", 1, "may not rebind", setup=TRAIN),
    "class": Attack("class train_step_check:\n    pass\n", 1, "may not rebind", setup=TRAIN),
    "except": Attack("try:\n    1 / 0\nexcept ZeroDivisionError as model:\n    pass\n", 3,
                     "may not rebind", setup=TRAIN),
    "the name torch": Attack("import numpy as torch\n", 1, "may not rebind"),
    "a builtin the setup reads": Attack("def range(n):\n    return [0]\n", 1, "setup uses",
                                        setup=TRAIN),
    "builtins of the namespace": Attack("__builtins__ = {}\n", 1, "interpreter"),
    "star import": Attack("from math import *\n", 1, "`*` import"),
    # -- T1/T2/T3: reaching the namespace another way
    "globals": Attack("globals()['_train'] = print\n", 1, "computed at run time", setup=TRAIN),
    "function globals": Attack("def f():\n    pass\nf.__globals__['model'] = None\n", 3, "dunder"),
    "getframe": Attack("import sys\nsys._getframe(0).f_globals['model'] = None\n", 1,
                       "interpreter"),
    "generator frame": Attack("g = (i for i in [1])\ng.gi_frame.f_globals['model'] = None\n", 2,
                              "frames"),
    "traceback": Attack("try:\n    1 / 0\nexcept Exception as e:\n    f = e.__traceback__\n", 4,
                        "dunder"),
    "traceback frame": Attack("def f(tb):\n    return tb.tb_frame\n", 2, "frames"),
    "private instrument": Attack("_backward_calls.append(1)\n", 1, "instruments", setup=TRAIN),
    "private helper called": Attack("x = _train(print, 1, 2)\n", 1, "instruments", setup=TRAIN),
    "attrgetter": Attack("import operator\nd = operator.attrgetter('__globals__')(print)\n", 2,
                         "computed at run time"),
    "computed getattr": Attack("def f(x):\n    return getattr(x, 'f_' + 'globals')\n", 2,
                               "computed at run time"),
    "getattr as a value": Attack("g = getattr\n", 1, "called directly"),
    "string formatter": Attack("import string\nf = string.Formatter().get_field('0', [1], {})\n", 2,
                               "strings"),
    "main module": Attack("import __main__\n", 1, "interpreter"),
    "a file written, then imported": Attack(
        "open('mine.py', 'w').write('x = 1')\nimport mine\n", 2, "standard library"),
    "relative import": Attack("from . import x\n", 1, "relative"),
    "eval": Attack("eval('1')\n", 1, "built at run time"),
    "exec": Attack("exec('x = 1')\n", 1, "built at run time"),
    "compile": Attack("c = compile('1', 'f', 'eval')\n", 1, "built at run time"),
    "__import__": Attack("m = __import__('sys')\n", 1, "built at run time"),
    "vars": Attack("v = vars(torch)\n", 1, "computed at run time"),
    "breakpoint": Attack("breakpoint()\n", 1, "interpreter"),
    "pickle": Attack("import pickle\n", 1, "bytes back"),
    "torch.load": Attack("m = torch.load('m.pt', weights_only=False)\n", 1, "weights_only"),
    "torch.load partial": Attack(
        "import functools\nload = functools.partial(torch.load, weights_only=False)\n", 2,
        "weights_only"),
    "torch.load pickle module": Attack("m = torch.load('m.pt', pickle_module=None)\n", 1,
                                       "weights_only"),
    "numpy pickles": Attack("import numpy\nm = numpy.load('a.npy', allow_pickle=True)\n", 2,
                            "allow_pickle"),
    "environment": Attack("import os\nos.environ['TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD'] = '1'\n", 2,
                          "`os.environ` is"),
    "environment update": Attack("import os\nos.environ.update(A='1')\n", 2, "environment"),
    "environment by name": Attack("from os import putenv\nputenv('A', '1')\n", 2, "environment"),
    "timer code": Attack(
        "import torch.utils.benchmark as b\nt = b.Timer(stmt='import sys')\n", 2, "interpreter"),
    "timer code not literal": Attack(
        "import torch.utils.benchmark as b\ncode = 'x'\nt = b.Timer(stmt=code)\n", 3, "literal"),
    "patch an aten op": Attack("torch.library.impl('aten::add', 'CPU')\n", 1, "operators"),
    "global module hook": Attack(
        "torch.nn.modules.module.register_module_forward_hook(lambda m, i, o: o)\n", 1,
        "every module"),
    "object collectives": Attack("def f(x):\n    torch.distributed.broadcast_object_list([x])\n", 2,
                                 "bytes back"),
    # -- T4: patching modules, classes and setup functions
    "class method": Attack("nn.Linear.forward = lambda self, x: x\n", 1, "change its attributes"),
    "setattr": Attack("setattr(torch.optim.SGD, 'step', lambda self: None)\n", 1,
                      "change its attributes"),
    "through a name": Attack("t = torch.optim.SGD\nt.step = lambda self: None\n", 1,
                             "never used as a value"),
    "type of an object": Attack("type(model).forward = lambda self, x: x\n", 1,
                                "change its attributes", setup=TRAIN),
    "module function": Attack("torch.equal = lambda *a: True\n", 1, "change its attributes"),
    "setup function": Attack("train_step_check.cache = {}\n", 1, "change its attributes",
                             setup=TRAIN),
    "module dict item": Attack("import os\nos.path.x = 1\n", 2, "change its attributes"),
    # -- T5: modules and classes as values
    "module in a list": Attack("ms = [torch]\n", 1, "never as a value"),
    "module returned": Attack("def f():\n    return nn\n", 2, "never as a value"),
    "class global": Attack("class A:\n    global model\n    model = None\n", 3, "may not rebind",
                           setup=TRAIN),
    "a base reached by mro": Attack(
        "class L(nn.Linear):\n    pass\nL.mro()[1].forward = lambda self, x: x\n", 3, "bases"),
    "a class as a default": Attack("def f(x, c=nn.Linear):\n    return c\n", 1, "never used as a value"),
    "type of an object bound": Attack("cls = type(model)\ncls.forward = print\n", 1,
                                      "never used as a value", setup=TRAIN),
    "module in a with": Attack("with torch as t:\n    pass\n", 1, "never as a value"),
    "module in a keyword": Attack("print(1, sep=torch)\n", 1, "never as a value"),
    "module in a lambda default": Attack("f = lambda t=torch: t\n", 1, "never as a value"),
    "torch.jit.fork": Attack("def rev(x):\n    return torch.jit.wait(torch.jit.fork(abs, x))\n", 2,
                             "threads", NO_FLIP),
    "class passed": Attack("import functools\np = functools.partial(setattr, nn.Linear)\n", 2,
                           "called directly"),
    # -- loops in disguise under `for`
    "map": Attack("def f(a, b):\n    return list(map(lambda r: r * b, a))\n", 2, "loop in disguise",
                  OUTER),
    "recursion": Attack("def f(a, b, i=0):\n    return a[i:] * b if i else f(a, b, 1)\n", 2,
                        "calls itself", OUTER),
    "mutual recursion": Attack(
        "def f(a):\n    return g(a)\ndef g(a):\n    return f(a) if len(a) else a\n", 2, "calls itself",
        OUTER),
    "iter with a sentinel": Attack("def f(a, b):\n    return list(iter(lambda: a, b))\n", 2,
                                   "loop in disguise", OUTER),
    "key function": Attack("def f(a, b):\n    return sorted([a, b], key=lambda t: t.sum())\n", 2,
                           "loop in disguise", OUTER),
    "reduce": Attack("import functools\ndef f(a, b):\n    return functools.reduce(max, [a, b])\n", 3,
                     "loop in disguise", OUTER),
    "apply_": Attack("def f(a, b):\n    return a.apply_(lambda v: v * 2)\n", 2, "forbids (`for`)",
                     OUTER),
    # -- other ways around forbid and allow
    "method form": Attack("def f(a, b):\n    return a.outer(b)\n", 2, "forbids (`torch.outer`)",
                          OUTER),
    "operator": Attack("def f(a, b):\n    return a @ b\n", 2, "`torch.matmul`",
                       {"forbid": ["torch.matmul"]}),
    "method by getattr": Attack("def f(a, b):\n    return getattr(a, 'outer')(b)\n", 2,
                                "forbids (`torch.outer`)", OUTER),
    "namespace method": Attack("def f(x):\n    x.sum().backward()\n    return x.grad\n", 2,
                               "`torch.autograd`", {"forbid": ["torch.autograd"]}),
    "private torch": Attack("def f(a, b):\n    return torch._C._VariableFunctions.outer(a, b)\n", 2,
                            "private torch names", OUTER),
    "torch.ops": Attack("def f(a, b):\n    return torch.ops.aten.outer(a, b)\n", 2, "torch.ops",
                        OUTER),
    "undefined name": Attack("def f(a, b):\n    return mystery(a, b)\n", 2, "defined nowhere",
                             OUTER),
    "tensor method under allow": Attack("def f(x):\n    return x.sum()\n", 2,
                                        "`Tensor.sum` is not in", PUZZLE),
    "property under allow": Attack("def f(x):\n    return x.T\n", 2, "`Tensor.T` is not in",
                                   PUZZLE),
    "function under allow": Attack("def f(x):\n    return torch.flip(x, [0])\n", 2, "not in this",
                                   PUZZLE),
    "function as a value under allow": Attack("def f(x):\n    g = torch.flip\n    return g(x, [0])\n",
                                              2, "not in this", PUZZLE, static=False),
    "a flip method in a puzzle": Attack("def flip(a, i):\n    return a.flip(0)\n", 2, "`Tensor.flip`",
                                        PUZZLE),
    "a cumsum method in a puzzle": Attack("def cumsum(a):\n    return a.cumsum(0)\n", 2,
                                          "`Tensor.cumsum`", PUZZLE),
    "the sum builtin in a puzzle": Attack("def total(a):\n    return sum(a)\n", 2, "`sum`", PUZZLE),
    "a sorted puzzle": Attack("def s(a):\n    return torch.tensor(sorted(a.tolist()))\n", 2,
                              "`sorted`", PUZZLE),
    "numpy in a puzzle": Attack("import numpy as np\ndef flip(a, i):\n    return a[np.arange(i)[::-1].copy()]\n",
                                1, "only torch", PUZZLE),
    "abs under allow": Attack("def f(x):\n    return abs(x)\n", 2, "`Tensor.abs`", PUZZLE),
    # -- max_lines: code hidden where lines were not counted
    "after an import": Attack("import torch; y = torch.flip\ndef f(x):\n    return y(x, [0])\n", 0,
                              "2 lines of code", {"max_lines": 1}),
    "in a def line": Attack(
        "def f(x, y=(a := torch.arange(3)),\n      z=(b := a * 2)):\n    return a + b + x\n", 0,
        "3 lines of code", {"max_lines": 1}),
    "a lambda default": Attack("def f(x, g=lambda v: v.flip(0)):\n    return g(x)\n", 0,
                               "2 lines of code", {"max_lines": 1}),
    "a decorator": Attack(
        "def twice(f):\n    return lambda x: f(f(x))\n@twice\ndef f(x):\n    return x + 1\n", 0,
        "3 lines of code", {"max_lines": 2}),
    "statements joined": Attack("def f(x):\n    y = x + 1; return y\n", 0, "2 lines of code",
                                {"max_lines": 1}),
}  # fmt: skip


def read(attack: Attack, resolver) -> list[Refusal]:
    r = attack.rules
    return read_answer(attack.code, setup=attack.setup, forbid=r.get("forbid", []),
                       allow=r.get("allow", []), max_lines=r.get("max_lines"), resolver=resolver)  # fmt: skip


def refused_here(found: list[Refusal], attack: Attack) -> bool:
    return any(f.line == attack.line and attack.words in f"{f.written}: {f.why}" for f in found)


@pytest.fixture(scope="module")
def torch_resolver():
    return TorchResolver()


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_the_judges_reading_refuses_it_with_the_line_and_reason(name, torch_resolver):
    attack = ATTACKS[name]
    found = read(attack, torch_resolver)
    assert refused_here(found, attack), [str(f) for f in found]


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_the_pre_pass_refuses_no_more_than_the_judge(name, torch_resolver):
    attack = ATTACKS[name]
    found = read(attack, static_resolver(attack.code, attack.setup))
    if attack.static:
        assert refused_here(found, attack), [str(f) for f in found]
    judge = {(f.line, f.written) for f in read(attack, torch_resolver)}
    assert {(f.line, f.written) for f in found} <= judge


def test_every_attack_of_the_list_is_here():
    # the attacks named when this reading was built, each under its own name above
    named = {"thread", "thread pool", "process pool", "fork", "one-line subclass", "subclass",
             "the trace", "reversed", "python lists under allow", "numpy", "torch.storage.np",
             "autocast np", "torch.sys", "default argument", "after an import", "in a def line",
             "a decorator", "a lambda default", "def", "assign", "import as", "for", "with",
             "global", "walrus", "del", "class", "globals", "function globals", "getframe",
             "generator frame", "traceback", "class method", "setattr", "through a name",
             "type of an object", "private instrument"}  # fmt: skip
    assert named <= set(ATTACKS)
