"""The app's navigation: it opens the screen each request in ``tutor.ui.messages`` asks for
(a mixin of ``TutorApp``; widgets and screens only post the requests)."""

from __future__ import annotations

from textual.app import App

from tutor.ui.messages import OpenDrill, OpenDrills, OpenLab, OpenLesson
from tutor.ui.services import services


class Navigator(App[None]):
    """Message handlers (``on_open_*``, found by name) that push screens; needs ``catalog``
    and the App API."""

    def on_open_lesson(self, event: OpenLesson) -> None:
        from tutor.ui.screens.lesson import LessonScreen

        if event.chapter not in services(self).catalog.lessons:
            self.notify(f"Chapter {event.chapter} has no lesson yet.")
            return
        self.push_screen(LessonScreen(event.chapter))

    def on_open_drills(self, event: OpenDrills) -> None:
        from tutor.ui.screens.drills import DrillListScreen

        self.push_screen(DrillListScreen(event.chapter))

    def on_open_drill(self, event: OpenDrill) -> None:
        from tutor.ui.screens.drill import DrillScreen

        queue = event.queue or [event.full_id]
        self.push_screen(DrillScreen(event.full_id, queue=queue))

    def on_open_lab(self, event: OpenLab) -> None:
        from tutor.content.labs import get_lab
        from tutor.ui.labs import lab_screen

        try:
            screen = lab_screen(event.name, event.preset)
        except KeyError:
            self.notify(f"There is no lab called {event.name!r}.", severity="error")
            return
        except Exception as exc:  # a lab still being written must not take the app down
            title = get_lab(event.name).title
            self.notify(f"The {title} lab could not open: {exc}", severity="error", markup=False)
            return
        self.push_screen(screen)

    def on_open_reviews(self) -> None:
        from tutor.ui.screens.review import ReviewScreen

        self.push_screen(ReviewScreen())

    def on_open_doctor(self) -> None:
        from tutor.ui.screens.doctor import DoctorScreen

        self.push_screen(DoctorScreen())
