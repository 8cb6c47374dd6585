"""The catalog summary home draws its first frame from, and its cache keyed by file stamps."""

from __future__ import annotations

import os

from tutor.content.catalog import Catalog
from tutor.content.summary import CatalogSummary, cache_path, cached_summary, write_summary
from tutor.settings import Settings


def test_summary_of_the_catalog_round_trips_through_json():
    catalog = Catalog.load(Settings.from_options())
    summary = CatalogSummary.of(catalog)
    assert [c.number for c in summary.chapters] == list(range(1, 13))
    assert set(summary.lessons) == set(catalog.lessons)
    assert len(summary.drills) == len(catalog.drills())
    ref = catalog.drills()[0]
    assert summary.drill_title(ref.full_id) == ref.drill.display_title
    assert summary.drill_title("no/such-drill") is None
    assert CatalogSummary.from_json(summary.to_json()) == summary


def test_the_cache_is_read_back_until_a_pack_file_changes(tmp_path):
    pack = tmp_path / "mine.yaml"
    pack.write_text("pack: mine\ntitle: Mine\nchapter: 1\ndrills: []\n")
    settings = Settings(packs=[pack])
    assert cached_summary(settings) is None  # nothing cached yet
    summary = CatalogSummary.of(Catalog.load(settings))
    write_summary(summary, settings)
    assert cache_path().is_file()
    assert cached_summary(settings) == summary
    stat = pack.stat()
    os.utime(pack, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert cached_summary(settings) is None  # edited since: home waits for the real catalog
    assert cached_summary(Settings(packs=[])) is None  # other packs, other key


def test_a_damaged_cache_is_ignored():
    settings = Settings.from_options()
    cache_path().parent.mkdir(parents=True, exist_ok=True)
    cache_path().write_text("{not json")
    assert cached_summary(settings) is None
