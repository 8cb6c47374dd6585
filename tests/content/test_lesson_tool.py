"""The lesson snippet tool: `record` writes real outputs, `check` catches drift, nothing else moves.

Snippets run in the real sandbox (real torch); only the lesson files are temporary.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from tutor.cli import main
from tutor.commands.lesson_run import check_lesson, record_lesson, resolve_lessons
from tutor.content.lesson_outputs import (
    apply_outputs,
    normalise,
    recorded_torch_version,
    set_torch_version,
)
from tutor.content.lesson_text import parse_snippets

LESSON = """\
---
chapter: 9
title: A test lesson
thesis: Outputs are recorded, never typed.
labs: []
---

# A test lesson

Some prose with a `code span` and a plain block that must never run:

```python
print("not a runnable snippet")
```

The first snippet has no output block yet.

```python run
x = torch.arange(24).reshape(2, 3, 4)
print(x.stride())
```

The second has a stale one, separated by a blank line.

```python run
print(torch.tensor([1.0, 2.0, 3.0]).sum().item())
```

```output
999
```

A snippet that raises shows the error for real:

```python run
print("before")
torch.randn(2, 3, 4).permute(2, 0, 1).view(-1)
```

Trailing prose stays as it is.
"""


@pytest.fixture
def lesson(tmp_path):
    path = tmp_path / "09-test.md"
    path.write_text(LESSON, encoding="utf-8")
    return path


def _without_outputs(text: str) -> str:
    """The text with every ``output`` block and the ``torch:`` line removed."""
    lines = text.splitlines(keepends=True)
    for block in sorted(parse_snippets(text), key=lambda b: b.open_idx, reverse=True):
        if block.output_open_idx is not None:
            del lines[block.output_open_idx : block.output_close_idx + 1]
    return "".join(line for line in lines if not line.startswith("torch:"))


def test_parse_finds_run_snippets_and_their_outputs():
    blocks = parse_snippets(LESSON)
    assert [b.line for b in blocks] == [18, 25, 35]
    assert blocks[0].output is None
    assert blocks[1].output == "999\n"
    assert "permute" in blocks[2].code
    assert blocks[2].output is None


def test_an_output_after_prose_belongs_to_no_snippet():
    text = "```python run\nprint(1)\n```\n\nprose\n\n```output\n1\n```\n"
    assert parse_snippets(text)[0].output is None


def test_record_writes_real_outputs_and_version(lesson, sandbox):
    report = record_lesson(lesson, sandbox, version="9.9.9-test")
    assert report.ok and report.snippets == 3 and report.recorded == 3 and report.changed
    text = lesson.read_text(encoding="utf-8")
    blocks = parse_snippets(text)
    assert blocks[0].output == "(12, 4, 1)\n"
    assert blocks[1].output == "6.0\n"
    out = blocks[2].output.splitlines()
    assert out[0] == "before"
    assert out[1].startswith("RuntimeError: view size is not compatible")
    assert 'torch: "9.9.9-test"\n' in text.split("---")[1]


def test_record_touches_nothing_else(lesson, sandbox):
    record_lesson(lesson, sandbox, version="9.9.9-test")
    after = lesson.read_text(encoding="utf-8")
    # remove what record wrote (and the stale block it replaced): the rest is byte-identical
    assert _without_outputs(after) == _without_outputs(LESSON)
    assert after.endswith("Trailing prose stays as it is.\n")


def test_record_is_idempotent(lesson, sandbox):
    record_lesson(lesson, sandbox, version="9.9.9-test")
    first = lesson.read_bytes()
    report = record_lesson(lesson, sandbox, version="9.9.9-test")
    assert report.recorded == 0 and not report.changed
    assert lesson.read_bytes() == first


def test_check_passes_after_record_and_catches_drift(lesson, sandbox):
    record_lesson(lesson, sandbox, version="9.9.9-test")
    assert check_lesson(lesson, sandbox).ok

    text = lesson.read_text(encoding="utf-8").replace("(12, 4, 1)", "(12, 4, 2)")
    lesson.write_text(text, encoding="utf-8")
    report = check_lesson(lesson, sandbox)
    assert not report.ok
    [drift] = report.drifts
    first = parse_snippets(text)[0].line  # one line lower than before: record added `torch:`
    assert drift.line == first == 19
    assert str(drift).endswith(":19: snippet output drifted")
    assert "-(12, 4, 2)" in drift.diff and "+(12, 4, 1)" in drift.diff


def test_check_reports_missing_output(lesson, sandbox):
    report = check_lesson(lesson, sandbox)
    messages = {d.line: d.message for d in report.drifts}
    assert "no recorded output" in messages[18]
    assert messages[25] == "snippet output drifted"  # the stale 999
    assert 35 in messages


def test_trailing_whitespace_is_the_only_normalisation():
    assert normalise("a  \nb\t\n\n\n") == "a\nb"
    assert normalise("a\n b") == "a\n b"  # leading whitespace matters
    assert normalise("x") != normalise("y")


def test_crlf_files_keep_their_line_endings():
    text = LESSON.replace("\n", "\r\n")
    blocks = parse_snippets(text)
    new = apply_outputs(text, {blocks[0].open_idx: "(12, 4, 1)"})
    assert "```output\r\n(12, 4, 1)\r\n```\r\n" in new
    assert "\n" not in new.replace("\r\n", "")
    assert set_torch_version(new, "1.0").count('torch: "1.0"\r\n') == 1


def test_output_with_backticks_gets_a_longer_fence():
    text = "```python run\nprint('```')\n```\n"
    new = apply_outputs(text, {0: "```"})
    assert new.endswith("````output\n```\n````\n")
    assert parse_snippets(new)[0].output == "```\n"


def test_torch_version_replaces_an_existing_field():
    text = '---\nchapter: 1\ntorch: "2.0"\ntitle: T\n---\nbody\n'
    assert (
        set_torch_version(text, "2.13.0")
        == '---\nchapter: 1\ntorch: "2.13.0"\ntitle: T\n---\nbody\n'
    )


def test_cli_check_json_exits_1_on_drift(lesson, sandbox):
    record_lesson(lesson, sandbox, version="9.9.9-test")
    runner = CliRunner()
    ok = runner.invoke(main, ["lesson", "check", str(lesson), "--json"])
    assert ok.exit_code == 0, ok.output
    data = json.loads(ok.stdout)
    assert data["ok"] is True and data["snippets"] == 3 and data["drifted"] == 0

    lesson.write_text(lesson.read_text().replace("6.0", "7.0"), encoding="utf-8")
    bad = runner.invoke(main, ["lesson", "check", str(lesson), "--json"])
    assert bad.exit_code == 1
    data = json.loads(bad.stdout)
    assert data["ok"] is False and data["drifted"] == 1
    [drift] = data["lessons"][0]["drifts"]
    second = parse_snippets(lesson.read_text(encoding="utf-8"))[1].line
    assert drift["line"] == second and drift["recorded"] == "7.0" and drift["actual"] == "6.0"


def test_cli_record_then_check(lesson):
    runner = CliRunner()
    rec = runner.invoke(main, ["lesson", "record", str(lesson)])
    assert rec.exit_code == 0, rec.output
    assert "3 snippets, 3 outputs changed (updated)" in rec.stdout
    check = runner.invoke(main, ["lesson", "check", str(lesson)])
    assert check.exit_code == 0, check.output
    assert "1 lessons, 3 snippets" in check.stdout and check.stdout.rstrip().endswith("ok")


def test_recorded_version_is_read_back(lesson, sandbox):
    assert recorded_torch_version(LESSON) is None
    record_lesson(lesson, sandbox, version="9.9.9-test")
    assert recorded_torch_version(lesson.read_text()) == "9.9.9-test"
    assert check_lesson(lesson, sandbox).torch == "9.9.9-test"


def test_check_notes_a_different_recording_torch(lesson, sandbox):
    record_lesson(lesson, sandbox, version="0.0.1-old")
    lesson.write_text(lesson.read_text().replace("6.0", "7.0"), encoding="utf-8")
    result = CliRunner().invoke(main, ["lesson", "check", str(lesson)])
    assert result.exit_code == 1
    assert "09-test.md:" in result.output and "snippet output drifted" in result.output
    assert "-7.0" in result.output and "+6.0" in result.output
    assert "recorded with torch 0.0.1-old" in result.output


def test_chapters_resolve_to_lesson_files(tmp_path):
    (tmp_path / "lessons").mkdir()
    for name in ("01-tensors.md", "02-autograd.md", "chapters.yaml"):
        (tmp_path / "lessons" / name).write_text("---\n---\n")
    assert [p.name for p in resolve_lessons([], tmp_path)] == ["01-tensors.md", "02-autograd.md"]
    assert [p.name for p in resolve_lessons(["2"], tmp_path)] == ["02-autograd.md"]
    with pytest.raises(FileNotFoundError):
        resolve_lessons(["7"], tmp_path)


def test_cli_unknown_chapter_is_a_usage_error():
    result = CliRunner().invoke(main, ["lesson", "check", "99"])
    assert result.exit_code == 2
    assert "no lesson for chapter 99" in result.output


def test_an_unclosed_fence_is_reported_and_the_file_left_alone(tmp_path, sandbox):
    path = tmp_path / "09-open.md"
    text = LESSON + "\n```python run\nprint('the rest of the file is code now')\n"
    path.write_text(text)
    report = record_lesson(path, sandbox)
    assert [d.message for d in report.drifts] == ["this code fence is never closed"]
    assert report.drifts[0].line == len(LESSON.splitlines()) + 2
    assert path.read_text() == text and not report.changed
    checked = check_lesson(path, sandbox)
    assert "this code fence is never closed" in [d.message for d in checked.drifts]
