"""What a run's C++ compiler needs (torch.compile's inductor, cpp_extension): the Python
headers, readable by the runs' dedicated uid. Runtime side, torch-free.

Inductor builds its kernels against ``Python.h``, found at ``sysconfig.get_path("include")``.
A Python installed under a private home (pyenv under ``/root``, mode 0700) has headers the
dedicated uid cannot reach when no bubblewrap binds them, and the compile fails on the first
``stat``. The zygote (root) then copies the include folder once into the runtime's own folder,
root-owned and world-readable (runs read it, none can change it), and points ``sysconfig`` there.
"""

from __future__ import annotations

import os
import shutil
import stat
import sysconfig

#: the config variables behind the "include" and "platinclude" paths of every posix scheme
BASES = ("installed_base", "installed_platbase")


def others_can_read(path: str) -> bool:
    """Whether a uid that neither owns ``path`` nor shares its group can read it: every folder
    above it searchable by others, and ``path`` itself readable (and searchable if a folder)."""
    real = os.path.realpath(path)
    try:
        mode = os.stat(real).st_mode
        parents = [os.stat(p).st_mode for p in _parents(real)]
    except OSError:
        return False
    if not all(m & stat.S_IXOTH for m in parents):
        return False
    if stat.S_ISDIR(mode):
        return bool(mode & stat.S_IROTH and mode & stat.S_IXOTH)
    return bool(mode & stat.S_IROTH)


def share_headers(dest: str) -> str | None:
    """Make the Python headers readable by others; return the include folder now in use.

    Nothing is copied when they already are (bubblewrap binds them, or a system Python). Else
    the include folder is copied to ``dest/include/<name>`` (folders 0755, files 0644; ``dest``
    must lie where others can search), ``dest/lib`` links to the real one (so
    ``sysconfig.get_path("stdlib")`` still names the standard library), and sysconfig's
    installation base becomes ``dest``. None: this Python has no headers to share.
    """
    include = sysconfig.get_path("include")
    if not include or not os.path.isfile(os.path.join(include, "Python.h")):
        return None
    if others_can_read(os.path.join(include, "Python.h")):
        return include
    config = sysconfig.get_config_vars()
    base = config["installed_base"]
    relative = os.path.relpath(include, base)
    if relative.startswith(".."):
        return None  # headers outside the installation: nothing sysconfig can point at
    copy = os.path.join(dest, relative)
    if not os.path.isdir(copy):
        shutil.copytree(include, copy, symlinks=False)
        _open_up(dest)
    for top in os.listdir(base):
        if top != relative.split(os.sep)[0] and not os.path.lexists(os.path.join(dest, top)):
            os.symlink(os.path.join(base, top), os.path.join(dest, top))
    for key in BASES:
        if config.get(key) == base:
            config[key] = dest
    return sysconfig.get_path("include")


def _open_up(top: str) -> None:
    """Folders 0755 and files 0644 under ``top`` (``top`` included)."""
    os.chmod(top, 0o755)
    for folder, dirs, files in os.walk(top):
        for name in dirs:
            os.chmod(os.path.join(folder, name), 0o755)
        for name in files:
            os.chmod(os.path.join(folder, name), 0o644)


def _parents(path: str) -> list[str]:
    """ "/a/b/c" -> ["/", "/a", "/a/b"]."""
    parents = []
    head = os.path.dirname(path)
    while True:
        parents.append(head)
        if head == os.path.dirname(head):
            return parents[::-1]
        head = os.path.dirname(head)
