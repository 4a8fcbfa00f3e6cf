"""`python -m grader validate`: each kind of broken exercise is named clearly; the shipped ones pass."""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grader.exercise import load_all, load_exercise
from grader.authoring.mutant_diagnosis import declared_diagnosis, diagnosis_problem
from grader.authoring.scaffold import create_exercise
from grader.authoring import validate as validate_module
from grader.authoring.validate import PyodideError, pyodide_dist, validate_exercise
from sitebuild import BuildError
from sitebuild.cache import DiskCache
from sitebuild.validation import Validator
from toolchain.cache import cache_root

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def folder(tmp_path):
    """A fresh scaffolded exercise (valid as created) to break in one way per test."""
    return create_exercise("softmax_rows", tmp_path / "exercises", draft=False)


def edit(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def append_test(folder, source):
    """Add `source` to the scaffold's tests.py, with the grader.core.checks helpers it may use."""
    with open(folder / "tests.py", "a") as tests:
        tests.write("\n\nfrom grader.core.checks import as_array, expect_close, fail, precision_of  # noqa: E402\n\n"
                    + source)


def single_problem(folder):
    result = validate_exercise(folder)
    assert not result.ok
    assert len(result.problems) == 1, result.problems
    assert "✗" in "\n".join(result.lines)
    return result.problems[0]


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "grader", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=600)


def test_scaffold_is_valid(folder):
    result = validate_exercise(folder)
    assert result.ok, result.problems
    report = "\n".join(result.lines)
    assert "mutants: 1/1 caught" in report
    assert "columns_not_rows.py: caught by 'Each row is the softmax of that row'" in report
    assert "budget 2.50 s (25% of time_limit 10 s)" in report


def test_reference_that_fails_a_test(folder):
    edit(folder / "solution.py", "x - x.max(axis=1, keepdims=True)", "x")
    problem = single_problem(folder)
    assert "softmax_rows/solution.py: the reference fails test 'Large scores do not overflow' (failed): " \
           "softmax_rows(x) for x of shape (2, 3), entry [0, 0]: expected 0.665241, got nan (4 of 6 entries differ) " \
           "(np.exp overflows above about 709, and these scores reach 1000; subtract each row's maximum before " \
           "exponentiating)" in problem


def test_surviving_mutant(folder):
    (folder / "mutants" / "same_as_reference.py").write_text("# The reference itself.\n"
                                                              + (folder / "solution.py").read_text())
    result = validate_exercise(folder)
    assert len(result.problems) == 1
    assert "mutants/same_as_reference.py: mutant survived: every hidden test passes on it (if it is a mistake, add " \
           "a test that catches it); no input found on which " \
           "it differs from the reference (the tests' 22 calls and 3 random variations of each give the reference's " \
           "results): if it is a correct variant, move it to accepted/" in result.problems[0]
    assert "  ✗ mutants: 1/2 caught" in result.lines


def test_mutant_diagnosis_is_checked(folder):
    mutant = folder / "mutants" / "columns_not_rows.py"
    (folder / "mutants" / "misdiagnosed.py").write_text(
        mutant.read_text().replace("# expect: every column", "# expect: looks like the rows were swapped, every column"))
    result = validate_exercise(folder)
    assert result.problems == [
        f"{folder / 'mutants' / 'misdiagnosed.py'}:2: expects the diagnosis 'looks like the rows were swapped, "
        "every column sums to 1 instead of every row', but no test that catches it says so; the first, 'Each "
        "row is the softmax of that row' (failed), says: softmax_rows(x) for x of shape (3, 4), entry [0, 1]: expected "
        "0.0871443, got 0.821409 (12 of 12 entries differ) (every column sums to 1 instead of every row; normalise "
        "along axis=1)"], result.problems
    assert "  ✗ mutants: 2/2 caught" in result.lines


def test_declared_diagnosis_is_read_from_the_leading_comment():
    assert declared_diagnosis("# Off by one.\n#   expect:  looks like  off by one \nimport numpy\n") == \
        (2, "looks like  off by one")
    assert declared_diagnosis("# Off by one.\nimport numpy\n# expect: too late\n") is None
    assert diagnosis_problem("", [("t", "failed", "x")]).startswith("'# expect:' names no words")
    assert diagnosis_problem("LOOKS like   x", [("a", "passed", ""), ("b", "failed", "it looks like x here")]) is None


def test_accepted_variants_must_pass(folder):
    (folder / "accepted" / "log_sum_exp.py").unlink()
    (folder / "accepted" / "loop.py").write_text(
        "# Loops over the rows.\nimport numpy as np\n\n\ndef softmax_rows(x):\n"
        "    return np.array([np.exp(r - r.max()) / np.exp(r - r.max()).sum() for r in x])\n")
    (folder / "accepted" / "columns.py").write_text(
        "import numpy as np\n\n\ndef softmax_rows(x):\n    return np.exp(x) / np.exp(x).sum(axis=0)\n")
    result = validate_exercise(folder)
    columns = folder / "accepted" / "columns.py"
    header, each_row, large, random_inputs = result.problems
    assert header == (f"{columns}:1: an accepted variant starts with a comment saying how it differs from the "
                      "reference, e.g. '# Draws the mask with rng.random() < keep instead of rng.binomial.'")
    assert each_row == (f"{columns}: the accepted variant fails test 'Each row is the softmax of that row' (failed): "
                        "softmax_rows(x) for x of shape (3, 4), entry [0, 1]: expected 0.0871443, got 0.821409 (12 of "
                        "12 entries differ) (every column sums to 1 instead of every row; normalise along axis=1)")
    assert large.startswith(f"{columns}: the accepted variant fails test 'Large scores do not overflow' (failed): ")
    assert large.endswith("(np.exp overflows above about 709, and these scores reach 1000; subtract each row's "
                          "maximum before exponentiating)")
    assert random_inputs.startswith(f"{columns}: the accepted variant fails test 'Matches the formula on random "
                                    "inputs' (failed): softmax_rows(x) is wrong on this input, the smallest failing")
    assert "  ✗ accepted variants: 1/2 pass every test" in result.lines
    assert ("  ✓ deterministic: 4 solutions graded twice from different process states, same verdicts and "
            "messages") in result.lines


def test_surviving_mutant_is_shown_with_an_input_where_it_differs(folder):
    (folder / "mutants" / "first_score_largest.py").write_text(
        "# Forgets the shift when a row's first score beats its last and a score lies between 5 and 100 (no test "
        "has such a row).\n"
        "import numpy as np\n\n\ndef softmax_rows(x):\n"
        "    if (x[:, 0] > x[:, -1]).any() and ((abs(x) > 5) & (abs(x) < 100)).any():\n"
        "        return np.exp(x) / np.exp(x).sum(axis=0)\n"
        "    return np.exp(x - x.max(axis=1, keepdims=True)) / np.exp(x - x.max(axis=1, keepdims=True)).sum("
        "axis=1, keepdims=True)\n")
    problem = single_problem(folder)
    assert "mutants/first_score_largest.py: mutant survived: every hidden test passes on it (if it is a mistake, " \
           "add a test that catches it); it differs from the reference on this input (a test's call with its float " \
           "arrays drawn again at random):\n  softmax_rows(x=np.array([[" in problem
    # The input, the two results and where they first differ: a line each, never two arrays on one line.
    lines = problem.splitlines()[1:]
    assert [line.split(" ")[3:5] for line in lines[1:3]] == [["reference", "returns"], ["mutant", "returns"]]
    assert re.fullmatch(r"  \d+ of \d+ entries differ, the first at \[\d+, \d+\]: \S+ and \S+", lines[3])


DROPOUT_MASKS = {  # file -> (first comment lines, the mask): the masks AUTHORING.md section 4.10 names
    "solution.py": ("", "rng.random(x.shape) >= p"),
    "accepted/below_one_minus_p.py": ("# Keeps an entry when its uniform is below 1 - p.\n", "rng.random(x.shape) < 1 - p"),
    "accepted/binomial.py": ("# Draws the mask with rng.binomial.\n", "rng.binomial(1, 1 - p, x.shape) == 1"),
    "mutants/keeps_with_p.py": ("# Keeps an entry with probability p.\n# expect: the entries dropout(x, p=0.3, rng) "
                                "keeps: \n", "rng.random(x.shape) < p"),
    "mutants/global_random_state.py": ("# Draws with np.random.\n# expect: gave two different results for generators "
                                       "in the same state\n", "np.random.random(x.shape) >= p"),
}


def test_the_dropout_example_of_authoring_validates(tmp_path):
    """AUTHORING.md's tests for a Generator-taking function pass every honest mask and catch the mistakes."""
    folder = create_exercise("dropout", tmp_path / "exercises")
    guide = (ROOT / "AUTHORING.md").read_text()
    start = guide.index("from grader.core.testkit import call, expect_count, num_pair")
    (folder / "tests.py").write_text("import numpy as np\n\nfrom grader.core.checks import fail\n"
                                     + guide[start:guide.index("```", start)])
    for solution in [*(folder / "mutants").iterdir(), *(folder / "accepted").iterdir()]:
        solution.unlink()
    for name, (comment, mask) in DROPOUT_MASKS.items():
        (folder / name).write_text(f"{comment}import numpy as np\n\n\ndef dropout(x, p, rng):\n"
                                   f"    return np.where({mask}, x / (1 - p), 0.0)\n")
    (folder / "starter.py").write_text("def dropout(x, p, rng):\n    raise NotImplementedError\n")
    (folder / "statement.md").write_text("# Dropout\n\nZero each entry with probability `p`, scale the rest.\n")
    result = validate_exercise(folder)
    assert result.ok, result.problems
    assert "  ✓ mutants: 2/2 caught" in result.lines and "  ✓ accepted variants: 2/2 pass every test" in result.lines


def test_mutant_that_does_not_load(folder):
    (folder / "mutants" / "typo.py").write_text("# Misnames the function.\nimport numpy as np\n\n"
                                                "def softmax_row(x):\n    return x\n")
    assert "mutants/typo.py: the mutant does not load" in single_problem(folder)


def test_looping_mutant_is_caught_by_the_time_limit(folder):
    edit(folder / "exercise.toml", "time_limit = 10", "time_limit = 2")
    (folder / "mutants" / "loops.py").write_text("# Never returns.\ndef softmax_rows(x):\n    while True:\n        pass\n")
    result = validate_exercise(folder)
    assert result.ok, result.problems
    assert "loops.py: caught by 'Each row is the softmax of that row' (timeout)" in "\n".join(result.lines)


def test_flaky_test(folder, tmp_path):
    # Passes the first time it runs and fails every time after: it depends on state left behind.
    (folder / "accepted" / "log_sum_exp.py").unlink()  # which it would fail too
    append_test(folder, f'''\
import pathlib


def test_first_run_only(softmax_rows):
    """Passes only on the first run"""
    marker = pathlib.Path({str(tmp_path / "ran-before")!r})
    if marker.exists():
        fail("this test ran before")
    marker.write_text("yes")
''')
    problem = single_problem(folder)
    assert "softmax_rows/tests.py: test 'Passes only on the first run' is flaky: on the reference it passed, " \
           "then failed when graded again" in problem


def test_too_slow_test(folder):
    edit(folder / "exercise.toml", "time_limit = 10", "time_limit = 2")
    append_test(folder, '''\
import time


def test_sleeps(softmax_rows):
    """Takes its time"""
    time.sleep(0.7)
''')
    problem = single_problem(folder)
    # The time is the test's own (it sleeps without calling the learner): said, with the test's line.
    assert "softmax_rows/tests.py:69: too slow: the reference's tests take " in problem
    assert re.search(r"test code 0\.[7-9]\d s", problem), problem
    assert "over the budget of 0.50 s; the slowest is 'Takes its time' 0.7" in problem


# A test whose diagnosis has an operator-precedence bug (`a <= b | c` is `a <= (b | c)`): it only runs on a
# wrong result, so the reference passes; a mutant wrong only on that input is "caught" by the bug alone.
BROKEN_DIAGNOSIS = '''\
def test_pair(softmax_rows):
    """A pair of scores"""
    x = np.array([[0.0, 1.0]])
    got = as_array(softmax_rows(x), precision_of(x), what="softmax_rows(x)")
    if abs(got.sum() - 1) > 1e-9:
        if (got >= 0.0 | got <= 1.0).all():
            fail("the row does not sum to 1")
    expect_close(got, [[1 / (1 + math.e), math.e / (1 + math.e)]], atol=1e-9, what="softmax_rows(x)")
'''
WRONG_ON_PAIRS = """\
# Forgets to normalise the row [0, 1] (which no random input draws).
import numpy as np


def softmax_rows(x):
    exps = np.exp(x - x.max(axis=1, keepdims=True))
    if x.tolist() == [[0.0, 1.0]]:
        return exps
    return exps / exps.sum(axis=1, keepdims=True)
"""


@pytest.fixture(scope="module")
def broken_diagnosis(tmp_path_factory):
    """The scaffold with BROKEN_DIAGNOSIS and a mutant only it 'catches', validated once."""
    folder = create_exercise("softmax_rows", tmp_path_factory.mktemp("broken") / "exercises")
    append_test(folder, BROKEN_DIAGNOSIS)
    (folder / "mutants" / "wrong_on_pairs.py").write_text(WRONG_ON_PAIRS)
    return folder, validate_exercise(folder)


def test_an_error_in_the_tests_own_code_is_the_exercises(broken_diagnosis):
    folder, result = broken_diagnosis
    assert len(result.problems) == 2, result.problems
    problem, mutant = result.problems
    assert problem.startswith(f"{folder}/tests.py:71: test 'A pair of scores' raised an exception in its own code "
                              "(not in the learner's call) on mutants columns_not_rows.py and wrong_on_pairs.py; "
                              "learners would see an error that is not theirs:\n")
    assert "TypeError: ufunc 'bitwise_or' not supported" in problem
    assert f'File "{folder}/tests.py", line 71, in test_pair\n' in problem  # the traceback
    assert "  ✗ tests' own code raises nothing and runs within its time" in result.lines
    # Never a catch: the mutant that only the broken test rejects is not caught.
    assert mutant.endswith("mutants/wrong_on_pairs.py: mutant not caught: the only tests that did not pass on it "
                           "failed in their own code (see above), not because of the mutant")
    assert "  ✗ mutants: 1/2 caught" in result.lines
    assert "  ✓ reference passes 4/4 tests" in result.lines


def test_the_build_error_keeps_the_tracebacks_lines(broken_diagnosis, tmp_path):
    # The preview's bar and the terminal show the build's error as written: a traceback a line per frame.
    folder, _ = broken_diagnosis
    with pytest.raises(BuildError) as refused:
        Validator(DiskCache(tmp_path / "cache")).check(load_exercise(folder))
    lines = str(refused.value).splitlines()
    assert lines[0].startswith(f"{folder}/tests.py:71: test 'A pair of scores' raised an exception in its own code")
    assert f'File "{folder}/tests.py", line 71, in test_pair' in [line.strip() for line in lines]
    assert lines[-1].endswith(f"(`python -m grader validate {folder.name}` gives the full report)")


def test_check_does_not_blame_the_learner_for_the_tests_own_error(broken_diagnosis):
    folder, _ = broken_diagnosis
    process = run_cli("check", str(folder), str(folder / "mutants" / "wrong_on_pairs.py"), "--json")
    test = json.loads(process.stdout)["tests"][3]
    assert test["status"] == "error"
    assert test["message"] == ("Not graded: the exercise has a bug (its test code raised TypeError at tests.py:71); "
                               "your code is not at fault.")
    assert set(test) == {"name", "status", "message", "duration_ms", "stdout", "score", "max_score", "exercise_bug"}
    assert test["exercise_bug"] is True and test["score"] == 0


def test_test_code_that_runs_too_long_is_stopped_and_named(folder):
    # time_limit 2: validate gives the tests' own code 1 s of each grading, then stops it where it is.
    edit(folder / "exercise.toml", "time_limit = 10", "time_limit = 2")
    append_test(folder, '''\
import time


def test_sleeps(softmax_rows):
    """Takes its time"""
    softmax_rows(np.ones((1, 2)))
    time.sleep(30)


def test_after(softmax_rows):
    """Comes after"""
''')
    result = validate_exercise(folder)
    assert len(result.problems) == 1, result.problems
    assert result.problems[0].startswith(f"{folder}/tests.py:72: test 'Takes its time' ran out of time in its own "
                                         "code (not the learner's) on the reference")
    assert "line 72, in test_sleeps\n    time.sleep(30)" in result.problems[0]
    # Nothing else is graded: it would run out of time on each of them as well.
    assert "  - starter and mutants not graded: the tests' own code ran out of time on the reference" in result.lines
    # `check` gives the tests' own code time_limit (2 s); the learner is not blamed, for that test or the next.
    report = json.loads(run_cli("check", str(folder), str(folder / "solution.py"), "--json").stdout)
    stopped, after = report["tests"][3:]
    assert stopped["status"] == after["status"] == "error"
    assert stopped["message"] == ("Not graded: the exercise has a bug: this test could not finish: the exercise's own "
                                  "test code (not yours) ran for more than 2 s, its time for all the tests (stopped "
                                  "at tests.py:72). Your code is not at fault.")
    assert after["message"] == ("Not graded: the exercise has a bug: not run, the exercise's own test code (not "
                                "yours) ran for more than 2 s, its time for all the tests.")
    # Neither counts: the reference passes the tests that could check it.
    assert stopped["exercise_bug"] is after["exercise_bug"] is True
    graded = len(report["tests"]) - 2
    assert report["passed"] is True and report["max_score"] == report["score"] == graded


@pytest.mark.parametrize("old, new, message", [
    ('difficulty = "Easy"', 'difficulty = "Easy"\ncolour = "red"', "exercise.toml:9: unknown key 'colour'"),
    ("time_limit = 10", 'time_limit = "ten"', "exercise.toml:16: time_limit should be int or float, not str 'ten'"),
    ('difficulty = "Easy"', 'difficulty = "Trivial"',
     "exercise.toml:8: difficulty should be one of Easy, Medium, Hard, not 'Trivial'"),
])
def test_bad_metadata(folder, old, new, message):
    edit(folder / "exercise.toml", old, new)
    result = validate_exercise(folder)
    assert len(result.problems) == 1 and f"softmax_rows/{message}" in result.problems[0], result.problems
    assert result.lines[1].startswith("  ✗ format")


def test_statement_that_does_not_render(folder):
    edit(folder / "statement.md", r"\frac{e^{x_{ij}}}{\sum_{k} e^{x_{ik}}}", r"\frac{e^{x_{ij}}}")
    problem = single_problem(folder)
    assert problem.endswith("softmax_rows/statement.md:10: cannot render formula `$$\\mathrm{softmax}(x)_{ij} = "
                            "\\frac{e^{x_{ij}}}$$`: a command is missing an argument at the end of the formula")


def test_hint_that_does_not_render(folder):
    edit(folder / "exercise.toml", r"$\max_j x_{ij}$", r"$\max_j x_{ij$")
    assert single_problem(folder).endswith("softmax_rows/exercise.toml: hint 2 does not render: cannot render formula "
                                           "`$\\max_j x_{ij$`: unbalanced braces: a '{' is never closed "
                                           "(at the end of the formula)")


ALIGNED = r"""$$
\begin{aligned}
\mathrm{softmax}(x)_{ij} &= \frac{e^{x_{ij}}}{\sum_{k} e^{x_{ik}}} \\
&= \frac{e^{x_{ij} - m_i}}{\sum_{k} e^{x_{ik} - m_i}}
\end{aligned}
$$"""


def test_aligned_formula_validates(folder):
    edit(folder / "statement.md", "$$\n\\mathrm{softmax}(x)_{ij} = \\frac{e^{x_{ij}}}{\\sum_{k} e^{x_{ik}}}\n$$",
         ALIGNED)
    result = validate_exercise(folder)
    assert result.ok, result.problems


def test_cli_names_an_unknown_command_with_its_file_and_line(folder):
    edit(folder / "statement.md", "$$\n\\mathrm{softmax}(x)_{ij} = \\frac{e^{x_{ij}}}{\\sum_{k} e^{x_{ik}}}\n$$",
         ALIGNED.replace("- m_i}}{", "- \\rowmax_i}}{"))
    result = run_cli("validate", str(folder))
    assert result.returncode == 1 and "Traceback" not in result.stdout + result.stderr
    problems = [line.strip() for line in result.stdout.splitlines() if "cannot render" in line]
    assert problems == [f"{folder}/statement.md:12: cannot render formula `$$\\begin{{aligned}} "
                        "\\mathrm{softmax}(x)_{ij} &= \\frac{e^{x_{ij}}}{\\sum_{k} e^{x_{ik}}} \\\\ "
                        "&= \\frac{e^{x_{ij} - \\rowmax_i}}{\\sum_{k} e^{x_{ik} - m_i}} \\end{aligned}$$`: "
                        "unknown command \\rowmax"]


def test_test_without_docstring_and_duplicate_names(folder):
    append_test(folder, '''\
def test_no_docstring(softmax_rows):
    pass


def test_same_name(softmax_rows):
    """Large scores do not overflow"""
''')
    problems = validate_exercise(folder).problems
    assert len(problems) == 2
    assert "tests.py:66: test_no_docstring has no docstring" in problems[0]
    assert "tests.py:70: test_same_name has the same name as test_large_scores: 'Large scores do not overflow'" \
        in problems[1]


def test_test_function_defined_twice(folder):
    # The second test_matches_formula replaces the first, which would silently never run.
    append_test(folder, '''\
def test_matches_formula(softmax_rows):
    """Rows sum to 1"""
''')
    assert "softmax_rows/tests.py:66: test_matches_formula is defined twice (lines 48 and 66); the first " \
           "definition is silently replaced" in single_problem(folder)


def test_hidden_tests_import_only_what_the_browser_has(folder):
    # Both load here, beside the grader; neither exists in the browser.
    edit(folder / "tests.py", "import math\n", "import math\nimport grader.exercise\nfrom grader.checker import remote\n")
    problems = validate_exercise(folder).problems
    assert len(problems) == 2, problems
    assert "softmax_rows/tests.py:11: imports grader.exercise: hidden tests may import only numpy, the standard " \
           "library and grader.core" in problems[0]
    assert "softmax_rows/tests.py:12: imports grader.checker:" in problems[1]


def test_mutant_without_its_header_comment(folder):
    mutant = folder / "mutants" / "columns_not_rows.py"
    mutant.write_text(mutant.read_text().split("\n", 2)[2])  # the comment and its `# expect:` line
    assert "softmax_rows/mutants/columns_not_rows.py:1: a mutant starts with a comment saying what mistake it " \
           "models" in single_problem(folder)


def test_build_reports_a_file_too_deep_to_read(folder, tmp_path):
    with open(folder / "exercise.toml", "a") as toml:
        toml.write("deep = " + "[" * 3000 + "]" * 3000 + "\n")
    build = subprocess.run([sys.executable, "build.py", "--exercises", str(folder.parent), "--out",
                            str(tmp_path / "_site"), "--pyodide-url", "https://cdn.example/pyodide/"],
                           capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert build.returncode == 2
    assert build.stderr.startswith("error: ") and build.stderr.count("\n") == 1, build.stderr
    assert "softmax_rows/exercise.toml:24: arrays or tables nested too deeply to read" in build.stderr


def test_starter_that_passes(folder):
    (folder / "starter.py").write_text((folder / "solution.py").read_text())
    assert "softmax_rows/starter.py: the starter passes every hidden test" in single_problem(folder)


def test_cli_exit_codes(folder):
    valid = run_cli("validate", str(folder))
    assert valid.returncode == 0, valid.stdout + valid.stderr
    assert valid.stdout.rstrip().endswith("1 of 1 exercise(s) valid")

    edit(folder / "solution.py", "x - x.max(axis=1, keepdims=True)", "x")
    invalid = run_cli("validate", "--root", str(folder.parent))
    assert invalid.returncode == 1
    assert "NOT VALID (1 problem(s))" in invalid.stdout
    assert invalid.stdout.rstrip().endswith("0 of 1 exercise(s) valid")

    unknown = run_cli("validate", "no_such_exercise", "--root", str(folder.parent))
    assert unknown.returncode == 2
    assert "no such exercise" in unknown.stderr and "known ids: softmax_rows" in unknown.stderr
    assert unknown.stdout == ""


def test_build_refuses_an_exercise_that_does_not_validate(folder, tmp_path):
    (folder / "mutants" / "same_as_reference.py").write_text("# The reference itself.\n"
                                                              + (folder / "solution.py").read_text())
    build = subprocess.run([sys.executable, "build.py", "--exercises", str(folder.parent), "--out",
                            str(tmp_path / "_site"), "--pyodide-url", "https://cdn.example/pyodide/"],
                           capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert build.returncode == 2
    assert "mutants/same_as_reference.py: mutant survived" in build.stderr
    assert "`python -m grader validate softmax_rows` gives the full report" in build.stderr
    assert not (tmp_path / "_site").exists()


@pytest.mark.parametrize("exercise", load_all(), ids=lambda e: e.id)
def test_shipped_exercises_are_valid(exercise, site_dir):
    """The run's build of the site validated the catalogue, the build's way: an exercise it built passed
    validation in this run or, with the same grading inputs, grader, Python and numpy, in an earlier one (its
    cache: sitebuild/validation.py). One that the build did not vouch for (e.g. a draft) is validated here."""
    assert exercise.mutants, "every shipped exercise has mutants"
    built = (site_dir / "exercises" / exercise.id / "index.html").is_file()
    if built and Validator(DiskCache(cache_root() / "validation")).passed_before(exercise):
        return
    result = validate_exercise(exercise)
    assert result.ok, result.problems
    count = len(exercise.mutants)
    assert f"  ✓ mutants: {count}/{count} caught" in result.lines


SPIN_SECONDS = 0.3


def test_validate_in_pyodide(tmp_path):
    """Slow (Node starts Pyodide, ~5 s) but real: the browser's interpreter agrees with CPython, and the time of the
    reference's tests is split there too between the reference's calls and the tests' own code."""
    # sinusoidal_pe, with a reference whose first call spins: its tests' time is at least that much the learner's.
    pe = shutil.copytree(ROOT / "exercises" / "sinusoidal_pe", tmp_path / "sinusoidal_pe")
    edit(pe / "solution.py", '    """Sinusoidal positional encoding table of shape (T, C), float64."""\n',
         '    """Sinusoidal positional encoding table of shape (T, C), float64."""\n'
         f'    if not _SPUN:\n        _SPUN.append(_spin({SPIN_SECONDS}))\n')
    with open(pe / "solution.py", "a") as solution:
        solution.write("\n\n_SPUN = []\n\n\ndef _spin(seconds):\n    import time\n    started = time.perf_counter()\n"
                       "    while time.perf_counter() - started < seconds:\n        pass\n")
    # cross_entropy_grad has a randomised test (grader.core.random_checks) that alone catches one mutant.
    process = run_cli("validate", str(pe), "cross_entropy_grad", "--pyodide")
    assert process.returncode == 0, process.stdout + process.stderr
    assert process.stdout.count("✓ Pyodide: reference and 7 mutant(s) get the same verdicts as in CPython") == 2
    splits = re.findall(r"\(reference tests (\d+\.\d\d) s \(learner (\d+\.\d\d) s, test code (\d+\.\d\d) s\) "
                        r"in Pyodide; ", process.stdout)
    assert len(splits) == 2, process.stdout
    for total, learner, test_code in splits:
        assert abs(float(learner) + float(test_code) - float(total)) <= 0.011
    assert float(splits[0][1]) >= SPIN_SECONDS  # sinusoidal_pe's reference, validated first


def test_pyodide_disagreement_is_named(folder):
    # A reference that is only right in CPython: Pyodide reports sys.platform "emscripten".
    edit(folder / "solution.py", '    return exps / exps.sum(axis=1, keepdims=True)',
         '    if __import__("sys").platform == "emscripten":\n        return exps\n'
         '    return exps / exps.sum(axis=1, keepdims=True)')
    result = validate_exercise(folder, pyodide_dist=pyodide_dist())
    assert len(result.problems) == 3, result.problems
    assert "softmax_rows/solution.py: test 'Each row is the softmax of that row' is passed in CPython but failed " \
           "in Pyodide: softmax_rows(x) for x of shape (3, 4)" in result.problems[0]
    assert "'Large scores do not overflow' is passed in CPython but failed in Pyodide" in result.problems[1]
    assert "'Matches the formula on random inputs' is passed in CPython but failed in Pyodide" in result.problems[2]


@pytest.fixture(scope="module")
def twin(tmp_path_factory):
    """A copy of the scaffold at the same step, whose tests print while loading; beside the scaffold."""
    original = create_exercise("softmax_rows", tmp_path_factory.mktemp("twin") / "exercises", draft=False)
    twin = original.parent / "a_twin"  # sorted first: the build stops at it
    shutil.copytree(original, twin)
    edit(twin / "exercise.toml", 'id = "softmax_rows"', 'id = "a_twin"')
    edit(twin / "tests.py", "\nimport math\n", '\nprint("loading")\nimport math\n')
    return twin


def twin_problems(twin):
    """What every command says of the twin: one line per rule it breaks."""
    return [f"{twin}/exercise.toml:11: step 1 of track 'build-gpt' is already used by softmax_rows "
            f"({twin.parent}/softmax_rows/exercise.toml:11)",
            f"{twin}/tests.py:10: the hidden tests print while loading ('loading'); hidden tests must not print"]


def test_validate_check_and_build_give_one_verdict(twin, tmp_path):
    problems = validate_exercise(twin).problems
    assert problems == twin_problems(twin)
    check = run_cli("check", str(twin), str(twin / "solution.py"))
    assert check.returncode == 2 and check.stdout == ""
    assert check.stderr == "error: " + "\n".join(problems) + "\n"
    build = subprocess.run([sys.executable, "build.py", "--exercises", str(twin.parent), "--out",
                            str(tmp_path / "_site"), "--pyodide-url", "https://cdn.example/pyodide/"],
                           capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert build.returncode == 2 and build.stderr == "error: " + "\n".join(problems) + "\n"


def test_batch_refuses_a_broken_exercise_as_check_does(twin, tmp_path):
    out = tmp_path / "results.jsonl"
    batch = run_cli("batch", str(twin), str(twin.parent / "softmax_rows" / "mutants"), "--out", str(out))
    assert batch.returncode == 2 and batch.stdout == ""
    assert batch.stderr == "error: " + "\n".join(twin_problems(twin)) + "\n"
    assert not out.exists()


def test_gradescope_build_refuses_a_broken_exercise_as_check_does(twin, tmp_path):
    package = tmp_path / "autograder.zip"
    build = run_cli("gradescope", "build", "--exercise", str(twin), "-o", str(package))
    assert build.returncode == 2 and build.stdout == ""
    assert build.stderr == "error: " + "\n".join(twin_problems(twin)) + "\n"
    assert list(tmp_path.iterdir()) == []


def test_pyodide_installs_the_npm_packages_as_the_build_does(tmp_path, monkeypatch):
    # A project whose npm install cannot work: `validate --pyodide` runs `npm ci` first, and says it failed.
    (tmp_path / "package-lock.json").write_text("not json")
    monkeypatch.setattr(validate_module, "PROJECT_ROOT", tmp_path)
    with pytest.raises(PyodideError, match=f"grading in Pyodide needs Node.js and the npm packages: `npm ci` in "
                                           f"{tmp_path} failed"):
        pyodide_dist()


def test_an_accepted_variant_is_named_as_such_where_the_tests_own_code_failed():
    from grader.authoring.tests_own_code import _labels
    assert _labels(["reference", "a.py", "b.py", "accepted/loop.py"]) == \
        "the reference, mutants a.py and b.py and accepted variant loop.py"
