"""The author's workflow: `python -m grader new`, then `validate`, then `pytest exercises/ID`."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from grader.authoring import scaffold
from grader.exercise import load_exercise
from grader.authoring.scaffold import ScaffoldError, create_exercise
from grader.authoring.validate import validate_exercise

ROOT = Path(__file__).resolve().parents[1]
FORMAT_FILES = {"exercise.toml", "statement.md", "starter.py", "solution.py", "tests.py", "mutants/columns_not_rows.py",
                "accepted/log_sum_exp.py"}


def run(*args, cwd=ROOT):
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=cwd, timeout=300)


def files_under(folder):
    return {path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()}


def test_new_then_validate_passes(tmp_path):
    created = run("-m", "grader", "new", "layer_norm", "--title", 'Layer "norm"', "--track", "my-track",
                  "--step", "3", "--entry", "normalise", "--root", str(tmp_path))
    assert created.returncode == 0, created.stderr
    folder = tmp_path / "layer_norm"
    assert files_under(folder) == FORMAT_FILES
    exercise = load_exercise(folder)
    assert (exercise.id, exercise.title, exercise.track, exercise.step, exercise.entry) == \
        ("layer_norm", 'Layer "norm"', "my-track", 3, "normalise")
    assert re.findall(r"^## (\w+)", exercise.statement, re.MULTILINE) == \
        ["Background", "Problem", "Input", "Output", "Examples", "Constraints", "Notes"]

    # Everything passes but the summary and the hints, left to write.
    validated = run("-m", "grader", "validate", "layer_norm", "--root", str(tmp_path))
    assert validated.returncode == 1, validated.stdout
    assert "mutants: 1/1 caught" in validated.stdout and "NOT VALID (3 problem(s))" in validated.stdout
    assert f"{folder}/exercise.toml:6: still a placeholder of `grader new`, to write: summary = " in validated.stdout
    write_summary_and_hints(folder)
    validated = run("-m", "grader", "validate", "layer_norm", "--root", str(tmp_path))
    assert validated.returncode == 0, validated.stdout


def write_summary_and_hints(folder):
    """What the author writes where `grader new` left TODO(author) in exercise.toml."""
    toml = (folder / "exercise.toml").read_text()
    toml = re.sub(r"'TODO\(author\): [^']*'", "'Divide by the norm.'", toml)
    (folder / "exercise.toml").write_text(re.sub(r'"TODO\(author\): [^"]*"', '"Normalise rows."', toml))


def test_defaults_come_from_the_id_and_the_next_free_step(tmp_path):
    first = create_exercise("attention_scores", tmp_path)
    second = create_exercise("causal_mask", tmp_path)
    exercise = load_exercise(second)
    assert (exercise.title, exercise.entry, exercise.track) == ("Causal mask", "causal_mask", "build-gpt")
    assert (load_exercise(first).step, exercise.step) == (1, 2)
    assert validate_exercise(exercise).ok


def test_new_with_uses_scaffolds_an_exercise_that_builds_on_earlier_steps(tmp_path):
    create_exercise("row_softmax", tmp_path, track="gpt", step=2)
    created = run("-m", "grader", "new", "mixer", "--track", "gpt", "--uses", "row_softmax", "--root", str(tmp_path))
    assert created.returncode == 0, created.stderr
    exercise = load_exercise(tmp_path / "mixer")
    assert (exercise.uses, exercise.step) == (("row_softmax",), 3)
    assert "# In scope from earlier steps (call them, no need to paste them): row_softmax." in exercise.starter
    write_summary_and_hints(tmp_path / "mixer")
    assert validate_exercise(tmp_path / "mixer").ok

    refused = run("-m", "grader", "new", "early", "--track", "gpt", "--step", "1", "--uses", "mixer",
                  "--root", str(tmp_path))
    assert refused.returncode == 2
    assert refused.stderr == ("error: cannot create early: uses 'mixer', which is step 3: only steps before "
                              "step 1 can be used\n")
    with pytest.raises(ScaffoldError, match="cannot create early: uses 'nope', which cannot be loaded"):
        create_exercise("early", tmp_path, track="gpt", uses=["row_softmax", "nope"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mixer", "row_softmax"]


def test_refuses_to_overwrite(tmp_path):
    folder = create_exercise("layer_norm", tmp_path)
    (folder / "solution.py").write_text("# my work\n")
    with pytest.raises(ScaffoldError, match="layer_norm already exists: not overwriting it"):
        create_exercise("layer_norm", tmp_path)
    assert (folder / "solution.py").read_text() == "# my work\n"

    process = run("-m", "grader", "new", "layer_norm", "--root", str(tmp_path))
    assert process.returncode == 2
    assert "already exists" in process.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["layer_norm"]


@pytest.mark.parametrize("bad_id", ["LayerNorm", "layer-norm", "2d_conv", "_private", "layer norm", ""])
def test_bad_id(tmp_path, bad_id):
    with pytest.raises(ScaffoldError, match="is not a valid exercise id: use lowercase letters, digits and _, "
                                            "starting with a letter, e.g. layer_norm"):
        create_exercise(bad_id, tmp_path)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("options, message", [
    ({"track": "Build GPT"}, "track 'Build GPT' should be a lowercase slug"),
    ({"title": "  "}, "title is empty"),
    ({"entry": "lambda"}, "'lambda' is not a valid Python function name"),
])
def test_bad_options_leave_nothing_behind(tmp_path, options, message):
    with pytest.raises(ScaffoldError, match=re.escape(message)):
        create_exercise("layer_norm", tmp_path, **options)
    assert list(tmp_path.iterdir()) == []


def test_taken_step_is_refused(tmp_path):
    create_exercise("layer_norm", tmp_path, track="gpt", step=1)
    with pytest.raises(ScaffoldError, match="step 1 of track 'gpt' is already used by layer_norm "
                                            r"\(the next free step is 2\)"):
        create_exercise("softmax", tmp_path, track="gpt", step=1)


def test_interrupted_scaffold_leaves_nothing_behind(tmp_path, monkeypatch):
    def interrupt(folder):
        raise KeyboardInterrupt

    # Every file is written by the time the draft is checked; stop right there.
    monkeypatch.setattr(scaffold, "load_exercise", interrupt)
    with pytest.raises(KeyboardInterrupt):
        create_exercise("layer_norm", tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_pytest_runs_the_reference_and_the_mutants():
    exercise = load_exercise("sinusoidal_pe")
    process = run("-m", "pytest", "exercises/sinusoidal_pe", "-v", "-p", "no:cacheprovider")
    assert process.returncode == 0, process.stdout
    assert "tests.py::test_shape[reference] PASSED" in process.stdout
    for mutant in exercise.mutants:
        assert f"tests.py::mutant[{mutant.removesuffix('.py')}] PASSED" in process.stdout
    assert f"{6 + len(exercise.mutants)} passed" in process.stdout

    selected = run("-m", "pytest", "exercises/sinusoidal_pe", "-k", "shape", "-p", "no:cacheprovider")
    assert selected.returncode == 0, selected.stdout
    assert "1 passed, 12 deselected" in selected.stdout


def test_pytest_names_a_surviving_mutant_and_rewrites_asserts(tmp_path):
    folder = create_exercise("softmax_rows", tmp_path)
    (folder / "mutants" / "same_as_reference.py").write_text((folder / "solution.py").read_text())
    with open(folder / "tests.py", "a") as tests:
        tests.write('\n\ndef test_plain_assert(softmax_rows):\n    """Plain assert"""\n'
                    '    assert softmax_rows.__name__ == "softmax"\n')
    # Outside exercises/ the conftest is not on the path: load the plugin by name instead.
    process = run("-m", "pytest", str(folder), "-p", "grader.pytest_plugin", "-p", "no:cacheprovider",
                  "-o", f"pythonpath={ROOT}", cwd=tmp_path)
    assert process.returncode == 1
    assert "AssertionError: assert 'softmax_rows' == 'softmax'" in process.stdout
    # The new test fails on every mutant too, so delete it and look at the mutant alone.
    (folder / "tests.py").write_text((folder / "tests.py").read_text().split("\n\ndef test_plain_assert")[0])
    (folder / "accepted" / "same.py").write_text("# The reference again.\n" + (folder / "solution.py").read_text())
    (folder / "accepted" / "columns.py").write_text((folder / "mutants" / "columns_not_rows.py").read_text())
    process = run("-m", "pytest", str(folder), "-v", "-p", "grader.pytest_plugin", "-p", "no:cacheprovider",
                  "-o", f"pythonpath={ROOT}", cwd=tmp_path)
    assert process.returncode == 1
    assert "softmax_rows/mutants/same_as_reference.py survived: all 3 hidden tests pass on it" in process.stdout
    assert "FAILED softmax_rows/tests.py::mutant[same_as_reference]" in process.stdout
    assert "tests.py::accepted[same] PASSED" in process.stdout
    assert "softmax_rows/accepted/columns.py is an accepted variant, yet 3 hidden test(s) reject it:\n" \
           "Each row is the softmax of that row (failed): softmax_rows(x) for x of shape (3, 4), entry [0, 1]: " \
           "expected 0.0871443, got 0.821409 (12 of 12 entries differ) (every column sums to 1 instead of every row; " \
           "normalise along axis=1)" in process.stdout, process.stdout


def test_project_test_suite_does_not_collect_exercises():
    process = run("-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider")
    assert process.returncode == 0, process.stdout
    assert "exercises/" not in process.stdout


def pasted_output(command):
    """The lines AUTHORING.md shows after `    $ <command>`, up to the end of that indented block."""
    lines = (ROOT / "AUTHORING.md").read_text(encoding="utf-8").splitlines()
    start = lines.index(f"    $ {command}") + 1
    block = []
    for line in lines[start:]:
        if line and not line.startswith("    ") or line.startswith("    $ "):
            break
        block.append(line[4:])
    return "\n".join(block).strip()


def without_timings(text):
    """`text` with each duration, and the name of the slowest test (which one it is varies), replaced."""
    text = re.sub(r"(slowest mutants, [^:]*:).*", r"\1 ...", text)  # their order varies too
    return re.sub(r"\d+\.\d+ s\b", "N s", re.sub(r"slowest: '[^']*'", "slowest: 'T'", text))


def test_authoring_shows_what_new_and_validate_print(tmp_path):
    """The walk-through's pasted output of `grader new` and of `validate` on the scaffold is real."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = 'python3 -m grader new rms_norm --title "RMS normalisation"'
    created = subprocess.run([sys.executable, "-m", "grader", "new", "rms_norm", "--title", "RMS normalisation",
                              "--root", "exercises"], cwd=tmp_path, env=env, capture_output=True, text=True)
    # --root makes `new` name the folder in its last line; in the project the id is enough.
    assert created.stdout.strip().replace("validate exercises/rms_norm", "validate rms_norm") == \
        pasted_output(command)
    validated = subprocess.run([sys.executable, "-m", "grader", "validate", "rms_norm", "--root", "exercises"],
                               cwd=tmp_path, env=env, capture_output=True, text=True)
    assert without_timings(validated.stdout.strip()) == without_timings(
        pasted_output("python3 -m grader validate rms_norm"))
