"""The home screen: the twelve chapters, overall progress, reviews due, continue."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Header, Static

from tutor.ui.messages import OpenDoctor, OpenDrill, OpenDrills, OpenLesson, OpenReviews
from tutor.ui.progress_view import ChapterView, chapter_views
from tutor.ui.services import services
from tutor.ui.widgets.chapter_detail import ChapterDetail
from tutor.ui.widgets.chapter_list import ChapterList
from tutor.ui.widgets.key_footer import KeyFooter


def summary_text(
    views: list[ChapterView], due: int, resume: str | None, width: int | None = None
) -> Text:
    """The line above the chapter list; where it is wider than ``width``, what to continue
    goes on a line of its own, under the first (never wrapped back to the margin)."""
    done = sum(v.done for v in views)
    text = Text()
    text.append(f" {done}/{len(views)} chapters", style="bold")
    text.append(" done  ·  ")
    text.append(f"{due} review{'s' if due != 1 else ''} due today", style="bold" if due else "")
    if due:
        text.append(" (r)")
    if resume:
        tail = Text.assemble("continue: ", (resume, "bold"), " (c)")
        fits = width is None or text.cell_len + 5 + tail.cell_len <= width
        text.append("  ·  " if fits else "\n ")
        text.append_text(tail)
    return text


#: seconds the first frame is given to reach the terminal before the work that follows it
SETTLE = 0.05


class HomeScreen(Screen[None]):
    """Chapters by part with progress; the mediator between the list and the detail panel."""

    BINDINGS = [
        Binding("enter", "lesson", "Read", show=False),
        Binding("d", "drills", "Drills"),
        Binding("r", "reviews", "Reviews"),
        Binding("c", "continue", "Continue"),
        Binding("l", "labs", "Labs"),
        Binding("D", "doctor", "Doctor"),
        Binding("p", "problems", "Pack problems"),
        Binding("q", "app.quit", "Quit"),
    ]

    views: reactive[list[ChapterView]] = reactive(list, always_update=True)
    """Every chapter with its progress, bound down to the chapter list."""
    selected: reactive[ChapterView | None] = reactive(None)
    """The highlighted chapter, bound down to the detail panel."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="home-summary")
        with Horizontal(id="home-body"):
            yield ChapterList(id="chapters").data_bind(chapters=HomeScreen.views)
        yield KeyFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer the pack-problems key only when there are problems."""
        if action == "problems":
            return services(self).summary.problems > 0
        return True

    _drawn = False
    """Whether the first frame has been drawn (the side panel is mounted then)."""

    def on_mount(self) -> None:
        self.refresh_progress()
        self.query_one(ChapterList).focus()
        self.call_after_refresh(self._first_frame)

    async def _first_frame(self) -> None:
        """The first frame is drawn; on a terminal, wait one more refresh (the first one can
        come before the list has settled into its place: on a loaded machine it showed 10 of
        the 12 chapters), then ``SETTLE`` seconds while Textual's output thread writes it.
        What comes next (the side panel, the catalog, the sandbox's torch import) would
        otherwise hold the interpreter, or the other core, while the frame is on its way, and
        the titles reach the terminal late."""
        if self.app.is_headless:
            await self._after_first_frame()
        else:
            self.call_after_refresh(self.set_timer, SETTLE, self._after_first_frame)

    async def _after_first_frame(self) -> None:
        """The chapter list is on screen: tell the app, then add the side panel (the first
        frame does without it)."""
        self._drawn = True
        services(self).home_drawn()
        body = self.query_one("#home-body", Horizontal)
        if body.is_attached and self.app.return_code is None:  # not once the app is leaving
            detail = ChapterDetail(id="chapter-detail").data_bind(view=HomeScreen.selected)
            await body.mount(detail)

    def on_screen_resume(self) -> None:
        if self._drawn:  # the first resume comes with the mount, which has just read progress
            self.refresh_progress()

    def refresh_progress(self) -> None:
        """Re-read progress from the store and redraw."""
        app = services(self)
        self._views = {v.number: v for v in chapter_views(app.summary, app.store)}
        known = {d.full_id for d in app.summary.drills}
        due = [d for d in app.store.due_reviews() if d in known]
        self._summary = (len(due), services(self).resume_label())
        self._draw_summary()
        self.views = list(self._views.values())
        self._show(self.query_one(ChapterList).current)

    def _draw_summary(self) -> None:
        line = self.query_one("#home-summary", Static)
        width = (line.content_size.width or self.app.size.width - 2) if self.is_attached else None
        due, resume = self._summary
        line.update(summary_text(list(self._views.values()), due, resume, width))

    def on_resize(self) -> None:
        if hasattr(self, "_summary"):
            self.call_after_refresh(self._draw_summary)  # at the line's new width

    def _show(self, number: int | None) -> None:
        self.selected = self._views.get(number) if number else None

    @on(ChapterList.Highlighted)
    def _highlighted(self, event: ChapterList.Highlighted) -> None:
        self._show(event.chapter)

    @on(ChapterList.Chosen)
    def _chosen(self, event: ChapterList.Chosen) -> None:
        self._open(event.chapter)

    @on(ChapterDetail.Action)
    def _detail_action(self, event: ChapterDetail.Action) -> None:
        if event.what == "lesson":
            self.post_message(OpenLesson(event.chapter))
        else:
            self.post_message(OpenDrills(event.chapter))

    def _open(self, number: int) -> None:
        view = self._views.get(number)
        if view is None:
            return
        if view.has_lesson:
            self.post_message(OpenLesson(number))
        elif view.drills_total:
            self.post_message(OpenDrills(number))
        else:
            self.notify(f"Chapter {number} is not yet available.", title="Not yet")

    def action_lesson(self) -> None:
        number = self.query_one(ChapterList).current
        if number:
            self._open(number)

    def action_drills(self) -> None:
        number = self.query_one(ChapterList).current
        self.post_message(OpenDrills(number))

    def action_reviews(self) -> None:
        self.post_message(OpenReviews())

    def action_doctor(self) -> None:
        self.post_message(OpenDoctor())

    def action_problems(self) -> None:
        services(self).action_problems()

    def action_labs(self) -> None:
        services(self).action_pick_lab()

    def action_continue(self) -> None:
        location = services(self).resume_location()
        if location is None:
            self.notify("Nothing to continue yet: pick a chapter.")
            return
        kind, ident = location
        if kind == "lesson":
            self.post_message(OpenLesson(int(ident)))
        elif kind == "drill":
            self.post_message(OpenDrill(ident))
