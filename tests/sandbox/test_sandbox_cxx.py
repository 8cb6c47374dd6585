"""The Python headers a run's C++ compiler reads, shared when the runs' uid cannot reach them,
and the plain verdict of a compile that cannot work on this runtime. Torch-free, real files."""

from __future__ import annotations

import os
import shutil
import stat
import sysconfig
import tempfile
from pathlib import Path

import pytest

from tutor.sandbox import cxx
from tutor.sandbox.ending import compile_reason


@pytest.fixture
def tmp_path():
    """A fresh folder others may search (pytest's own lie under a private one)."""
    folder = tempfile.mkdtemp(prefix="tutor-cxx-test-")
    os.chmod(folder, 0o755)
    yield Path(folder)
    shutil.rmtree(folder)


@pytest.fixture
def installation(tmp_path, monkeypatch):
    """A Python installation behind a private folder (like pyenv under /root, mode 0700),
    which sysconfig names for the rest of the test."""
    home = tmp_path / "home"
    base = home / "python"
    version = sysconfig.get_config_var("py_version_short")
    include = base / "include" / f"python{version}"
    include.mkdir(parents=True)
    (include / "Python.h").write_text("/* the real header */\n")
    (include / "cpython").mkdir()
    (include / "cpython" / "object.h").write_text("/* another */\n")
    (base / "lib").mkdir()
    (base / "bin").mkdir()
    home.chmod(0o700)
    config = sysconfig.get_config_vars()
    for key in cxx.BASES:
        monkeypatch.setitem(config, key, str(base))
    return base


def test_others_can_read_follows_every_folder_above(tmp_path):
    folder = tmp_path / "a" / "b"
    folder.mkdir(parents=True)
    (folder / "f").write_text("x")
    (folder / "f").chmod(0o644)
    (tmp_path / "a").chmod(0o755)
    folder.chmod(0o755)
    assert cxx.others_can_read(str(folder / "f"))
    (tmp_path / "a").chmod(0o700)
    assert not cxx.others_can_read(str(folder / "f"))
    (tmp_path / "a").chmod(0o711)  # searchable is enough for a folder above
    assert cxx.others_can_read(str(folder / "f"))
    (folder / "f").chmod(0o600)
    assert not cxx.others_can_read(str(folder / "f"))
    assert not cxx.others_can_read(str(tmp_path / "missing"))


def test_private_headers_are_copied_readable_and_sysconfig_points_at_them(installation, tmp_path):
    dest = tmp_path / "runtime" / "python"
    dest.parent.mkdir()
    dest.parent.chmod(0o711)
    before_stdlib = os.path.realpath(sysconfig.get_path("stdlib"))
    include = cxx.share_headers(str(dest))
    assert include == sysconfig.get_path("include")
    assert include.startswith(str(dest) + os.sep)
    header = os.path.join(include, "Python.h")
    with open(header) as fh:
        assert fh.read() == "/* the real header */\n"
    assert os.path.isfile(os.path.join(include, "cpython", "object.h"))
    assert stat.S_IMODE(os.stat(header).st_mode) == 0o644
    assert stat.S_IMODE(os.stat(os.path.join(include, "cpython")).st_mode) == 0o755
    assert cxx.others_can_read(header)
    # the standard library still resolves to the installation's own
    assert os.path.realpath(sysconfig.get_path("stdlib")) == before_stdlib
    assert os.path.islink(dest / "lib") and os.path.islink(dest / "bin")
    assert cxx.share_headers(str(dest)) == include  # a second call changes nothing


def test_readable_headers_are_left_where_they_are(installation, tmp_path):
    (tmp_path / "home").chmod(0o755)
    include = sysconfig.get_path("include")
    assert cxx.share_headers(str(tmp_path / "copy")) == include
    assert not (tmp_path / "copy").exists()


def test_no_headers_is_none(installation, tmp_path):
    os.remove(os.path.join(sysconfig.get_path("include"), "Python.h"))
    assert cxx.share_headers(str(tmp_path / "copy")) is None
    assert not (tmp_path / "copy").exists()


def test_a_compile_that_cannot_work_here_gets_a_plain_reason():
    problem = "no C++ compiler: g++ is not on the runtime's PATH"
    dump = "raised InductorError: CppCompileError: C++ compile error ..."
    failed = {"type": "InductorError", "message": "CppCompileError: ..."}
    assert compile_reason(dump, failed, problem) == (
        "torch.compile cannot build its kernels in this runtime: " + problem
    )
    assert compile_reason(dump, failed, None) == dump  # the host can compile: the real error
    other = {"type": "NameError", "message": "name 'x' is not defined"}
    assert compile_reason("raised NameError: ...", other, problem) == "raised NameError: ..."
    assert compile_reason("exited with status 3", None, problem) == "exited with status 3"
