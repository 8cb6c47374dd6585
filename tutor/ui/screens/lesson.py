"""The lesson reader: Markdown mounted in chunks, runnable snippets, labs, the chapter's drills."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Header, Markdown, OptionList, Static
from textual.widgets.option_list import Option

from tutor.content.lesson_text import parse_lab_href
from tutor.ui.messages import OpenDrill, OpenDrills, OpenLab
from tutor.ui.progress_view import drill_mark
from tutor.ui.screens.lesson_parts import Part, Prose, lab_links, lesson_parts
from tutor.ui.screens.lesson_scroll import LessonScroll
from tutor.ui.services import services
from tutor.ui.widgets.inline_text import inline
from tutor.ui.widgets.key_footer import KeyFooter
from tutor.ui.widgets.markdown_view import MarkdownView
from tutor.ui.widgets.snippet import SnippetView

if TYPE_CHECKING:
    from tutor.content.models import Lesson

#: chunks mounted before the first frame; the rest follow in batches
FIRST_CHUNKS = 4
#: drill titles in the side panel are cut to this many characters (one line each)
SIDE_LABEL = 26
BATCH = 6


def part_widget(part: Part, folded: bool = True) -> Widget:
    """The widget that draws one part of a lesson (a snippet's recording ``folded`` or not)."""
    if isinstance(part, Prose):
        return MarkdownView(part.text, open_links=False, classes="lesson-prose")
    return SnippetView(part.index, part.code, part.output, folded=folded)


def lab_label(text: str, name: str) -> Content:
    """A lab link as the lab picker lists it: the lab's title, then the link's own words (they
    often say what the preset shows: "make one rank skip the all_reduce")."""
    from tutor.content.labs import LABS

    title = next((lab.title for lab in LABS if lab.name == name), name)
    if text.strip().lower() in (name, title.lower()):
        return Content.styled(title, "bold")
    return Content.assemble((title, "bold"), ("  ·  ", "dim"), inline(text))


class LessonScreen(Screen[None]):
    """Reads the lesson of one chapter; mediates between snippets and the sandbox."""

    CSS_PATH = Path(__file__).with_name("lesson.tcss")
    AUTO_FOCUS = ""
    """No auto focus: Textual's default gave focus to the side panel's drill list (hidden on a
    narrow terminal), which took a PageDown pressed while the lesson opened. Until on_mount
    focuses the text, the screen's own scroll keys take such a key."""

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("r", "run_visible", "Run snippet"),
        Binding("o", "show_recorded", "Output"),
        Binding("O", "always_recorded", "Recorded outputs: always shown or folded", show=False),
        Binding("l", "labs", "Labs"),
        Binding("m", "mark_read", "Mark read"),
        Binding("d", "drills", "Drills"),
        Binding("tab", "app.focus_next", "Next snippet", show=False),
        # the text scrolls whatever has focus, and a key pressed while the lesson is still
        # loading is kept (LessonScroll): the first PageDown is never lost
        *[
            Binding(key, f"scroll_lesson('{how}')", show=False)
            for key, how in (
                ("pagedown", "page_down"),
                ("pageup", "page_up"),
                ("down", "scroll_down"),
                ("up", "scroll_up"),
                ("end,ctrl+end", "scroll_end"),
                ("home,ctrl+home", "scroll_home"),
            )
        ],
    ]

    def __init__(self, chapter: int) -> None:
        super().__init__()
        self.chapter = chapter
        self.lesson: Lesson | None = None
        self._parts: list[Part] = []
        self._active_run: SnippetView | None = None
        self._drawn_prose: set[int] = set()
        """The prose chunks whose Markdown has been drawn."""
        self._early: list[str] = []
        """Scroll keys pressed before the text could take them, played once it can."""
        self.first_frame_parts = 0
        """How many chunks the first frame held (the rest are mounted after it)."""

    def compose(self) -> ComposeResult:
        lesson = services(self).catalog.lessons[self.chapter]
        self.lesson = lesson
        self._parts = lesson_parts(lesson.body)
        yield Header()
        with Horizontal(id="lesson-body"):
            with LessonScroll(id="lesson-scroll"):
                head = Text()
                head.append(f"Chapter {lesson.chapter} · {lesson.title}\n", style="bold")
                head.append(lesson.thesis, style="italic")
                if lesson.torch:
                    head.append(f"\noutputs recorded with torch {lesson.torch}", style="dim")
                yield Static(head, id="lesson-head")
                for part in self._parts[:FIRST_CHUNKS]:
                    yield part_widget(part, self._folded)
            with Vertical(id="lesson-side"):
                yield Static(
                    "In this chapter\n✓ mastered ◐ tried ○ new ★ quiz", classes="side-title"
                )
                yield OptionList(id="lesson-drills")
                yield Static(id="lesson-status")
        yield KeyFooter()

    @property
    def _folded(self) -> bool:
        """Whether snippets start with their recorded output folded (the learner's choice)."""
        return not services(self).prefs.show_recorded

    def on_mount(self) -> None:
        self.title = f"Lesson {self.chapter}"
        services(self).store.set_last_location("lesson", str(self.chapter))
        self._fill_side()
        self.call_after_refresh(self._mount_rest)  # after the first frame
        scroll = self.query_one("#lesson-scroll", LessonScroll)
        self.watch(scroll, "scroll_y", self._scrolled, init=False)
        scroll.focus()
        self.call_after_refresh(self._play_early)

    def _play_early(self) -> None:
        early, self._early = self._early, []
        for how in early:
            self.action_scroll_lesson(how)

    def action_scroll_lesson(self, how: str) -> None:
        """Scroll the lesson's text (``how``: a LessonScroll action, e.g. ``page_down``); before
        the text is there, remember the key."""
        scroll = self.query("#lesson-scroll").results(LessonScroll)
        found = next(iter(scroll), None)
        if found is None or not found.is_mounted or self._early:
            self._early.append(how)
            return
        getattr(found, f"action_{how}")()

    def on_screen_resume(self) -> None:
        self._fill_side()

    @work(exclusive=True, group="lesson-mount", exit_on_error=False)
    async def _mount_rest(self) -> None:
        """Mount the remaining chunks a batch at a time, yielding to the UI between batches."""
        self.first_frame_parts = self.mounted_parts
        scroll = self.query_one("#lesson-scroll", LessonScroll)
        rest = self._parts[FIRST_CHUNKS:]
        for start in range(0, len(rest), BATCH):
            if not self.is_attached:
                return
            batch = rest[start : start + BATCH]
            await scroll.mount_all([part_widget(p, self._folded) for p in batch])
            await asyncio.sleep(0)
        self._check_loaded()
        if self.is_attached:
            self.query_one("#lesson-status", Static).update(self._status_text())

    @on(Markdown.TableOfContentsUpdated)
    def _drawn(self, event: Markdown.TableOfContentsUpdated) -> None:
        """A prose chunk has built its blocks (Markdown parses after it is mounted)."""
        self._drawn_prose.add(id(event.markdown))
        self._check_loaded()

    def _check_loaded(self) -> None:
        prose = [p for p in self._parts if isinstance(p, Prose)]
        if self.fully_mounted and len(self._drawn_prose) >= len(prose):
            self.query_one("#lesson-scroll", LessonScroll).done_loading()

    @property
    def mounted_parts(self) -> int:
        """How many chunks of the lesson are in the document so far."""
        return len(self.query(".lesson-prose")) + len(self.query(SnippetView))

    @property
    def fully_mounted(self) -> bool:
        """Whether every chunk of the lesson is in the document."""
        return self.mounted_parts == len(self._parts)

    def _scrolled(self, scroll_y: float) -> None:
        scroll = self.query_one("#lesson-scroll", VerticalScroll)
        if self.fully_mounted and scroll_y >= scroll.max_scroll_y - 1 and scroll.max_scroll_y > 0:
            self._mark_read(quiet=True)

    # --- side panel -------------------------------------------------------------------------

    def _fill_side(self) -> None:
        store = services(self).store
        refs = services(self).catalog.drills_for(self.chapter)
        mastered = store.mastered_set()
        tried = {a.drill for a in store.attempts()}
        options = []
        for ref in refs:
            mark = drill_mark(ref.full_id, mastered, tried)
            quiz = "★" if ref.drill.quiz else " "
            label = f"{mark}{quiz} {ref.drill.display_title}"
            if len(label) > SIDE_LABEL:
                label = label[: SIDE_LABEL - 1] + "…"
            options.append(Option(label, id=ref.full_id))
        if not options:
            options.append(Option("no drills yet", disabled=True))
        drills = self.query_one("#lesson-drills", OptionList)
        drills.clear_options()
        drills.add_options(options)
        self.query_one("#lesson-status", Static).update(self._status_text())

    def _status_text(self) -> Text:
        read = services(self).store.lesson_read(self.chapter)
        text = Text("lesson read ✓" if read else "not read yet · m marks it read")
        labs = self._labs()
        if labs:
            text.append(f"\nlabs (l): {', '.join(dict.fromkeys(n for _, n, _ in labs))}")
        return text

    @on(OptionList.OptionSelected, "#lesson-drills")
    def _drill_chosen(self, event: OptionList.OptionSelected) -> None:
        queue = [r.full_id for r in services(self).catalog.drills_for(self.chapter)]
        if event.option.id:
            self.post_message(OpenDrill(event.option.id, queue))

    # --- snippets ---------------------------------------------------------------------------

    @on(SnippetView.RunRequested)
    def _run_requested(self, event: SnippetView.RunRequested) -> None:
        view = next(v for v in self.query(SnippetView) if v.index == event.index)
        self.run_snippet(view)

    def run_snippet(self, view: SnippetView) -> None:
        """Run ``view``'s code in the shared sandbox (cancelling any run in progress)."""
        if self._active_run is not None:
            self._active_run.running = False
        self._active_run = view
        view.running = True
        self._run(view)

    def _declared(self, view: SnippetView) -> tuple[str | None, str | None]:
        """The runtime and the limits profile the snippet declares (``runtime=xla``,
        ``limits=compile``, or the front matter's)."""
        snippets = self.lesson.snippets if self.lesson else []
        if view.index >= len(snippets):
            return None, None
        return snippets[view.index].runtime, snippets[view.index].limits

    @work(exclusive=True, group="snippet", exit_on_error=False)
    async def _run(self, view: SnippetView) -> None:
        from tutor.sandbox.runtimes import RuntimeNotFound
        from tutor.settings import runtime_limits

        runtime, limits = self._declared(view)
        try:
            box = await services(self).sandboxes.ready(
                runtime, lambda line: view._live(inline(line, "italic"), "live")
            )
            # the limits `tutor lesson record` ran it under, so a live run can match its output
            profile = limits or runtime_limits(runtime)
            result = await box.run(view.code, timeout=20.0, memory_mb=2048, profile=profile)
        except RuntimeNotFound as exc:
            view.running = False
            view._live(inline(str(exc)), "", "-differs")
            return
        except asyncio.CancelledError:
            view.running = False
            view.live = None
            view._live(Text("cancelled", style="italic"), "")
            raise
        except Exception as exc:
            view.running = False
            view._live(Text(f"the sandbox failed: {exc}"), "", "-differs")
            return
        finally:
            if self._active_run is view:
                self._active_run = None
        view.running = False
        view.live = result
        if self._on_screen(view):  # the output grew: keep it in view (unless scrolled away)
            self.call_after_refresh(view.reveal_outputs)
        else:
            view.stop_following()

    def _on_screen(self, view: SnippetView) -> bool:
        """Whether any of ``view`` is in the lesson's view."""
        scroll = self.query_one("#lesson-scroll", VerticalScroll)
        top = scroll.scroll_y
        bottom = top + scroll.scrollable_content_region.height
        region = view.virtual_region
        return region.y < bottom and region.y + region.height > top

    def _snippet_on_screen(self) -> SnippetView | None:
        """The snippet on screen: the focused one if it is in view, else the first one in view
        (never one scrolled out of sight)."""
        focused = self.focused
        if isinstance(focused, SnippetView) and self._on_screen(focused):
            return focused
        return next((view for view in self.query(SnippetView) if self._on_screen(view)), None)

    def action_run_visible(self) -> None:
        """Run the snippet on screen (focus follows it, the view stays where it is) and keep its
        output in view."""
        view = self._snippet_on_screen()
        if view is None:
            self.notify("No snippet on screen: scroll to one (tab moves to the next snippet).")
            return
        view.focus(scroll_visible=False)
        self.run_snippet(view)
        self.call_after_refresh(view.reveal_outputs)

    def action_show_recorded(self) -> None:
        """Unfold (or fold again) the recorded output of the snippet on screen."""
        view = self._snippet_on_screen()
        if view is None:
            self.notify("No snippet on screen: scroll to one (tab moves to the next snippet).")
            return
        view.folded = not view.folded
        if not view.folded:
            self.call_after_refresh(view.reveal_outputs)

    def action_always_recorded(self) -> None:
        """Show every recorded output from the start, or fold them until run (remembered)."""
        prefs = services(self).prefs
        prefs.show_recorded = not prefs.show_recorded
        for view in self.query(SnippetView):
            view.folded = not prefs.show_recorded and view.live is None
        problem = prefs.save()
        said = (
            "Recorded outputs now show before you run a snippet (O folds them again)."
            if prefs.show_recorded
            else "Recorded outputs stay folded until you run the snippet or press o."
        )
        if problem:
            said += f" This choice lasts only this session: {problem}."
        self.notify(said, severity="warning" if problem else "information", markup=False)

    # --- labs, reading, navigation ----------------------------------------------------------

    def _labs(self) -> list[tuple[str, str, dict[str, str] | None]]:
        if self.lesson is None:
            return []
        links = lab_links(self.lesson.body)
        named = {name for _, name, _ in links}
        extra = [(name, name, None) for name in self.lesson.labs if name not in named]
        return links + extra

    @on(Markdown.LinkClicked)
    def _link(self, event: Markdown.LinkClicked) -> None:
        event.stop()
        parsed = parse_lab_href(event.href)
        if parsed:
            self.post_message(OpenLab(parsed[0], parsed[1]))
        else:
            self.app.open_url(event.href)

    def action_labs(self) -> None:
        labs = self._labs()
        if not labs:
            self.notify("This lesson links no labs.")
        elif len(labs) == 1:
            _, name, preset = labs[0]
            self.post_message(OpenLab(name, preset))
        else:
            from tutor.ui.screens.pickers import LinkPicker

            def chosen(index: int | None) -> None:
                if index is not None:
                    _, name, preset = labs[index]
                    self.post_message(OpenLab(name, preset))

            self.app.push_screen(LinkPicker([lab_label(t, n) for t, n, _ in labs]), chosen)

    def action_mark_read(self) -> None:
        self._mark_read(quiet=False)

    def _mark_read(self, quiet: bool) -> None:
        store = services(self).store
        if store.lesson_read(self.chapter):
            if not quiet:
                self.notify("Already marked read.")
            return
        store.mark_lesson_read(self.chapter)
        self.query_one("#lesson-status", Static).update(self._status_text())
        self.notify(f"Lesson {self.chapter} marked read.")
        services(self).report_store()

    def action_drills(self) -> None:
        self.post_message(OpenDrills(self.chapter))

    def action_back(self) -> None:
        if self._active_run is not None:
            self.workers.cancel_group(self, "snippet")
            return
        self.dismiss()
