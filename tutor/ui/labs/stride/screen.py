"""The stride-map lab: type a tensor expression, see its logical grid and its storage strip
linked by the cursor, the offset arithmetic, shared storage, and what view/reshape do."""

from __future__ import annotations

import ast
from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Header, Input, Static

from tutor.probes.data_stride_map import StrideMap
from tutor.ui.labs.base import LabScreen
from tutor.ui.labs.stride.stride_facts import StrideFacts, ViewVerdict
from tutor.ui.labs.stride.stride_grid import StrideGrid, short
from tutor.ui.labs.stride.stride_strip import StorageStrip
from tutor.ui.widgets.key_footer import KeyFooter
from tutor.ui.widgets.run_status import RunStatus

DEFAULT_EXPR = "torch.randn(2, 3, 4).permute(2, 0, 1)"


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


class StrideLab(LabScreen):
    """The stride map. Preset keys: ``expr``, ``setup`` (a drill's setup code), ``view``."""

    LAB = "stride"
    CSS_PATH = Path(__file__).with_name("stride.tcss")
    ERROR_LINE = "#stride-error"
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("slash", "focus_expr", "Expression"),
        Binding("w", "focus_view", "Try view"),
    ]

    def __init__(self, preset: dict[str, str] | None = None) -> None:
        super().__init__()
        preset = preset or {}
        self.setup = preset.get("setup", "")
        """Code run before the expression (its names are in scope)."""
        self.expr = preset.get("expr") or last_name(self.setup) or DEFAULT_EXPR
        """The expression last run."""
        self.view_shape = preset.get("view", "-1")
        """The shape "try view" asks for."""
        self.data: StrideMap | None = None
        """The last stride map drawn."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="stride-inputs"):
            yield Input(self.expr, placeholder="a tensor expression", id="stride-expr")
            yield Input(self.view_shape, placeholder="view shape", id="stride-view")
        yield RunStatus(id="stride-status")
        yield Static(id="stride-error")
        with Horizontal(id="stride-body"):
            yield StrideGrid(id="stride-grid")
            yield StrideFacts(id="stride-facts")
        yield Static(id="stride-arith")
        yield StorageStrip(id="stride-strip")
        yield ViewVerdict(id="stride-verdict")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#stride-expr").border_title = "tensor expression · enter runs"
        self.query_one("#stride-view").border_title = "try view(…)"
        self.title = "Stride map"
        if self.setup.strip():
            self.sub_title = "setup: " + self.setup.strip().splitlines()[0]
        if self.has_sandbox:
            self.probe()

    # --- running the probe --------------------------------------------------------------

    @on(Input.Submitted)
    def submitted(self) -> None:
        self.expr = self.query_one("#stride-expr", Input).value.strip()
        self.view_shape = self.query_one("#stride-view", Input).value.strip() or "-1"
        if self.expr:
            self.probe()

    @work(exclusive=True)
    async def probe(self) -> None:
        """Run the stride-map probe on the current expression in the sandbox."""
        data = await self.run_probe(
            StrideMap,
            busy=f"running {self.expr}",
            hint="fix the expression and press enter",
            expr=self.expr,
            setup=self.setup,
            view=self.view_shape,
        )
        if data is not None:
            self.show(data)
            self.query_one(
                RunStatus
            ).message = "←↑↓→ move · [ ] slices · v values · / expression · w view"

    def show(self, data: StrideMap) -> None:
        """Draw ``data`` (also used by tests with recorded data)."""
        self.data = data
        self.expr = data.expr
        self.query_one("#stride-expr", Input).value = data.expr
        if data.view is not None:
            self.view_shape = ", ".join(map(str, data.view.shape))
            self.query_one("#stride-view", Input).value = self.view_shape
        self.hide_error()
        self.query_one(StrideFacts).data = data
        strip = self.query_one(StorageStrip)
        strip.data = data
        self.query_one(ViewVerdict).verdict = data.view
        grid = self.query_one(StrideGrid)
        grid.data = data
        grid.focus()

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
