"""Shared fixtures: every test gets its own TUTOR_HOME so no test touches real user data;
``tiny_fs`` mounts a real tiny filesystem (tmpfs) for the store-fault tests; ``sandbox`` and
``xla_sandbox`` are started once a session (a folder's conftest may give its own)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under pytest-xdist (``make test`` runs ``--dist loadgroup``) the tests of one module run on
    one worker, so a module's shared sandbox starts once; a test or module that names its own
    ``xdist_group`` goes with its group instead (tests sharing one session fixture's work)."""
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(item.path.stem))


@pytest.fixture(autouse=True)
def tutor_home(tmp_path, monkeypatch):
    """A fresh, empty TUTOR_HOME for each test."""
    home = tmp_path / "tutor-home"
    home.mkdir()
    monkeypatch.setenv("TUTOR_HOME", str(home))
    monkeypatch.delenv("TUTOR_PACKS", raising=False)
    return home


class TinyFs:
    """A tmpfs of ``size`` mounted at ``path`` (needs permission to mount; skipped without)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def fill(self) -> Path:
        """Write a filler file until the filesystem is full; returns it."""
        filler = self.path / "filler"
        with open(filler, "wb", buffering=0) as fh:
            try:
                while True:
                    fh.write(b"\0" * 1024)
            except OSError:
                pass
        return filler

    def read_only(self) -> None:
        """Remount read-only (even root cannot write then)."""
        subprocess.run(["mount", "-o", "remount,ro", str(self.path)], check=True)


@pytest.fixture
def tiny_fs(tmp_path) -> Iterator[TinyFs]:
    mount = tmp_path / "tiny"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=256k,mode=0700", "tutor-tiny", str(mount)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield TinyFs(mount)
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def xla_runtime_or_skip() -> str:
    """The name of the built xla runtime ("xla"); skips the test with the reason where it is
    not built, and fails it instead when ``TUTOR_REQUIRE_XLA=1`` (CI builds the runtime)."""
    import os

    from tutor.sandbox.runtimes import BUILT, built_python

    if built_python("xla") is None:
        reason = f"the xla runtime is not built (run `{BUILT['xla'][1]}`)"
        if os.environ.get("TUTOR_REQUIRE_XLA") == "1":
            pytest.fail(reason + " and TUTOR_REQUIRE_XLA=1", pytrace=False)
        pytest.skip(reason)
    return "xla"


@pytest.fixture
def xla_runtime() -> str:
    """The xla runtime's name, for a test that starts its own sandbox there (an async one);
    skips (or fails under ``TUTOR_REQUIRE_XLA=1``) where it is not built."""
    return xla_runtime_or_skip()


@pytest.fixture(scope="session")
def sandbox():
    """A real sandbox (real torch in a subprocess) on the default runtime, shared by the
    session's tests: a run that times out or crashes leaves it usable (it restarts on demand)."""
    from tutor.sandbox import Sandbox

    with Sandbox() as box:
        yield box


@pytest.fixture(scope="session")
def xla_sandbox():
    """A started ``Sandbox`` on the xla runtime (torch 2.9 + torch_xla + torchax + jax, PJRT on
    CPU), shared by every test of the session: starting it imports torch_xla (seconds)."""
    from tutor.sandbox import Sandbox

    box = Sandbox(runtime=xla_runtime_or_skip())
    box.start()
    yield box
    box.close()
