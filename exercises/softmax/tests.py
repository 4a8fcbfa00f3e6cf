"""Hidden tests for softmax(x, axis=-1).

Expected values come from plain Python (math.exp and math.fsum over each slice,
after subtracting the slice's maximum), written independently of solution.py.
When a result is wrong, the tests rebuild the results of classic mistakes (no
max subtraction, one max for the whole array, the wrong axis, the sum without
keepdims, no exp, ...) so the message can name the mistake.
"""

import math

import numpy as np

from grader.core.checks import fail
from grader.core.testkit import call, diagnose, num, num_pair


def _expected(x, axis):
    """Softmax along `axis` in plain Python: each slice shifted by its max, math.exp, math.fsum."""
    moved = np.moveaxis(np.asarray(x, dtype=np.float64), axis, -1)
    n = moved.shape[-1]
    rows = []
    for row in moved.reshape(-1, n).tolist():
        top = max(row)
        exps = [math.exp(value - top) for value in row]
        total = math.fsum(exps)
        rows.append([e / total for e in exps])
    return np.moveaxis(np.array(rows, dtype=np.float64).reshape(moved.shape), -1, axis)


def _candidates(x, axis):
    """(array, hint) for each classic mistake, computed with numpy (overflow included)."""
    x = np.asarray(x, dtype=np.float64) if x.dtype.itemsize > 4 else x
    last = x.ndim - 1
    ax = axis % x.ndim
    out = []
    with np.errstate(all="ignore"):
        e = np.exp(x)
        out.append((e / e.sum(axis=axis, keepdims=True),
                    "np.exp overflows without a shift: subtract each slice's maximum before np.exp"))
        e = np.exp(x - x.max())
        out.append((e / e.sum(axis=axis, keepdims=True),
                    "looks like one maximum for the whole array (x.max() without axis): a slice far below it "
                    "underflows to 0/0; subtract each slice's own maximum, x.max(axis=axis, keepdims=True)"))
        e = np.exp(x - x.min(axis=axis, keepdims=True))
        out.append((e / e.sum(axis=axis, keepdims=True),
                    "looks like the minimum was subtracted instead of the maximum, so np.exp still overflows"))
        for other in range(x.ndim):
            if other != ax:
                out.append((_expected(x, other),
                            f"looks like the slices along axis {other} sum to 1 instead of those along axis "
                            f"{axis}" + (": the axis argument seems to be ignored" if other == last else "")))
        for e in (np.exp(x - x.max()), np.exp(x - x.max(axis=axis, keepdims=True))):
            out.append((e / e.sum(), "looks like the whole array was divided by one sum (e.sum() without "
                        "axis); divide each slice by its own sum, e.sum(axis=axis, keepdims=True)"))
        if ax != last:
            e = np.exp(x - x.max(axis=-1, keepdims=True))
            out.append((e / e.sum(axis=axis, keepdims=True),
                        "looks like the maximum was taken along the last axis but the sum along the axis "
                        "argument; use the same axis for both"))
        e = np.exp(x - x.max(axis=axis, keepdims=True))
        try:
            out.append((e / e.sum(axis=axis),
                        "looks like the sum was taken without keepdims=True, so it broadcast against the wrong "
                        "axis; use e.sum(axis=axis, keepdims=True)"))
        except ValueError:
            pass
        out.append((x / x.sum(axis=axis, keepdims=True), "looks like the scores were divided by their sum "
                    "without exponentiating them first"))
        shifted = x - x.max(axis=axis, keepdims=True)
        out.append((shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True)),
                    "looks like log-softmax (log-probabilities); return the probabilities, np.exp of that"))
    return out


def _probabilities(softmax, x, axis=None):
    """Call softmax(x) or softmax(x, axis=axis); return (float64 copy, absolute tolerance, description)."""
    what = f"softmax(x{'' if axis is None else f', axis={axis}'}) for x of shape {x.shape} ({x.dtype})"
    ax = (axis if axis is not None else -1) % x.ndim

    def shape_hint(shape):
        if shape == tuple(s for i, s in enumerate(x.shape) if i != ax):
            return "one value per slice: that looks like the sums; divide the exponentials by them"
        return "looks transposed" if x.ndim == 2 and shape == tuple(x.shape[::-1]) else ""
    kwargs = {} if axis is None else {"axis": axis}
    got, precision, _ = call(softmax, x, what=what, shape=x.shape, shape_hint=shape_hint, **kwargs)
    base = precision.tolerance()                    # float32 scores: float32 accuracy at best
    finite = np.abs(x[np.isfinite(x)])
    # Large scores lose absolute accuracy in low precision (x - max is rounded), so scale with them.
    tol = base * max(1.0, float(finite.max()) if finite.size else 1.0) if base > 1e-9 else 1e-9
    return got, tol, what


def _check(softmax, x, axis=None):
    """Compare the learner's softmax(x, axis) with the plain-Python one; return the learner's array."""
    got, tol, what = _probabilities(softmax, x, axis)
    ax = -1 if axis is None else axis
    expected = _expected(x, ax)

    def mistake():
        return diagnose(got, lambda: _candidates(x, ax), rtol=1e-4, atol=1e-6)
    bad = ~np.isfinite(got)
    if bad.any():
        index = tuple(int(k) for k in np.argwhere(bad)[0])
        fail(f"{what}: entry {list(index)} is {got[index]} ({int(bad.sum())} of {got.size} entries are NaN or "
             f"inf), expected {num(expected[index])}{mistake()}", got=got, expected=expected)
    sums = got.sum(axis=ax)
    if np.abs(sums - 1.0).max() > tol * x.shape[ax] + 1e-9:
        index = tuple(int(k) for k in np.unravel_index(int(np.argmax(np.abs(sums - 1.0))), sums.shape))
        fail(f"{what}: every slice along axis {ax}{' (the last axis)' if axis is None else ''} should sum to 1, but slice {list(index)} sums to "
             f"{num(sums[index])}{mistake()}", got=got, expected=expected)
    error = np.abs(got - expected)
    if error.max() > tol:
        index = tuple(int(k) for k in np.unravel_index(int(np.argmax(error)), error.shape))
        wrong = int((error > tol).sum())
        want, have = num_pair(expected[index], got[index])
        fail(f"{what}: entry {list(index)} expected {want}, got {have} "
             f"({wrong} of {error.size} entries differ){mistake()}", got=got, expected=expected)
    return got


def test_shape(softmax):
    """Output has the same shape as x"""
    rng = np.random.default_rng(0)
    for shape in [(5,), (3, 4), (2, 3, 4), (1, 1)]:
        _probabilities(softmax, rng.standard_normal(shape))
    _probabilities(softmax, rng.standard_normal((3, 4)), axis=0)


def test_hand_checked(softmax):
    """Hand-checked values: rows [0, ln 3] and [0, ln 4], [0, ln 2, ln 5] = [1/8, 2/8, 5/8], equal scores"""
    x = np.array([[0.0, math.log(3.0)], [0.0, math.log(4.0)]])
    got = _check(softmax, x)
    for (i, j), want, why in [((0, 0), 0.25, "1 / (1 + 3)"), ((0, 1), 0.75, "3 / (1 + 3)"),
                              ((1, 0), 0.2, "1 / (1 + 4)"), ((1, 1), 0.8, "4 / (1 + 4)")]:
        if not abs(got[i, j] - want) <= 1e-5:
            fail(f"softmax([[0, ln 3], [0, ln 4]])[{i}, {j}]: expected {why} = {want}, got {num(got[i, j])}")
    x = np.array([0.0, math.log(2.0), math.log(5.0)])
    got = _check(softmax, x)
    for j, want in enumerate([0.125, 0.25, 0.625]):
        if not abs(got[j] - want) <= 1e-5:
            fail(f"softmax([0, ln 2, ln 5])[{j}]: expected {want}, got {num(got[j])}")
    got = _check(softmax, np.array([2.5, 2.5, 2.5, 2.5]))
    if not abs(got[0] - 0.25) <= 1e-5:
        fail(f"softmax([2.5, 2.5, 2.5, 2.5])[0]: expected 0.25 (equal scores, equal shares), got {num(got[0])}")


def test_slices_sum_to_one(softmax):
    """Each slice along the last axis sums to 1 and matches the formula (1-D, 2-D, 3-D)"""
    rng = np.random.default_rng(1)
    _check(softmax, rng.standard_normal(7) * 3)
    _check(softmax, rng.standard_normal((5, 5)) * 3)
    _check(softmax, rng.standard_normal((4, 6)) * 3)
    _check(softmax, rng.standard_normal((2, 3, 4)) * 3)


def test_axis(softmax):
    """The axis argument picks the slices that sum to 1 (axis=0, axis=1, negative axes)"""
    rng = np.random.default_rng(2)
    x = rng.standard_normal((4, 6)) * 3
    _check(softmax, x, axis=0)
    _check(softmax, x, axis=1)
    _check(softmax, x, axis=-1)
    y = rng.standard_normal((3, 4, 5)) * 3
    _check(softmax, y, axis=1)
    _check(softmax, y, axis=-3)
    _check(softmax, y, axis=2)


def test_large_scores(softmax):
    """Large scores do not overflow: [1000, 1001] and [-1000, -1001] give finite, correct results"""
    _check(softmax, np.array([1000.0, 1001.0]))
    _check(softmax, np.array([-1000.0, -1001.0]))
    _check(softmax, np.array([[1000.0, 1001.0], [-1000.0, -1001.0]]))
    _check(softmax, np.array([[800.0, -900.0, 750.0], [-5.0, 0.0, 5.0], [-2000.0, -1990.0, -2010.0]]), axis=0)
    _check(softmax, np.array([[5000.0, 0.0], [-5000.0, 1.0]]), axis=1)


def test_float32(softmax):
    """float32 scores stay finite and accurate (in float32, exp overflows above about 88)"""
    rng = np.random.default_rng(3)
    _check(softmax, (150.0 + rng.standard_normal((3, 8)) * 2).astype(np.float32))
    _check(softmax, (-150.0 + rng.standard_normal((4, 5)) * 2).astype(np.float32), axis=0)
    _check(softmax, (rng.standard_normal((2, 3, 6)) * 4).astype(np.float32))


def test_masked_scores(softmax):
    """A score of -inf gets probability 0 (a masked position), and a single entry gets probability 1"""
    inf = float("inf")
    got = _check(softmax, np.array([[0.0, -inf, math.log(3.0)], [-inf, -inf, 7.0], [2.0, 1.0, -inf]]))
    if not (abs(got[0, 1]) <= 1e-9 and abs(got[1, 2] - 1.0) <= 1e-6):
        fail(f"softmax with -inf scores: expected exactly 0 at the -inf positions and 1 for a row whose only "
             f"finite score is 7, got {num(got[0, 1])} and {num(got[1, 2])}")
    _check(softmax, np.array([[3.0], [-1000.0], [1000.0]]))
    _check(softmax, np.array([[3.0, -2.0, 0.5]]), axis=0)
