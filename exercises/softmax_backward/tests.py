"""Hidden tests for softmax_backward(y, dout, axis=-1).

Expected values come from the full Jacobian of each slice, J[i, j] = y_i (1[i = j] - y_j), applied to
dout below, written independently of solution.py, and one test checks the result against central
differences of sum(softmax(x) * dout) computed with math.exp.  When a gradient is wrong, the tests
compare it with what classic mistakes give (no keepdims, the wrong axis, the Jacobian's diagonal
only, ...) so the message can name the mistake.
"""

import math

import numpy as np

from grader.core.checks import fail, precision_of
from grader.core.testkit import Diagnosis, call


# ---- the gradient, slice by slice ---------------------------------------------------------------

def _expected(y, dout, axis):
    """J^T dout for every slice along `axis`, J the slice's softmax Jacobian, in float64."""
    y = np.moveaxis(np.asarray(y, dtype=np.float64), axis, -1)
    d = np.moveaxis(np.asarray(dout, dtype=np.float64), axis, -1)
    out = np.empty_like(y)
    for index in np.ndindex(y.shape[:-1]):
        p = y[index]
        jacobian = np.diag(p) - np.outer(p, p)         # J[i, j] = dy_i / dx_j
        out[index] = jacobian.T @ d[index]
    return np.moveaxis(out, -1, axis)


def _without_keepdims(y, dout, axis):
    """y * (dout - s) with s summed without keepdims, or None where numpy cannot broadcast it."""
    s = (dout * y).sum(axis=axis)
    try:
        return y * (dout - s)
    except ValueError:
        return None


def _mistakes(y, dout, axis):
    """[(wrong value, hint)] for classic mistakes that keep the shape of y."""
    y, dout = np.asarray(y, dtype=np.float64), np.asarray(dout, dtype=np.float64)
    s = (dout * y).sum(axis=axis, keepdims=True)
    out = [
        (y * (1.0 - y) * dout, "looks like only the diagonal of the softmax Jacobian, y * (1 - y) * dout: each "
                               "output also depends on the other inputs of its slice (the -y_i * y_j terms)"),
        (dout - s, "looks like dout - sum(dout * y) without the leading factor y: it is y * (dout - sum(dout * y))"),
        (y * (s - dout), "the sign is flipped: it is y * (dout - sum(dout * y)), not y * (sum(dout * y) - dout)"),
        (y * dout - s, "looks like y * dout - sum(dout * y): the sum is multiplied by y too, "
                       "y * (dout - sum(dout * y))"),
        (y * (dout - dout.sum(axis=axis, keepdims=True)),
         "looks like the sum of dout alone: the inner sum is sum(dout * y) over the slice"),
        (y * (dout - (dout * y).sum()), "looks like one sum over the whole array: sum dout * y over each slice "
                                        "along the axis only (keepdims=True)"),
        (dout * y, "looks like y * dout only: the term -y_j * sum(dout * y) is missing"),
    ]
    again = _softmax(y, axis)
    out.append((again * (dout - (dout * again).sum(axis=axis, keepdims=True)),
                "looks like softmax was applied to y again: y already is the softmax's output, use it as it is"))
    wrong = _without_keepdims(y, dout, axis)
    if wrong is not None:
        out.append((wrong, "looks like (dout * y).sum(axis) without keepdims=True: numpy then lines the sums "
                           "up with the wrong slices when it broadcasts them back"))
    for other in range(y.ndim):
        if other != axis % y.ndim:
            candidate = y * (dout - (dout * y).sum(axis=other, keepdims=True))
            out.append((candidate, f"looks like the sum was taken over axis {other}; the softmax normalised "
                                   f"axis {axis}, so sum over that one"))
    return out


# ---- inputs -------------------------------------------------------------------------------------

def _softmax(x, axis):
    """Softmax of x along `axis`, in float64 (the test's own, for making valid inputs y)."""
    x = np.asarray(x, dtype=np.float64)
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _random_case(seed, shape, axis, *, dtype=np.float64, spread=2.0):
    rng = np.random.default_rng(seed)
    y = _softmax(rng.normal(0.0, spread, size=shape), axis).astype(dtype)
    dout = rng.normal(0.0, 1.0, size=shape).astype(dtype)
    return y, dout


_diagnosis = Diagnosis(_mistakes, correct=_expected, pick="unique")


# ---- calling the learner's function -------------------------------------------------------------

def _gradient(softmax_backward, y, dout, axis, *, dout_as_list=False, pass_axis=True):
    """Call the learner's function; return (float64 copy, precision, description) after the shape check."""
    kind = f" {y.dtype}" if y.dtype != np.float64 else ""
    shown = "dout as a nested list" if dout_as_list else "dout"
    what = f"softmax_backward(y of shape {y.shape}{kind}, {shown}{f', axis={axis}' if pass_axis else ''})"
    return call(softmax_backward, y, dout.tolist() if dout_as_list else dout, **({"axis": axis} if pass_axis else {}),
                precision=precision_of(y, dout), what=what, shape=y.shape,
                shape_hint=lambda shape: "one more axis than y: was a Jacobian returned instead of the gradient "
                "J^T @ dout?" if len(shape) == y.ndim + 1 else "")


def _tolerance(precision, y, dout):
    """Absolute tolerance scaled to the largest |y * dout|."""
    scale = float(np.abs(np.asarray(y, dtype=np.float64) * np.asarray(dout, dtype=np.float64)).max())
    return precision.tolerance(float64=1e-9, float32=1e-5) * max(scale, 1e-3)


def _check(softmax_backward, y, dout, axis=-1, **options):
    """Call softmax_backward and compare with the Jacobian of each slice; return the learner's array."""
    got, precision, what = _gradient(softmax_backward, y, dout, axis, **options)
    expected = _expected(y, dout, axis)
    tol = _tolerance(precision, y, dout)
    error = np.abs(got - expected)
    error[np.isnan(error)] = np.inf
    if error.max() > tol:
        index = tuple(int(k) for k in np.unravel_index(int(np.argmax(error)), error.shape))
        wrong = int((error > tol).sum())
        fail(f"{what}, entry {list(index)}: expected {expected[index]:.8g}, got {got[index]:.8g} "
             f"({wrong} of {error.size} entries differ){_diagnosis(got, y, dout, axis, atol=max(10 * tol, 1e-7))}",
             got=got if got.ndim <= 2 else None, expected=expected if got.ndim <= 2 else None)
    return got


# ---- tests --------------------------------------------------------------------------------------

def test_shape(softmax_backward):
    """Output has the shape of y (1-D, 2-D and 3-D, default axis)"""
    for seed, shape in [(1, (5,)), (2, (3, 4)), (3, (2, 3, 4)), (4, (1, 1))]:
        y, dout = _random_case(seed, shape, -1)
        _gradient(softmax_backward, y, dout, -1, pass_axis=False)


def test_hand_checked(softmax_backward):
    """Matches the statement's worked examples"""
    y, dout = np.array([0.5, 0.25, 0.25]), np.array([1.0, 2.0, 0.0])
    got, _, what = _gradient(softmax_backward, y, dout, -1, pass_axis=False)
    for j, want in enumerate([0.0, 0.25, -0.25]):
        if not abs(got[j] - want) <= 1e-9:
            fail(f"{what} with y = [0.5, 0.25, 0.25], dout = [1, 2, 0], entry {j}: expected {want} "
                 f"(s = sum(dout * y) = 1, dx = y * (dout - s)), got {got[j]:.8g}"
                 f"{_diagnosis(got, y, dout, -1, atol=1e-9)}")
    y, dout = np.array([[0.5, 0.2], [0.5, 0.8]]), np.eye(2)
    got, _, what = _gradient(softmax_backward, y, dout, 0)
    want = np.array([[0.25, -0.16], [-0.25, 0.16]])
    if not np.allclose(got, want, rtol=0.0, atol=1e-9):
        index = tuple(int(k) for k in np.unravel_index(int(np.argmax(np.abs(got - want))), want.shape))
        fail(f"{what} with y = [[0.5, 0.2], [0.5, 0.8]], dout = [[1, 0], [0, 1]], entry {list(index)}: expected "
             f"{want[index]:g}, got {got[index]:.8g}{_diagnosis(got, y, dout, 0, atol=1e-9)}", got=got, expected=want)


def test_finite_differences(softmax_backward):
    """Agrees with central differences of sum(softmax(x) * dout) for every entry of x"""
    rng = np.random.default_rng(5)
    for shape, axis in [((3, 4), -1), ((2, 3, 2), 0)]:
        x = rng.normal(0.0, 1.5, size=shape)
        dout = rng.normal(0.0, 1.0, size=shape)
        got, _, what = _gradient(softmax_backward, _softmax(x, axis), dout, axis)

        def loss(x):
            moved, d = np.moveaxis(x, axis, -1), np.moveaxis(dout, axis, -1)
            total = 0.0
            for index in np.ndindex(moved.shape[:-1]):
                exps = [math.exp(v) for v in moved[index].tolist()]
                total += sum(e / sum(exps) * g for e, g in zip(exps, d[index].tolist()))
            return total

        h = 1e-6
        for index in np.ndindex(shape):
            plus, minus = x.copy(), x.copy()
            plus[index] += h
            minus[index] -= h
            numeric = (loss(plus) - loss(minus)) / (2 * h)
            if not abs(got[index] - numeric) <= 1e-7:
                fail(f"{what}, entry {list(index)}: the loss changes at rate {numeric:.8g} when x{list(index)} "
                     f"moves (central difference, h = 1e-6), but the gradient says {got[index]:.8g}"
                     f"{_diagnosis(got, _softmax(x, axis), dout, axis, atol=1e-6)}")


def test_slices_sum_to_zero(softmax_backward):
    """Every slice of the result sums to 0, and a constant dout gives 0"""
    y, dout = _random_case(6, (4, 6), -1)
    got, precision, what = _gradient(softmax_backward, y, dout, -1)
    tol = 10 * _tolerance(precision, y, dout)
    for t in range(got.shape[0]):
        total = float(got[t].sum())
        if abs(total) > tol:
            fail(f"{what}: row {t} should sum to 0 (a constant added to a slice of x leaves its softmax unchanged), "
                 f"got {total:.6g}{_diagnosis(got, y, dout, -1, atol=1e-6)}")
    constant = np.full(y.shape, 2.5)
    got, _, what = _gradient(softmax_backward, y, constant, -1)
    if np.abs(got).max() > tol:
        index = tuple(int(k) for k in np.unravel_index(int(np.argmax(np.abs(got))), got.shape))
        fail(f"{what} with dout = 2.5 everywhere: expected 0 everywhere (y * (2.5 - 2.5 * sum(y)) = 0), got "
             f"{got[index]:.6g} at entry {list(index)}{_diagnosis(got, y, constant, -1, atol=1e-6)}")


def test_square(softmax_backward):
    """Square arrays (T, T), as in attention, where a sum without keepdims broadcasts silently"""
    for seed, shape in [(7, (4, 4)), (8, (3, 3, 3)), (9, (2, 5, 5))]:
        _check(softmax_backward, *_random_case(seed, shape, -1))


def test_other_axes(softmax_backward):
    """A softmax over another axis than the last: axis=0 and axis=1 of 3-D arrays, axis=-2"""
    for seed, shape, axis in [(10, (3, 2, 4), 0), (11, (2, 3, 4), 1), (12, (3, 3, 2), 1), (13, (4, 4, 3), 0),
                              (14, (3, 5), 0), (15, (2, 4, 3), -2), (16, (2, 2, 2), 1)]:
        _check(softmax_backward, *_random_case(seed, shape, axis), axis)


def test_dout_as_list(softmax_backward):
    """dout given as a (nested) list of floats"""
    for seed, shape, axis in [(17, (4,), -1), (18, (3, 3), -1), (19, (2, 3, 2), 1)]:
        _check(softmax_backward, *_random_case(seed, shape, axis), axis, dout_as_list=True)


def test_float32(softmax_backward):
    """float32 inputs, compared at float32 precision"""
    for seed, shape, axis in [(20, (6, 6), -1), (21, (2, 3, 4), 1), (22, (5, 2, 3), 0)]:
        _check(softmax_backward, *_random_case(seed, shape, axis, dtype=np.float32), axis)


def test_peaked(softmax_backward):
    """Peaked softmaxes (one weight near 1, others near 0) and large dout"""
    y, dout = _random_case(23, (5, 7), -1, spread=12.0)
    _check(softmax_backward, y, 100.0 * dout)


def test_large(softmax_backward):
    """A large case: attention weights of shape (2, 4, 48, 48) over the last axis"""
    y, dout = _random_case(24, (2, 4, 48, 48), -1)
    _check(softmax_backward, y, dout)
