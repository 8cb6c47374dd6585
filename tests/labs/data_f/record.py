"""Record the probe data the lab snapshot tests draw: `python tests/labs/data_f/record.py`.

Each recording keeps the call that made it (``probe`` and ``kwargs``) next to the ``value`` the
probe returned, so a test can re-run the call and check that torch still says the same.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

HERE = Path(__file__).parent

#: file name -> (probe target, kwargs)
SPECS: dict[str, tuple[str, dict]] = {
    "loop_line_no_zero_grad.json": (
        "tutor.probes.loop_trace:trace",
        {"problem": "line", "bug": "no_zero_grad"},
    ),
    "loop_classify_no_eval.json": (
        "tutor.probes.loop_trace:trace",
        {"problem": "classify", "bug": "no_eval", "steps": 60},
    ),
    "ledger_mlp_bn.json": (
        "tutor.probes.ledger:ledger",
        {
            "code": "nn.Sequential(\n    nn.Linear(784, 256), nn.BatchNorm1d(256), nn.ReLU(),\n"
            "    nn.Linear(256, 128), nn.BatchNorm1d(128), nn.ReLU(),\n    nn.Linear(128, 10),\n)",
            "batch": 64,
        },
    ),
    "logits_default.json": (
        "tutor.probes.logits:logits",
        {"logits": [2.0, 1.0, 0.1], "target_class": 0},
    ),
    "logits_softmax_first.json": (
        "tutor.probes.logits:logits",
        {"logits": [3.0, 0.0, -1.0, 0.5], "target_class": 2, "softmax_first": True},
    ),
}


def run(target: str, kwargs: dict) -> dict:
    """Call the probe in-process (real torch) and return its JSON data."""
    module, func = target.split(":")
    return getattr(importlib.import_module(module), func)(**kwargs).model_dump(mode="json")


def load(name: str) -> dict:
    """The recorded value of ``name``."""
    return json.loads((HERE / name).read_text())["value"]


def main() -> None:
    for name, (target, kwargs) in SPECS.items():
        record = {"probe": target, "kwargs": kwargs, "value": run(target, kwargs)}
        (HERE / name).write_text(json.dumps(record, indent=None, separators=(",", ":")) + "\n")
        print(f"wrote {name}")


if __name__ == "__main__":
    main()
