"""A run's status comes from how its process ended (the exit status the runtime sees), never
from a record the learner's process could write: every route that forged a verdict for a
grading run gives a plain non-ok verdict for plain runs, ``tutor exec`` and lesson snippets."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys

import pytest

from tutor.commands.lesson_run import SnippetRunError, run_snippet

FORGED = '{"kind": "ok", "value": null}'
SHELL = f"printf '%s\\n' {shlex.quote(FORGED)} >&3; exit 3"

#: (name, code, expected reason or a prefix of it)
ROUTES = [
    (
        "forged record, then raise",
        f"import os\nos.write(3, b'{FORGED}\\n')\nraise ValueError('real')",
        "raised ValueError: real",
    ),
    (
        "forged record, then close the channel and raise",
        f"import os\nos.write(3, b'{FORGED}')\nos.close(3)\nraise ValueError('real')",
        "raised an exception (its report did not arrive intact)",
    ),
    (
        "json.dumps replaced so the agent writes the forgery",
        f"import json\njson.dumps = lambda *a, **k: '{FORGED}'\nraise KeyError('real')",
        "raised an exception (its report did not arrive intact)",
    ),
    (
        "agent patched through sys.modules",
        "import sys\nagent = sys.modules['tutor.sandbox.agent']\n"
        "agent._kind_of = lambda exc: 'ok'\nagent.FAILED['error'] = 0\nraise KeyError('real')",
        "raised an exception (its report did not arrive intact)",
    ),
    (
        "an exec'd shell writes the record and fails",
        f"import os\nos.execv('/bin/sh', ['sh', '-c', {SHELL!r}])",
        "exited with status 3",
    ),
    (
        "forged record, then os._exit(1)",
        f"import os\nos.write(3, b'{FORGED}\\n')\nos._exit(1)",
        "exited with status 1",
    ),
    (
        "forged record, then sys.exit(2)",
        f"import os, sys\nos.write(3, b'{FORGED}\\n')\nsys.exit(2)",
        "exited with status 2",
    ),
]


@pytest.mark.parametrize(("code", "reason"), [r[1:] for r in ROUTES], ids=[r[0] for r in ROUTES])
def test_forged_records_give_plain_non_ok_verdicts(sandbox, code, reason):
    result = sandbox.run(code, timeout=10)
    assert result.status.value == "error", (result.status, result.reason)
    assert result.reason == reason


def test_a_forged_record_cannot_turn_an_ok_run_into_an_error(sandbox):
    forged = '{"kind": "error", "raised": true, "exception": {"type": "E", "message": "x"}}'
    result = sandbox.run(f"import os\nos.write(3, b'{forged}\\n')\nprint('done')", timeout=10)
    assert result.ok and result.stdout == "done\n" and result.exception is None


def test_tutor_exec_json_reports_the_real_status(tmp_path):
    answer = tmp_path / "forge.py"
    answer.write_text(ROUTES[0][1] + "\n")
    done = subprocess.run(
        [sys.executable, "-m", "tutor", "exec", str(answer), "--json"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=300,
    )
    data = json.loads(done.stdout)
    assert data["status"] == "error" and data["reason"] == "raised ValueError: real", data


@pytest.mark.parametrize("code", [ROUTES[1][1], ROUTES[2][1]], ids=["closed", "json"])
def test_a_forging_snippet_is_not_recorded_as_a_clean_run(sandbox, code):
    with pytest.raises(SnippetRunError, match="failed without an exception"):
        run_snippet(sandbox, code)
