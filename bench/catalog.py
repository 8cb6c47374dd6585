"""How fast the catalog loads: 1,000 drills across 50 pack files, against a 250 ms target.

Generates a realistic tree (every drill kind, params, hints, checks) in a temporary folder,
loads it several times with ``Catalog.load`` and prints the median (wall clock and CPU time of
this process) and its ratio to the target. Side by side, in the same run, it times plain
``yaml.load(CSafeLoader)`` of the same files (no positions, no validation): the ratio between
the two does not depend on how busy the machine is.
Run: ``.venv/bin/python bench/catalog.py``.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

FILES, DRILLS_PER_FILE, TARGET_MS, RUNS = 50, 20, 250.0, 11

PREDICT = """\
  - id: strides-{i}
    kind: predict
    title: Strides after permute {i}
    prompt: |
      `x = torch.randn({{a}}, {{b}}, {{c}})`. What is `x.permute(2, 0, 1).stride()`?
    params:
      a: {{int: [2, 5]}}
      b: {{int: [2, 5]}}
      c: {{choice: [3, 4, 6]}}
    setup: |
      x = torch.randn({{a}}, {{b}}, {{c}})
    ask: x.permute(2, 0, 1).stride()
    hints:
      - Row-major strides of ({{a}}, {{b}}, {{c}}) are ({{b}}*{{c}}, {{c}}, 1).
      - permute reorders the strides exactly as it reorders the shape.
    explain: permute changes metadata only.
    lab: stride
    tags: [views, strides]
"""
ORDER = """\
  - id: loop-{i}
    kind: order
    prompt: Put one training step in order.
    lines:
      - optimizer.zero_grad()
      - out = model(x)
      - loss = criterion(out, y)
      - loss.backward()
      - optimizer.step()
"""
CHOICE = """\
  - id: no-grad-{i}
    kind: choice
    prompt: What does `torch.no_grad()` do?
    quiz: true
    choices:
      - answer: Stops recording operations on the tape inside the block.
        correct: true
      - answer: Sets every .grad to zero.
        why: That is optimizer.zero_grad().
"""
CODE = """\
  - id: outer-{i}
    kind: {kind}
    prompt: Write `outer(a, b)` without loops.
    starter: |
      def outer(a, b):
          ...
    reference: |
      def outer(a, b):
          return a[:, None] * b[None, :]
    check:
      call: outer
      args:
        a: {{tensor: [n]}}
        b: {{tensor: [m], dtype: float64}}
      params:
        n: {{int: [1, 6]}}
        m: {{int: [1, 6]}}
      trials: 20
    forbid: [for, while, torch.outer]
    wrong:
      - |
        def outer(a, b):
            return a * b
"""


def drill_text(i: int) -> str:
    """The YAML of the i-th generated drill (the five kinds in turn)."""
    n = i % 5
    if n == 0:
        return PREDICT.format(i=i)
    if n == 1:
        return ORDER.format(i=i)
    if n == 2:
        return CHOICE.format(i=i)
    return CODE.format(i=i, kind="code" if n == 3 else "fix")


def write_tree(root: Path) -> None:
    """Write FILES pack files of DRILLS_PER_FILE drills each under ``root``."""
    for f in range(FILES):
        head = f"pack: bench-{f}\ntitle: Bench pack {f}\nchapter: {f % 12 + 1}\ndrills:\n"
        body = "".join(drill_text(i) for i in range(DRILLS_PER_FILE))
        (root / f"bench-{f:02}.yaml").write_text(head + body, encoding="utf-8")


def main() -> None:
    """Generate the tree, time the loads, print the figures."""
    from tutor.content.catalog import Catalog
    from tutor.settings import Settings

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "packs"
        root.mkdir()
        write_tree(root)
        os.environ["TUTOR_HOME"] = str(Path(tmp) / "home")
        settings = Settings(packs=[root])
        times, cpu, plain = [], [], []
        for _ in range(RUNS):
            start, start_cpu = time.perf_counter(), time.process_time()
            catalog = Catalog.load(settings, builtin=False)
            times.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
            drills = len(catalog.drills())
            assert drills == FILES * DRILLS_PER_FILE and not catalog.problems, catalog.problems
            start = time.perf_counter()
            for path in sorted(root.glob("*.yaml")):
                yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
            plain.append((time.perf_counter() - start) * 1000)
    median, median_cpu, median_plain = (statistics.median(t) for t in (times, cpu, plain))
    print(
        f"catalog: {drills} drills in {FILES} files: median {median:.1f} ms wall, "
        f"{median_cpu:.1f} ms CPU over {RUNS} runs (min {min(times):.1f} ms); "
        f"{median / TARGET_MS:.2f}x the {TARGET_MS:.0f} ms target"
    )
    print(
        f"plain yaml.load(CSafeLoader) of the same files: median {median_plain:.1f} ms "
        f"(min {min(plain):.1f} ms); the catalog takes {median / median_plain:.2f}x that "
        f"(min to min: {min(times) / min(plain):.2f}x)"
    )
    print("torch imported:", "torch" in sys.modules)


if __name__ == "__main__":
    main()
