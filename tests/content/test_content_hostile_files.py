"""Hostile files in a pack folder are refused, named, and never block or blow up the loader.

Each test puts one hostile file next to a good pack: the good pack still loads, the hostile one
is a problem naming its file. A hang fails the test through its timeout.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from tutor.cli import main
from tutor.content.catalog import Catalog
from tutor.content.files import MAX_FILE_BYTES
from tutor.content.loader import load_pack
from tutor.content.problems import PackError
from tutor.settings import PROJECT_ROOT, Settings

GOOD = PROJECT_ROOT / "drills" / "01-strides.yaml"

ALIAS_BOMB = (
    "pack: bomb\n"
    + "a: &a ["
    + ", ".join(['"lol"'] * 9)
    + "]\n"
    + "".join(
        f"{name}: &{name} [{', '.join([f'*{prev}'] * 9)}]\n"
        for prev, name in zip("abcdefgh", "bcdefghi", strict=True)
    )
)
"""Nine levels of nine aliases: 9**9 (387 million) strings from a file of about 350 bytes."""


def folder_with(tmp_path: Path, make) -> tuple[Path, Path]:
    """A pack folder with the good pack and one hostile file made by ``make(path)``."""
    folder = tmp_path / "packs"
    folder.mkdir()
    shutil.copy(GOOD, folder / "good.yaml")
    hostile = folder / "hostile.yaml"
    make(hostile)
    return folder, hostile


def load(folder: Path) -> Catalog:
    return Catalog.load(Settings(packs=[folder], runtime=None), builtin=False)


def assert_refused(folder: Path, hostile: Path, words: str) -> None:
    catalog = load(folder)
    assert [p.source.name for p in catalog.packs] == ["good.yaml"]
    mine = [p for p in catalog.problems if p.file.endswith("hostile.yaml")]
    assert len(mine) == 1, catalog.problems
    assert words in mine[0].message, mine[0]


def test_the_alias_bomb_is_small_and_would_expand_to_hundreds_of_millions():
    assert len(ALIAS_BOMB.encode()) < 500
    assert ALIAS_BOMB.count("*") == 8 * 9


@pytest.mark.timeout(60)
def test_an_alias_bomb_is_refused(tmp_path):
    folder, hostile = folder_with(tmp_path, lambda p: p.write_text(ALIAS_BOMB))
    assert_refused(folder, hostile, "aliases expand to more than")


@pytest.mark.timeout(60)
def test_a_fifo_is_refused_without_blocking(tmp_path):
    folder, hostile = folder_with(tmp_path, os.mkfifo)
    assert_refused(folder, hostile, "a FIFO (named pipe), not a regular file")


@pytest.mark.timeout(60)
def test_a_symlink_to_dev_zero_is_refused(tmp_path):
    folder, hostile = folder_with(tmp_path, lambda p: p.symlink_to("/dev/zero"))
    assert_refused(folder, hostile, "a character device, not a regular file")


@pytest.mark.timeout(60)
def test_a_huge_file_is_refused_without_reading_it(tmp_path):
    def sparse(path: Path) -> None:
        with open(path, "wb") as fh:
            fh.truncate(50 * 1024**3)  # 50 GB of holes: reading it would take minutes

    folder, hostile = folder_with(tmp_path, sparse)
    assert_refused(folder, hostile, f"more than {MAX_FILE_BYTES:,}")


@pytest.mark.timeout(60)
def test_deep_nesting_is_refused_not_a_crash(tmp_path):
    folder, hostile = folder_with(tmp_path, lambda p: p.write_text("- " * 60_000 + "x\n"))
    assert_refused(folder, hostile, "nest")  # our bound, or libyaml's own where it has one
    hostile.write_text("a: " + "[" * 900 + "]" * 900 + "\n")  # deep, but under the cheap bound
    assert_refused(folder, hostile, "nested too deeply")


def test_a_file_at_the_limit_is_read_and_one_byte_more_is_not(tmp_path):
    pack = tmp_path / "p.yaml"
    text = GOOD.read_text()
    pack.write_text(text + "#" * (MAX_FILE_BYTES - len(text.encode())))
    assert load_pack(pack).pack
    with open(pack, "a") as fh:
        fh.write("#")
    with pytest.raises(PackError, match="more than"):
        load_pack(pack)


def test_ordinary_anchors_aliases_and_merges_still_work(tmp_path):
    pack = tmp_path / "p.yaml"
    pack.write_text(GOOD.read_text() + "\nx-shared: &shared {a: 1}\nx-use: *shared\n")
    with pytest.raises(PackError) as info:  # unknown keys: the schema speaks, not the bomb guard
        load_pack(pack)
    assert not any("aliases expand" in p.message for p in info.value.problems)


@pytest.mark.timeout(60)
def test_pack_check_and_drill_list_name_each_hostile_file(tmp_path, monkeypatch):
    folder = tmp_path / "packs"
    folder.mkdir()
    # a copy under its own id: `pack check` refuses an id a built-in pack already has
    text = GOOD.read_text(encoding="utf-8")
    (folder / "good.yaml").write_text(text.replace("pack: strides-and-views", "pack: a-copy", 1))
    os.mkfifo(folder / "fifo.yaml")
    (folder / "zero.yaml").symlink_to("/dev/zero")
    (folder / "bomb.yaml").write_text(ALIAS_BOMB)
    check = CliRunner().invoke(main, ["pack", "check", "--no-run", str(folder)])
    assert check.exit_code == 1
    for name in ("fifo.yaml", "zero.yaml", "bomb.yaml"):
        assert name in check.output
    assert "1 pack," in check.output
    monkeypatch.setenv("TUTOR_PACKS", str(folder))
    listing = CliRunner().invoke(main, ["drill", "list", "--json"])
    assert listing.exit_code == 0
    assert "skipped: " in listing.output and "fifo.yaml" in listing.output


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_memory_stays_bounded_in_a_real_process(tmp_path):
    """The bomb and /dev/zero under a 1 GB address-space limit: refused, not MemoryError."""
    folder = tmp_path / "packs"
    folder.mkdir()
    (folder / "bomb.yaml").write_text(ALIAS_BOMB)
    (folder / "zero.yaml").symlink_to("/dev/zero")

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1024**3, 1024**3))

    code = textwrap.dedent(
        """
        import sys
        from tutor.content.pack_lint import check_paths
        packs, problems = check_paths([__import__("pathlib").Path(sys.argv[1])])
        print(len(packs), sorted(p.file.rsplit("/", 1)[-1] for p in problems))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(folder)],
        capture_output=True,
        text=True,
        timeout=100,
        preexec_fn=limit,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "0 ['bomb.yaml', 'zero.yaml']"
