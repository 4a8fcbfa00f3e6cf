"""Offline grading follows the browser's imports: the modules the page's Pyodide has, read from its distribution,
are exactly those real Pyodide can import; a submission importing any other fails offline with the browser's
message; numpy is the version Pyodide ships; without the distribution, grading goes on with a warning."""

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy
import pytest

from toolchain import node as nodejs
from grader.pyodide.modules import PYODIDE_FOLDER, BrowserModulesError, browser_modules
from grader.pyodide.dist import ensure_dist

ROOT = Path(__file__).resolve().parents[1]
EXERCISE = ROOT / "exercises" / "sinusoidal_pe"
SOLUTION = (EXERCISE / "solution.py").read_text()
LOADING_ERROR = ("Your code raised an error while loading (before any test ran):\n"
                 "ModuleNotFoundError: No module named '{module}'\n"
                 "Traceback (your code, most recent call last):\n  line {line}, in <module>: {code}")


def check(tmp_path, source, cwd=ROOT):
    """(the JSON report of `python -m grader check` on `source`, its stderr)."""
    path = tmp_path / "submission.py"
    path.write_text(source)
    process = subprocess.run([sys.executable, "-m", "grader", "check", str(EXERCISE), str(path), "--json"],
                             capture_output=True, text=True, cwd=cwd)
    assert process.returncode in (0, 1), process.stderr
    return json.loads(process.stdout), process.stderr


def test_the_derived_modules_are_those_real_pyodide_imports():
    dist = ensure_dist(project_root=ROOT)
    code = ("import json, pkgutil, sys\n"
            "json.dumps(sorted(set(sys.builtin_module_names) | {m.name for m in pkgutil.iter_modules()}))")
    process = subprocess.run([nodejs.node_command(), str(ROOT / "grader" / "pyodide" / "node_runner.mjs"), str(dist)],
                             input=json.dumps({"files": {}, "code": code}), capture_output=True, text=True,
                             timeout=300)
    assert process.returncode == 0, process.stderr
    in_pyodide = {name for name in json.loads(process.stdout.splitlines()[-1]) if name.isidentifier()}
    # The page also puts its own Python, the grader's core, on the path.
    assert browser_modules() == in_pyodide | {"grader"}
    assert {"numpy", "math", "json", "collections", "_struct"} <= browser_modules()
    assert not {"scipy", "resource", "fcntl", "tkinter", "sqlite3"} & browser_modules()


def test_offline_numpy_is_the_one_pyodide_ships():
    lock = json.loads((PYODIDE_FOLDER / "pyodide-lock.json").read_text())
    assert numpy.__version__ == lock["packages"]["numpy"]["version"]


@pytest.mark.parametrize("module, code", [
    ("resource", "import resource"),                         # in CPython's standard library, not in Pyodide's
    ("fcntl", "from fcntl import flock"),
    ("scipy", "import scipy.special"),                       # a package Pyodide has, which the page does not load
    ("fcntl", "import importlib; importlib.import_module('fcntl')"),
])
def test_an_import_missing_from_pyodide_fails_as_in_the_browser(tmp_path, module, code):
    report, _ = check(tmp_path, f"{code}\n{SOLUTION}")
    assert not report["passed"]
    assert report["error"] == LOADING_ERROR.format(module=module, line=1, code=code)


def test_imports_pyodide_has_and_numpys_own_work_and_a_refusal_can_be_caught(tmp_path):
    source = SOLUTION.replace("    return pe", (
        "    try:\n"
        "        import resource\n"
        "    except ImportError as exc:\n"
        "        print('fallback:', exc, exc.name)\n"
        "    import json, collections.abc, numpy.linalg\n"
        "    from math import tau\n"
        "    np.testing.assert_allclose(pe, pe)\n"      # numpy imports unittest and more for it
        "    return pe"))
    report, _ = check(tmp_path, source)
    assert report["passed"], report
    assert report["tests"][0]["stdout"].startswith("fallback: No module named 'resource' resource\n")


def test_without_the_pyodide_distribution_grading_goes_on_with_a_warning(tmp_path):
    elsewhere = tmp_path / "copy"
    shutil.copytree(ROOT / "grader", elsewhere / "grader", ignore=shutil.ignore_patterns("__pycache__"))
    report, stderr = check(tmp_path, f"import resource\n{SOLUTION}", cwd=elsewhere)
    assert report["passed"]
    missing = elsewhere / "node_modules" / "pyodide" / "python_stdlib.zip"
    assert stderr.splitlines() == [
        f"warning: grading without the browser's import rule: {missing} is missing (run `npm ci`); a submission "
        "importing a module that the page's Pyodide lacks (e.g. scipy) is not refused here as it is in the browser"]


def test_an_unreadable_distribution_is_named(tmp_path):
    for name in ("pyodide.asm.wasm", "pyodide-lock.json"):
        shutil.copy(PYODIDE_FOLDER / name, tmp_path / name)
    (tmp_path / "python_stdlib.zip").write_bytes(b"not a zip")
    with pytest.raises(BrowserModulesError, match=rf"^{tmp_path}: not a readable Pyodide distribution \(BadZipFile"):
        browser_modules(tmp_path)
    with zipfile.ZipFile(tmp_path / "python_stdlib.zip", "w") as stdlib:
        stdlib.writestr("json/__init__.py", "")
    assert "json" in browser_modules(tmp_path) and "numpy" in browser_modules(tmp_path)
