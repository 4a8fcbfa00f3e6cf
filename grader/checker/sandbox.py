"""Start the zygote (grader/learner/zygote.py) that makes learner processes, under bubblewrap when it can.

Under bubblewrap the zygote sees a read-only filesystem made only of the
system's libraries, the Python installation and the grader package (no
project folder, so no exercises, reference solutions, hidden tests or
results), an empty /tmp, no network, and its own user, PID, IPC and UTS
namespaces; no further user namespace can be made inside, and bubblewrap
kills it when this process dies.  Run as root, the sandbox's user namespace
maps a range of unprivileged ids, and each learner runs under one of its own.
Modes: "bwrap" (required), "none" (rlimits only) and "auto" (bubblewrap when
it works, otherwise "none" with one warning line).  Without bubblewrap, a
grader run as root runs learners as `nobody` when that user can read the
Python installation, and otherwise as root (said in the warning line): a
Python under a private home folder, such as pyenv's in /root, is the common case.

In every mode, a grader run as root gives each learner process a cgroup
(grader/checker/cgroups.py): one memory budget for all it starts and its
files, and its CPU time counted.  Where it cannot (not root, no usable
cgroup), each learner is kept to one process (grader/learner/seccomp.py),
and the warning line says so.
"""

import ctypes
import errno
import os
import shutil
import signal
import site
import socket
import subprocess
import sys
from pathlib import Path

import numpy

from grader.checker.cgroups import CgroupsUnavailable, LearnerCgroups
from grader.processes import NOBODY, as_user, die_with_parent

MODES = ("auto", "bwrap", "none")
CLONE_NEWUSER = 0x10000000
STARTUP_TIMEOUT = 30.0
PACKAGE_ROOT = Path(__file__).resolve().parents[2]   # the folder holding the grader package
SYSTEM_PATHS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
SYSTEM_FILES = ("/etc/ld.so.cache", "/etc/localtime")
ENABLE_HINT = "install bubblewrap (e.g. `apt-get install bubblewrap`) to run learner code in a sandbox"
_BOOT = ("import sys; sys.dont_write_bytecode = True; sys.path.insert(0, {root!r}); "
         "from grader.learner.zygote import main; main()")


class SandboxError(Exception):
    """The sandbox cannot be started; the message says why and what to do."""


class Sandbox:
    """A running zygote and the control socket through which checkers ask it for learner processes."""

    def __init__(self, mode="auto", hide=(), warn=None, cgroups=True):
        """`cgroups=False` confines learners as where no cgroup can be made (see the module's docstring)."""
        if mode not in MODES:
            raise SandboxError(f"unknown sandbox mode {mode!r}: use one of {', '.join(MODES)}")
        self.hide = [Path(p) for p in hide]
        self.requested = mode
        self.mode = None
        self.control = None
        self.generation = 0  # how many times the zygote was started again
        self._process = None
        self.nobody_cannot_read = None  # without bubblewrap, run as root: the folder that made learners run as root
        self.cgroups, self.no_cgroups = None, None  # LearnerCgroups, or why there are none
        self.unavailable = unavailable = None  # why bubblewrap could not be used, under "auto"
        if mode in ("auto", "bwrap"):
            self.unavailable = unavailable = self._start("bwrap")
            if unavailable is not None and mode == "bwrap":
                raise SandboxError(f"bubblewrap sandbox unavailable: {unavailable}; {ENABLE_HINT}, "
                                   "or choose --sandbox none")
        if self.mode is None:
            problem = self._start("none")
            if problem is not None:
                raise SandboxError(f"the grading process could not be started: {problem}")
        try:
            if not cgroups:
                raise CgroupsUnavailable("not asked for")
            self.cgroups = LearnerCgroups.create()
        except (CgroupsUnavailable, OSError) as exc:
            self.no_cgroups = str(exc)
        if warn is not None and (self.mode == "none" and (unavailable is not None or self.nobody_cannot_read)
                                 or self.no_cgroups):
            warn(self._warning(unavailable))

    def _warning(self, unavailable):
        """The one line saying how learner code runs without the sandbox, or without a cgroup."""
        as_root = (f", as root because user nobody cannot read {self.nobody_cannot_read}"
                   if self.nobody_cannot_read else "")
        parts = []
        if unavailable is not None:
            parts.append(f"grading WITHOUT a sandbox ({unavailable}); learner code runs with rlimits only{as_root} "
                         f"and could tamper with the grading; {ENABLE_HINT}")
        elif self.mode == "none":
            parts.append(f"without a sandbox (--sandbox none), learner code runs with rlimits only{as_root}")
        if self.no_cgroups:
            parts.append(f"no cgroup for learners ({self.no_cgroups}, run as root for one): each learner is kept to "
                         "one process (no fork, no memfd) whose memory --memory bounds"
                         + (", plus 64 MB each of /tmp and /dev/shm" if self.mode == "bwrap" else ""))
        return "warning: " + "; ".join(parts)

    def _start(self, mode):
        """Start the zygote in `mode`; return None when it is ready, else what went wrong."""
        if mode == "bwrap" and shutil.which("bwrap") is None:
            return "bubblewrap (bwrap) is not installed"
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        passed = [theirs.fileno()]
        own_uids = mode == "bwrap" and os.geteuid() == 0
        if own_uids:
            try:
                userns = _learner_user_namespace()
            except OSError as exc:
                ours.close()
                theirs.close()
                return f"cannot make a user namespace ({exc.strerror})"
            passed.append(userns)
        scratch = _scratch_folder() if mode == "bwrap" else "/tmp"
        if mode == "bwrap":
            learner_user = "own-uids" if own_uids else "sandbox-uid"
        else:
            learner_user = "nobody-if-readable" if os.geteuid() == 0 else "invoking-user"
        # sys.executable, not the file it links to: a venv's python finds the venv's packages by its own path.
        command = [sys.executable, "-E", "-c", _BOOT.format(root=str(PACKAGE_ROOT)), str(theirs.fileno()), mode,
                   learner_user, scratch]
        if mode == "bwrap":
            command = ["bwrap", *self._bwrap_options(userns if own_uids else None, scratch), "--", *command]
        try:
            process = subprocess.Popen(command, pass_fds=passed, env=_environment(),
                                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                       stderr=subprocess.PIPE, cwd="/", start_new_session=True,
                                       preexec_fn=die_with_parent if mode == "none" else None)
        except OSError as exc:
            ours.close()
            return f"{command[0]}: {exc.strerror}"
        finally:
            # `theirs` is closed through its socket object: closing its number behind the object's back would
            # let the object close that number again when collected, by then maybe another thread's file or
            # pipe (in a Dask worker, a checker's events pipe: EBADF, or reports read from the wrong pipe).
            theirs.close()
            for fd in passed[1:]:
                os.close(fd)
        ours.settimeout(STARTUP_TIMEOUT)
        try:
            greeting = ours.recv(4096)
        except OSError:
            greeting = b""
        ready, _, unreadable = greeting.partition(b" as root, nobody cannot read ")
        if ready != b"ready":
            ours.close()
            _stop(process)
            error = process.stderr.read(4000).decode("utf-8", "replace").strip().splitlines()
            process.stderr.close()
            return error[-1] if error else f"it exited with code {process.returncode}"
        process.stderr.close()  # nothing more to read: the zygote's own output is not needed
        ours.settimeout(None)
        self.mode, self.control, self._process = mode, ours, process
        self.nobody_cannot_read = os.fsdecode(unreadable) or None
        return None

    def _bwrap_options(self, userns, scratch):
        """bubblewrap's options; `userns` is a prepared user namespace (root only), or None.

        `scratch` is the folder where each learner gets a private tmpfs (see _scratch_folder).
        """
        if userns is not None:
            # The zygote is root in the namespace; each learner gets a uid of its own (see zygote.py).
            user = ["--userns", str(userns), "--uid", "0", "--gid", "0"]
        else:
            user = ["--unshare-user", "--uid", "65534", "--gid", "65534", "--disable-userns"]
        options = [*user, "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
                   "--cap-add", "ALL", "--die-with-parent", "--new-session",
                   "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--chdir", "/tmp"]
        for path in SYSTEM_PATHS:
            if os.path.islink(path):
                options += ["--symlink", os.readlink(path), path]
            elif os.path.isdir(path):
                options += ["--ro-bind", path, path]
        for path in SYSTEM_FILES:
            options += ["--ro-bind-try", path, path]
        bound = _python_paths()
        for path in bound:
            options += ["--ro-bind", path, path]
        # bubblewrap makes the folders leading to a bound path with the modes they have outside (/root: 0700);
        # learners, who do not run as root, must be able to pass through them.
        for folder in sorted({str(parent) for path in bound for parent in Path(path).parents} - {"/"}):
            options += ["--chmod", "0755", folder]
        for path in self.hide:
            path = path.resolve()
            if any(path == Path(b) or Path(b) in path.parents for b in bound):
                options += ["--tmpfs", str(path)] if path.is_dir() else ["--ro-bind", "/dev/null", str(path)]
        if scratch != "/tmp":
            options += ["--remount-ro", "/tmp", "--dir", scratch]
        return options

    def learner_runs(self):
        """How learner code runs: "in a bubblewrap sandbox", or "without a sandbox (why), as USER"."""
        if self.mode == "bwrap":
            return "in a bubblewrap sandbox"
        if os.geteuid() != 0:
            user = f"uid {os.geteuid()} (this user)"
        else:
            user = "root" if self.nobody_cannot_read else "user nobody"
        return f"without a sandbox ({self.unavailable or '--sandbox none'}), as {user}"

    def learner_can_read(self, folders):
        """The first file under `folders` that learner code could read, or None when it can read none.

        Under bubblewrap, learners see only what _bwrap_options binds, less what it hides; without it they
        run as nobody (root's grader) or as this user, and a child of that user tries to open each file.
        """
        files = [os.path.join(top, name) for folder in folders for top, _, names in os.walk(folder)
                 for name in names]
        if self.mode == "bwrap":
            bound = [*SYSTEM_PATHS, *SYSTEM_FILES, *_python_paths()]
            hidden = [str(path.resolve()) for path in self.hide]
            return next((name for name in files
                         if _under(os.path.realpath(name), bound) and not _under(os.path.realpath(name), hidden)),
                        None)

        def first_readable():
            for name in files:
                try:
                    with open(name, "rb"):
                        return os.fsencode(name)
                except OSError:
                    pass
            return b""
        learner = NOBODY if os.geteuid() == 0 and not self.nobody_cannot_read else None
        return os.fsdecode(as_user(learner, first_readable)) or None

    def restart(self):
        """Start a fresh zygote, in the mode this one ran in, after it stopped."""
        mode = self.mode
        self._stop_zygote()
        self.generation += 1
        problem = self._start(mode)
        if problem is not None:
            raise SandboxError(f"the sandbox stopped and could not be started again: {problem}")

    def running(self):
        return self._process is not None and self._process.poll() is None

    def close(self):
        self._stop_zygote()
        if self.cgroups is not None:
            self.cgroups.close()
            self.cgroups = None

    def _stop_zygote(self):
        if self.control is not None:
            self.control.close()
            self.control = None
        if self._process is not None:
            _stop(self._process)
            self._process = None


def _under(path, folders):
    return any(path == folder or path.startswith(folder.rstrip("/") + "/") for folder in folders)


LEARNER_UID_OFFSET = 100_000  # uid n >= 1 of the namespace is uid LEARNER_UID_OFFSET + n outside


def _learner_user_namespace():
    """An open user namespace mapping uid and gid 0 to root and 1-65535 to unprivileged ids outside.

    Only root can map several ids.  Learners then run under ids of their own:
    not root outside, so RLIMIT_NPROC counts each one apart, and no learner
    can signal another.  No further user namespace can be made inside it.
    """
    child_reads, parent_writes = os.pipe()
    parent_reads, child_writes = os.pipe()
    pid = os.fork()
    if pid == 0:
        status = 1
        try:
            os.close(parent_writes)
            os.close(parent_reads)
            if ctypes.CDLL(None, use_errno=True).unshare(CLONE_NEWUSER) == 0:
                os.write(child_writes, b"u")
                if os.read(child_reads, 1) == b"m":  # the parent has written the maps
                    with open("/proc/sys/user/max_user_namespaces", "w") as limit:
                        limit.write("0")
                    os.write(child_writes, b"l")
                    os.read(child_reads, 1)
                    status = 0
        finally:
            os._exit(status)
    os.close(child_reads)
    os.close(child_writes)
    try:
        if os.read(parent_reads, 1) != b"u":
            raise OSError(errno.EPERM, "unshare refused")
        mapping = f"0 0 1\n1 {LEARNER_UID_OFFSET + 1} 65535\n"
        for name in ("uid_map", "gid_map"):
            with open(f"/proc/{pid}/{name}", "w") as file:
                file.write(mapping)
        os.write(parent_writes, b"m")
        if os.read(parent_reads, 1) != b"l":
            raise OSError(errno.EPERM, "could not disable nested user namespaces")
        return os.open(f"/proc/{pid}/ns/user", os.O_RDONLY | os.O_CLOEXEC)
    finally:
        os.close(parent_writes)
        os.close(parent_reads)
        os.waitpid(pid, 0)


def _scratch_folder():
    """Where learners get their private scratch space: /tmp, unless something they need lives in /tmp.

    A learner's private tmpfs covers its scratch folder, so it would hide a Python installation or a
    checkout of this project under /tmp; then /tmp stays read-only and learners get /scratch instead
    (TMPDIR points there).
    """
    return "/scratch" if any(p == "/tmp" or p.startswith("/tmp/") for p in _python_paths()) else "/tmp"


def _python():
    return os.path.realpath(sys.executable)


def _python_paths():
    """The folders the zygote needs besides the system's: the Python installation, numpy, the grader."""
    candidates = {sys.base_prefix, sys.prefix, sys.exec_prefix, os.path.dirname(os.path.dirname(_python())),
                  os.path.dirname(os.path.dirname(numpy.__file__)), *site.getsitepackages(),
                  str(PACKAGE_ROOT / "grader")}
    paths = sorted({os.path.realpath(p) for p in candidates if os.path.isdir(p)})
    outside_system = [p for p in paths if not any(p == s or p.startswith(s + "/") for s in SYSTEM_PATHS)]
    return [p for p in outside_system if not any(p != q and p.startswith(q + "/") for q in outside_system)]


def _environment():
    return {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/tmp", "TMPDIR": "/tmp",
            "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def _stop(process):
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    process.kill()
    process.wait()
