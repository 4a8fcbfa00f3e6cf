import hashlib
import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from toolchain import node as nodejs
from grader.pyodide import dist as pyodide_dist
from grader.pyodide.dist import CORE_FILES, DistError, copy_dist, ensure_dist, verify_dist

ROOT = Path(__file__).resolve().parents[1]
RUNNER = ROOT / "grader" / "pyodide" / "node_runner.mjs"
NUMPY_WHEEL = "numpy-2.0.2-cp312-cp312-pyodide_2024_0_wasm32.whl"


@pytest.fixture(scope="module")
def dist():
    """The real cached distribution (the first run downloads the numpy wheel from PyPI)."""
    return ensure_dist(project_root=ROOT)


def corrupt(path: Path) -> None:
    with open(path, "r+b") as f:
        f.seek(1000)
        f.write(b"corrupted")


def test_assembles_core_files_and_numpy(dist):
    assert {p.name for p in dist.iterdir()} == set(CORE_FILES) | {NUMPY_WHEEL}
    lock = json.loads((dist / "pyodide-lock.json").read_text())
    assert lock["info"]["version"] == "0.27.7"
    assert list(lock["packages"]) == ["numpy"]
    verify_dist(dist)
    assert ensure_dist(project_root=ROOT) == dist  # reused


def test_numpy_wheel_matches_npm_lock(dist):
    npm_lock = json.loads((ROOT / "node_modules" / "pyodide" / "pyodide-lock.json").read_text())
    actual = hashlib.sha256((dist / NUMPY_WHEEL).read_bytes()).hexdigest()
    assert actual == npm_lock["packages"]["numpy"]["sha256"]


def test_corrupted_wheel_is_rejected(dist, tmp_path):
    copy = tmp_path / "dist"
    shutil.copytree(dist, copy)
    corrupt(copy / NUMPY_WHEEL)
    with pytest.raises(DistError, match=f"{re.escape(str(copy / NUMPY_WHEEL))}: sha256 mismatch"):
        verify_dist(copy)

    cache = tmp_path / "cache"
    with pytest.raises(DistError, match=re.escape(NUMPY_WHEEL)):
        ensure_dist(project_root=ROOT, dist_dir=copy, cache_dir=cache)
    assert list(cache.iterdir()) == []


@pytest.mark.parametrize("missing", ["pyodide.asm.wasm", NUMPY_WHEEL])
def test_dist_dir_missing_file(dist, tmp_path, missing):
    copy = tmp_path / "dist"
    shutil.copytree(dist, copy)
    (copy / missing).unlink()
    with pytest.raises(DistError, match=re.escape(str(copy / missing))):
        ensure_dist(project_root=ROOT, dist_dir=copy, cache_dir=tmp_path / "cache")


def test_interrupted_build_leaves_no_half_folder(dist, tmp_path, monkeypatch):
    def interrupt(*args, **kwargs):
        raise KeyboardInterrupt

    # Interrupt after the core files were copied, while the wheel is being checked.
    monkeypatch.setattr(pyodide_dist, "_check_sha256", interrupt)
    cache = tmp_path / "cache"
    with pytest.raises(KeyboardInterrupt):
        ensure_dist(project_root=ROOT, dist_dir=dist, cache_dir=cache)
    assert list(cache.iterdir()) == []


def test_stale_temp_dir_is_ignored_and_cleaned(dist, tmp_path):
    cache = tmp_path / "cache"
    stale = cache / (pyodide_dist.TMP_PREFIX + "killed")
    stale.mkdir(parents=True)
    (stale / NUMPY_WHEEL).write_bytes(b"half written")
    long_ago = time.time() - 2 * pyodide_dist.STALE_TMP_SECONDS
    os.utime(stale, (long_ago, long_ago))

    built = ensure_dist(project_root=ROOT, dist_dir=dist, cache_dir=cache)
    assert [p.name for p in cache.iterdir()] == [built.name]
    verify_dist(built)


def test_corrupted_cache_is_rebuilt(dist, tmp_path):
    built = ensure_dist(project_root=ROOT, dist_dir=dist, cache_dir=tmp_path)
    corrupt(built / NUMPY_WHEEL)
    assert ensure_dist(project_root=ROOT, dist_dir=dist, cache_dir=tmp_path) == built
    verify_dist(built)


def test_unknown_package(dist, tmp_path):
    with pytest.raises(DistError, match="no-such-package"):
        ensure_dist(["no_such_package"], project_root=ROOT, dist_dir=dist, cache_dir=tmp_path)


def test_failing_npm_ci(tmp_path):
    # A package.json stops npm looking upwards for a project; without package-lock.json `npm ci` fails at once.
    (tmp_path / "package.json").write_text('{"name": "empty", "private": true}')
    with pytest.raises(DistError, match="npm ci"):
        ensure_dist(project_root=tmp_path, cache_dir=tmp_path / "cache")


def test_copy_dist(dist, tmp_path):
    dest = tmp_path / "_site" / "pyodide"
    copy_dist(dist, dest)
    verify_dist(dest)
    assert {p.name for p in dest.iterdir()} == {p.name for p in dist.iterdir()}


def run_node(dist: Path, files: dict, code: str) -> subprocess.CompletedProcess:
    return subprocess.run([nodejs.node_command(), str(RUNNER), str(dist)], input=json.dumps({"files": files, "code": code}),
                          capture_output=True, text=True, timeout=300)


def test_node_runner_loads_numpy_offline(dist):
    before = sorted(p.name for p in dist.iterdir())
    files = {
        "mymod.py": "from helpers.values import answer\n\ndef f():\n    print('noise')\n    return answer()\n",
        "helpers/values.py": "def answer():\n    return 42\n",
    }
    result = run_node(dist, files, "import json, numpy as np, mymod\njson.dumps([mymod.f(), np.__version__])")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ['[42, "2.0.2"]']
    assert "noise" in result.stderr
    # Under Node, Pyodide would fetch a wheel missing from indexURL from its CDN and save it there.
    assert sorted(p.name for p in dist.iterdir()) == before


@pytest.mark.parametrize("code, message", [
    ("raise ValueError('bad input')", "ValueError: bad input"),
    ("import sys; sys.exit(2)", "SystemExit: 2"),
    ("import os; os._exit(3)", "exit(3)"),
    ("1 + 1", "must end with an expression that evaluates to a str"),
])
def test_node_runner_reports_errors(dist, code, message):
    result = run_node(dist, {}, code)
    assert result.returncode == 1
    assert result.stdout == ""
    assert message in result.stderr
    assert len(result.stderr) < 10_000  # not Node's dump of the minified pyodide.asm.js line
