"""The drill screen: prompt, the right input for the kind, submit/hint/reset/editor/watch/lab,
verdict and feedback, the explanation once solved, the answer on request. Every attempt goes to
the progress store (marked ``revealed`` once the answer was shown)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Group
from rich.padding import Padding
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.content import Content
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Header, Input, Markdown, OptionList, Static, TextArea
from textual.worker import Worker

from tutor.grading.attempt import make_variant
from tutor.grading.kinds import kind_of
from tutor.grading.outcome import outcome_of
from tutor.ui.messages import OpenLab
from tutor.ui.progress_view import until
from tutor.ui.screens.drill_editor import EditorActions
from tutor.ui.screens.drill_parts import (
    answer_view,
    answer_widget,
    editor_theme,
    read_answer,
    reset_answer,
)
from tutor.ui.screens.editor import EditorSession
from tutor.ui.services import services
from tutor.ui.widgets.feedback import FeedbackPanel
from tutor.ui.widgets.focus_view import FocusScroll
from tutor.ui.widgets.inline_text import inline
from tutor.ui.widgets.key_footer import KeyFooter
from tutor.ui.widgets.markdown_view import MarkdownView
from tutor.ui.widgets.order_list import OrderList
from tutor.ui.widgets.run_status import RunStatus
from tutor.ui.widgets.wrapped_code import WrappedCode

if TYPE_CHECKING:
    from tutor.grading.grade import Grade


class DrillScreen(EditorActions, Screen[bool | None]):
    """One drill, one variant (seed). Dismisses with whether it was solved (None: the learner
    left with escape, which ends a review session)."""

    CSS_PATH = Path(__file__).with_name("drills.tcss")

    BINDINGS = [
        # escape: out of the code editor first (tab indents there), then back; while grading
        # it cancels (the status says so)
        Binding("escape", "leave_editor", "Leave editor", priority=True),
        Binding("escape", "back", "Back", priority=True),
        Binding("ctrl+s", "submit", "Submit"),
        # back to the answer from anywhere (a verdict can leave it many tabs away); shown while
        # focus is elsewhere. In a text field or editor (the answer) ctrl+e is end of line
        Binding("ctrl+e", "to_answer", "Answer", tooltip="back to your answer, in view"),
        Binding("ctrl+t", "hint", "Hint"),
        Binding("ctrl+r", "reset", "Reset"),
        Binding("ctrl+o", "editor", "$EDITOR"),
        Binding("ctrl+g", "watch", "Watch file", show=False),
        Binding("ctrl+l", "lab", "Lab"),
        Binding("ctrl+n", "next", "Next"),
        Binding("ctrl+f", "reveal", "Show the answer", show=False),
    ]

    def __init__(
        self,
        full_id: str,
        *,
        queue: list[str] | None = None,
        seed: int | None = None,
        review: bool = False,
    ) -> None:
        super().__init__()
        self.full_id = full_id
        self.queue = queue or [full_id]
        self.review = review
        self._seed = seed
        self.hints_used = 0
        self.solved = False
        self.started = time.monotonic()
        self.editor_session: EditorSession | None = None
        self._gradings = 0
        #: the answer was shown: later attempts are practice (kept, marked, not mastery)
        self.revealed = False
        #: the last answer recorded, whose verdict is on screen (not submitted twice)
        self._recorded: str | None = None

    # --- layout -------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        self.ref = ref = services(self).catalog.drill(self.full_id)
        seed = self._seed if self._seed is not None else services(self).new_seed()
        self.variant = make_variant(ref.full_id, ref.drill, seed)
        drill = ref.drill
        self.kind = kind = kind_of(drill)
        yield Header()
        with FocusScroll(id="drill-main"):
            yield Static(self._title_text(), id="drill-title")
            yield MarkdownView(self.variant.prompt, id="drill-prompt", open_links=False)
            code, given = self._given()
            if code:
                yield Static(code, id="drill-given-code")
            if given.plain.strip():
                yield Static(given, id="drill-given")
            yield Static(kind.how, id="drill-how")
            yield answer_widget(kind.answer_input, self.variant)
            with Horizontal(id="drill-buttons"):
                yield Button("Submit", id="submit", variant="primary")
                yield Button("Hint", id="hint")
                yield Button("Reset", id="reset")
                if kind.answer_input == "order":
                    yield Button("↑", id="move-up")
                    yield Button("↓", id="move-down")
                if kind.answer_input == "code":
                    yield Button("$EDITOR", id="editor")
                if drill.lab:
                    yield Button(f"Lab: {drill.lab}", id="lab")
                yield Button("Answer", id="reveal")
                yield Button("Next ▶", id="next", disabled=len(self.queue) < 2 and not self.review)
            yield RunStatus(id="drill-status")
            yield FeedbackPanel(id="feedback")
            yield Static(id="drill-hints")
            yield Static(id="drill-answer")
            yield MarkdownView(id="drill-explain", open_links=False)
        yield KeyFooter()

    def _given(self) -> tuple[Group | None, Content]:
        """The code given before the answer, highlighted and wrapped as lesson code is (a long
        line goes on under its own indentation, marked with ↪); then the rules, the functions it
        may call and the sizes this attempt tries (``tutor.grading.shown``), so the prompt need
        not say them."""
        from tutor.grading.shown import given_code, rules_lines, shown, sizes_text

        seen = shown(self.ref.drill, self.variant.params, self.variant.seed)
        code = given_code(seen, self.variant.prompt).rstrip()
        theme = "ansi_dark" if self.app.current_theme.dark else "ansi_light"
        block = (
            Group(
                Text("Given before your answer:"), Padding(WrappedCode(code, theme), (0, 0, 0, 4))
            )
            if code
            else None
        )
        lines = [*rules_lines(seen.rules, seen.functions), sizes_text(seen.trials)]
        return block, Content("\n").join(inline(line) for line in lines if line)

    def _title_text(self) -> Text:
        ref = self.ref
        text = Text()
        text.append(ref.drill.display_title, style="bold")
        tags = [ref.drill.kind, f"chapter {ref.chapter}"]
        if ref.drill.quiz:
            tags.append("quiz")
        if self.review:
            tags.append("review: a fresh variant")
        if self.revealed:
            tags.append("answer shown")
        if services(self).store.mastered(self.full_id):
            tags.append("mastered ✓")
        text.append("   " + " · ".join(tags), style="dim")
        return text

    def on_mount(self) -> None:
        self.title = "Review" if self.review else f"Drill · chapter {self.ref.chapter}"
        feedback = self.query_one("#feedback", FeedbackPanel)
        feedback.display = False
        feedback.show_expected = self.kind.truths
        self.query_one("#drill-explain", Markdown).display = False
        self.query_one("#drill-hints", Static).display = False
        self.query_one("#drill-answer", Static).display = False
        if not self.review:
            services(self).store.set_last_location("drill", self.full_id)
        if self.kind.answer_input == "code":
            self.watch(self.app, "theme", self._theme_changed)
        # the drill opens at its top, to be read from there; the answer has focus, and comes
        # into view when the learner types in it (FocusScroll)
        self.query_one("#answer").focus(scroll_visible=False)

    def _theme_changed(self) -> None:
        self.query_one("#answer", TextArea).theme = editor_theme(self.app.current_theme.dark)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide the keys that make no sense for this drill."""
        if not hasattr(self, "ref"):
            return True
        drill = self.ref.drill
        if action in ("editor", "watch"):
            return self.kind.answer_input == "code"
        if action == "lab":
            return bool(drill.lab)
        if action == "next":
            return self.review or len(self.queue) > 1
        if action == "to_answer":
            focused, answer = self.focused, self.query_one("#answer")
            return focused is None or (focused is not answer and answer not in focused.ancestors)
        if action == "leave_editor":
            return isinstance(self.focused, TextArea) and not self.running
        return True

    @property
    def running(self) -> bool:
        """Whether a grading is in progress."""
        return any(w.group == "grade" and not w.is_finished for w in self.workers)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group == "grade":
            self.refresh_bindings()  # while grading, escape cancels, even in the editor

    # --- answering ------------------------------------------------------------------------------

    @on(Input.Submitted, "#answer")
    def _input_submitted(self) -> None:
        self.action_submit()

    @on(OptionList.OptionSelected, "#answer")
    def _choice_selected(self, event: OptionList.OptionSelected) -> None:
        if isinstance(event.option_list, OrderList):
            return
        self.action_submit()

    @on(Button.Pressed)
    def _button(self, event: Button.Pressed) -> None:
        actions: dict[str, Callable[[], object]] = {
            "submit": self.action_submit,
            "hint": self.action_hint,
            "reset": self.action_reset,
            "editor": self.action_editor,
            "lab": self.action_lab,
            "reveal": self.action_reveal,
            "next": self.action_next,
            "move-up": lambda: self.query_one(OrderList).action_move(-1),
            "move-down": lambda: self.query_one(OrderList).action_move(1),
        }
        action = actions.get(event.button.id or "")
        if action:
            action()

    def current_answer(self) -> str:
        """The answer as it stands in the answer widget."""
        return read_answer(self.query_one("#answer"), self.variant)

    def action_submit(self) -> None:
        answer = self.current_answer()
        if not answer.strip():
            self.notify("Type an answer first.")
            return
        self.grade(answer)

    def grade(self, answer: str) -> None:
        """Grade ``answer`` in the sandbox (cancelling a grading already in progress). The answer
        whose verdict is on screen is not graded again: that would record it twice."""
        if answer == self._recorded and self.query_one(FeedbackPanel).grade is not None:
            self.notify("That answer was just graded (its verdict is below); change it to "
                        "submit again.")  # fmt: skip
            return
        self._gradings += 1
        self.query_one(FeedbackPanel).grade = None  # the last verdict is not this answer's
        status = self.query_one(RunStatus)
        status.message = "grading in the sandbox… (escape cancels)"
        status.running = True
        self._show("#drill-status")  # under the buttons: below the fold on a long drill
        self._grade(answer, self._gradings)

    @work(exclusive=True, group="grade", exit_on_error=False)
    async def _grade(self, answer: str, token: int) -> None:
        from tutor.grading.engine import judge, judge_async, plan

        status = self.query_one(RunStatus)

        def finish(message: str) -> None:
            if token == self._gradings:  # a newer grading owns the status line otherwise
                status.running = False
                status.message = message

        from tutor.sandbox.runtimes import RuntimeNotFound

        def starting(line: str) -> None:
            if token == self._gradings:
                status.message = line

        try:
            planned = plan(self.ref, answer, self.variant.seed)
            if planned.call is None:  # judged without running anything: start no runtime
                grade = judge(self.ref, planned, answer, None)
            else:
                box = await services(self).sandboxes.ready(self.ref.drill.runtime, starting)
                starting("grading in the sandbox… (escape cancels)")
                grade = await judge_async(self.ref, planned, answer, box)
        except RuntimeNotFound as exc:
            finish(str(exc))
            return
        except asyncio.CancelledError:
            finish("cancelled: nothing was recorded")
            raise
        except Exception as exc:
            finish(f"grading failed: {exc}")
            return
        finish("")
        self.show_grade(grade, answer)

    def show_grade(self, grade: Grade, answer: str) -> None:
        """Record the attempt and draw the verdict."""
        self.query_one(FeedbackPanel).grade = grade  # the verdict first, whatever saving does
        if str(grade.status) != "sandbox_error":
            services(self).store.record_attempt(
                self.full_id,
                self.variant.seed,
                answer,
                bool(grade.correct),
                str(grade.status),
                self.hints_used,
                round(time.monotonic() - self.started, 2),
                revealed=self.revealed,
                outcome=outcome_of(grade),
            )
            self._recorded = answer
            services(self).report_store()
            self._say_when_due()
        if grade.correct and not self.solved:
            self.solved = True
            self._show_explain()
            self.query_one("#next", Button).disabled = not (self.review or len(self.queue) > 1)
            self.query_one("#drill-title", Static).update(self._title_text())
        # the verdict and the "Why" below it, kept in view while they are laid out (the Why is
        # drawn a block at a time; an editor loaded from $EDITOR grows): the verdict's top
        # first where both do not fit
        self._show(FeedbackPanel, "#drill-explain")

    def _show(self, *selectors: str | type[Widget]) -> None:
        """Bring these parts into view, and keep them there while they are laid out."""
        panel = self.query_one("#drill-main", FocusScroll)
        panel.show(*(self.query_one(selector) for selector in selectors))

    def _say_when_due(self) -> None:
        """Under the buttons, when this drill comes back for review (as the review list says)."""
        store = services(self).store
        due = None if self.revealed else store.next_review(self.full_id)
        if due is not None:
            when = until(due - store.clock())
            self.query_one(RunStatus).message = f"next review of this drill: due {when}"

    def _show_explain(self) -> None:
        explain = self.query_one("#drill-explain", Markdown)
        if self.ref.drill.explain and not explain.display:
            explain.update("**Why:** " + self.variant.explain.strip())
            explain.display = True

    # --- hints, answer, reset, lab, next --------------------------------------------------------

    def action_reveal(self) -> None:
        """Show this variant's answer; from now on attempts are practice (not mastery)."""
        if self.revealed:
            self._show("#drill-answer", "#drill-explain")
            return
        self.revealed = True  # before the answer arrives: nothing submitted now counts
        self.query_one("#drill-title", Static).update(self._title_text())
        self._reveal()

    @work(exclusive=True, group="reveal", exit_on_error=False)
    async def _reveal(self) -> None:
        from tutor.grading.reveal import answer_async

        panel = self.query_one("#drill-answer", Static)
        panel.update(Text("Working out the answer in the sandbox…"))
        panel.display = True
        try:
            box = await services(self).sandboxes.ready(
                self.ref.drill.runtime, lambda line: panel.update(Text(line))
            )
            text = await answer_async(self.ref, self.variant.seed, box)
        except Exception as exc:
            panel.update(Text(f"The answer could not be worked out: {exc}"))
            return
        panel.update(answer_view(self.kind.answer_input, text, self.app.current_theme.dark))
        self._show_explain()
        self._show("#drill-answer", "#drill-explain")

    def action_hint(self) -> None:
        hints = self.variant.hints
        if self.hints_used >= len(hints):
            self.notify("No more hints for this drill." if hints else "This drill has no hints.")
            return
        self.hints_used += 1
        shown = Content("\n").join(
            Content(f"Hint {i + 1}/{len(hints)}: ") + inline(h)
            for i, h in enumerate(hints[: self.hints_used])
        )
        panel = self.query_one("#drill-hints", Static)
        panel.update(shown)
        panel.display = True
        self._show("#drill-hints")

    def action_reset(self) -> None:
        reset_answer(self.query_one("#answer"), self.variant)
        self.query_one(FeedbackPanel).grade = None
        self.query_one("#answer").focus()

    def action_lab(self) -> None:
        lab = self.ref.drill.lab
        if not lab:
            self.notify("This drill names no lab.")
            return
        self.post_message(OpenLab(lab, {"setup": self.variant.setup}))

    def action_next(self) -> None:
        if self.review:
            self.dismiss(self.solved)
            return
        index = self.queue.index(self.full_id) if self.full_id in self.queue else -1
        if index + 1 >= len(self.queue):
            self.notify("That was the last drill of this list.")
            return
        nxt = self.queue[index + 1]
        self.app.switch_screen(DrillScreen(nxt, queue=self.queue))

    def action_to_answer(self) -> None:
        """Focus the answer widget and scroll it into view, wherever focus was. An order's
        highlight goes back to line 1: the list is read again from the top, after a verdict
        that named a line out of place."""
        answer = self.query_one("#answer")
        if isinstance(answer, OrderList) and answer.lines:
            answer.highlighted = 0
            answer.scroll_home(animate=False, immediate=True)
        answer.focus(scroll_visible=False)
        self.query_one("#drill-main", FocusScroll).scroll_to_widget(
            answer, animate=False, immediate=True
        )

    def action_leave_editor(self) -> None:
        """Escape in the code editor: focus moves to Submit, and the next escape goes back."""
        self.query_one("#submit", Button).focus()

    def action_back(self) -> None:
        if self.running:
            self.workers.cancel_group(self, "grade")
            return
        if self.editor_session and self.editor_session.watching:
            self.action_watch()
            return
        self.dismiss(None if self.review else self.solved)
