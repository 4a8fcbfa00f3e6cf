"""The warm fork server inside the sandbox: one learner process per request, each confined on its own.

Started once per grading run (see grader/checker/sandbox.py), with numpy and
the learner server already imported, so a learner process costs a fork, not
an interpreter start.  It never runs learner code itself.

A request arrives on the control socket (SOCK_SEQPACKET) as a small JSON
object of limits plus three file descriptors: the learner's channel to the
checker, the write end of its output pipe, and a status socket.  For each
request the zygote forks a watcher, which (under bubblewrap) moves into new
PID, mount, network, IPC and UTS namespaces and forks the learner as PID 1 of
its own namespace.  The learner mounts a private /tmp (or /scratch, see
sandbox.py) and /dev/shm, hides
/proc, drops every capability (run as root, it also takes an unprivileged uid
of its own, see grader/checker/sandbox.py), starts a session of its own (so
the scheduler gives each learner, not each of its processes, a fair share),
sets its rlimits and runs grader.learner.server.  It cannot see, signal or
trace the zygote, the checker or another learner.

The watcher kills the learner, and with it everything the learner started
(the kernel ends a PID namespace with its first process), as soon as the
checker closes the status socket; when the learner ends by itself, the
watcher sends its exit status there.  Without bubblewrap (`--sandbox none`)
the same happens with a process group instead of namespaces, and only the
rlimits (and, when run as root, the uid of `nobody`, if that user can read
the Python installation; see sandbox.py) confine the learner.
"""

import ctypes
import gc
import itertools
import json
import os
import resource
import select
import signal
import socket
import sys
import typing

import numpy  # noqa: F401  (imported once here, so that every learner starts with it)

from grader.learner import server
from grader.learner.seccomp import confine_without_cgroup
from grader.processes import NOBODY, as_user, close_fds_except, die_with_parent

CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC = 0x00020000, 0x04000000, 0x08000000
CLONE_NEWPID, CLONE_NEWNET = 0x20000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REC, MS_PRIVATE = 1, 2, 4, 8, 0x4000, 1 << 18
PR_CAPBSET_DROP, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 24, 47, 4
CAPABILITY_VERSION_3 = 0x20080522
PIDFD_MARK = b"P"                # sent with the learner's pidfd, first on the status socket (see remote.py)
MAX_CGROUP_FILES = 3             # cgroup.procs files sent with a request (cgroup v1: memory, pids, cpuacct)
FIRST_LEARNER_UID, LAST_LEARNER_UID = 1000, 65000  # uids the sandbox maps to unprivileged ones (own-uids)
PROCESS_LIMIT = 64               # processes and threads of one learner (own-uids)

_libc = ctypes.CDLL(None, use_errno=True)


def main():
    control = socket.socket(fileno=int(sys.argv[1]))
    sandboxed = sys.argv[2] == "bwrap"
    scratch = sys.argv[4]
    greeting = b"ready"
    if sys.argv[3] == "own-uids":
        learner_uids = itertools.cycle(range(FIRST_LEARNER_UID, LAST_LEARNER_UID + 1))
    elif sys.argv[3] == "nobody-if-readable":
        unreadable = _unreadable_by_nobody()
        learner_uids = itertools.repeat(None if unreadable else NOBODY)
        if unreadable:
            greeting += b" as root, nobody cannot read " + os.fsencode(unreadable)
    else:
        learner_uids = itertools.repeat(None)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # watchers are reaped by the kernel
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # the parent decides when grading stops
    gc.freeze()  # the garbage collector leaves what is loaded now alone: forks share those pages
    control.send(greeting)
    while True:
        try:
            data, fds, _, _ = socket.recv_fds(control, 4096, 3 + MAX_CGROUP_FILES)
        except OSError:
            return
        if not data:
            return  # every parent and checker has closed its end
        try:
            if len(fds) >= 3:
                _spawn(json.loads(data), *fds[:3], fds[3:], control, sandboxed, next(learner_uids), scratch)
        except (ValueError, TypeError, OSError):
            pass  # a malformed request: its checker sees the learner's channel close
        finally:
            for fd in fds:
                os.close(fd)


def _spawn(limits, channel_fd, output_fd, status_fd, cgroup_fds, control, sandboxed, uid, scratch):
    confinement = _Confinement(int(limits["memory_mb"]) * 1024 * 1024, int(limits["cpu_seconds"]),
                               int(limits["file_bytes"]), int(limits["tmpfs_bytes"]), cgroup_fds)
    if os.fork() != 0:
        return
    try:  # the watcher
        control.detach()
        close_fds_except({channel_fd, output_fd, status_fd, *cgroup_fds})
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        if sandboxed:
            _check(_libc.unshare(CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS), "unshare")
        learner = os.fork()
        if learner == 0:
            os.close(status_fd)
            _become_learner(channel_fd, output_fd, confinement, sandboxed, uid, scratch)
        for fd in (channel_fd, output_fd, *cgroup_fds):
            os.close(fd)
        _watch(learner, status_fd, sandboxed)
    finally:
        os._exit(0)


def _watch(learner, status_fd, sandboxed):
    """Wait until the learner ends or the checker lets go; kill it; report how it ended."""
    pidfd = os.pidfd_open(learner)
    with socket.socket(fileno=os.dup(status_fd)) as status:
        try:  # the checker reads the learner's CPU time through it when no cgroup counts it
            socket.send_fds(status, [PIDFD_MARK], [pidfd])
        except OSError:
            pass
    poller = select.poll()
    poller.register(status_fd, select.POLLIN)
    poller.register(pidfd, select.POLLIN)
    poller.poll()
    _kill(learner, sandboxed)
    _, status = os.waitpid(learner, 0)
    if not sandboxed:
        _kill(learner, sandboxed)  # what it left behind in its process group
    if os.WIFSIGNALED(status):
        report = {"signal": os.WTERMSIG(status)}
    else:
        report = {"exit": os.WEXITSTATUS(status)}
    try:
        os.write(status_fd, json.dumps(report).encode())
    except OSError:
        pass


def _kill(learner, sandboxed):
    """Under bubblewrap the learner is PID 1 of its namespace, so killing it ends everything in there."""
    try:
        if sandboxed:
            os.kill(learner, signal.SIGKILL)
        else:
            os.killpg(learner, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


class _Confinement(typing.NamedTuple):
    memory_bytes: int   # RLIMIT_AS, on top of what the zygote uses
    cpu_seconds: int    # RLIMIT_CPU of each process
    file_bytes: int     # RLIMIT_FSIZE
    tmpfs_bytes: int    # size of the private /tmp (or /scratch) and of /dev/shm
    cgroup_fds: list    # open cgroup.procs files of the learner's cgroup; none: confine_without_cgroup


def _become_learner(channel_fd, output_fd, confinement, sandboxed, uid, scratch):
    try:
        for fd in confinement.cgroup_fds:  # first: everything from here on is charged to the learner
            os.write(fd, b"0")
            os.close(fd)
        address_space = _address_space()
        if sandboxed:
            tmpfs = f"size={confinement.tmpfs_bytes},mode=1777"
            _mount("none", "/", None, MS_REC | MS_PRIVATE)
            _mount("tmpfs", scratch, "tmpfs", MS_NOSUID | MS_NODEV, tmpfs)
            if os.path.isdir("/dev/shm"):
                _mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, tmpfs)
            _mount("tmpfs", "/proc", "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=555")
            _drop_capabilities(uid)
            os.chdir(scratch)
            os.setsid()  # a session, so a scheduling group, of its own: its processes share one fair slice
        else:
            os.setsid()
            die_with_parent()
            if uid is not None:
                os.setgroups([])
                os.setgid(uid)
                os.setuid(uid)
            os.chdir("/")
        os.environ.update(HOME=scratch, TMPDIR=scratch)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.dup2(output_fd, 1)
        os.dup2(output_fd, 2)
        close_fds_except({0, 1, 2, channel_fd})
        for name in ("SIGCHLD", "SIGINT", "SIGTERM"):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # writing past the cap fails with EFBIG instead
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        resource.setrlimit(resource.RLIMIT_FSIZE, (confinement.file_bytes, confinement.file_bytes))
        resource.setrlimit(resource.RLIMIT_CPU, (confinement.cpu_seconds, confinement.cpu_seconds + 1))
        if sandboxed or os.geteuid() == NOBODY:  # counted per learner under its own uid, else shared
            resource.setrlimit(resource.RLIMIT_NPROC, (PROCESS_LIMIT, PROCESS_LIMIT))
        address_space += confinement.memory_bytes
        resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
        if not confinement.cgroup_fds:
            confine_without_cgroup()
    except BaseException:
        os._exit(70)  # the checker reports that the learner process could not start
    server.main(channel_fd)


def _unreadable_by_nobody():
    """The first folder Python imports from that user nobody cannot list, or None when it can list them all.

    Learners import lazily (the standard library, numpy's submodules), so dropping to nobody where it cannot
    read them would break honest code; this is checked in a child that becomes nobody.
    """
    folders = [p for p in sys.path if os.path.isdir(p)]

    def first_unlisted():
        for folder in folders:
            try:
                os.listdir(folder)
            except OSError:
                return os.fsencode(folder)
        return b""
    return os.fsdecode(as_user(NOBODY, first_unlisted)) or None


def _address_space():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def _mount(source, target, fstype, flags, data=None):
    _check(_libc.mount(source.encode(), target.encode(), fstype.encode() if fstype else None, flags,
                       data.encode() if data else None), f"mount {target}")


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def _drop_capabilities(uid):
    """Give up every capability; with a `uid`, also become that unprivileged user."""
    _libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    for capability in range(64):
        _libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0)
    if uid is not None:
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)
    _check(_libc.capset(ctypes.byref(_CapHeader(CAPABILITY_VERSION_3, 0)), (_CapData * 2)()), "capset")


def _check(result, what):
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{what}: {os.strerror(errno)}")


if __name__ == "__main__":
    main()
