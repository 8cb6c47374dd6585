"""Command-palette entries for every screen and action: chapters, lessons, labs, reviews,
doctor, help, pack problems, and every drill by title."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.message import Message

from tutor.ui.messages import OpenDoctor, OpenDrill, OpenDrills, OpenLab, OpenLesson, OpenReviews
from tutor.ui.services import services

Entry = tuple[str, str, Callable[[], object]]


class TutorCommands(Provider):
    """Everything the tutor can open, searchable by name."""

    def _post(self, message: Message) -> None:
        self.app.post_message(message)

    def entries(self) -> Iterator[Entry]:
        """(text, help, callback) for every command."""
        from tutor.content.labs import LABS

        app = services(self.app)
        post = self._post
        yield "Home", "Back to the chapter list", app.action_go_home
        yield "Reviews due today", "Recall drills scheduled for today", partial(post, OpenReviews())
        yield (
            "Doctor",
            "Runtime, backends and containment of the sandbox",
            partial(post, OpenDoctor()),
        )
        yield "Help: keys", "The keys of this screen", app.action_help
        yield "All drills", "Every drill of every pack", partial(post, OpenDrills(None))
        yield "Pack problems", "Problems found in the drill packs", app.action_problems
        yield "Theme: switch light/dark", "For light or dark terminals", app.action_toggle_theme
        for chapter in app.catalog.chapters:
            n = chapter.number
            if n in app.catalog.lessons:
                yield (
                    f"Lesson {n}: {chapter.title}",
                    chapter.thesis,
                    partial(post, OpenLesson(n)),
                )
            yield (
                f"Drills of chapter {n}: {chapter.title}",
                chapter.thesis,
                partial(post, OpenDrills(n)),
            )
        for lab in LABS:
            yield f"Lab: {lab.title}", f"Open the {lab.name} lab", partial(post, OpenLab(lab.name))
        for ref in app.catalog.drills():
            yield (
                f"Drill: {ref.drill.display_title}",
                f"{ref.drill.kind} · chapter {ref.chapter} · {ref.full_id}",
                partial(post, OpenDrill(ref.full_id)),
            )

    async def discover(self) -> Hits:
        for text, help_text, callback in self.entries():
            if text.startswith(("Drill:", "Drills of")):
                continue
            yield DiscoveryHit(text, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for text, help_text, callback in self.entries():
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, matcher.highlight(text), callback, help=help_text)
