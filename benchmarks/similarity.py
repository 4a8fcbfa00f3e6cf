"""`python -m grader similar` on a large class, as an instructor runs it (the command's own start-up included).

Two classes of COUNT students for softmax, each a per-student file:
- "one code": everyone hands in the reference, each copy renamed and laid out its own way (lone "\\r" line ends,
  `;` after statements, names through a middle dot, ...): one group, which the normal form finds before any pair
  is compared;
- "all similar": each student adds a line of their own to the reference, so that no two files are the same code
  and every pair is flagged (COUNT * (COUNT - 1) / 2 pairs, each written with its matched lines): the worst case.

    python benchmarks/similarity.py [--count 300]
"""

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.exercise import load_exercise  # noqa: E402

DISGUISES = (lambda code: code, lambda code: code.replace("\n", "\r"),
             lambda code: code.replace("shifted", "shi·fted").replace("exps", "e·xps"),
             lambda code: code.replace("\r\n", "\n").replace("\n", "\r\n"))


def own_line(index):
    """A line whose tokens differ for each index (names and numbers alone would not: they are placeholders)."""
    return "\n\nEXTRA = 1" + " + 1" * (index % 17) + " * 2" * (index // 17) + "\n"


def timed(folder, out):
    """(wall-clock seconds, CPU seconds) of the command (CPU time: what it takes on a core of its own)."""
    started, cpu = time.perf_counter(), _children_cpu()
    subprocess.run([sys.executable, "-m", "grader", "similar", "softmax", str(folder), "--reports", str(out)],
                   cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started, _children_cpu() - cpu


def _children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300)
    count = parser.parse_args().count
    reference = (load_exercise("softmax").path / "solution.py").read_text()
    with tempfile.TemporaryDirectory() as work:
        for name, code_of in (("one code", lambda i: DISGUISES[i % len(DISGUISES)](reference)),
                              ("all similar", lambda i: reference + own_line(i))):
            folder = Path(work, name.replace(" ", "_"))
            folder.mkdir()
            for index in range(count):
                (folder / f"s{index:04}.py").write_text(code_of(index), newline="")
            wall, cpu = timed(folder, Path(work, "out_" + folder.name))
            print(f"{name}: {count} files, {wall:.1f} s ({cpu:.1f} s of CPU)")


if __name__ == "__main__":
    main()
