"""Cached site builds against a build that reuses nothing, measured in the same run.

Baseline: `python build.py --no-cache` over the whole catalogue (every exercise
validated, every statement rendered, the scripts bundled). Then the same build
with the cache, twice, and once more after a one-line statement edit (on a copy
of the catalogue, so exercises/ is left alone). Figures are the build's own
printed time (`Built N exercises ... in S s`), which leaves out Python's start-up;
the target for a cached build is at most 2 s.

    python benchmarks/build_cache.py
"""

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_SECONDS = 2.0


def build(exercises, out, *args):
    """(printed seconds, printed summary) of one `python build.py` run."""
    result = subprocess.run([sys.executable, "build.py", "--exercises", str(exercises), "--out", str(out), *args],
                            cwd=ROOT, capture_output=True, text=True)
    match = re.search(r" in ([0-9.]+) s \((.*)\)$", result.stdout.strip())
    if result.returncode != 0 or not match:
        sys.exit(f"build failed:\n{result.stdout}{result.stderr}")
    return float(match.group(1)), match.group(2)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        exercises = tmp / "exercises"
        shutil.copytree(ROOT / "exercises", exercises, ignore=shutil.ignore_patterns("__pycache__"))
        count = len(list(exercises.glob("*/exercise.toml")))
        out = tmp / "_site"
        rows = [("--no-cache (baseline)", *build(exercises, out, "--no-cache"))]
        rows += [(f"cached, run {n}", *build(exercises, out)) for n in (1, 2)]
        statement = sorted(exercises.glob("*/statement.md"))[0]
        statement.write_text(statement.read_text() + "\nOne more line.\n")
        rows.append((f"after editing {statement.parent.name}/statement.md", *build(exercises, out)))

    baseline = rows[0][1]
    print(f"Whole catalogue: {count} exercises")
    for name, seconds, summary in rows:
        print(f"  {name:<45} {seconds:7.2f} s  x{baseline / seconds:5.1f} faster   ({summary})")
    worst = max(seconds for _, seconds, _ in rows[1:])
    verdict = "met" if worst <= TARGET_SECONDS else "MISSED"
    print(f"Slowest cached build: {worst:.2f} s (target {TARGET_SECONDS:.1f} s): {verdict}")


if __name__ == "__main__":
    main()
