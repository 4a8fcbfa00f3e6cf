"""What a cgroup per learner process costs (run as root, where the grader can make cgroups).

- per learner: making its cgroup (limits set), opening its cgroup.procs files, reading its CPU time and
  removing it, with no process inside (the part the checker adds to every learner process);
- per check: `python3 -m grader check sinusoidal_pe <reference>` from start to exit, with a cgroup per learner
  process, and with the one-process fallback instead (GRADER_BENCH_NO_CGROUPS=1 in the child).

    python3 benchmarks/learner_cgroups.py [--repeat 200] [--checks 10]

Measured (2 shared cores, cgroup v1, kernel 6.18, another test suite running): per learner 0.80 ms median;
check 0.71 s median (0.51 s min) with cgroups, 1.06 s median (0.65 s min) with the fallback.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.checker.cgroups import LearnerCgroups  # noqa: E402

CHECK = ("from grader.checker import supervisor\n"
         "from grader.checker.sandbox import Sandbox\n"
         "import os, sys, runpy\n"
         "if os.environ.get('GRADER_BENCH_NO_CGROUPS'):\n"
         "    supervisor._shared['auto'] = Sandbox('auto', cgroups=False)\n"
         "sys.argv = ['grader', 'check', 'sinusoidal_pe', 'exercises/sinusoidal_pe/solution.py']\n"
         "runpy.run_module('grader', run_name='__main__')\n")


def per_learner(repeat):
    cgroups = LearnerCgroups.create()
    times = []
    try:
        for _ in range(repeat):
            started = time.perf_counter()
            cgroup = cgroups.learner(1024 * 1024 * 1024, 64)
            for fd in cgroup.open_procs():
                os.close(fd)
            cgroup.cpu_seconds()
            cgroup.remove()
            times.append(time.perf_counter() - started)
    finally:
        cgroups.close()
    return cgroups.version, times


def per_check(checks, without_cgroups):
    env = dict(os.environ, **({"GRADER_BENCH_NO_CGROUPS": "1"} if without_cgroups else {}))
    times = []
    for _ in range(checks):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", CHECK], cwd=ROOT, env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - started)
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--checks", type=int, default=10)
    args = parser.parse_args()
    version, times = per_learner(args.repeat)
    print(f"cgroup v{version}, per learner: median {statistics.median(times) * 1000:.2f} ms, "
          f"max {max(times) * 1000:.2f} ms ({args.repeat} times)")
    for label, without in (("with a cgroup per learner", False), ("one-process fallback", True)):
        checks = per_check(args.checks, without)
        print(f"check sinusoidal_pe reference, {label}: median {statistics.median(checks):.3f} s, "
              f"min {min(checks):.3f} s ({args.checks} times)")


if __name__ == "__main__":
    main()
