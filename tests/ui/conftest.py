"""Fixtures for the UI tests: a catalog built from tests/ui/fixtures, a fresh store, the app."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.content.catalog import Catalog, load_packs
from tutor.content.lessons import load_chapters, load_lesson
from tutor.settings import Settings

FIXTURES = Path(__file__).parent / "fixtures"
SEED = 1234


def fixture_catalog() -> Catalog:
    """The twelve real chapters, the fixture pack, and the fixture lesson of chapter 1."""
    packs, problems = load_packs(sorted((FIXTURES / "packs").glob("*.yaml")))
    assert not problems, problems
    catalog = Catalog(packs=packs, chapters=load_chapters())
    catalog.lessons[1] = load_lesson(FIXTURES / "lessons" / "01-fixture.md")
    return catalog


def make_app(**kwargs):
    """A TutorApp on the fixture catalog with a fixed seed (the sandbox is real)."""
    from tutor.ui.app import TutorApp

    kwargs.setdefault("catalog", fixture_catalog())
    kwargs.setdefault("seed", SEED)
    return TutorApp(Settings(packs=[FIXTURES / "packs"]), **kwargs)


@pytest.fixture(autouse=True)
def dark_theme(monkeypatch):
    """Snapshots use the dark theme whatever the terminal announces."""
    monkeypatch.delenv("TUTOR_THEME", raising=False)
    monkeypatch.delenv("COLORFGBG", raising=False)


@pytest.fixture
def catalog() -> Catalog:
    return fixture_catalog()


@pytest.fixture(name="make_app")
def make_app_fixture():
    """A factory: ``make_app(**kwargs)`` builds a TutorApp on the fixture catalog."""
    return make_app


@pytest.fixture(name="fixtures_dir")
def fixtures_dir_fixture() -> Path:
    return FIXTURES


LONG_SNIPPET = """---
chapter: 1
title: "Long lines"
thesis: A tensor is a view onto storage; strides are the map.
torch: "2.13.0"
---

# Long lines

```python run
x = torch.arange(6)
for name, v in {"view": x.view(2, 3), "reshape": x.reshape(3, 2)}.items():
    same = v.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    print(name, same)
```

```output
view True
reshape True
```
"""


@pytest.fixture(name="long_lesson_app")
def long_lesson_app_fixture(tmp_path):
    """The app on the fixture catalog with a chapter 1 lesson whose snippet has long lines."""
    catalog = fixture_catalog()
    path = tmp_path / "01-long.md"
    path.write_text(LONG_SNIPPET)
    catalog.lessons[1] = load_lesson(path)
    return make_app(catalog=catalog, warm_sandbox=False)
