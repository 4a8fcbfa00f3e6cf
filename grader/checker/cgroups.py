"""A control group per learner process: one memory budget and one CPU-time count for all it starts.

The kernel charges a cgroup for the memory its processes use, files in
tmpfs (/tmp, /dev/shm) and memfd files included, kills one of them when
the budget is used up (recorded as an OOM kill), caps how many processes
it may hold, and counts the CPU time of all of them, threads included.

Only root may make cgroups here.  `LearnerCgroups.create()` finds where:
cgroup v2 (one hierarchy) when the grader's own cgroup there lets its
children have the memory and pids controllers, else cgroup v1 (a hierarchy
per controller: memory, pids, cpuacct).  Learner cgroups go in a folder of
this grader's own under the grader's cgroup, so any limit set on the grader
still holds.  The checker makes a cgroup per learner process and passes open
`cgroup.procs` files to the sandbox; the learner process writes "0" to each
before it runs learner code, which moves it in (the kernel checks the
credentials of whoever opened the file, root here, not of the writer).
"""

import errno
import itertools
import os
import signal
import time

REMOVE_TIMEOUT = 5.0  # seconds to wait for a learner's processes to be gone before giving up on its cgroup
V1_CONTROLLERS = ("memory", "pids", "cpuacct")
_folder_numbers = itertools.count(1)  # several graders (sandboxes) may live in one process


class CgroupsUnavailable(Exception):
    """No cgroup can be made for learners; the message says why."""


class LearnerCgroups:
    """Where this grader makes learner cgroups: a folder of its own in each hierarchy it uses."""

    def __init__(self, version, folders):
        self.version, self.folders = version, folders  # folders: {controller or "unified": path}
        self._made = 0

    @classmethod
    def create(cls):
        """Make this grader's folder of learner cgroups; CgroupsUnavailable says why it cannot."""
        if os.geteuid() != 0:
            raise CgroupsUnavailable("not run as root")
        mounts = _cgroup_mounts()
        own = _own_cgroups()
        name = f"grader-{os.getpid()}-{next(_folder_numbers)}"
        problems = []
        if "unified" in mounts and "" in own:
            parent = mounts["unified"] + own[""]
            try:
                _delegate_v2(parent)
                return cls(2, {"unified": _make(os.path.join(parent, name))})
            except OSError as exc:
                problems.append(f"cgroup v2 at {parent}: {exc.strerror or exc}")
        if all(c in mounts and c in own for c in V1_CONTROLLERS):
            folders = {}
            try:
                for controller in V1_CONTROLLERS:
                    folders[controller] = _make(os.path.join(mounts[controller] + own[controller], name))
                return cls(1, folders)
            except OSError as exc:
                for folder in folders.values():
                    _remove_folder(folder)
                problems.append(f"cgroup v1: {exc.strerror or exc}")
        elif not problems:
            problems.append("no cgroup v2 with the memory controller, nor cgroup v1 memory, pids and cpuacct")
        raise CgroupsUnavailable("; ".join(problems))

    def learner(self, memory_bytes, max_processes):
        """A new cgroup for one learner process, limits set."""
        self._made += 1
        name = f"learner-{os.getpid()}-{self._made}"
        paths = {key: _make(os.path.join(folder, name)) for key, folder in self.folders.items()}
        cgroup = LearnerCgroup(self.version, paths)
        try:
            cgroup.limit(memory_bytes, max_processes)
        except OSError:
            cgroup.remove()
            raise
        return cgroup

    def close(self):
        """Remove this grader's folder (its learner cgroups are removed as they end)."""
        for folder in self.folders.values():
            try:
                leftovers = [entry.path for entry in os.scandir(folder) if entry.is_dir(follow_symlinks=False)]
            except FileNotFoundError:
                continue
            for path in leftovers:
                _remove_folder(path)
            _remove_folder(folder)


class LearnerCgroup:
    """One learner process's cgroup (a folder per hierarchy with cgroup v1, one with v2)."""

    def __init__(self, version, paths):
        self.version, self.paths = version, paths
        self._memory = paths["unified" if version == 2 else "memory"]
        self._cpu = paths["unified" if version == 2 else "cpuacct"]

    def limit(self, memory_bytes, max_processes):
        if self.version == 2:
            _write(self._memory, "memory.max", memory_bytes)
            _write(self._memory, "memory.swap.max", 0, optional=True)
            _write(self._memory, "memory.oom.group", 1, optional=True)  # a learner out of memory ends whole
            _write(self.paths["unified"], "pids.max", max_processes)
        else:
            _write(self._memory, "memory.limit_in_bytes", memory_bytes)
            _write(self._memory, "memory.memsw.limit_in_bytes", memory_bytes, optional=True)  # swap included
            _write(self.paths["pids"], "pids.max", max_processes)

    def open_procs(self):
        """File descriptors (opened here, for writing) through which a process moves itself in."""
        return [os.open(os.path.join(path, "cgroup.procs"), os.O_WRONLY | os.O_CLOEXEC) for path in self.paths.values()]

    def cpu_seconds(self):
        """CPU time used by every process and thread that was in this cgroup."""
        if self.version == 2:
            return _field(self._cpu, "cpu.stat", "usage_usec") / 1e6
        return int(_read(self._cpu, "cpuacct.usage")) / 1e9

    def out_of_memory(self):
        """Whether the kernel killed a process here for going over the memory budget."""
        name = "memory.events" if self.version == 2 else "memory.oom_control"
        try:
            return _field(self._memory, name, "oom_kill") > 0
        except (OSError, ValueError):
            return False

    def remove(self):
        """Kill what is still inside, wait until it is gone, remove the cgroup."""
        deadline = time.monotonic() + REMOVE_TIMEOUT
        pause = 0.0005
        for path in self.paths.values():
            while True:
                _kill_all(path)
                if _remove_folder(path) or time.monotonic() > deadline:
                    break
                time.sleep(pause)
                pause = min(pause * 2, 0.05)


def _cgroup_mounts():
    """{controller name or "unified": mount point} from /proc/self/mounts."""
    mounts = {}
    with open("/proc/self/mounts") as table:
        for line in table:
            _, point, kind, options, *_ = line.split()
            if kind == "cgroup2":
                mounts.setdefault("unified", point)
            elif kind == "cgroup":
                for option in options.split(","):
                    if option in V1_CONTROLLERS:
                        mounts.setdefault(option, point)
    return mounts


def _own_cgroups():
    """{controller or "" (v2): this process's cgroup path} from /proc/self/cgroup."""
    own = {}
    with open("/proc/self/cgroup") as table:
        for line in table:
            _, controllers, path = line.rstrip("\n").split(":", 2)
            for controller in controllers.split(","):
                own[controller] = path.rstrip("/")
    return own


def _delegate_v2(parent):
    """Let the children of `parent` use the memory and pids controllers, or raise OSError."""
    available = _read(parent, "cgroup.controllers").split()
    if not {"memory", "pids"} <= set(available):
        raise OSError(errno.ENOTSUP, "the memory and pids controllers are not available there")
    enabled = _read(parent, "cgroup.subtree_control").split()
    if not {"memory", "pids"} <= set(enabled):
        # Refused (EBUSY) when the grader's cgroup holds processes, unless it is the root.
        _write(parent, "cgroup.subtree_control", "+memory +pids")


def _make(path):
    try:
        os.mkdir(path, 0o755)
    except FileExistsError:
        pass
    return path


def _kill_all(path):
    try:
        if os.path.exists(os.path.join(path, "cgroup.kill")):
            _write(path, "cgroup.kill", 1)
            return
        for pid in _read(path, "cgroup.procs").split():
            os.kill(int(pid), signal.SIGKILL)
    except (OSError, ValueError):
        pass


def _remove_folder(path):
    """Remove an empty cgroup; True when it is gone."""
    try:
        os.rmdir(path)
    except FileNotFoundError:
        return True
    except OSError as exc:
        if exc.errno == errno.EBUSY:
            return False
        raise
    return True


def _read(folder, name):
    with open(os.path.join(folder, name)) as file:
        return file.read()


def _write(folder, name, value, optional=False):
    try:
        with open(os.path.join(folder, name), "w") as file:
            file.write(str(value))
    except FileNotFoundError:
        if not optional:
            raise


def _field(folder, name, key):
    for line in _read(folder, name).splitlines():
        field, _, value = line.partition(" ")
        if field == key:
            return int(value)
    raise ValueError(f"{name} has no {key}")
