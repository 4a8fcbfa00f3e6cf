"""A track's helper module (`<exercises>/_track/<track>.py`), which its hidden tests import as `_track`: loaded
before the tests offline and on the page, held to the tests' rules, refused when it imports a reference."""

import pytest

from grader.authoring.scaffold import create_exercise
from grader.authoring.validate import validate_exercise
from grader.exercise import load_exercise
from grader.exercise_rules import InvalidExercise, ensure_valid
from sitebuild.data import grading_data

@pytest.fixture
def scaffold(tmp_path):
    """(the scaffold, whose tests import their plain-Python softmax from the track's helpers, those helpers' text)."""
    folder = create_exercise("softmax_rows", tmp_path / "exercises", draft=False)
    tests = (folder / "tests.py").read_text()
    start, end = tests.index("def _softmax_rows(rows):"), tests.index("def _mistakes(")
    helpers = ('"""Plain-Python references shared by the tests of the build-gpt track."""\n\nimport math\n\n\n'
               + tests[start:end].rstrip("\n").replace("def _softmax_rows", "def softmax_rows") + "\n")
    (folder / "tests.py").write_text(tests[:start].replace("import math\n", "from _track import softmax_rows as "
                                                                            "_softmax_rows\n") + tests[end:])
    return folder, helpers


def write_helpers(folder, text):
    path = folder.parent / "_track" / "build-gpt.py"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    return path


def refusals(folder):
    with pytest.raises(InvalidExercise) as refused:
        ensure_valid(load_exercise(folder))
    return refused.value.problems


def test_tests_importing_the_tracks_helpers_validate_and_the_page_gets_them(scaffold):
    folder, helpers = scaffold
    write_helpers(folder, helpers)
    result = validate_exercise(folder)
    assert result.ok, result.problems
    assert "mutants: 1/1 caught" in "\n".join(result.lines)
    data = grading_data(load_exercise(folder), ["a"], [])
    assert data["track_source"] == helpers and data["track_filename"] == "_track.py"


def test_tests_importing_helpers_the_track_does_not_have_are_refused(scaffold):
    folder, _ = scaffold
    problem, loading = refusals(folder)
    assert problem == (f"{folder}/tests.py:10: imports _track, but the track 'build-gpt' has no helper module "
                       f"({folder.parent}/_track/build-gpt.py)")
    assert loading.startswith(f"{folder}/tests.py:10: hidden tests fail to import: ModuleNotFoundError")


def test_helpers_that_import_the_reference_are_refused_at_their_line(scaffold):
    folder, helpers = scaffold
    path = write_helpers(folder, helpers + "\nfrom solution import softmax_rows as reference\n")
    problem, loading = refusals(folder)
    line = len(helpers.splitlines()) + 2
    assert loading.startswith(f"{path}:{line}: the track's helper module fails to import: ModuleNotFoundError")
    assert problem == (f"{path}:{line}: imports solution: the track's helpers may not import a reference or another "
                       f"exercise's files (the page has none of them); compute expected values in plain Python and "
                       f"numpy")


def test_helpers_that_read_the_clock_or_fail_to_import_are_refused(scaffold):
    folder, helpers = scaffold
    path = write_helpers(folder, helpers + "\nimport time\nSEED = time.time_ns()\n")
    (problem,) = refusals(folder)
    line = len(helpers.splitlines()) + 3
    assert problem.startswith(f"{path}:{line}: reads the clock or the system's entropy (time.time_ns)")
    write_helpers(folder, helpers + "\nLIMIT = 1 / 0\n")
    (problem,) = refusals(folder)
    assert problem.startswith(f"{path}:{line - 1}: the track's helper module fails to import: ZeroDivisionError")
