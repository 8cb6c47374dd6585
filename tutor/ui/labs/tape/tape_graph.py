"""The backward graph drawn as a tree from the output, each node marked by whether the
backward pass has run it yet (at the step the learner is on)."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from tutor.probes.data_tape import Tape


def graph_lines(data: Tape) -> list[tuple[str, int | None]]:
    """(prefix + label, node id) for each line of the tree; a node reached twice is shown once
    in full and then as a reference."""
    lines: list[tuple[str, int | None]] = []
    shown: set[int] = set()

    def visit(node_id: int | None, prefix: str, branch: str) -> None:
        if node_id is None:
            lines.append((prefix + branch + "∅ (input needs no grad)", None))
            return
        again = node_id in shown
        label = data.label(node_id) + ("  (↑ same node)" if again else "")
        lines.append((prefix + branch + label, node_id))
        if again:
            return
        shown.add(node_id)
        children = data.node(node_id).next
        child_prefix = prefix + {"": "", "└─": "  "}.get(branch, "│ ")
        for k, child in enumerate(children):
            visit(child, child_prefix, "└─" if k == len(children) - 1 else "├─")

    if data.nodes:
        visit(data.nodes[0].id, "", "")
    return lines


class TapeGraph(Widget):
    """The graph of ``grad_fn`` nodes with the order they ran in; done nodes ✓, the node just
    run ▶, the rest pending."""

    DEFAULT_CSS = """
    TapeGraph { height: auto; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
    TapeGraph > .tape-graph--done { color: $success; }
    TapeGraph > .tape-graph--current { background: $accent; color: $background; text-style: bold; }
    TapeGraph > .tape-graph--pending { color: $text-muted; }
    """
    COMPONENT_CLASSES = {"tape-graph--done", "tape-graph--current", "tape-graph--pending"}

    data: reactive[Tape | None] = reactive(None, layout=True)
    """The recorded tape."""
    step: reactive[int] = reactive(0)
    """How many nodes the backward pass has run (0: not started)."""

    def render(self) -> Text:
        data = self.data
        if data is None:
            return Text("the graph appears here once the code runs", style="dim")
        done = set(data.order[: self.step])
        current = data.order[self.step - 1] if self.step else None
        style = self.get_component_rich_style
        out = Text()
        out.append(f"{data.output} = {data.value:g}", style="bold")
        for text, node_id in graph_lines(data):
            out.append("\n")
            ref = "same node" in text
            rank = data.order.index(node_id) + 1 if node_id in data.order and not ref else None
            head = f"{rank:>2} " if rank else "   "
            if node_id is not None and node_id == current and not ref:
                out.append("▶" + head + text, style=style("tape-graph--current"))
            elif node_id in done:
                out.append("✓" + head + text, style=style("tape-graph--done"))
            else:
                out.append("·" + head + text, style=style("tape-graph--pending"))
        return out
