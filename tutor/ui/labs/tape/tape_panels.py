"""Text panels of the tape stepper: the step in detail (gradient in, gradients out, the leaves'
``.grad`` so far) and the checks (finite differences, retain_grad, second backward, no_grad)."""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from tutor.probes.data_tape import Tape, TensorVal, fmt
from tutor.ui.widgets.panels import DataStatic


def val(v: TensorVal | None, width: int = 36) -> str:
    """A gradient as text ('None' when no gradient flows)."""
    return "None" if v is None else v.text(width)


def flat(values: object) -> list[object]:
    """A nested list of numbers flattened (a number becomes a one-element list)."""
    if isinstance(values, list):
        return [x for v in values for x in flat(v)]
    return [values]


class TapeStepPanel(Static):
    """What the node at the current step received and sent on, and every leaf's ``.grad``."""

    data: reactive[Tape | None] = reactive(None)
    """The recorded tape."""
    step: reactive[int] = reactive(0)
    """How many nodes the backward pass has run (0: not started)."""

    def watch_data(self) -> None:
        self._draw()

    def watch_step(self) -> None:
        self._draw()

    def _draw(self) -> None:
        data = self.data
        if data is None:
            self.update("")
            return
        parts: list[Text] = []
        if self.step == 0:
            parts.append(Text("before backward(): press n to run the first node", style="dim"))
            grads: dict[str, TensorVal | None] = {name: None for name in data.leaves}
        else:
            node = data.node(data.order[self.step - 1])
            title = f"step {self.step}/{len(data.order)}: {data.label(node.id)}"
            parts.append(Text(title, style="bold"))
            arriving = ", ".join(val(g) for g in node.grad_in)
            parts.append(Text.assemble(("in  ", "dim"), arriving))
            if node.leaf:
                parts.append(Text.assemble(("→ ", "dim"), f"accumulated into {node.leaf}.grad"))
            for target, grad in zip(node.next, node.grad_out, strict=False):
                where = "∅ needs no grad" if target is None else data.label(target)
                parts.append(Text.assemble(("out ", "dim"), f"{val(grad, 24)} → {where}"))
            grads = data.steps[self.step - 1].leaf_grads
        parts.append(Text("leaves", style="dim"))
        width = max((len(name) for name in data.leaves), default=0) + 6
        for name in data.leaves:
            grad = grads.get(name)
            parts.append(
                Text.assemble(
                    (f"{name}.grad".ljust(width), "bold"),
                    (val(grad), "green" if grad else "dim"),
                )
            )
        self.update(Text("\n").join(parts))


class TapeChecks(DataStatic[Tape]):
    """Finite differences for each leaf, and what retain_grad, no_grad and backward-twice do."""

    def draw(self, data: Tape) -> RenderableType:
        parts: list[Text] = [Text("finite differences (central, float64, h = 1e-6)", style="bold")]
        for name, leaf in data.leaves.items():
            if leaf.fd_ok is None:
                parts.append(Text(f"{name}: {leaf.fd_note}", style="dim"))
                continue
            mark = ("✓ agree", "green") if leaf.fd_ok else ("✗ disagree", "red")
            parts.append(
                Text.assemble(
                    (f"{name} ", "bold"),
                    f"autograd {fmt(flat(leaf.grad)[: len(leaf.fd_grad or [])])}\n"
                    f"  numeric {fmt(leaf.fd_grad)}  ",
                    mark,
                    (f" (max error {leaf.fd_max_error:.1e}) {leaf.fd_note}", "dim"),
                )
            )
        parts.append(Text("retain_grad(): only leaves keep .grad", style="bold"))
        for name, grad in data.intermediates.items():
            before = "None" if data.without_retain.get(name) else "kept"
            parts.append(Text(f"{name}.grad: without {before}, with retain_grad() {val(grad)}"))
        second = data.second_backward
        if second is not None:
            parts.append(Text("backward() a second time", style="bold"))
            if second.ok:
                grads = ", ".join(f"{n}.grad {val(g, 20)}" for n, g in second.grads.items())
                parts.append(Text(f"worked (nothing saved was freed); grads accumulated: {grads}"))
            else:
                parts.append(Text(f"RuntimeError: {second.error}", style="red"))
            if second.retained:
                grads = ", ".join(f"{n}.grad {val(g, 24)}" for n, g in second.retained.items())
                parts.append(
                    Text(f"with backward(retain_graph=True) first, both ran and added up: {grads}")
                )
        if data.no_grad is not None:
            ng = data.no_grad
            parts.append(Text("the same code under torch.no_grad()", style="bold"))
            parts.append(
                Text(
                    f"{data.output}.requires_grad = {ng.requires_grad}, grad_fn = {ng.grad_fn}; "
                    f"backward(): {ng.error or 'worked'}"
                )
            )
        return Text("\n").join(parts)
