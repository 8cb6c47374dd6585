"""The catalog: pack sources (user dir, --pack, TUTOR_PACKS, entry points), broken packs
skipped and reported, drill lookup, and no torch import."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tutor.content.catalog import Catalog
from tutor.settings import Settings

PACKS = Path(__file__).parent / "packs"


def test_one_broken_pack_among_good_ones():
    catalog = Catalog.load(Settings(packs=[PACKS / "mixed"]), builtin=False)
    assert [p.pack for p in catalog.packs] == ["good-one", "good-two"]
    (problem,) = catalog.problems
    assert Path(problem.file).name == "b-broken.yaml"
    assert (problem.line, problem.col, problem.field) == (9, 5, "drills[0].tolerence")
    assert problem.message == "unknown key `tolerence` (did you mean `tolerance`?)"


def test_drill_refs_lookup_and_chapters():
    catalog = Catalog.load(Settings(packs=[PACKS / "mixed"]), builtin=False)
    assert [r.full_id for r in catalog.drills()] == ["good-one/sum", "good-two/order"]
    ref = catalog.drill("good-two/order")
    assert (ref.chapter, ref.drill.kind, ref.pack.pack, ref.title) == (
        2,
        "order",
        "good-two",
        "Order",
    )
    assert [r.full_id for r in catalog.drills_for(1)] == ["good-one/sum"]
    with pytest.raises(KeyError):
        catalog.drill("good-two/nope")
    assert len(catalog.chapters) == 12


def test_repeated_pack_id_is_reported_and_skipped(tmp_path):
    shutil.copy(PACKS / "mixed" / "a-good.yaml", tmp_path / "a.yaml")
    shutil.copy(PACKS / "mixed" / "a-good.yaml", tmp_path / "b.yaml")
    catalog = Catalog.load(Settings(packs=[tmp_path]), builtin=False)
    assert [p.source.name for p in catalog.packs] == ["a.yaml"]
    (problem,) = catalog.problems
    assert (Path(problem.file).name, problem.line, problem.col, problem.field) == (
        "b.yaml",
        1,
        7,
        "pack",
    )
    assert problem.message.startswith("pack id `good-one` is already used by ")


def test_user_pack_folder(tutor_home):
    (tutor_home / "packs").mkdir()
    shutil.copy(PACKS / "mixed" / "c-good.yaml", tutor_home / "packs" / "mine.yml")
    catalog = Catalog.load(builtin=False)
    assert [p.pack for p in catalog.packs] == ["good-two"]


def test_tutor_packs_env_and_pack_option(monkeypatch, tmp_path):
    shutil.copy(PACKS / "mixed" / "a-good.yaml", tmp_path / "one.yaml")
    monkeypatch.setenv("TUTOR_PACKS", str(tmp_path))
    settings = Settings.from_options((str(PACKS / "mixed" / "c-good.yaml"),))
    catalog = Catalog.load(settings, builtin=False)
    assert sorted(p.pack for p in catalog.packs) == ["good-one", "good-two"]
    assert catalog.problems == []


def test_missing_extra_path_is_a_problem(tmp_path):
    catalog = Catalog.load(Settings(packs=[tmp_path / "nope"]), builtin=False)
    assert catalog.packs == []
    assert [p.message for p in catalog.problems] == ["no such pack file or folder"]


def write_dist(root: Path, packs_dir: Path) -> None:
    """A real installed distribution on sys.path that advertises packs three ways."""
    (root / "tutorpacks_demo.py").write_text(
        textwrap.dedent(
            f"""
            PACK_FILE = {str(packs_dir / "a-good.yaml")!r}

            def packs():
                return [{str(packs_dir / "c-good.yaml")!r}]

            def broken():
                raise RuntimeError("no packs here")
            """
        ),
        encoding="utf-8",
    )
    info = root / "tutorpacks_demo-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tutorpacks-demo\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[tutor.packs]\n"
        "file = tutorpacks_demo:PACK_FILE\n"
        "listed = tutorpacks_demo:packs\n"
        "broken = tutorpacks_demo:broken\n"
    )


def test_entry_point_packs(tmp_path, monkeypatch):
    site = tmp_path / "site"
    site.mkdir()
    write_dist(site, PACKS / "mixed")
    monkeypatch.syspath_prepend(str(site))
    catalog = Catalog.load(Settings(), builtin=False)
    assert sorted(p.pack for p in catalog.packs) == ["good-one", "good-two"]
    (problem,) = catalog.problems
    assert problem.file == "<entry point broken = tutorpacks_demo:broken>"
    assert problem.message == "cannot load packs: RuntimeError: no packs here"


def test_builtin_catalog_loads_without_importing_torch(tmp_path):
    code = (
        "import sys\n"
        "from tutor.content.catalog import Catalog\n"
        "c = Catalog.load()\n"
        "assert 'torch' not in sys.modules, 'torch imported'\n"
        "print(len(c.chapters))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert out.stdout.strip() == "12"


def test_a_broken_builtin_pack_does_not_break_loading(monkeypatch):
    import tutor.content.sources as sources

    monkeypatch.setattr(sources, "builtin_pack_dir", lambda: PACKS / "mixed")
    catalog = Catalog.load()
    assert [p.pack for p in catalog.packs][:2] == ["good-one", "good-two"]
    pack_problems = [p for p in catalog.problems if p.file.endswith(".yaml")]
    assert [Path(p.file).name for p in pack_problems] == ["b-broken.yaml"]
    assert all(lesson.chapter == n for n, lesson in catalog.lessons.items())
    assert len(catalog.chapters) == 12
