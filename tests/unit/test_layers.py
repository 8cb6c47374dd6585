"""The architecture's rules, checked: the import contracts in pyproject.toml (layers, the one
rule about torch, no import cycles) hold, and importing the UI side leaves torch unloaded."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_import_contracts_hold():
    lint = Path(sys.executable).parent / "lint-imports"
    out = subprocess.run(
        [str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "0 broken" in out.stdout


def test_importing_the_cli_and_content_leaves_torch_out():
    code = (
        "import sys, tutor.launch, tutor.cli, tutor.content.models, tutor.progress.store, tutor.sandbox.result;"
        "print('torch' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
