"""A writer killed with SIGKILL mid-stream loses no committed attempt and corrupts nothing."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys

WRITER = r"""
import sys
from pathlib import Path
from tutor.progress.store import Store

store = Store(Path(sys.argv[1]))
i = 0
while True:
    uid = store.record_attempt(f"p/d{i % 7}", i, "answer " * 50, i % 2 == 0, "x",
                               hints_used=i % 3, seconds=1.0)
    print(uid, flush=True)  # printed only after the commit returned
    i += 1
"""


def test_kill_9_mid_stream_loses_nothing(tmp_path):
    db = tmp_path / "progress.db"
    committed: list[str] = []
    for _round in range(3):
        proc = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(db)],
            stdout=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
        )
        assert proc.stdout is not None
        for _ in range(40 + 17 * _round):
            line = proc.stdout.readline()
            assert line, "writer died early"
            committed.append(line.strip())
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        proc.stdout.close()

    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    stored = {row[0] for row in conn.execute("SELECT uid FROM attempts")}
    conn.close()
    assert set(committed) <= stored
    # every stored attempt also rescheduled its card in the same transaction
    from tutor.progress.store import Store

    with Store(db) as s:
        drills = {a.drill for a in s.attempts()}
        assert all(s.next_review(d) is not None for d in drills)
