"""The class report over real exports: four learners answer the chained puzzles, three in the
tutor itself (Pilot-driven app sessions, each with its own TUTOR_HOME) and one with `tutor drill
run --record`; each exports with `tutor progress export`; a fifth file is a hand-edited copy.
Every format is read back: text, the CSV tables, the CSV gradebook, JSON, `--similar`,
`--verify`."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from textual.widgets import TextArea

from tutor.cli import main
from tutor.content.catalog import Catalog
from tutor.content.loader import load_pack
from tutor.settings import Settings
from tutor.ui.messages import OpenDrill
from tutor.ui.screens.drill import DrillScreen
from tutor.ui.widgets.feedback import FeedbackPanel

PUZZLES = Path(__file__).parents[1] / "grading" / "packs" / "chained-puzzles.yaml"
P = "chained-puzzles"
ONES = "def ones(i):\n    return torch.where(torch.arange(i) >= 0, 1, 0)\n"
SUM_WRONG = "def sum(a):\n    return ones(a.shape[0]) @ a\n"
SUM_RIGHT = "def sum(a):\n    return ones(a.shape[0]) @ a[:, None]\n"
SUM_RULES = "def sum(a):\n    return a.sum()[None]\n"
# the same cumsum, written apart: other names, spacing and a comment
CUMSUM_ANA = "def cumsum(a):\n    return a @ triu(len(a))\n"
CUMSUM_BEN = "def cumsum(values):\n    # the running total\n    return values@triu(len(values))\n"
ONES_WRONG = "def ones(i):\n    return torch.where(torch.arange(i) > 0, 1, 0)\n"
FLIP = "def flip(a, i):\n    return a[torch.arange(i - 1, -1, -1)]\n"


def cli(*args: str):
    return CliRunner().invoke(main, [str(a) for a in args])


async def answer_in_the_tutor(home: Path, monkeypatch, answers: list[tuple[str, str]]) -> None:
    """One learner's session: open each drill and submit its answer with ctrl+s."""
    from tutor.ui.app import TutorApp

    monkeypatch.setenv("TUTOR_HOME", str(home))
    catalog = Catalog(packs=[load_pack(PUZZLES)])
    app = TutorApp(Settings(packs=[PUZZLES]), catalog=catalog, seed=11)
    async with app.run_test(size=(100, 36)) as pilot:
        for drill, code in answers:
            await pilot.pause()
            app.post_message(OpenDrill(f"{P}/{drill}"))
            await pilot.pause()
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, DrillScreen) and screen.full_id == f"{P}/{drill}"
            screen.query_one(TextArea).load_text(code)
            await pilot.press("ctrl+s")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert screen.query_one(FeedbackPanel).grade is not None
            await pilot.press("escape", "escape")
            await pilot.pause()
    app.store.close()


def export(home: Path, monkeypatch, out: Path) -> Path:
    monkeypatch.setenv("TUTOR_HOME", str(home))
    result = cli("progress", "export", out, "--pack", PUZZLES)
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def exports(tmp_path_factory, sandbox):
    """ana, ben and dee answer in the tutor, cho with drill run --record; forged.json is cho's
    export with a wrong answer marked right."""
    import asyncio

    root = tmp_path_factory.mktemp("class")
    mp = pytest.MonkeyPatch()
    try:
        asyncio.run(
            answer_in_the_tutor(
                root / "ana",
                mp,
                [("ones", ONES), ("sum", SUM_WRONG), ("sum", SUM_RIGHT), ("cumsum", CUMSUM_ANA)],
            )
        )
        asyncio.run(
            answer_in_the_tutor(
                root / "ben",
                mp,
                [("ones", ONES), ("sum", SUM_RULES), ("sum", SUM_WRONG), ("cumsum", CUMSUM_BEN)],
            )
        )
        asyncio.run(answer_in_the_tutor(root / "dee", mp, [("ones", ONES_WRONG), ("flip", FLIP)]))
        mp.setenv("TUTOR_HOME", str(root / "cho"))
        for drill, code, seed in (("ones", ONES, 3), ("sum", SUM_WRONG, 4), ("sum", SUM_RIGHT, 5)):
            run = cli("drill", "run", f"{P}/{drill}", "--pack", PUZZLES, "--seed", seed,
                      "--answer", code, "--record")  # fmt: skip
            assert run.exit_code == 0, run.output
        names = ("ana", "ben", "cho", "dee")
        files = [export(root / name, mp, root / f"{name}.json") for name in names]
        forged = json.loads(files[2].read_text())
        wrong = next(a for a in forged["attempts"] if not a["correct"])
        forged["attempts"] = [{**wrong, "uid": "f" * 32, "correct": True, "status": "correct",
                               "drill": f"{P}/flip", "seed": 9}]  # fmt: skip
        (root / "forged.json").write_text(json.dumps(forged))
        mp.setenv("TUTOR_HOME", str(root / "teacher"))
        yield [*files, root / "forged.json"]
    finally:
        mp.undo()


def test_without_the_pack_the_exports_give_the_chapters(exports):
    result = cli("class", "report", *exports[:4])
    assert result.exit_code == 0, result.output
    row = next(line for line in result.output.splitlines() if line.startswith(f"{P}/sum "))
    assert row.split()[1:6] == ["1", "3", "6", "2", "2"]  # chapter 1, not ?
    ones = next(line for line in result.output.splitlines() if line.startswith(f"{P}/ones "))
    assert ones.split()[1:6] == ["1", "4", "4", "3", "3"]
    assert "3 × like the drill's wrong answer 0 (3 learners)" in result.output


def test_the_text_report(exports):
    result = cli("class", "report", *exports[:4], "--pack", PUZZLES)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "  1 × refused: calls what `allow` does not list (Tensor.sum) (1 learner)" in out
    assert ('  3 × like the drill\'s wrong answer 0: "`@` of two vectors is a 0-d tensor; make '
            'one side a column." (3 learners)') in out  # fmt: skip
    assert "        def sum(a):\n            return ones(a.shape[0]) @ a" in out  # whole
    gradebook = out.split("\nGradebook")[1]
    ana = next(line for line in gradebook.splitlines() if line.startswith("ana "))
    assert ana.split()[1:] == ["✓1", "✓2", "✓1"]  # ones, sum, cumsum
    assert "[4] chained-puzzles/diag" in gradebook  # the pack's other drills: columns too


def test_the_csv_gradebook_is_one_row_per_learner(exports):
    result = cli("class", "report", *exports[:4], "--matrix", "--csv", "--pack", PUZZLES)
    assert result.exit_code == 0, result.output
    rows = {r["learner"]: r for r in csv.DictReader(io.StringIO(result.stdout))}
    assert set(rows) == {"ana", "ben", "cho", "dee"}
    assert rows["dee"][f"{P}/ones"] == "tried" and rows["dee"][f"{P}/flip"] == "mastered"
    assert rows["ben"][f"{P}/sum"] == "tried" and rows["ben"][f"{P}/sum attempts"] == "2"
    assert rows["cho"][f"{P}/cumsum"] == "not tried" and rows["cho"][f"{P}/flip"] == "not tried"
    assert rows["ana"]["mastered"] == "3" and rows["cho"]["tried"] == "2"
    tables = cli("class", "report", *exports[:4], "--csv")
    by = {(r["table"], r["name"]): r for r in csv.DictReader(io.StringIO(tables.stdout))}
    assert by[("drill", f"{P}/sum")]["wrong_groups"].startswith("like the drill's wrong answer 0")


def test_json_carries_the_gradebook_the_groups_and_the_similar_answers(exports):
    result = cli("class", "report", *exports[:4], "--json", "--similar", "--pack", PUZZLES)
    data = json.loads(result.stdout)
    drills = {d["drill"]: d for d in data["drills"]}
    assert drills[f"{P}/sum"]["chapter"] == 1 and drills[f"{P}/sum"]["title"] == "Sum"
    assert [g["outcome"] for g in drills[f"{P}/sum"]["wrong_groups"]] == [
        "wrong[0]", "not_allowed: Tensor.sum"]  # fmt: skip
    assert drills[f"{P}/sum"]["median_seconds"] > 0  # the tutor's attempts; cho's have none
    cells = {r["learner"]: r["cells"] for r in data["matrix"]["learners"]}
    assert cells["cho"][f"{P}/sum"] == {"status": "mastered", "attempts": 2,
                                         "last_attempt": cells["cho"][f"{P}/sum"]["last_attempt"]}  # fmt: skip
    (pair,) = [s for s in data["similar"] if s["drill"] == f"{P}/cumsum"]
    assert pair["learners"] == ["ana", "ben"]
    assert all(s["drill"] != f"{P}/ones" for s in data["similar"])  # the reference itself


def test_verify_replays_every_mastery_and_catches_the_forged_one(exports):
    result = cli("class", "report", *exports, "--verify", "--pack", PUZZLES, "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    v = data["verify"]
    assert v["checked"] == v["reproduced"] + 1 and v["not_checked"] == []
    (bad,) = v["not_reproduced"]
    assert (bad["learner"], bad["drill"], bad["seed"]) == ("forged", f"{P}/flip", 9)
    cells = {r["learner"]: r["cells"] for r in data["matrix"]["learners"]}
    assert cells["forged"][f"{P}/flip"]["status"] == "not reproduced"
    assert cells["ana"][f"{P}/sum"]["status"] == "mastered"
    text = cli("class", "report", *exports, "--verify", "--pack", PUZZLES)
    assert f"NOT REPRODUCED: forged {P}/flip seed 9: wrong" in text.output
    unloaded = json.loads(cli("class", "report", exports[4], "--verify", "--json").stdout)
    assert unloaded["verify"]["checked"] == 0 and unloaded["verify"]["not_checked"]
