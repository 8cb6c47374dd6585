"""docs/internals.md names only what exists: every file path it gives, every module a section
lists, and every ``path.py:name`` it points at."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "internals.md").read_text(encoding="utf-8")
TOP = ("tutor", "tests", "lessons", "drills", "docs", "bench")
#: placeholders the checklists use for the name of a new lab or chapter
PLACEHOLDER = re.compile(r"NAME|NN|MODULE|FUNCTION")


def code_spans() -> list[str]:
    """The text of every inline code span of the doc."""
    return re.findall(r"`([^`\n]+)`", DOC)


def paths() -> list[str]:
    """Every path the doc writes in code (from the repository root, or inside ``tutor/`` as
    ``grading/engine.py``), placeholders and globs left out."""
    found = set()
    for span in code_spans():
        for m in re.finditer(r"(?<![\w/$])((?:\w+/)+[\w.*-]*\w/?)", span):
            path = m.group(1)
            named = path.startswith(TOP) or path.endswith((".py", ".md", ".yaml", ".tcss"))
            if named and not PLACEHOLDER.search(path) and "*" not in path:
                found.add(path)
    return sorted(found)


def section_modules() -> list[tuple[str, str]]:
    """(package folder, module file) for each ``- `module.py`...`` bullet under a heading
    naming a package folder, e.g. ``## content (`tutor/content/`)``."""
    pairs, folder = [], None
    for line in DOC.splitlines():
        if line.startswith("## "):
            m = re.search(r"`(tutor/[\w/]+/)`", line)
            folder = m.group(1) if m else None
        elif folder and (m := re.match(r"- `([\w/]+\.py)`", line)):
            pairs.append((folder, m.group(1)))
    return pairs


def pointers() -> list[tuple[str, str]]:
    """(file, name) for each ``something.py:Name`` the doc writes."""
    found = set()
    for span in code_spans():
        for m in re.finditer(r"([\w/]+\.py):(\w+)", span):
            if not PLACEHOLDER.search(m.group(0)):
                found.add((m.group(1), m.group(2)))
    return sorted(found)


def resolve(file: str) -> Path:
    """A path as the doc writes it: from the repository root, else under ``tutor/``."""
    for base in (ROOT, ROOT / "tutor", ROOT / "tutor" / "ui"):
        if (base / file).exists():
            return base / file
    raise AssertionError(f"docs/internals.md names {file}, which does not exist")


def test_the_doc_names_paths_and_modules():
    assert len(paths()) > 20 and len(section_modules()) > 20 and pointers()


@pytest.mark.parametrize("path", paths())
def test_every_path_exists(path):
    assert resolve(path).exists()


@pytest.mark.parametrize("folder,module", section_modules(), ids=lambda v: str(v))
def test_every_listed_module_exists(folder, module):
    assert (ROOT / folder / module).is_file(), f"{folder}{module} is listed but does not exist"


@pytest.mark.parametrize("file,name", pointers(), ids=lambda v: str(v))
def test_every_pointer_names_a_definition(file, name):
    tree = ast.parse(resolve(file).read_text(encoding="utf-8"))
    defined = {
        node.name
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    } | {
        target.id
        for node in tree.body
        if isinstance(node, (ast.Assign, ast.AnnAssign))
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name)
    }
    assert name in defined, f"docs/internals.md points at {file}:{name}, which is not defined"
