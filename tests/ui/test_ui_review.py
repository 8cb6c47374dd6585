"""Reviews: a drill answered a month ago is due today and comes back as a fresh variant."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from textual.widgets import Input, OptionList

from tutor.progress.store import Store
from tutor.ui.progress_view import until
from tutor.ui.screens.drill import DrillScreen
from tutor.ui.screens.review import ReviewScreen
from tutor.ui.widgets.feedback import FeedbackPanel
from tutor.ui.widgets.run_status import RunStatus

DRILL = "fixture-basics/row-strides"


def store_with_a_due_review() -> tuple[Store, int]:
    store = Store()
    past = datetime.now(UTC) - timedelta(days=40)
    old_seed = 777
    store.record_attempt(DRILL, old_seed, "(5, 1)", True, "correct", 0, 4.0, at=past)
    assert DRILL in store.due_reviews()
    return store, old_seed


async def test_due_review_is_served_as_a_new_variant_and_rescheduled(make_app):
    store, old_seed = store_with_a_due_review()
    app = make_app(store=store)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert "1 review due today" in str(app.screen.query_one("#home-summary").render())
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
        listed = [o.id for o in app.screen.query_one(OptionList).options]
        assert listed == [DRILL]
        await pilot.press("s")
        await pilot.pause()
        await pilot.pause()
        drill = app.screen
        assert isinstance(drill, DrillScreen) and drill.review
        assert drill.variant.seed != old_seed  # a fresh variant, not the remembered one
        b = drill.variant.params["b"]
        await pilot.press(*f"({b}, 1)", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert drill.query_one(FeedbackPanel).grade.correct
        await pilot.press("ctrl+n")  # next: the session is over, back to the list
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
        assert "Nothing due now" in str(app.screen.query_one("#review-head").render())
        (coming,) = app.screen.query_one(OptionList).options  # listed as coming, not due
        assert "due in" in str(coming.prompt) or "due tomorrow" in str(coming.prompt)
    attempts = store.attempts(DRILL)
    assert [a.seed for a in attempts] == [old_seed, drill.variant.seed]
    assert DRILL not in store.due_reviews()


async def test_escape_ends_a_review_session(make_app):
    store, _ = store_with_a_due_review()
    store.record_attempt(
        "fixture-basics/step-order",
        5,
        "x",
        False,
        "wrong",
        0,
        3.0,
        at=datetime.now(UTC) - timedelta(days=40),
    )
    app = make_app(store=store, warm_sandbox=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        assert app.screen.query_one(OptionList).option_count == 2
        await pilot.press("s")
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, DrillScreen)
        app.screen.query_one(Input if app.screen.ref.drill.kind == "predict" else OptionList)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
        assert app.screen.session == []


async def test_nothing_due_says_when_and_practising_ahead_serves_the_next(make_app):
    store = Store()
    store.record_attempt(DRILL, 5, "(5, 1)", True, "correct", 0, 4.0)  # due again in days
    assert not store.due_reviews()
    app = make_app(store=store)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.push_screen(ReviewScreen())
        await pilot.pause()
        head = str(app.screen.query_one("#review-head").render())
        assert "Nothing due now" in head and "The next review is due in" in head
        (option,) = app.screen.query_one(OptionList).options
        assert option.id == DRILL and "due in" in str(option.prompt)
        await pilot.press("a")
        await pilot.pause()
        await pilot.pause()
        drill = app.screen
        assert isinstance(drill, DrillScreen) and drill.review and drill.full_id == DRILL


def test_until_reads_as_words():
    assert until(timedelta(minutes=20)) == "in 20 minutes"
    assert until(timedelta(hours=5)) == "in 5 hours"
    assert until(timedelta(days=1)) == "tomorrow"
    assert until(timedelta(days=3, hours=2)) == "in 3 days"


async def test_long_titles_keep_the_review_columns_lined_up(make_app, catalog):
    pack = catalog.pack("fixture-basics")
    at = next(i for i, d in enumerate(pack.drills) if d.id == "step-order")
    long = "One training step, written out line by line in the order it runs"
    pack.drills[at] = pack.drills[at].model_copy(update={"title": long})
    store, _ = store_with_a_due_review()
    past = datetime.now(UTC) - timedelta(days=40)
    store.record_attempt("fixture-basics/step-order", 5, "x", False, "wrong", 0, 3.0, at=past)
    app = make_app(catalog=catalog, store=store, warm_sandbox=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        listing = app.screen.query_one(OptionList)
        rows = [s.text.rstrip() for s in listing.render_lines(listing.region.reset_offset)]
        firsts = [r for r in rows if "chapter 1" in r]
        assert len(firsts) == 2
        assert len({r.index(" chapter 1") for r in firsts}) == 1  # one column for every row
        kinds = {r.index(" predict") if "predict" in r else r.index(" order") for r in firsts}
        assert len(kinds) == 1
        assert all(len(r) <= listing.region.width for r in rows)
        shown = " ".join(rows).split()
        assert all(word in shown for word in long.split())  # wrapped in its column, not cut


async def test_a_review_says_when_the_drill_is_due_next(make_app):
    store, _ = store_with_a_due_review()
    app = make_app(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        await pilot.pause()
        drill = app.screen
        b = drill.variant.params["b"]
        await pilot.press(*f"({b}, 1)", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        due = store.next_review(DRILL)
        status = str(drill.query_one(RunStatus).render())
        assert status.startswith("next review of this drill: due ")
        assert until(due - store.clock()) in status
