"""An input on which a surviving mutant differs from the reference, for `validate` to show.

A mutant that every hidden test passes is either a mistake the tests miss or a correct variant
(accepted/).  To tell the author which, `find_difference` looks for a call where the mutant and the
reference give different results:
1. the tests' own calls: the hidden tests run with a stand-in entry function that calls both on the
   same (copied) arguments and returns the reference's result, so each test runs as it does on the
   reference;
2. random variations of those calls: each float array argument redrawn (same shape, dtype and
   spread, seeded), everything else kept as the test passed it.
The search runs in a separate Python process (`python -m grader.authoring.witness`, request on stdin) under a
timeout, since the mutant may loop.  Author code only: the reference and mutants are trusted like
solution.py is by the pytest plugin.
"""

import contextlib
import copy
import inspect
import io
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np

from grader.core.engine import EarlierStep, GradingSpec, LearnerStopped, load_submission, load_tests

RANDOM_VARIATIONS = 3   # per call of the tests
MAX_CALLS = 200         # of the tests' calls, varied at random
SHOWN_ENTRIES = 40
PROJECT_ROOT = Path(__file__).resolve().parents[2]


def find_difference(exercise, mutant_source, earlier, *, timeout):
    """A sentence giving a call on which `mutant_source` and the reference differ, or saying none was found."""
    request = {"spec": {"exercise_id": exercise.id, "entry": exercise.entry, "tests_source": exercise.tests_source,
                        "tests_filename": "tests.py", "track_source": exercise.track_helpers},
               "reference": exercise.solution, "mutant": mutant_source,
               "earlier": [step.to_dict() for step in earlier]}
    try:
        process = subprocess.run([sys.executable, "-m", "grader.authoring.witness"], input=json.dumps(request),
                                 capture_output=True, text=True, timeout=timeout, cwd=PROJECT_ROOT)
    except subprocess.TimeoutExpired:
        return f"no differing input found within {timeout:g} s"
    if process.returncode != 0 or not process.stdout.strip():
        return f"the search for a differing input failed: {process.stderr.strip()[-500:]}"
    return process.stdout.strip()


def _search(request):
    earlier = [EarlierStep.from_dict(fields) for fields in request["earlier"]]
    spec = GradingSpec(**request["spec"])
    reference, error = load_submission(spec.entry, request["reference"], earlier)
    mutant, mutant_error = load_submission(spec.entry, request["mutant"], earlier)
    if error or mutant_error:
        return f"the search for a differing input could not load {'the reference' if error else 'the mutant'}"
    names = _parameter_names(reference)
    calls = []

    def both(*args, **kwargs):
        calls.append(copy.deepcopy((args, kwargs)))
        return reference(*copy.deepcopy(args), **copy.deepcopy(kwargs))
    both.__name__ = spec.entry
    for test in load_tests(spec):
        try:
            test.function(both)
        except (Exception, LearnerStopped):
            pass  # the verdict is known already: only the calls matter here
    for number, (args, kwargs) in enumerate(calls[:MAX_CALLS]):
        found = _compare(reference, mutant, args, kwargs)
        if found:
            return f"it differs from the reference on a call the tests make:\n  {_call_text(spec.entry, names, args, kwargs)}" \
                   f"{found}"
    rng = np.random.default_rng(0)
    for args, kwargs in calls[:MAX_CALLS]:
        for _ in range(RANDOM_VARIATIONS):
            varied = _vary(args, rng), {name: _vary(value, rng) for name, value in kwargs.items()}
            found = _compare(reference, mutant, *varied)
            if found:
                return (f"it differs from the reference on this input (a test's call with its float arrays drawn "
                        f"again at random):\n  {_call_text(spec.entry, names, *varied)}{found}")
    return (f"no input found on which it differs from the reference (the tests' {len(calls)} calls and "
            f"{RANDOM_VARIATIONS} random variations of each give the reference's results): if it is a correct "
            f"variant, move it to accepted/")


def _compare(reference, mutant, args, kwargs):
    """'\n  the reference returns ...\n  the mutant returns ...' (a line each, then where two arrays first differ)
    when the two differ on this call, else ''."""
    try:
        expected = reference(*copy.deepcopy(args), **copy.deepcopy(kwargs))
    except Exception:
        return ""  # not a valid input
    try:
        got = mutant(*copy.deepcopy(args), **copy.deepcopy(kwargs))
    except Exception as exc:
        return f"\n  the reference returns {_text(expected)}\n  the mutant raises {type(exc).__name__}: {exc}"
    if _same(expected, got):
        return ""
    return f"\n  the reference returns {_text(expected)}\n  the mutant returns   {_text(got)}{_first_difference(expected, got)}"


def _first_difference(expected, got):
    """'\n  N of M entries differ, the first at [i, j]: ... and ...' for two arrays of one shape, else ''."""
    if not isinstance(expected, np.ndarray) or not isinstance(got, np.ndarray) or expected.shape != got.shape \
            or expected.dtype.kind not in "fiub" or got.dtype.kind not in "fiub":
        return ""
    differ = ~np.isclose(expected, got, rtol=1e-7, atol=1e-12, equal_nan=True)
    if not differ.any():
        return ""
    where = tuple(int(i) for i in np.argwhere(differ)[0])
    index = ", ".join(map(str, where))
    return (f"\n  {int(differ.sum())} of {differ.size} entries differ, the first at [{index}]: "
            f"{expected[where]!r} and {got[where]!r}")


def _same(a, b):
    if isinstance(a, np.random.Generator) or isinstance(b, np.random.Generator):
        return True
    if isinstance(a, (np.ndarray, np.generic)) or isinstance(b, (np.ndarray, np.generic)):
        a, b = np.asarray(a), np.asarray(b)
        if a.shape != b.shape:
            return False
        if a.dtype.kind in "fc" or b.dtype.kind in "fc":
            return bool(np.allclose(a, b, rtol=1e-7, atol=1e-12, equal_nan=True))
        return bool(np.array_equal(a, b))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and (
            math.isclose(a, b, rel_tol=1e-7, abs_tol=1e-12) or (math.isnan(a) and math.isnan(b)))
    return type(a) is type(b) and a == b


def _vary(value, rng):
    """`value` with each float array redrawn: same shape and dtype, normal around its mean with its spread."""
    if isinstance(value, np.ndarray) and value.dtype.kind == "f" and value.size:
        spread = float(np.std(value)) or 1.0
        return rng.normal(float(np.mean(value)), spread, value.shape).astype(value.dtype)
    if isinstance(value, (list, tuple)):
        return type(value)(_vary(item, rng) for item in value)
    if isinstance(value, dict):
        return {key: _vary(item, rng) for key, item in value.items()}
    return copy.deepcopy(value)


def _parameter_names(function):
    try:
        return list(inspect.signature(function).parameters)
    except (TypeError, ValueError):
        return []


def _call_text(entry, names, args, kwargs):
    shown = [f"{names[i]}={_text(value)}" if i < len(names) else _text(value) for i, value in enumerate(args)]
    shown += [f"{name}={_text(value)}" for name, value in kwargs.items()]
    return f"{entry}({', '.join(shown)})"


def _text(value):
    if isinstance(value, np.ndarray):
        return "np.array(" + np.array2string(value, separator=", ", threshold=SHOWN_ENTRIES, precision=8) \
            .replace("\n", "") + ")"
    if isinstance(value, np.random.Generator):
        return "a numpy Generator"
    if isinstance(value, (list, tuple)) and len(value) > SHOWN_ENTRIES:
        return f"a {type(value).__name__} of {len(value)} items"
    if isinstance(value, (list, tuple)):
        inner = ", ".join(_text(item) for item in value)
        return f"[{inner}]" if isinstance(value, list) else f"({inner}{',' if len(value) == 1 else ''})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key!r}: {_text(item)}" for key, item in value.items()) + "}"
    text = repr(value)
    return text if len(text) <= 200 else text[:200] + "..."


if __name__ == "__main__":
    with contextlib.redirect_stdout(io.StringIO()):  # what the solutions print is not the answer
        answer = _search(json.loads(sys.stdin.read()))
    print(answer)
