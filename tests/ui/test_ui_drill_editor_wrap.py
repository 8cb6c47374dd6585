"""At 80 columns a drill's code editor wraps its lines: the starter of chapter 3's fix drill
"The layers nobody trains" holds its bug on a line longer than the editor, and nothing of it
is out of sight to the right."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import TextArea

from tests.ui.test_ui_drill_given import open_drill
from tutor.content.catalog import Catalog
from tutor.content.loader import load_pack

MODULES = Path(__file__).parents[2] / "drills" / "03-modules.yaml"


async def test_a_long_starter_line_wraps_in_the_drill_editor(make_app):
    app = make_app(catalog=Catalog(packs=[load_pack(MODULES)]))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_drill(pilot, "modules-own-parameters/list-not-registered")
        editor = screen.query_one("#answer", TextArea)
        longest = max(len(line) for line in editor.text.splitlines())
        assert longest + editor.gutter_width > editor.scrollable_content_region.width  # too long
        assert editor.max_scroll_x == 0  # and yet nothing is out of sight
        shown = " ".join(s.text for s in editor.render_lines(editor.region.reset_offset))
        assert "range(depth)]" in shown
