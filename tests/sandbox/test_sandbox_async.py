"""AsyncSandbox as the UI uses it: concurrent requests never mix, cancelling kills the child and
leaves the sandbox usable, a dead runtime is replaced, and the event loop never blocks."""

from __future__ import annotations

import asyncio
import os
import signal
import time

import pytest
import pytest_asyncio

from tutor.sandbox import AsyncSandbox, Status

pytestmark = [pytest.mark.timeout(120), pytest.mark.asyncio(loop_scope="module")]


@pytest_asyncio.fixture(scope="module", loop_scope="module", params=["rlimits", "bwrap"])
async def box(request):
    from tutor.sandbox.containment import bwrap_works

    if request.param == "bwrap" and not bwrap_works():
        pytest.skip("bubblewrap is not usable here")
    sandbox = AsyncSandbox(containment=request.param)
    await sandbox.start()
    yield sandbox
    await sandbox.close()


async def test_concurrent_requests_do_not_interleave(box):
    codes = [
        f"import time\nfor i in range(3):\n    print({n}, i)\n    time.sleep(0.01)"
        for n in range(6)
    ]
    results = await asyncio.gather(*(box.run(code) for code in codes))
    for n, result in enumerate(results):
        assert result.ok, result
        assert result.stdout == "".join(f"{n} {i}\n" for i in range(3))


async def test_mixed_runs_and_calls_concurrently(box):
    run = box.run("print(torch.ones(2, 2).sum().item())")
    call = box.call("tutor.probes.backends:report", import_xla=False)
    failing = box.run("raise ValueError('nope')")
    a, b, c = await asyncio.gather(run, call, failing)
    assert a.stdout == "4.0\n"
    assert b.value["torch"]
    assert c.status is Status.error and c.exception.message == "nope"


async def test_cancel_kills_the_child_and_keeps_the_sandbox(box):
    marker = f"/proc/{os.getpid()}"  # any path: the child just sleeps
    task = asyncio.create_task(
        box.run(f"import time\nprint({marker!r})\ntime.sleep(60)", timeout=60)
    )
    await asyncio.sleep(1.0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    result = await box.run("print('after cancel')")
    assert result.ok and result.stdout == "after cancel\n"
    uid = (box.ready or {}).get("uid")
    if uid is not None:
        assert not any(
            os.stat(f"/proc/{p}").st_uid == uid for p in os.listdir("/proc") if p.isdigit()
        )


async def test_event_loop_stays_responsive(box):
    ticks = 0

    async def ticker():
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    task = asyncio.create_task(ticker())
    result = await box.run("import time\ntime.sleep(1.0)", timeout=3)
    task.cancel()
    assert result.ok
    assert ticks >= 20  # a blocked loop would have ticked once or twice


async def test_runtime_killed_from_outside_mid_run(box):
    task = asyncio.create_task(box.run("import time\ntime.sleep(30)", timeout=30))
    await asyncio.sleep(1.0)
    os.kill(box.runtime_pid, signal.SIGKILL)
    result = await task
    assert result.status is Status.crashed
    assert "runtime died" in result.reason
    after = await box.run("print('restarted')")
    assert after.ok and after.stdout == "restarted\n"


async def test_timeout_verdict_arrives_in_time(box):
    t0 = time.monotonic()
    result = await box.run("while True:\n    pass", timeout=1.0)
    assert result.status is Status.timeout
    assert time.monotonic() - t0 < 30  # generous: a hung supervisor would hit pytest-timeout


async def test_bad_runtime_gives_sandbox_error(tmp_path):
    fake = tmp_path / "python"
    fake.write_text("#!/bin/sh\necho not a runtime >&2\nexit 3\n")
    fake.chmod(0o755)
    sandbox = AsyncSandbox(str(fake))
    result = await sandbox.run("print(1)")
    assert result.status is Status.sandbox_error
    assert "did not start" in result.reason
    assert "not a runtime" in result.reason
    await sandbox.close()


async def test_concurrent_starts_share_one_runtime():
    sandbox = AsyncSandbox(containment="rlimits")
    try:
        first, second, result = await asyncio.gather(
            sandbox.start(), sandbox.start(), sandbox.run("print('x')")
        )
        assert first["pid"] == second["pid"] == sandbox.ready["pid"]
        assert result.stdout == "x\n"
    finally:
        await sandbox.close()
    with pytest.raises(Exception, match="closed"):
        await sandbox.start()
