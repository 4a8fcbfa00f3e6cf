"""The build's cache: validations, rendered Markdown and script bundles reused across builds of the same inputs."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sitebuild.cache import DiskCache

ROOT = Path(__file__).resolve().parents[1]
NO_PYODIDE = "http://127.0.0.1:9/pyodide/"
EXERCISE = "position_similarity"  # the quickest to validate


@pytest.fixture
def project(tmp_path):
    """A copy of one exercise, and a build command using its own cache (returns the CompletedProcess)."""
    exercises = tmp_path / "exercises"
    shutil.copytree(ROOT / "exercises" / EXERCISE, exercises / EXERCISE)
    cache = tmp_path / "cache"

    def build(*args):
        return subprocess.run(
            [sys.executable, "build.py", "--exercises", str(exercises), "--out", str(tmp_path / "site"),
             "--pyodide-url", NO_PYODIDE, *args],
            cwd=ROOT, capture_output=True, text=True, timeout=600, env={**os.environ, "ML_EXERCISES_CACHE": str(cache)})

    return exercises / EXERCISE, cache, build


def summary(result):
    assert result.returncode == 0, result.stderr
    return result.stdout.split("(", 1)[1].strip().rstrip(")")


def test_validation_is_reused_until_something_it_depends_on_changes(project, tmp_path):
    exercise, _, build = project
    assert summary(build()) == f"validated: {EXERCISE}; from cache: 0 exercises"
    assert summary(build()) == "validated: none; from cache: 1 exercise"

    statement = exercise / "statement.md"
    statement.write_text(statement.read_text() + "\nA sentence added after the first build.\n")
    assert summary(build()) == "validated: none; from cache: 1 exercise"
    page = tmp_path / "site" / "exercises" / EXERCISE / "index.html"
    assert "A sentence added after the first build." in page.read_text()
    (exercise / "how_it_works.md").write_text("Why it works, added later: $\\cos^2 + \\sin^2 = 1$.\n")
    assert summary(build()) == "validated: none; from cache: 1 exercise"  # prose, rendered by every build
    assert "Why it works, added later" in page.read_text()

    solution = exercise / "solution.py"
    solution.write_text(solution.read_text() + "\n# a comment changes the reference's source\n")
    assert summary(build()) == f"validated: {EXERCISE}; from cache: 0 exercises"
    assert summary(build("--no-cache")) == f"validated: {EXERCISE}; from cache: 0 exercises"


def test_a_failed_validation_is_not_cached(project):
    exercise, cache, build = project
    solution = exercise / "solution.py"
    wrong = f"\n\ndef {EXERCISE}(*args):\n    return 0\n"  # the last definition wins: the reference now fails
    solution.write_text(solution.read_text() + wrong)
    result = build()
    assert result.returncode == 2 and "solution.py" in result.stderr, result.stderr
    assert not list((cache / "validation").glob("*.json"))


def test_damaged_cache_entries_are_ignored_and_written_again(project, tmp_path):
    _, cache, build = project
    build()
    first_bundle = (tmp_path / "site/assets/page.js").read_bytes()
    [entry] = (cache / "validation").glob("*.json")
    entry.write_text("{not json")
    [bundle] = [path for path in (cache / "bundles").iterdir() if path.is_dir()]
    (bundle / "page.js").write_text("tampered")
    [page_imports] = (cache / "bundles").glob("*-page-imports.json")  # the chunks page.js imports
    kept_imports = page_imports.read_text()
    page_imports.write_text("{not json")

    assert summary(build()) == f"validated: {EXERCISE}; from cache: 0 exercises"
    assert (tmp_path / "site/assets/page.js").read_bytes() == first_bundle
    assert json.loads(entry.read_text())["value"] == {"exercise": EXERCISE}
    assert (bundle / "page.js").read_bytes() == first_bundle
    assert page_imports.read_text() == kept_imports


def test_a_cache_that_cannot_be_written_only_warns(project, tmp_path):
    _, cache, build = project
    cache.write_text("a file where the cache folder should be")
    result = build()
    assert summary(result) == f"validated: {EXERCISE}; from cache: 0 exercises"
    assert result.stderr.startswith("warning: the build cache could not be written (")
    assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1


def test_disk_cache_entries(tmp_path):
    cache = DiskCache(tmp_path / "entries")
    assert cache.get("k") is None
    cache.put("k", {"answer": 42})
    assert cache.get("k") == {"answer": 42}
    assert DiskCache(tmp_path / "entries", read=False).get("k") is None
    (tmp_path / "entries" / "k.json").rename(tmp_path / "entries" / "other.json")
    assert cache.get("other") is None  # an entry stored under another key does not count
    assert [p.name for p in (tmp_path / "entries").iterdir()] == ["other.json"]  # no temporary files left



def test_a_change_to_a_used_steps_reference_validates_its_users_again(tmp_path):
    from grader.exercise import load_exercise
    from sitebuild.validation import grading_inputs
    from test_earlier_steps import copy_catalogue
    catalogue = copy_catalogue(tmp_path / "catalogue")
    before = grading_inputs(load_exercise(catalogue / "attention"))
    with (catalogue / "softmax" / "solution.py").open("a") as solution:
        solution.write("\n# edited\n")
    assert grading_inputs(load_exercise(catalogue / "attention")) != before


def test_a_broken_uses_stops_the_build_with_one_line(tmp_path):
    from test_earlier_steps import copy_catalogue
    catalogue = copy_catalogue(tmp_path / "exercises")
    toml = catalogue / "attention" / "exercise.toml"
    toml.write_text(toml.read_text().replace('uses = ["softmax"]', 'uses = ["attention_v2"]'))
    result = subprocess.run([sys.executable, "build.py", "--exercises", str(catalogue), "--out", str(tmp_path / "site"),
                             "--pyodide-url", NO_PYODIDE], cwd=ROOT, capture_output=True, text=True, timeout=600,
                            env={**os.environ, "ML_EXERCISES_CACHE": str(tmp_path / "cache")})
    assert result.returncode == 2
    assert result.stderr.startswith(f"error: {toml}:")
    assert "uses 'attention_v2', which cannot be loaded" in result.stderr
    assert len(result.stderr.splitlines()) == 1
