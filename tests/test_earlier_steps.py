"""Steps that build on earlier steps (`uses`): the engine puts their entry functions in the learner's scope,
the loader checks `uses` and `part`, and offline grading (check, batch, gradescope, validate) runs the
references of the used steps in the real sandbox."""

import dataclasses
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from grader.core.engine import EarlierStep, GradingSpec, grade, load_submission, try_code
from grader.exercise import EXERCISES_DIR, ExerciseError, load_exercise
from grader.authoring.scaffold import create_exercise
from grader.track import reference_function, reference_steps, used_steps

SOFTMAX = """\
import numpy as np


def _shift(x, axis):
    return x - x.max(axis=axis, keepdims=True)


def softmax(x, axis=-1):
    exps = np.exp(_shift(x, axis))
    return exps / exps.sum(axis=axis, keepdims=True)
"""
TESTS = '''\
import numpy as np


def test_value(attend):
    """Attends to two equal keys"""
    result = attend(np.zeros((1, 2)))
    assert np.allclose(result, [[0.5, 0.5]]), result
'''
SPEC = GradingSpec("attend", "attend", TESTS)


def step(exercise_id, source, step_number, uses=(), yours=False, entry=None):
    return EarlierStep(exercise_id, entry or exercise_id, step_number, source, tuple(uses), yours)


def only_test(report):
    assert report["error"] is None, report["error"]
    [test] = report["tests"]
    return test


# -- the engine --

def test_only_the_entry_function_of_an_earlier_step_enters_the_learners_namespace():
    source = ("def _shift(x, axis):\n    return 'mine'\n\n"
              "def attend(x):\n    assert _shift(x, 0) == 'mine'\n    return softmax(x)\n")
    assert only_test(grade(SPEC, source, earlier=[step("softmax", SOFTMAX, 5)]))["status"] == "passed"
    leaked = grade(SPEC, "def attend(x):\n    return _shift(x, 0)\n", earlier=[step("softmax", SOFTMAX, 5)])
    assert "NameError: name '_shift' is not defined" in only_test(leaked)["message"]


def test_the_learners_own_definition_wins():
    source = "def softmax(x, axis=-1):\n    return x * 0\n\ndef attend(x):\n    return softmax(x)\n"
    test = only_test(grade(SPEC, source, earlier=[step("softmax", SOFTMAX, 5)]))
    assert test["status"] == "failed"


def test_used_steps_find_what_they_use_in_turn_and_nothing_else():
    scale = "def scale(x):\n    return softmax(x) * 1.0\n"
    mix = "def mix(x):\n    return scale(x)\n"
    earlier = [step("softmax", SOFTMAX, 5), step("scale", scale, 6, uses=["softmax"]),
               step("mix", mix, 7, uses=["scale"])]
    entry, error = load_submission("attend", "def attend(x):\n    return mix(x)\n", earlier)
    assert error is None
    assert list(entry(np.zeros((1, 2)))[0]) == [0.5, 0.5]
    assert set(entry.__globals__) >= {"softmax", "scale", "mix"}  # every earlier entry is in the learner's scope
    assert "scale" not in entry.__globals__["softmax"].__globals__  # a step sees only what it uses
    _, error = load_submission("attend", "def attend(x):\n    return x\n", earlier[1:])
    assert error == "The reference scale (step 6) needs softmax, which is not loaded before it " \
                    "(the exercise's list of earlier steps is out of order)."


def test_an_error_in_an_earlier_step_names_it_and_shows_only_the_learners_own_lines():
    source = "import numpy as np\n\ndef attend(x):\n    return softmax(np.zeros(3), axis=4)\n"
    reference = only_test(grade(SPEC, source, earlier=[step("softmax", SOFTMAX, 5)]))["message"]
    assert reference.splitlines()[1:] == [
        "(raised in the reference softmax (step 5), which this step uses)",
        "Traceback (your code, most recent call last):",
        "  line 4, in attend: return softmax(np.zeros(3), axis=4)",
        "  in the reference softmax (step 5)"]
    assert "keepdims" not in reference  # no line of the reference's code
    yours = only_test(grade(SPEC, source, earlier=[step("softmax", SOFTMAX, 5, yours=True)]))["message"]
    assert yours.splitlines()[1:] == [
        "(raised in your softmax (step 5), which this step uses)",
        "Traceback (your code, most recent call last):",
        "  line 4, in attend: return softmax(np.zeros(3), axis=4)",
        "  line 9 of your softmax (step 5), in softmax: exps = np.exp(_shift(x, axis))",
        "  line 5 of your softmax (step 5), in _shift: return x - x.max(axis=axis, keepdims=True)"]


def test_a_reference_calling_a_reference_shows_one_line_for_each():
    scale = "def scale(x):\n    return softmax(x, axis=4)\n"
    earlier = [step("softmax", SOFTMAX, 5), step("scale", scale, 6, uses=["softmax"])]
    message = only_test(grade(SPEC, "def attend(x):\n    return scale(x)\n", earlier=earlier))["message"]
    assert message.splitlines()[1:] == [
        "(raised in the reference softmax (step 5), which this step uses)",
        "Traceback (your code, most recent call last):",
        "  line 2, in attend: return scale(x)",
        "  in the reference scale (step 6)",
        "  in the reference softmax (step 5)"]


def test_an_earlier_step_that_does_not_load_is_named_before_any_test_runs():
    broken = step("softmax", "import numpy as np\nraise ValueError('half-written')\n", 5, yours=True)
    report = grade(SPEC, "def attend(x):\n    return x\n", earlier=[broken])
    assert report["error"].startswith("Your softmax (step 5), which this step uses, raised an error while loading "
                                      "(before any test ran):\nValueError: half-written")
    assert "line 2 of your softmax (step 5), in <module>: raise ValueError('half-written')" in report["error"]
    assert [t["status"] for t in report["tests"]] == ["error"]
    _, error = load_submission("attend", "def attend(x):\n    return x\n", [step("softmax", "x = 1\n", 5)])
    assert error == "The reference softmax (step 5), which this step uses, does not define a function `softmax`."


def test_try_code_sees_the_earlier_entries(capsys):
    assert try_code("import numpy as np\n", "print(softmax(np.zeros(2)))", [step("softmax", SOFTMAX, 5)]) is None
    assert capsys.readouterr().out == "[0.5 0.5]\n"


def test_earlier_steps_cross_as_data():
    original = step("causal_attention", "def causal_attention(q): ...\n", 8, uses=["softmax"], yours=True)
    assert EarlierStep.from_dict(json.loads(json.dumps(original.to_dict()))) == original


# -- the loader: uses and part in exercise.toml --

@pytest.fixture
def track(tmp_path):
    """Three scaffolded exercises: first (step 1) and second (step 2) in track t, elsewhere (step 1) in track u."""
    for exercise_id, track_name in (("first", "t"), ("second", "t"), ("elsewhere", "u")):
        create_exercise(exercise_id, tmp_path, track=track_name)
    return tmp_path


def set_key(folder, line):
    """Add `line` to exercise.toml right after its step; return the line's number."""
    path = folder / "exercise.toml"
    lines = path.read_text().splitlines()
    at = next(n for n, text in enumerate(lines) if text.startswith("step = ")) + 1
    path.write_text("\n".join(lines[:at] + [line] + lines[at:]) + "\n")
    return at + 1


@pytest.mark.parametrize("line, message", [
    ('uses = ["First"]', "every item of uses should be an exercise id (lowercase letters, digits and _), "
                         "not 'First'"),
    ('uses = ["second"]', "an exercise cannot use itself ('second')"),
    ('uses = ["first", "first"]', "uses names an exercise more than once"),
    ('part = " "', "part is empty (leave it out, or name the part of the track)"),
])
def test_the_loader_checks_uses_and_part_at_their_line(track, line, message):
    number = set_key(track / "second", line)
    with pytest.raises(ExerciseError) as caught:
        load_exercise(track / "second")
    assert str(caught.value).endswith(f"second/exercise.toml:{number}: {message}")


@pytest.mark.parametrize("user, line, message", [
    ("second", 'uses = ["nope"]', "uses 'nope', which cannot be loaded from "),
    ("second", 'uses = ["elsewhere"]', "uses 'elsewhere', which is in track 'u', not 't'"),
    ("first", 'uses = ["second"]', "uses 'second', which is step 2: only steps before step 1 can be used"),
])
def test_uses_must_name_an_earlier_step_of_the_same_track(track, user, line, message):
    number = set_key(track / user, line)
    exercise = load_exercise(track / user)
    with pytest.raises(ExerciseError) as caught:
        used_steps(exercise)
    assert f"{user}/exercise.toml:{number}: {message}" in str(caught.value)


def test_uses_are_resolved_transitively_dependencies_first(track):
    create_exercise("third", track, track="t")
    set_key(track / "second", 'uses = ["first"]')
    set_key(track / "third", 'uses = ["second"]\npart = "Forward pass"')
    third = load_exercise(track / "third")
    assert (third.uses, third.part) == (("second",), "Forward pass")
    earlier = reference_steps(third)
    assert [(s.exercise_id, s.step, s.uses, s.yours) for s in earlier] == \
        [("first", 1, (), False), ("second", 2, ("first",), False)]
    assert earlier[0].source == load_exercise(track / "first").solution


# -- offline, end to end, in the real sandbox --

NEW_STYLE = """\
import numpy as np


def attention(q, k, v):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    return softmax(scores, axis=-1) @ v
"""
OLD_STYLE = """\
import numpy as np


def softmax(scores):
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True)


def attention(q, k, v):
    return softmax(q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])) @ v
"""
WRONG_CALL = NEW_STYLE.replace("axis=-1", "axis=5")
OWN_WRONG_SOFTMAX = "def softmax(x, axis=-1):\n    return x\n\n\n" + NEW_STYLE
ATTRIBUTED = ("(raised in the reference softmax (step 5), which this step uses)\n"
              "Traceback (your code, most recent call last):\n"
              "  line 6, in attention: return softmax(scores, axis=5) @ v\n"
              "  in the reference softmax (step 5)")


def run_grader(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "grader", *map(str, args)], capture_output=True, text=True,
                          timeout=300, cwd=cwd)


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory):
    return copy_catalogue(tmp_path_factory.mktemp("catalogue"))


def copy_catalogue(root):
    """softmax and attention copied from exercises/ into `root`, attention's exercise.toml given
    `uses = ["softmax"]`, its reference and one mutant calling softmax; returns `root`."""
    for exercise_id in ("softmax", "attention"):
        shutil.copytree(EXERCISES_DIR / exercise_id, root / exercise_id)
    (root / "attention" / "solution.py").write_text(NEW_STYLE)
    (root / "attention" / "mutants" / "softmax_called_over_the_queries.py").write_text(
        "# Calls softmax over the queries (axis -2) instead of the keys.\n" + NEW_STYLE.replace("axis=-1", "axis=-2"))
    toml = root / "attention" / "exercise.toml"
    text = re.sub(r"^uses\s*=\s*\[[^\]]*\]\n", "", toml.read_text(), flags=re.MULTILINE)  # as shipped, if any
    toml.write_text(re.sub(r"^step = 7$", 'step = 7\nuses = ["softmax"]', text, count=1, flags=re.MULTILINE))
    assert load_exercise(root / "attention").uses == ("softmax",)
    return root


@pytest.fixture(scope="module")
def submissions(tmp_path_factory):
    return write_submissions(tmp_path_factory.mktemp("submissions"))


def write_submissions(folder):
    folder.mkdir(parents=True, exist_ok=True)
    for name, source in (("new_style", NEW_STYLE), ("old_style", OLD_STYLE), ("wrong_call", WRONG_CALL),
                         ("own_wrong_softmax", OWN_WRONG_SOFTMAX)):
        (folder / f"{name}.py").write_text(source)
    return folder


def test_check_grades_with_the_reference_of_the_used_step(catalogue, submissions):
    passed = run_grader("check", catalogue / "attention", submissions / "new_style.py", "--json")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert json.loads(passed.stdout)["passed"]
    old = run_grader("check", catalogue / "attention", submissions / "old_style.py")
    assert old.returncode == 0, old.stdout
    wrong = run_grader("check", catalogue / "attention", submissions / "wrong_call.py", "--json")
    assert wrong.returncode == 1
    messages = [test["message"] for test in json.loads(wrong.stdout)["tests"] if test["status"] != "passed"]
    assert messages and all(ATTRIBUTED in message for message in messages)


def test_batch_and_gradescope_grade_with_the_reference_of_the_used_step(catalogue, submissions, tmp_path):
    out = tmp_path / "results.jsonl"
    batch = run_grader("batch", catalogue / "attention", submissions, "--out", out, "--jobs", 2)
    assert batch.returncode == 0, batch.stderr
    records = {record["submission"].removesuffix(".py"): record
               for record in map(json.loads, out.read_text().splitlines())}
    assert {name: record["passed"] for name, record in records.items()} == \
        {"new_style": True, "old_style": True, "wrong_call": False, "own_wrong_softmax": False}
    assert ATTRIBUTED in records["wrong_call"]["tests"][0]["message"]

    student = tmp_path / "student"
    student.mkdir()
    (student / "attention.py").write_text(NEW_STYLE)
    results = tmp_path / "results.json"
    scope = run_grader("gradescope", "--exercise", catalogue / "attention", "--submission", student,
                       "--results", results)
    assert scope.returncode == 0, scope.stderr
    graded = json.loads(results.read_text())
    assert graded["score"] == sum(test["max_score"] for test in graded["tests"]) > 0


def test_validate_passes_the_catalogue(catalogue):
    validated = run_grader("validate", "--root", catalogue)
    assert validated.returncode == 0, validated.stdout
    assert "2 of 2 exercise(s) valid" in validated.stdout
    assert re.search(r"✓ reference passes (\d+)/\1 tests", validated.stdout.split("attention - ")[1])
    assert "softmax_called_over_the_queries.py: caught by" in validated.stdout


def test_pytest_runs_the_reference_with_the_used_references_in_scope(catalogue):
    process = subprocess.run([sys.executable, "-m", "pytest", "-p", "grader.pytest_plugin", "-p", "no:cacheprovider",
                              "-v", str(catalogue / "attention")], capture_output=True, text=True, timeout=300,
                             cwd=Path(__file__).resolve().parents[1])
    assert process.returncode == 0, process.stdout
    assert "[reference] PASSED" in process.stdout
    assert "mutant[softmax_called_over_the_queries] PASSED" in process.stdout


def test_a_broken_uses_is_one_line_naming_exercise_toml(catalogue, submissions, tmp_path):
    root = tmp_path / "broken"
    shutil.copytree(catalogue, root)
    toml = root / "attention" / "exercise.toml"
    toml.write_text(toml.read_text().replace('uses = ["softmax"]', 'uses = ["softmax", "generate"]'))
    line = toml.read_text().splitlines().index('uses = ["softmax", "generate"]') + 1
    checked = run_grader("check", root / "attention", submissions / "new_style.py")
    assert checked.returncode == 2
    assert checked.stderr.startswith(f"error: {toml}:{line}: uses 'generate', which cannot be loaded from {root}")
    assert len(checked.stderr.splitlines()) == 1
    validated = run_grader("validate", "--root", root, "attention")
    assert validated.returncode == 1
    assert f"{toml}:{line}: uses 'generate'" in validated.stdout


def test_the_browsers_engine_in_real_pyodide_has_the_used_references_in_scope(catalogue):
    """`validate --pyodide` grades with the same earlier steps, in Pyodide under Node."""
    from grader.authoring.validate import grade_in_pyodide, pyodide_dist
    exercise = load_exercise(catalogue / "attention")
    runs = grade_in_pyodide(exercise, {"new_style": NEW_STYLE, "wrong_call": WRONG_CALL}, pyodide_dist(),
                             reference_steps(exercise))
    assert runs["new_style"].passed
    assert all(ATTRIBUTED in test.message for test in runs["wrong_call"].tests if test.status != "passed")
    assert not runs["wrong_call"].passed


def test_reference_function_loads_a_reference_with_its_used_steps_and_names_one_that_does_not_load():
    attention = load_exercise("causal_attention")
    q = np.array([[1.0, 0.0], [0.0, 1.0]])
    assert reference_function(attention)(q, q, q)[0].tolist() == [1.0, 0.0]
    broken = dataclasses.replace(attention, solution="def causal_attention(q, k, v):\n    return softmax(\n")
    with pytest.raises(ExerciseError, match=r"solution\.py: the reference does not load: SyntaxError"):
        reference_function(broken)


def test_a_used_step_is_loaded_again_once_it_changes(tmp_path):
    # The loader reuses a used step's Exercise while its folder is unchanged (the preview rebuilds often).
    first = create_exercise("first", tmp_path)
    user = load_exercise(create_exercise("user", tmp_path, uses=["first"]))
    assert used_steps(user)[0] is used_steps(user)[0]
    (first / "solution.py").write_text((first / "solution.py").read_text() + "\n# edited\n")
    assert used_steps(user)[0].solution.endswith("# edited\n")
