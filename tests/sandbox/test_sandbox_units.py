"""The torch-free pieces on their own: how a run ended, output cleaning, runtime resolution, protocol."""

from __future__ import annotations

import os
import signal
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tutor.sandbox import protocol
from tutor.sandbox.ending import Ending, run_status, size_text
from tutor.sandbox.limits import Limits
from tutor.sandbox.runtimes import RuntimeNotFound, is_local, resolve_runtime
from tutor.sandbox.text import clean_output
from tutor.settings import RuntimeEntry, load_config, runtime_names


def killed(sig: int) -> int:
    return sig  # a wait status for "terminated by signal sig" (no core)


def exited(code: int) -> int:
    return code << 8


LIM = Limits(timeout=2.0, memory_mb=1024, output_limit=65536)
UNREAD = "raised an exception (its report did not arrive intact)"


@pytest.mark.parametrize(
    ("ending", "status", "reason"),
    [
        (Ending(exited(0), result={"kind": "ok"}), "ok", ""),
        (
            Ending(killed(signal.SIGKILL), stopped_for="timeout"),
            "timeout",
            "timed out after 2.0 s (wall clock)",
        ),
        (Ending(killed(signal.SIGXCPU), 2.0), "timeout", "timed out after 2.0 s of CPU"),
        (Ending(killed(signal.SIGKILL), 3.0), "timeout", "timed out after 2.0 s of CPU"),
        (Ending(killed(signal.SIGKILL), 0.1), "crashed", "crashed with SIGKILL"),
        (Ending(killed(signal.SIGSEGV)), "crashed", "crashed with SIGSEGV"),
        (Ending(killed(signal.SIGXFSZ)), "output_limit", "wrote a file larger than 64 MB"),
        (
            Ending(exited(114), result={"kind": "memory", "raised": True}),
            "memory",
            "tried to use more than 1024 MB",
        ),
        # the run's processes together passed the limit: the runtime stopped them all
        (
            Ending(killed(signal.SIGKILL), 0.1, stopped_for="memory", holders=5),
            "memory",
            "used more than 1024 MB together (5 processes)",
        ),
        (
            Ending(exited(0), stopped_for="memory", holders=1, result={"kind": "ok"}),
            "memory",
            "used more than 1024 MB",
        ),
        (
            Ending(killed(signal.SIGKILL), 5.0, stopped_for="memory", holders=2),
            "memory",
            "used more than 1024 MB together (2 processes)",
        ),
        (
            Ending(killed(signal.SIGKILL), stopped_for="stdout"),
            "output_limit",
            "printed more than 64 KiB to stdout",
        ),
        (Ending(exited(3)), "error", "exited with status 3"),
        (Ending(exited(0)), "ok", "exited early with status 0"),
        (Ending(None), "sandbox_error", "the run could not be started"),
        (
            Ending(
                exited(113),
                result={
                    "kind": "error",
                    "raised": True,
                    "exception": {"type": "KeyError", "message": "'a'"},
                },
            ),
            "error",
            "raised KeyError: 'a'",
        ),
        # the exit code decides; a report learner code could have written only explains
        (Ending(exited(113), result={"kind": "ok"}), "error", UNREAD),
        (Ending(exited(113)), "error", UNREAD),
        (Ending(exited(0), result={"kind": "memory"}), "ok", "exited early with status 0"),
        (
            Ending(exited(0), result={"kind": "error", "raised": True, "exception": {"type": "E"}}),
            "ok",
            "exited early with status 0",
        ),
        (
            Ending(exited(114), result={"kind": "exit", "code": 114}),
            "error",
            "exited with status 114",
        ),
        (
            Ending(exited(112)),
            "error",
            "the run finished but closed the channel its result goes back on",
        ),
    ],
)
def test_run_status(ending, status, reason):
    assert run_status(ending, LIM) == (status, reason)


def test_size_text():
    assert size_text(65536) == "64 KiB"
    assert size_text(64 * 1024 * 1024) == "64 MB"
    assert size_text(1000) == "1000 bytes"


def test_clean_output_strips_controls_and_keeps_text():
    raw = b"\x1b[1;31mbold red\x1b[0m\ttab\r\nnext \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\ \xff end\x07"
    assert clean_output(raw) == "bold red\ttab\nnext link \ufffd end"


def test_clean_output_keeps_unicode():
    assert clean_output("naïve → 张量 ✓\n".encode()) == "naïve → 张量 ✓\n"


@given(st.binary(max_size=400))
def test_clean_output_never_leaves_control_characters(data):
    text = clean_output(data)
    assert not any((ord(c) < 32 and c not in "\t\n") or 0x7F <= ord(c) <= 0x9F for c in text)


def test_protocol_round_trip():
    message = {"op": "run", "id": 3, "code": "print('é')\n", "limits": Limits().to_json()}
    line = protocol.encode(message)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert protocol.decode(line) == message
    assert protocol.unpack_bytes(protocol.pack_bytes(b"\x00\xff")) == b"\x00\xff"
    reader = protocol.LineReader()
    assert reader.feed(line[:5]) == []
    assert [protocol.decode(x) for x in reader.feed(line[5:] + line)] == [message, message]


def test_limits_from_json_ignores_unknown_keys():
    assert Limits.from_json({"timeout": 0.5, "bogus": 1}).cpu_seconds == 1
    assert Limits(timeout=2.5).cpu_seconds == 3


def test_resolve_default_runtime_is_this_interpreter():
    command = resolve_runtime(None)
    assert command == [sys.executable, "-m", "tutor.sandbox.zygote"]
    assert is_local(command)


def test_resolve_python_path():
    assert resolve_runtime(sys.executable)[0] == sys.executable


def test_resolve_named_runtimes_from_config(tutor_home):
    (tutor_home / "config.toml").write_text(
        '[runtimes.xla]\npython = "/opt/xla/bin/python"\n'
        '[runtimes.tpu]\ncommand = ["ssh", "tpu-vm", "/opt/venv/bin/python", "-m", "tutor.sandbox.zygote"]\n'
    )
    assert resolve_runtime("xla") == ["/opt/xla/bin/python", "-m", "tutor.sandbox.zygote"]
    tpu = resolve_runtime("tpu")
    assert tpu[:2] == ["ssh", "tpu-vm"]
    assert not is_local(tpu)


def test_config_is_typed_and_its_mistakes_name_the_file_and_field(tutor_home):
    config = tutor_home / "config.toml"
    config.write_text('theme = "dark"\n[runtimes.tpu]\ncommand = "ssh tpu-vm python"\n')
    assert load_config().runtimes == {"tpu": RuntimeEntry(command="ssh tpu-vm python")}
    assert "tpu" in runtime_names()
    assert resolve_runtime("tpu") == ["ssh", "tpu-vm", "python"]
    for text, where in [
        ('[runtimes.tpu]\npyhton = "/opt/bin/python"\n', "runtimes.tpu.pyhton"),
        ('runtimes = "tpu"\n', "runtimes"),
        ("[runtimes.tpu]\npython = 3\n", "runtimes.tpu.python"),
        ("[runtimes.tpu\n", "not TOML"),
    ]:
        config.write_text(text)
        with pytest.raises(RuntimeNotFound) as raised:  # what every entry point reports
            resolve_runtime("tpu")
        assert str(raised.value).startswith(f"{config}: {where}"), str(raised.value)


def test_unknown_runtime_is_refused():
    with pytest.raises(RuntimeNotFound):
        resolve_runtime("no-such-runtime-anywhere")
    with pytest.raises(RuntimeNotFound):
        resolve_runtime(os.devnull)
