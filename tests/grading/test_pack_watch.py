"""`tutor pack check --watch`: a real file edit is noticed and only the changed drill re-checked."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tutor.commands.pack_watch import changed_drills, fingerprints
from tutor.content.loader import load_pack

ROOT = Path(__file__).resolve().parents[2]
WAIT_S = 120  # the bound on each wait for the watcher's next line (a loaded machine is slow)

PACK = """\
pack: watched
title: Watched
chapter: 1
drills:
  - id: shape
    kind: predict
    prompt: What is `torch.zeros({n}, 2).shape`?
    params:
      n: {int: [2, 5]}
    ask: torch.zeros({n}, 2).shape
  - id: numel
    kind: predict
    prompt: What is `torch.zeros(3, {n}).numel()`?
    params:
      n: {int: [2, 5]}
    ask: torch.zeros(3, {n}).numel()
"""


class Lines:
    """The JSON lines a process prints, read by a thread so that a wait can be bounded."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.queue: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, args=(proc.stdout,), daemon=True).start()

    def _read(self, stream) -> None:
        for line in stream:
            self.queue.put(line)
        self.queue.put(None)

    def next(self) -> dict:
        line = self.queue.get(timeout=WAIT_S)
        assert line is not None, "the watcher ended"
        return json.loads(line)


@pytest.fixture
def watch(tmp_path):
    started = []

    def start(*args: str) -> tuple[subprocess.Popen, Lines]:
        cmd = [sys.executable, "-m", "tutor", "pack", "check", "--watch", "--json", *args]
        proc = subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.PIPE, text=True,
                                env={**os.environ, "PYTHONUNBUFFERED": "1"})  # fmt: skip
        started.append(proc)
        return proc, Lines(proc)

    yield start
    for proc in started:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


def test_an_edit_rechecks_only_the_drill_that_changed(tmp_path, watch):
    pack = tmp_path / "watched.yaml"
    pack.write_text(PACK)
    proc, lines = watch("watched.yaml")
    first = lines.next()
    assert first["ok"] and first["packs"][0]["drills"] == 2
    assert lines.next() == {"watching": [str(tmp_path.resolve())]}

    text = PACK.replace("torch.zeros(3, {n}).numel()", "torch.zeros(3, {n}).dim()")
    pack.write_text(text)
    again = lines.next()
    assert again["checked"] == ["numel"] and again["ok"] and again["file"] == "watched.yaml"

    # a broken save is reported at its line; the unchanged drill is still not re-run
    pack.write_text(text.replace("ask: torch.zeros({n}, 2).shape", "ask: torch.zeros({n}, 2).shap"))
    broken = lines.next()
    assert broken["checked"] == ["shape"] and not broken["ok"]
    (problem,) = broken["problems"]
    assert problem["field"] == "drills[0].ask" and "AttributeError" in problem["message"]
    assert problem["line"] == 10

    pack.write_text(text.replace("title: Watched", "title: Watched: ask"))  # a YAML error
    bad = lines.next()
    assert bad["checked"] == [] and "yaml" in bad["problems"][0]["field"]
    assert bad["loaded"] is False

    pack.write_text(text.replace("    kind: predict\n", "    knd: x\n    kind: predict\n", 1))
    typo = lines.next()  # a bad key: the schema error, not "no drill changed"
    assert typo["loaded"] is False and not typo["ok"]
    assert [p["message"] for p in typo["problems"]] == ["unknown key `knd` (did you mean `kind`?)"]

    proc.send_signal(signal.SIGINT)
    assert lines.next() == {"stopped": True}
    assert proc.wait(timeout=WAIT_S) == 0


def test_fingerprints_change_with_the_drill_or_the_keys_every_drill_shares(tmp_path):
    file = tmp_path / "p.yaml"
    file.write_text(PACK)
    before = fingerprints(load_pack(file))
    file.write_text(
        PACK.replace(
            "n: {int: [2, 5]}\n    ask: torch.zeros(3", "n: {int: [2, 6]}\n    ask: torch.zeros(3"
        )
    )
    assert changed_drills(before, fingerprints(load_pack(file))) == ["numel"]
    file.write_text(PACK.replace("chapter: 1", "chapter: 1\nregression_seeds: [7]"))
    assert changed_drills(before, fingerprints(load_pack(file))) == ["shape", "numel"]
    assert changed_drills(None, before) == ["shape", "numel"]
    assert changed_drills(before, before) == []
