"""The architecture's one rule, checked on the source: only runtime-side modules import torch,
and the supervisor-side packages import in one direction only."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "tutor"

#: Modules that run inside the sandbox runtime and may import torch.
RUNTIME_SIDE = ("tutor/sandbox/agent.py", "tutor/sandbox/zygote.py", "tutor/probes/")


def imported_modules(path: Path) -> set[str]:
    """Top-level names of every module ``path`` imports (at any depth of the file)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def is_runtime_side(rel: str) -> bool:
    if Path(rel).name.startswith("data_"):
        return False
    return rel.startswith(RUNTIME_SIDE)


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_only_runtime_side_imports_torch(path: Path):
    rel = str(path.relative_to(ROOT))
    uses_torch = any(m == "torch" or m.startswith("torch.") for m in imported_modules(path))
    if uses_torch:
        assert is_runtime_side(rel), f"{rel} imports torch but runs in the UI process"


@pytest.mark.parametrize("layer", ["content", "sandbox", "grading", "progress"])
def test_lower_layers_never_import_the_ui(layer: str):
    for path in (PACKAGE / layer).rglob("*.py"):
        mods = imported_modules(path)
        assert not any(m.startswith("tutor.ui") for m in mods), f"{path} imports tutor.ui"


def test_importing_the_cli_and_content_leaves_torch_out():
    code = (
        "import sys, tutor.cli, tutor.content.models, tutor.progress.store, tutor.sandbox.result;"
        "print('torch' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
