"""Containment layers: bubblewrap around the runtime, rlimits and an unprivileged uid per run.

Runtime side, torch-free: the zygote's launcher calls ``wrap_command`` before torch is imported
and ``exec``s the result, so any runtime (this venv, a torch_xla venv, a VM over ssh) wraps
itself with the Python paths it really uses.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig

from tutor.sandbox.cxx import others_can_read

#: the environment variable that picks how a run's memory is held: auto, cgroup or sample
MEMORY_ENV = "TUTOR_SANDBOX_MEMORY"

#: every layer the sandbox knows, strongest first, with what it protects
LAYERS = {
    "bwrap": "bubblewrap: no network, read-only system, private /tmp, no home, own PID namespace",
    "rlimits": "rlimits: CPU time, address space, file size, open files, processes, no core dumps",
    "uid": "learner code runs as a dedicated unprivileged uid",
    "netns": "no network (an empty network namespace; root without bubblewrap)",
    "seccomp": "a system-call filter: no SysV IPC, POSIX message queues or memfd (memory the "
    "memory limit would not count, objects that outlive a run), no new user namespaces",
    "ipcns": "each run has an IPC namespace of its own",
    "memcg": "a memory cgroup per run: the kernel holds all of a run's processes together to "
    "its memory limit",
    "memwatch": "the runtime sums the memory of all of a run's processes every 20 ms and stops "
    "the run when together they pass its limit",
}
#: first uid of the range a root-started runtime picks its dedicated sandbox uid from
UID_BASE = 1_000_000_000
#: capabilities the root zygote keeps inside bubblewrap (to set up and clean up each run)
ROOT_CAPS = (
    "CAP_SETUID",
    "CAP_SETGID",
    "CAP_CHOWN",
    "CAP_KILL",
    "CAP_FOWNER",
    "CAP_DAC_OVERRIDE",
    "CAP_SYS_ADMIN",  # only to give each run its own IPC namespace; runs drop it with root
)
#: size of the private /tmp inside bubblewrap
TMP_BYTES = 1024 * 1024 * 1024
#: size of the private /dev/shm inside bubblewrap (every run's shared memory lives in it)
SHM_BYTES = 256 * 1024 * 1024


def choose_mode(requested: str | None) -> str:
    """The layer to start with: "bwrap" when requested or available, else "rlimits"."""
    requested = (requested or os.environ.get("TUTOR_SANDBOX") or "auto").lower()
    if requested in ("rlimits", "none"):
        return "rlimits"
    if requested == "bwrap":
        return "bwrap"
    return "bwrap" if bwrap_works() else "rlimits"


def bwrap_works() -> bool:
    """Whether ``bwrap`` exists and can create the namespaces we need here."""
    exe = shutil.which("bwrap")
    if not exe or not sys.platform.startswith("linux"):
        return False
    probe = [exe, "--ro-bind", "/", "/", "--unshare-pid", "--unshare-net", "--die-with-parent"]
    if os.geteuid() != 0:
        probe.append("--unshare-user")
    try:
        done = subprocess.run(
            probe + ["true"], stdin=subprocess.DEVNULL, capture_output=True, timeout=10
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def sandbox_uid(pid: int | None = None) -> int | None:
    """The dedicated uid for runs of this runtime when it runs as root (None otherwise)."""
    if os.geteuid() != 0:
        return None
    return UID_BASE + (pid or os.getpid())


def python_paths(project_root: str) -> list[str]:
    """Directories the runtime's Python needs, outermost first, nested ones dropped.

    The interpreter's prefixes and the project are always kept (even under /tmp); other
    ``sys.path`` entries are kept unless they lie in a shared directory such as /tmp. A shared
    directory itself, / and /usr (bound anyway) are never in the list.
    """
    needed = [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, project_root]
    needed += [os.path.dirname(os.path.dirname(os.path.realpath(sys.executable)))]
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        needed.append(sysconfig.get_paths().get(key, ""))
    shared = [os.path.realpath(p) for p in ("/tmp", "/var/tmp", "/dev/shm", "/proc", "/dev")]
    cwd = os.path.realpath(os.getcwd())
    extra = []
    for entry in sys.path:
        real = os.path.realpath(entry) if entry else cwd
        if real != cwd and not any(real.startswith(s + "/") for s in shared):
            extra.append(real)
    real_paths = sorted({os.path.realpath(p) for p in needed + extra if p and os.path.isdir(p)})
    kept: list[str] = []
    for path in real_paths:
        if path in ("/", "/usr") or path.startswith("/usr/") or path in shared:
            continue
        if not any(path == k or path.startswith(k + "/") for k in kept):
            kept.append(path)
    return kept


def wrap_command(
    inner: list[str],
    project_root: str,
    env: dict[str, str],
    uid: int | None = None,
    cgroups: bool = False,
) -> list[str]:
    """The bubblewrap command line that runs ``inner`` (the zygote) contained.

    ``uid`` is the dedicated uid runs drop to: the sandbox's own /etc/passwd names it, so
    ``getpass.getuser()`` and ``pwd.getpwuid`` work in learner code and in the libraries it
    calls (inductor, jax). ``cgroups``: whether the zygote holds its runs by memory cgroups
    (``memcg``; it inherits the directory's descriptor, nothing is mounted); without them, a
    root zygote keeps CAP_SYS_PTRACE to read its runs' memory maps (``memwatch``), which the
    runs' uid would otherwise keep from it.
    """
    exe = shutil.which("bwrap") or "bwrap"
    cmd = [
        exe,
        "--unshare-pid",
        "--unshare-net",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--die-with-parent",
        "--new-session",
        "--clearenv",
        "--hostname",
        "sandbox",
    ]
    if os.geteuid() == 0:
        cmd += ["--cap-drop", "ALL"]
        for cap in ROOT_CAPS + (() if cgroups else ("CAP_SYS_PTRACE",)):
            cmd += ["--cap-add", cap]
    else:
        cmd += ["--unshare-user"]
    for top in ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(top):
            cmd += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            cmd += ["--ro-bind", top, top]
    cmd += ["--perms", "0755", "--dir", "/etc"]
    for item in ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "alternatives"):
        cmd += ["--ro-bind-try", f"/etc/{item}", f"/etc/{item}"]
    for name, data in etc_files(uid).items():
        cmd += ["--perms", "0644", "--ro-bind-data", str(_data_fd(data)), f"/etc/{name}"]
    cmd += [
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--size",
        str(TMP_BYTES),
        "--tmpfs",
        "/tmp",
        "--perms",
        "01777",
        "--size",
        str(SHM_BYTES),
        "--tmpfs",
        "/dev/shm",
    ]
    made: set[str] = set()
    for path in python_paths(project_root):
        for parent in _ancestors(path):
            if parent not in made:  # bwrap would create these 0700: unreachable after the uid drop
                made.add(parent)
                cmd += ["--perms", "0755", "--dir", parent]
        cmd += ["--ro-bind", path, path]
    for key, value in env.items():
        cmd += ["--setenv", key, value]
    return cmd + ["--chdir", "/", "--"] + inner


def etc_files(uid: int | None) -> dict[str, bytes]:
    """The sandbox's own /etc/passwd, /etc/group, /etc/hosts and /etc/nsswitch.conf: root,
    nobody and the runs' uid (named ``learner``, home /tmp); the sandbox's host name on the
    private loopback (gloo ranks look it up); names from files only."""
    users = ["root:x:0:0:root:/root:/usr/sbin/nologin"]
    groups = ["root:x:0:"]
    run_uid = uid if uid is not None else os.getuid()
    if run_uid not in (0, 65534):
        users.append(f"learner:x:{run_uid}:{run_uid}:learner:/tmp:/usr/sbin/nologin")
        groups.append(f"learner:x:{run_uid}:")
    users.append("nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin")
    groups.append("nogroup:x:65534:")
    return {
        "passwd": ("\n".join(users) + "\n").encode(),
        "group": ("\n".join(groups) + "\n").encode(),
        "hosts": b"127.0.0.1 localhost sandbox\n::1 localhost ip6-localhost ip6-loopback\n",
        "nsswitch.conf": b"passwd: files\ngroup: files\nhosts: files\n",
    }


def _data_fd(data: bytes) -> int:
    """A readable descriptor holding ``data``, inherited by the ``exec``'d bwrap (small data:
    it fits in the pipe's buffer)."""
    r, w = os.pipe()
    os.write(w, data)
    os.close(w)
    os.set_inheritable(r, True)
    return r


def _ancestors(path: str) -> list[str]:
    """ "/a/b/c" -> ["/a", "/a/b"]."""
    parts = path.strip("/").split("/")[:-1]
    return ["/" + "/".join(parts[: i + 1]) for i in range(len(parts))]


def runtime_env(project_root: str) -> dict[str, str]:
    """The whole environment of a runtime: nothing of the user's except what torch needs."""
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "HOME": "/nonexistent",
        "PYTHONPATH": project_root,
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONUNBUFFERED": "1",
        "MALLOC_ARENA_MAX": "2",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "KMP_AFFINITY": "disabled",
        "OMP_THREAD_LIMIT": str(max_threads()),
    }
    passed = ("PJRT_DEVICE", "TPU_VISIBLE_CHIPS", "XLA_FLAGS", "TUTOR_MAX_THREADS", MEMORY_ENV)
    for key in passed:
        if key in os.environ:
            env[key] = os.environ[key]
    env.setdefault("PJRT_DEVICE", "CPU")  # torch_xla's device unless the runtime names another
    return env


#: runtime variables each run keeps when its environment is replaced (which device XLA uses)
RUN_KEEPS = ("PJRT_DEVICE", "TPU_VISIBLE_CHIPS", "XLA_FLAGS")


def max_threads() -> int:
    """The most threads a run's OpenMP pool may start, whatever it asks for."""
    return max(1, min(4, os.cpu_count() or 1))


def missing_layers(active: list[str], stdlib: str | None = None) -> list[str]:
    """Plain sentences naming each protection that is not in force, and what a missing one
    costs a learner (``stdlib``: the runtime's standard library, this Python's by default)."""
    missing = []
    if "bwrap" not in active:
        missing.append(
            "no bubblewrap: learner code sees the real filesystem (it can read whatever its "
            "user can read, and write to shared places like /tmp until the run is cleaned up) "
            "and can see other processes"
        )
        if "netns" not in active:
            missing.append("no network isolation: learner code can open network connections")
    if "uid" not in active:
        line = "no separate uid: learner code runs as your user, so it can write where you can"
        line += " and kill the runtime"
        if "bwrap" not in active:
            line += ", and a process it detaches may outlive the run"
        missing.append(line)
    if "uid" in active and "bwrap" not in active:
        stdlib = stdlib or sysconfig.get_path("stdlib")
        if not others_can_read(stdlib):
            missing.append(
                f"no readable standard library: the runs' uid cannot read {stdlib} (a private "
                "folder), so learner code can import only the modules the runtime loaded before "
                "it started (e.g. `import wave` fails); install bubblewrap, or use a Python "
                "installed where every user can read it"
            )
    if "rlimits" not in active:
        missing.append("no rlimits: CPU, memory and file size are not limited")
    if "seccomp" not in active:
        missing.append(
            "no system-call filter (install libseccomp2 and pyseccomp): learner code can hold "
            "memory beyond its limit through SysV shared memory, message queues and memfd, leave "
            "SysV objects that later runs see, and create a user namespace in which it is uid 0 "
            "with every capability"
        )
    if "memcg" not in active:
        missing.append(
            "no memory cgroup per run (it needs root and a writable cgroup v1 memory "
            "hierarchy): the runtime sums a run's memory every 20 ms instead, so a run that "
            "allocates fast can pass its limit for that long before it is stopped"
        )
    if "ipcns" not in active:
        line = "no IPC namespace per run (it needs root): runs of one runtime share one"
        if "bwrap" not in active:
            line = "no IPC namespace per run (it needs root): runs share the machine's"
        missing.append(line + "; with the system-call filter they cannot create SysV objects")
    return missing
