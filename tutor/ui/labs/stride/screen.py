"""The stride-map lab: type a tensor expression, see its logical grid and its storage strip
linked by the cursor, the offset arithmetic, shared storage, and what view/reshape do."""

from __future__ import annotations

import ast

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Input, Static

from tutor.content.labs import Value
from tutor.probes.data_stride_map import StrideMap
from tutor.ui.labs.base import LabScreen
from tutor.ui.labs.stride.stride_facts import StrideFacts, ViewVerdict
from tutor.ui.labs.stride.stride_grid import StrideGrid, short
from tutor.ui.labs.stride.stride_strip import StorageStrip


def last_name(code: str) -> str | None:
    """The name a piece of setup code assigned last (what a drill's setup is about)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    names = [
        target.id
        for stmt in tree.body
        if isinstance(stmt, ast.Assign)
        for target in stmt.targets
        if isinstance(target, ast.Name)
    ]
    return names[-1] if names else None


class StrideLab(LabScreen[StrideMap]):
    """The stride map. Preset keys: ``expr``, ``setup`` (a drill's setup code; alone, the
    expression is the name it assigned last), ``view``."""

    HINT = "fix the expression and press enter"
    BINDINGS = [
        Binding("slash", "focus_expr", "Expression"),
        Binding("w", "focus_view", "Try view"),
    ]

    def __init__(self, preset: dict[str, str] | None = None) -> None:
        super().__init__(preset)
        setup = str(self.values["setup"])
        named = last_name(setup)
        if not self.preset.get("expr") and named:
            self.values["expr"] = self.texts["expr"] = named
        if setup.strip():
            self.sub_title = "setup: " + setup.strip().splitlines()[0]
        self.data: StrideMap | None = None
        """The last stride map drawn."""

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="stride-body"):
            yield StrideGrid(id="stride-grid")
            yield StrideFacts(id="stride-facts")
        yield Static(id="stride-arith")
        yield StorageStrip(id="stride-strip")
        yield ViewVerdict(id="stride-verdict")

    def busy(self, values: dict[str, Value]) -> str:
        return f"running {values['expr']}"

    def show(self, data: StrideMap) -> None:
        """Draw ``data`` (also used by tests with recorded data)."""
        self.data = data
        self.query_one("#stride-expr", Input).value = data.expr
        if data.view is not None:
            self.query_one("#stride-view", Input).value = ", ".join(map(str, data.view.shape))
        self.hide_error()
        self.query_one(StrideFacts).data = data
        strip = self.query_one(StorageStrip)
        strip.data = data
        self.query_one(ViewVerdict).verdict = data.view
        grid = self.query_one(StrideGrid)
        grid.data = data
        grid.focus()
        self.say("←↑↓→ move · [ ] slices · v values · / expression · w view")

    # --- linking the pictures -------------------------------------------------------------

    @on(StrideGrid.CursorMoved)
    def cursor_moved(self, event: StrideGrid.CursorMoved) -> None:
        data = self.data
        self.query_one(StorageStrip).focus_offset = event.offset
        if data is None:
            return
        where = "t[" + ", ".join(map(str, event.index)) + "]"
        line = f"{where} → offset {data.arithmetic(event.index)}"
        if data.values is not None and event.offset is not None and data.strip_len:
            k = event.offset - data.strip_start
            if data.strip_values is not None and 0 <= k < data.strip_len:
                line += f"  value {short(data.strip_values[k])}"
        self.query_one("#stride-arith", Static).update(line)

    def action_focus_expr(self) -> None:
        self.query_one("#stride-expr", Input).focus()

    def action_focus_view(self) -> None:
        self.query_one("#stride-view", Input).focus()
