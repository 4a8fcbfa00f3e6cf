"""What `validate` reads about the hidden tests' own code in its gradings: their errors and their time.

The engine tells apart a test's own code from the learner's calls (grader/core/engine.py): an
exception raised by tests.py's code, or its running out of time, marks the test with
`test_code_error`, and each test says how long the learner's calls took (`learner_ms`).  Such a
test is the exercise's bug: it is reported once per tests.py line with its traceback (in one line
when it read a file of the exercise, which the page does not have), and it never counts as catching a mutant.
"""

from grader.authoring.accepted import LABEL_PREFIX
from grader.checker.as_the_page import read_hidden_file
from grader.exercise import ExerciseError

TEST_CODE_FRACTION = 0.5  # of time_limit: validate stops the tests' own code there (its speed check allows 25%)


def own_code_problems(exercise, runs):
    """One problem per tests.py line (and error) where the tests' own code failed, naming what it was graded on."""
    found = {}  # (line, first line of the traceback) -> (test name, error, [labels])
    for label, label_runs in runs.items():
        for test in label_runs[0].tests:
            error = test.test_code_error
            if error is not None and error["kind"] != "not run":  # named where the time ran out
                key = (error["line"], error["traceback"].splitlines()[0])
                found.setdefault(key, (test.name, error, []))[2].append(label)
    problems = []
    for (line, _), (name, error, labels) in found.items():
        on = _labels(labels)
        hidden = read_hidden_file(error["traceback"])
        if hidden is not None:
            problems.append(str(ExerciseError(exercise.path / "tests.py", f"test {name!r} reads {hidden}: the page "
                                              f"grades without the exercise's files, so it would fail for every "
                                              f"learner; compute expected values in tests.py", line)))
            continue
        if error["kind"] == "stopped":
            what = f"test {name!r} ran out of time in its own code (not the learner's) on {on}"
        else:
            what = f"test {name!r} raised an exception in its own code (not in the learner's call) on {on}"
        problems.append(str(ExerciseError(exercise.path / "tests.py", f"{what}; learners would see an error that "
                                          f"is not theirs:\n{error['traceback']}", line)))
    return problems


def stopped_on(run):
    """Whether the tests' own code ran out of time in this run."""
    return any(test.test_code_error is not None and test.test_code_error["kind"] == "stopped" for test in run.tests)


def catches(run):
    """The tests that did not pass on a submission because of it, not of their own code."""
    return [test for test in run.tests if test.status != "passed" and test.test_code_error is None]


def time_split(tests):
    """'learner 0.01 s, test code 0.08 s': where the time of `tests` went."""
    learner = sum(test.learner_ms for test in tests) / 1000
    total = sum(test.duration_ms for test in tests) / 1000
    return f"learner {learner:.2f} s, test code {total - learner:.2f} s"


def _labels(labels):
    """'the reference', 'mutants a.py and b.py', 'the starter, 4 mutant(s) and accepted variant c.py'."""
    names = [label for label in labels if label.endswith(".py") and not label.startswith(LABEL_PREFIX)]
    accepted = [label[len(LABEL_PREFIX):] for label in labels if label.startswith(LABEL_PREFIX)]
    others = [f"the {label}" for label in labels if not label.endswith(".py")]
    if len(names) == 1:
        others.append(f"mutant {names[0]}")
    elif 1 < len(names) <= 3:
        others.append(f"mutants {', '.join(names[:-1])} and {names[-1]}")
    elif names:
        others.append(f"{len(names)} mutants")
    if accepted:
        others.append(f"accepted variant{'s' if len(accepted) > 1 else ''} {', '.join(accepted)}")
    return " and ".join(others) if len(others) < 3 else f"{', '.join(others[:-1])} and {others[-1]}"
