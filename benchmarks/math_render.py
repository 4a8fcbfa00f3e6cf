"""Rendering the catalogue's math, against starting Node.js bare, measured in the same run.

Floor: `node -e 0`, the least a KaTeX run can cost. Measured, each in a fresh
Python process so that nothing is remembered in memory: every formula of
every statement and hint rendered in one KaTeX run with an empty cache (a first
build), then again with the cache that run left (every later build: Markdown
parsing and HTML only). Each figure is the best of --repeat runs.

    python benchmarks/math_render.py [--repeat 3]
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.exercise import load_all  # noqa: E402
from markup.markdown import _formulas, _MD  # noqa: E402

# Run in a child process: render every statement and hint, print the seconds it took.
RENDER = """
import sys, time
sys.path.insert(0, {root!r})
from grader.exercise import load_all
from markup.markdown import prerender, render_markdown
texts = [text for exercise in load_all() for text in (exercise.statement, *exercise.hints)]
started = time.perf_counter()
prerender(texts)
for text in texts:
    render_markdown(text)
print(time.perf_counter() - started)
"""


def best_of(repeat, measure):
    return min(measure() for _ in range(repeat))


def node_floor():
    started = time.perf_counter()
    subprocess.run(["node", "-e", "0"], check=True)
    return time.perf_counter() - started


def render_seconds(cache_dir, empty_first):
    if empty_first:
        for path in Path(cache_dir).rglob("*.json"):
            path.unlink()
    environment = {**os.environ, "ML_EXERCISES_CACHE": str(cache_dir)}
    output = subprocess.run([sys.executable, "-c", RENDER.format(root=str(ROOT))], env=environment,
                            capture_output=True, text=True, check=True).stdout
    return float(output)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure, the best is kept (default 3)")
    args = parser.parse_args()
    texts = [text for exercise in load_all() for text in (exercise.statement, *exercise.hints)]
    formulas = {formula for text in texts for _, _, formula in _formulas(_MD.parse(text))}
    print(f"{len(texts)} statements and hints, {len(formulas)} distinct formulas")
    floor = best_of(args.repeat, node_floor)
    with tempfile.TemporaryDirectory() as cache_dir:
        cold = best_of(args.repeat, lambda: render_seconds(cache_dir, empty_first=True))
        cached = best_of(args.repeat, lambda: render_seconds(cache_dir, empty_first=False))
    print(f"floor: node -e 0                    {floor * 1000:7.0f} ms")
    print(f"first build (KaTeX runs, no cache)  {cold * 1000:7.0f} ms  {cold / floor:5.2f} x floor")
    print(f"later builds (all from the cache)   {cached * 1000:7.0f} ms  {cached / floor:5.2f} x floor, "
          f"{cached / cold:.2f} x first build")


if __name__ == "__main__":
    main()
