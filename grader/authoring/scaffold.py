"""`python -m grader new ID`: create an exercise folder holding a small working example.

The example (a row-wise softmax) has every file of the format, passes
`python -m grader validate` as it is, and shows the conventions: statement
sections, math, a starter that raises NotImplementedError, hidden tests with
learner-facing messages built on grader.core.checks, and a mutant.  With
`uses`, exercise.toml lists the earlier steps it builds on (checked like
`validate` checks them) and the starter says they are in scope.  The
author replaces its content; the folder appears all at once or not at all.
"""

import ast
import keyword
import os
import re
import shutil
import tempfile
import tomllib
from pathlib import Path

from grader.authoring.placeholders import PLACEHOLDER
from grader.exercise import EXERCISES_DIR, ID_PATTERN, ExerciseError, exercise_folders, load_exercise
from grader.track import used_steps

DEFAULT_TRACK = "build-gpt"
SUMMARY_PLACEHOLDER = f"{PLACEHOLDER}: one line saying what the learner writes, in plain words."
HINT_PLACEHOLDERS = (f"'{PLACEHOLDER}: a first hint, the idea without the code ($math$ and `code` allowed).'",
                     f"'{PLACEHOLDER}: a second hint, closer to the answer (or delete it).'")
EXAMPLE_SUMMARY = "Turn a row of scores into probabilities that sum to one."
EXAMPLE_HINTS = (
    "'Exponentiate with `np.exp`, then divide every row by its own sum: `keepdims=True` keeps the shapes "
    "compatible.'",
    "'Subtracting the row maximum $\\max_j x_{ij}$ before `np.exp` changes nothing mathematically but stops the "
    "overflow.'")
DRAFT_LINES = ("# A draft is previewed by `build.py serve` and left out of the site `build.py` publishes: delete\n"
               "# this line once the exercise is ready.\ndraft = true\n")


class ScaffoldError(Exception):
    """The exercise cannot be created; the message says why and what would work."""


def create_exercise(exercise_id, root=EXERCISES_DIR, *, title=None, track=DEFAULT_TRACK, step=None, entry=None,
                    uses=(), draft=True, placeholders=False, statement=None):
    """Create `root/exercise_id/` with the example files; return its path.

    `uses`: ids of earlier steps of `track` under `root` whose entry functions the learner's code finds in scope.
    `draft`: mark it `draft = true`, so that `build.py` does not publish it before the author is done.
    `placeholders`: the summary and hints are left for the author to write, marked PLACEHOLDER so that `validate`
    refuses them until they are (`grader new` does this; the example's own are for tests of the tools).
    `statement`: (text, name) of a problem statement (`grader new --from PROBLEM.md`): it becomes statement.md, its
    `# Title` the title and the first `name(args)` it shows the entry function; the reference, tests and mutant
    are skeletons of that function, marked PLACEHOLDER where the author writes them.
    """
    root = Path(root)
    if not ID_PATTERN.match(exercise_id):
        raise ScaffoldError(f"{exercise_id!r} is not a valid exercise id: use lowercase letters, digits and _, "
                            f"starting with a letter, e.g. layer_norm or attention_scores_2")
    target = root / exercise_id
    if target.exists():
        raise ScaffoldError(f"{target} already exists: not overwriting it (pick another id, or delete the folder)")
    parameters = None
    if statement is not None:
        text, name = statement
        heading, text = _title_of(text)
        title = title or heading
        entry, parameters = _entry_of(text, name, entry)
        placeholders = True
    entry = entry or exercise_id
    if not entry.isidentifier() or keyword.iskeyword(entry):
        raise ScaffoldError(f"{entry!r} is not a valid Python function name (use --entry NAME)")
    taken = _steps_used(root, track)
    if step is None:
        step = max(taken, default=0) + 1
    elif step in taken:
        raise ScaffoldError(f"step {step} of track {track!r} is already used by {taken[step]} "
                            f"(the next free step is {max(taken) + 1})")
    files = _example_files(exercise_id, title or exercise_id.replace("_", " ").capitalize(), track, step, entry,
                           tuple(uses), draft, placeholders)
    if statement is not None:
        files = _from_statement(files, text, entry, parameters)

    root.mkdir(parents=True, exist_ok=True)
    # Built inside a hidden folder of root (same file system, so the rename is atomic); the loaders
    # only look at root's direct children, so a half-written exercise is never picked up.
    staging = Path(tempfile.mkdtemp(dir=root, prefix=f".new-{exercise_id}-"))
    try:
        staged = staging / exercise_id
        for relative, text in files.items():
            (staged / relative).parent.mkdir(parents=True, exist_ok=True)
            (staged / relative).write_text(text, encoding="utf-8")
        try:
            used_steps(load_exercise(staged), root)
        except ExerciseError as exc:  # e.g. a --track or --title the format does not allow, a --uses unknown
            raise ScaffoldError(f"cannot create {exercise_id}: {exc.message}") from None
        os.rename(staged, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


def _steps_used(root, track):
    """{step: exercise id} for the exercises of `track` under `root` (unreadable ones are skipped)."""
    steps = {}
    for folder in exercise_folders(root):
        try:
            metadata = tomllib.loads((folder / "exercise.toml").read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue
        if metadata.get("track") == track and isinstance(metadata.get("step"), int):
            steps[metadata["step"]] = folder.name
    return steps


def _example_files(exercise_id, title, track, step, entry, uses, draft, placeholders):
    if placeholders:
        summary, hints = _toml_string(SUMMARY_PLACEHOLDER), HINT_PLACEHOLDERS
    else:
        summary, hints = _toml_string(EXAMPLE_SUMMARY), EXAMPLE_HINTS
    values = {"ID": exercise_id, "TITLE": _toml_string(title), "TRACK": track, "STEP": str(step), "ENTRY": entry,
              "USES": "", "IN_SCOPE": "", "DRAFT": DRAFT_LINES if draft else "", "SUMMARY": summary,
              "HINTS": "".join(f"  {hint},\n" for hint in hints)}
    if uses:
        listed = ", ".join(uses)
        values["USES"] = ("# The earlier steps of the track it builds on: their entry functions are in the "
                          "learner's scope.\n"
                          f"uses = [{', '.join(_toml_string(used) for used in uses)}]\n")
        values["IN_SCOPE"] = f"# In scope from earlier steps (call them, no need to paste them): {listed}.\n"

    def fill(template):
        return re.sub(r"@(ID|TITLE|TRACK|STEP|ENTRY|USES|IN_SCOPE|DRAFT|SUMMARY|HINTS)@", lambda m: values[m.group(1)],
                      template)

    return {name: fill(template) for name, template in _TEMPLATES.items()}


def _title_of(text):
    """(the text of its first `# ` heading or None, the statement without it: the page shows the title)."""
    found = re.search(r"^# +(.+?)\s*#*\s*$", text, re.MULTILINE)
    if found is None:
        return None, text
    return found.group(1), (text[:found.start()] + text[found.end():].lstrip("\n")).lstrip("\n")


def _entry_of(text, name, entry):
    """(entry function, its parameters as written) from the first `name(args)` the statement shows (of `entry`
    when given)."""
    calls = re.finditer(r"`([A-Za-z_]\w*)\(([^`()]*)\)`", text)
    for call in calls:
        if entry is None or call.group(1) == entry:
            try:
                ast.parse(f"def f({call.group(2)}): pass")
            except SyntaxError:
                continue  # `f(a, b)` written as an example call with values, say
            return call.group(1), call.group(2)
    if entry is None:
        raise ScaffoldError(f"{name} shows no function as `name(arguments)` (e.g. `pca(x, k)`): write the function "
                            f"learners write that way in it, or say which with --entry NAME")
    return entry, "x"


def _from_statement(files, statement, entry, parameters):
    """The example's files with the statement given, and skeletons of `entry(parameters)` to write."""
    names = [argument.arg for argument in ast.parse(f"def f({parameters}): pass").body[0].args.args] or ["x"]
    values = {"ENTRY": entry, "PARAMETERS": parameters, "NAMES": ", ".join(names),
              "INPUTS": "".join(f"    {name} = rng.normal(size=(4, 3))\n" for name in names),
              "IN_SCOPE": _in_scope_line(files["starter.py"])}
    skeletons = {name: re.sub(r"@(ENTRY|PARAMETERS|NAMES|INPUTS|IN_SCOPE)@", lambda m: values[m.group(1)], template)
                 for name, template in _SKELETONS.items()}
    toml = files["exercise.toml"].replace('tags = ["numpy", "softmax"]', 'tags = ["numpy"]')
    return {"exercise.toml": toml, "statement.md": statement.rstrip("\n") + "\n", **skeletons}


def _in_scope_line(starter):
    """The starter's line naming the earlier steps in scope (`uses`), or ''."""
    found = re.search(r"^# In scope from earlier steps.*\n", starter, re.MULTILINE)
    return found.group(0) if found else ""


def _toml_string(text):
    """`text` as a TOML basic string."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    escaped = re.sub(r"[\x00-\x1f\x7f]", lambda m: f"\\u{ord(m.group()):04x}", escaped)
    return f'"{escaped}"'


_TEMPLATES = {
    "exercise.toml": '''\
# Metadata of the exercise; AUTHORING.md describes every key.
# id: the folder name. title: shown on the page and in the index.
id = "@ID@"
title = @TITLE@
# One line under the title on the index: what the learner writes, in plain words.
summary = @SUMMARY@
# Easy, Medium or Hard.
difficulty = "Easy"
# The series this exercise belongs to, and its place in it (1, 2, 3, ...).
track = "@TRACK@"
step = @STEP@
@USES@tags = ["numpy", "softmax"]
# The function learners write; every hidden test takes it as its only parameter.
entry = "@ENTRY@"
# Seconds for the whole grading run, in the browser and offline.
time_limit = 10
# "after-pass": the reference is shown once every test passes; "never": it is not.
reveal_solution = "after-pass"
# Markdown with $math$, revealed one at a time. Single quotes keep backslashes as they are.
hints = [
@HINTS@]
@DRAFT@''',
    "statement.md": r'''## Background

Attention weights and next-token probabilities both come from a softmax: it turns a row of arbitrary real scores into a probability distribution, keeping the order of the scores and exaggerating the gaps between them.

## Problem

Write `@ENTRY@(x)` that applies the softmax to every row of the 2-D array `x`:

$$
\mathrm{softmax}(x)_{ij} = \frac{e^{x_{ij}}}{\sum_{k} e^{x_{ik}}}
$$

## Input

- `x` (`numpy.ndarray`): a float array of shape `(N, C)`, one row of scores per example.

## Output

A `numpy.ndarray` of shape `(N, C)`. Every entry lies in $[0, 1]$ and every row sums to $1$.

## Examples

```python
@ENTRY@(np.array([[0.0, 0.0], [0.0, np.log(3.0)]]))
# -> [[0.5  0.5 ]
#     [0.25 0.75]]
```

In the second row $e^0 = 1$ and $e^{\ln 3} = 3$, so the probabilities are $1/4$ and $3/4$.

## Constraints

- $1 \le N, C \le 100$
- $|x_{ij}| \le 1000$: a plain `np.exp(x)` overflows to `inf`.
- Values are compared with a small tolerance, at the precision of `x`: `float64` scores call for a `float64` result.

## Notes

- Adding the same constant to every score of a row does not change its softmax, because the factor $e^{c}$ cancels between numerator and denominator. Subtracting the row maximum therefore keeps every exponent at most $0$ without changing the result.
''',
    "starter.py": '''\
import numpy as np


@IN_SCOPE@def @ENTRY@(x):
    """Row-wise softmax.

    Args:
        x: float array of shape (N, C).

    Returns:
        Array of shape (N, C) whose row i is exp(x[i]) / sum(exp(x[i])).
    """
    # TODO: exponentiate and normalise each row, without overflowing for large scores.
    raise NotImplementedError
''',
    "solution.py": '''\
import numpy as np


def @ENTRY@(x):
    """Row-wise softmax of a 2-D array."""
    shifted = x - x.max(axis=1, keepdims=True)  # every exponent <= 0: np.exp cannot overflow
    exps = np.exp(shifted)
    return exps / exps.sum(axis=1, keepdims=True)
''',
    "tests.py": '''\
"""Hidden tests for @ENTRY@(x), a row-wise softmax.

Expected values come from math.exp in plain Python, independently of
solution.py.  `call` checks what the learner returned (an array of x's shape,
as precise as x) and `compare` fails at the worst entry, naming the classic
mistake the result matches; `compare_on_random_inputs` tries random inputs and
reports the smallest failing one (AUTHORING.md, sections 4.3 and 4.8).
"""

import math

import numpy as np

from grader.core.random_checks import array, compare_on_random_inputs
from grader.core.testkit import call, compare


def _softmax_rows(rows):
    """Softmax of each row of a list of lists, in plain Python."""
    result = []
    for row in rows:
        top = max(row)
        exps = [math.exp(value - top) for value in row]
        result.append([e / sum(exps) for e in exps])
    return result


def _mistakes(rows):
    """The classic mistakes as (their result, what to tell the learner), computed only when a test fails."""
    columns = [list(column) for column in zip(*rows)]
    top = max(abs(value) for row in rows for value in row)
    with np.errstate(all="ignore"):  # the unshifted exponentials overflow, as the learner's did
        unshifted = np.exp(np.array(rows)) / np.exp(np.array(rows)).sum(axis=1, keepdims=True)
    return [(lambda: np.array(_softmax_rows(columns)).T,
             "every column sums to 1 instead of every row; normalise along axis=1"),
            (unshifted, f"np.exp overflows above about 709, and these scores reach {top:g}; subtract each "
                        f"row's maximum before exponentiating")]


def _check(@ENTRY@, rows):
    """Call the learner's function on `rows` and compare its result with the expected softmax."""
    x = np.array(rows, dtype=np.float64)
    got, precision, what = call(@ENTRY@, x, shape=x.shape, what=f"@ENTRY@(x) for x of shape {x.shape}")
    compare(got, _softmax_rows(rows), atol=precision.tolerance(), rtol=1e-6, what=what,
            mistakes=lambda: _mistakes(rows))


def test_matches_formula(@ENTRY@):
    """Each row is the softmax of that row"""
    _check(@ENTRY@, [[1.0, 2.0, 3.0, 4.0], [0.5, -0.5, 0.0, 2.0], [0.0, 0.0, 0.0, 0.0]])


def test_large_scores(@ENTRY@):
    """Large scores do not overflow"""
    _check(@ENTRY@, [[1000.0, 999.0, 998.0], [-1000.0, 0.0, 1000.0]])


def test_random_inputs(@ENTRY@):
    """Matches the formula on random inputs"""
    compare_on_random_inputs(@ENTRY@, lambda x: _softmax_rows(x.tolist()), {"x": array(("N", "C"), low=-5, high=5)},
                             dims={"N": (1, 4), "C": (1, 5)}, count=20)
''',
    "mutants/columns_not_rows.py": '''\
# Normalises each column (axis 0) instead of each row.
# expect: every column sums to 1 instead of every row
import numpy as np


def @ENTRY@(x):
    exps = np.exp(x - x.max(axis=0, keepdims=True))
    return exps / exps.sum(axis=0, keepdims=True)
''',
    "accepted/log_sum_exp.py": '''\
# Subtracts each row's log-sum-exp, computed stably, and exponentiates: the same probabilities another way.
import numpy as np


def @ENTRY@(x):
    top = x.max(axis=1, keepdims=True)
    return np.exp(x - top - np.log(np.exp(x - top).sum(axis=1, keepdims=True)))
''',
}


# `grader new --from PROBLEM.md`: the files besides the statement, to write where PLACEHOLDER stands.
_SKELETONS = {
    "starter.py": '''\
import numpy as np


@IN_SCOPE@def @ENTRY@(@PARAMETERS@):
    """TODO(author): what it takes and returns, as the learner reads it (shapes, dtypes)."""
    # TODO(author): a first step for the learner, or delete this line.
    raise NotImplementedError
''',
    "solution.py": '''\
import numpy as np


def @ENTRY@(@PARAMETERS@):
    """TODO(author): the reference solution."""
    raise NotImplementedError
''',
    "tests.py": '''\
"""Hidden tests for @ENTRY@(@PARAMETERS@).

TODO(author): say how the expected values are computed: in plain Python or numpy, independently of
solution.py (AUTHORING.md, section 4; section 4.8 lists the testkit helpers).
"""

import numpy as np

from grader.core.testkit import call, compare


def _expected(@NAMES@):
    """TODO(author): the expected result, computed without solution.py."""
    raise NotImplementedError


def _mistakes(@NAMES@):
    """The classic mistakes as (their result, what to tell the learner), computed only when a test fails."""
    return []  # TODO(author): e.g. [(lambda: _expected(x.T), "transposes x")]


def _check(@ENTRY@, @NAMES@):
    """Call the learner's function and compare its result with the expected one."""
    got, precision, what = call(@ENTRY@, @NAMES@, what="@ENTRY@(@NAMES@)")
    compare(got, _expected(@NAMES@), atol=precision.tolerance(), rtol=1e-6, what=what,
            mistakes=lambda: _mistakes(@NAMES@))


def test_small_case(@ENTRY@):
    """TODO(author): what this test checks, as learners read it"""
    rng = np.random.default_rng(0)
    # TODO(author): a small input (float64 arrays, drawn from rng or written out)
@INPUTS@    _check(@ENTRY@, @NAMES@)
''',
    "mutants/first_mistake.py": '''\
# TODO(author): the mistake this mutant models, in one sentence.
# expect: TODO(author) the words of the message that catches it
import numpy as np


def @ENTRY@(@PARAMETERS@):
    raise NotImplementedError  # TODO(author): the mistake, in code
''',
}
