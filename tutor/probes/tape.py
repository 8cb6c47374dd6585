"""Runtime side of the tape stepper: run the learner's forward code, record the graph it built,
then run backward with hooks on every node to capture the real execution order and gradients."""

from __future__ import annotations

import ast
import contextlib
import io
import math
import time
import warnings
from typing import Any

import torch

from tutor.probes.data_tape import (
    Leaf,
    NoGradRun,
    SecondBackward,
    Tape,
    TapeNode,
    TapeStep,
    TensorVal,
)
from tutor.probes.stride_map import as_json

#: tensors with more elements than this are shown as a flat head
SHOW_CAP = 256
#: finite differences are taken for at most this many elements per leaf
FD_CAP = 64
FD_STEP = 1e-6
#: seconds all finite differences together may take (the rest is reported as unchecked)
FD_BUDGET_S = 3.0


class TapeInputError(ValueError):
    """The forward code cannot be stepped; the message says why in plain words."""


def tensor_val(t: torch.Tensor | None) -> TensorVal | None:
    """A tensor as small JSON data."""
    if t is None:
        return None
    t = t.detach()
    if t.numel() <= SHOW_CAP:
        return TensorVal(shape=list(t.shape), values=rounded(t.tolist()))
    return TensorVal(shape=list(t.shape), values=rounded(t.reshape(-1)[:64].tolist()), elided=True)


def rounded(values: Any) -> Any:
    """Nested lists with every number JSON-safe and rounded to 6 significant digits."""
    if isinstance(values, list):
        return [rounded(v) for v in values]
    return as_json(values)


def is_backward_call(stmt: ast.stmt) -> bool:
    """True for a top-level ``something.backward(...)`` statement."""
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    return (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == "backward"
    )


def parse(code: str) -> tuple[list[ast.stmt], str]:
    """The statements (without the learner's own ``backward()``) and the output's name."""
    try:
        tree = ast.parse(code, filename="<forward code>")
    except SyntaxError as exc:
        raise TapeInputError(f"syntax error on line {exc.lineno}: {exc.msg}") from None
    body = [s for s in tree.body if not is_backward_call(s)]
    output = None
    for stmt in body:
        targets: list[ast.expr] = []
        if isinstance(stmt, ast.Assign):
            targets = stmt.targets
        elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
            targets = [stmt.target]
        for target in targets:
            if isinstance(target, ast.Name):
                output = target.id
    if output is None:
        raise TapeInputError("assign the scalar to a name, e.g. z = (x**2 + 3*x).sum()")
    return body, output


def fresh_ns() -> dict[str, Any]:
    """Globals for one run of the forward code (fixed seed, so every run draws the same)."""
    torch.manual_seed(0)
    return {"torch": torch, "nn": torch.nn, "F": torch.nn.functional}


def run(body: list[ast.stmt], ns: dict[str, Any], start: int = 0, stop: int | None = None) -> None:
    """Exec statements ``body[start:stop]`` in ``ns``, learner errors as plain words."""
    for stmt in body[start:stop]:
        module = ast.Module(body=[stmt], type_ignores=[])
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(module, "<forward code>", "exec"), ns)
        except Exception as exc:
            line = getattr(stmt, "lineno", "?")
            raise TapeInputError(f"line {line} raised {type(exc).__name__}: {exc}") from None


def check_output(ns: dict[str, Any], output: str) -> torch.Tensor:
    """The scalar to differentiate, or a plain-words error."""
    out = ns.get(output)
    if not isinstance(out, torch.Tensor):
        raise TapeInputError(
            f"the last assigned name, {output}, is of type {type(out).__name__}, not a tensor"
        )
    if out.numel() != 1:
        raise TapeInputError(
            f"{output} has shape {tuple(out.shape)}: backward() needs a scalar — end with .sum() or .mean()"
        )
    if not out.requires_grad:
        raise TapeInputError(
            f"{output} does not require grad: create a leaf with requires_grad=True "
            "(and do not run the forward under no_grad)"
        )
    if out.grad_fn is None:
        raise TapeInputError(f"{output} is a leaf itself; there is no graph to step")
    return out


def leaf_names(ns: dict[str, Any]) -> dict[int, str]:
    """id(tensor) -> the name the code knows it by (variables, then module parameters)."""
    names: dict[int, str] = {}
    for name, obj in ns.items():
        if isinstance(obj, torch.Tensor) and not name.startswith("_"):
            names.setdefault(id(obj), name)
        elif isinstance(obj, torch.nn.Module):
            for pname, param in obj.named_parameters():
                names.setdefault(id(param), f"{name}.{pname}")
    return names


def collect(root: Any) -> list[Any]:
    """Every node reachable from ``root`` through ``next_functions``, breadth first."""
    nodes, seen, queue = [], {root}, [root]
    while queue:
        node = queue.pop(0)
        nodes.append(node)
        for nxt, _ in node.next_functions:
            if nxt is not None and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return nodes


def record_backward(
    out: torch.Tensor, ns: dict[str, Any]
) -> tuple[list[TapeNode], list[int], list[TapeStep], dict[str, torch.Tensor]]:
    """Hook every node, run backward once, and return nodes, order, steps and the leaves."""
    graph = collect(out.grad_fn)
    ids = {node: k for k, node in enumerate(graph)}
    names = leaf_names(ns)
    leaves: dict[str, torch.Tensor] = {}
    nodes: list[TapeNode] = []
    for node in graph:
        entry = TapeNode(
            id=ids[node],
            name=type(node).__name__,
            next=[None if nxt is None else ids[nxt] for nxt, _ in node.next_functions],
        )
        if hasattr(node, "variable"):
            entry.leaf = names.get(id(node.variable), f"leaf{len(leaves)}")
            leaves[entry.leaf] = node.variable
        nodes.append(entry)
    order: list[int] = []
    steps: list[TapeStep] = []
    handles = []
    for node, entry in zip(graph, nodes, strict=True):

        def pre(grad_outputs: tuple[torch.Tensor | None, ...], entry: TapeNode = entry) -> None:
            order.append(entry.id)
            entry.grad_in = [tensor_val(g) for g in grad_outputs]

        def post(
            grad_inputs: tuple[torch.Tensor | None, ...],
            grad_outputs: tuple[torch.Tensor | None, ...],
            entry: TapeNode = entry,
        ) -> None:
            entry.grad_out = [tensor_val(g) for g in grad_inputs]
            entry.executed = True
            snap = {name: tensor_val(leaf.grad) for name, leaf in leaves.items()}
            steps.append(TapeStep(node=entry.id, leaf_grads=snap))

        handles += [node.register_prehook(pre), node.register_hook(post)]
    try:
        out.backward()  # type: ignore[no-untyped-call]
    except RuntimeError as exc:
        raise TapeInputError(f"backward() raised RuntimeError: {exc}") from None
    finally:
        for handle in handles:
            handle.remove()
    return nodes, order, steps, leaves


def bound_at(body: list[ast.stmt], ns: dict[str, Any]) -> dict[str, int]:
    """Run the code statement by statement; name -> index of the statement that last bound it."""
    where: dict[str, int] = {}
    for k in range(len(body)):
        before = {name: id(obj) for name, obj in ns.items()}
        run(body, ns, k, k + 1)
        for name, obj in ns.items():
            if before.get(name) != id(obj):
                where[name] = k
    return where


def finite_differences(
    body: list[ast.stmt],
    output: str,
    where: dict[str, int],
    names: list[str],
    target: str,
    count: int,
    deadline: float = math.inf,
) -> list[float]:
    """d output / d target by central differences, every named leaf (and every module the
    code binds) in float64; ``target`` is a variable or a ``module.parameter`` name."""
    grads = []
    for i in range(count):
        if time.monotonic() > deadline:
            break
        sides = []
        for sign in (1.0, -1.0):
            ns = fresh_ns()
            for k in range(len(body)):
                before = {name: id(obj) for name, obj in ns.items()}
                run(body, ns, k, k + 1)
                for name, obj in list(ns.items()):
                    if before.get(name) == id(obj) or name in names:
                        continue
                    if isinstance(obj, torch.nn.Module):
                        obj.double()
                    elif isinstance(obj, torch.Tensor) and obj.is_floating_point():
                        ns[name] = obj.to(torch.float64)
                for name in names:
                    owner, _, attr = name.partition(".")
                    if where.get(owner) != k:
                        continue
                    if attr:  # a module parameter, made float64 by .double() above
                        if name == target:
                            with torch.no_grad():
                                ns[owner].get_parameter(attr).view(-1)[i] += sign * FD_STEP
                        continue
                    leaf = ns[name].detach().to(torch.float64).clone()
                    if name == target:
                        leaf.view(-1)[i] += sign * FD_STEP
                    ns[name] = leaf
            sides.append(float(ns[output].detach()))
        grads.append((sides[0] - sides[1]) / (2 * FD_STEP))
    return grads


def check_leaves(
    body: list[ast.stmt], output: str, where: dict[str, int], leaves: dict[str, torch.Tensor]
) -> dict[str, Leaf]:
    """Each leaf's ``.grad`` and its finite-difference check."""
    named = [n for n, t in leaves.items() if n.partition(".")[0] in where and t.is_floating_point()]
    result = {}
    deadline = time.monotonic() + FD_BUDGET_S
    for name, t in leaves.items():
        grad = tensor_val(t.grad)
        leaf = Leaf(
            shape=list(t.shape),
            grad=None if grad is None else grad.values,
            grad_elided=bool(grad and grad.elided),
        )
        if name in named and t.grad is not None:
            try:
                count = min(t.numel(), FD_CAP)
                fd = finite_differences(body, output, where, named, name, count, deadline)
            except TapeInputError as exc:
                leaf.fd_note = f"finite differences could not run in float64: {exc}"
                result[name] = leaf
                continue
            if not fd:
                leaf.fd_note = (
                    f"not checked: finite differences ran out of time ({FD_BUDGET_S:g} s)"
                )
                result[name] = leaf
                continue
            auto = t.grad.detach().reshape(-1)[: len(fd)].to(torch.float64)
            err = (auto - torch.tensor(fd, dtype=torch.float64)).abs()
            leaf.fd_grad = [float(f"{v:.6g}") for v in fd]
            leaf.fd_max_error = float(err.max()) if len(fd) else 0.0
            leaf.fd_ok = bool(
                torch.allclose(auto, torch.tensor(fd, dtype=torch.float64), rtol=1e-3, atol=1e-4)
            )
            if t.numel() > len(fd):
                leaf.fd_note = f"checked the first {len(fd)} of {t.numel()} elements"
        else:
            leaf.fd_note = "not reachable by name from the code: not checked"
        result[name] = leaf
    return result


def named(ns: dict[str, Any], leaf: bool) -> dict[str, torch.Tensor]:
    """The code's named tensors that require grad: its leaves, or its intermediates."""
    return {
        n: t
        for n, t in ns.items()
        if isinstance(t, torch.Tensor) and t.requires_grad and t.is_leaf == leaf
    }


def retain_demo(body: list[ast.stmt], output: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Intermediates' ``.grad`` without ``retain_grad()`` (None?) and with it (values)."""
    ns = fresh_ns()
    run(body, ns)
    inter = named(ns, leaf=False)
    ns[output].backward()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        without = {n: t.grad is None for n, t in inter.items()}
    ns = fresh_ns()
    run(body, ns)
    inter = named(ns, leaf=False)
    for t in inter.values():
        t.retain_grad()
    ns[output].backward()
    return {n: tensor_val(t.grad) for n, t in inter.items()}, without


def second_backward_demo(body: list[ast.stmt], output: str) -> SecondBackward:
    """backward() twice on one graph: the real error (or the sum), then with retain_graph."""
    ns = fresh_ns()
    run(body, ns)
    out = ns[output]
    out.backward()
    try:
        out.backward()
        second = SecondBackward(ok=True)
        second.grads = {n: tensor_val(t.grad) for n, t in named(ns, leaf=True).items()}
    except RuntimeError as exc:
        second = SecondBackward(ok=False, error=str(exc))
    ns = fresh_ns()
    run(body, ns)
    ns[output].backward(retain_graph=True)
    ns[output].backward()
    second.retained = {n: tensor_val(t.grad) for n, t in named(ns, leaf=True).items()}
    return second


def no_grad_demo(body: list[ast.stmt], output: str) -> NoGradRun:
    """The same code under ``torch.no_grad()``: no graph, and what backward() says then."""
    ns = fresh_ns()
    with torch.no_grad():
        run(body, ns)
    out = ns[output]
    try:
        out.backward()
        error = None
    except Exception as exc:
        error = str(exc)
    return NoGradRun(
        requires_grad=bool(getattr(out, "requires_grad", False)),
        grad_fn=None if getattr(out, "grad_fn", None) is None else type(out.grad_fn).__name__,
        error=error,
    )


def tape(code: str) -> Tape:
    """Run ``code``, step its backward pass, check the gradients, and demonstrate the rules."""
    body, output = parse(code)
    ns = fresh_ns()
    where = bound_at(body, ns)
    out = check_output(ns, output)
    value = float(out.detach())
    if not math.isfinite(value):
        raise TapeInputError(f"{output} is {value}: there is no gradient to step through")
    nodes, order, steps, leaves = record_backward(out, ns)
    retained, without = retain_demo(body, output)
    return Tape(
        code=code,
        output=output,
        value=value,
        nodes=nodes,
        order=order,
        steps=steps,
        leaves=check_leaves(body, output, where, leaves),
        intermediates=retained,
        without_retain=without,
        second_backward=second_backward_demo(body, output),
        no_grad=no_grad_demo(body, output),
    )
