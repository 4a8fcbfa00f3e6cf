"""Hidden tests for clip_grad_norm(grads, max_norm).

Expected values come from a plain-Python norm below (math.sqrt of a sum of squares, one entry at a
time), written independently of solution.py.  When a result is wrong, the tests compare it with the
results of classic mistakes (a norm per array, clipping when under the limit, the norm after
clipping, ...) so the message can name the mistake.
"""

import math

import numpy as np

from grader.core.checks import fail, precision_of
from grader.core.testkit import as_float, checked_array, items

EPS = 1e-6


# ---- the formula, in plain Python ---------------------------------------------------------------

def _entries(g):
    return [float(x) for x in np.asarray(g, dtype=np.float64).ravel()]


def _norm(values):
    return math.sqrt(sum(x * x for x in values))


def _expected(grads, max_norm, mistake=None):
    """(list of float64 arrays, total_norm) from the formula; `mistake` reproduces a classic one."""
    norms = [_norm(_entries(g)) for g in grads]
    total = _norm(_entries(np.concatenate([np.ravel(g) for g in grads])))
    if mistake == "per_array":
        scales = [min(1.0, max_norm / (n + EPS)) for n in norms]
        return [np.asarray(g, dtype=np.float64) * s for g, s in zip(grads, scales)], total
    reported = total
    if mistake == "sum_of_norms":
        total = reported = sum(norms)
    elif mistake == "squared":
        total = reported = total * total
    elif mistake == "rms":
        total = reported = total / math.sqrt(sum(np.size(g) for g in grads))
    scale = max_norm / (total + EPS)
    if mistake == "no_eps":
        scale = max_norm / total if total > 0 else 1.0
    if mistake != "always":
        scale = min(1.0, scale)
    if mistake == "norm_after":
        reported = total * scale
    return [np.asarray(g, dtype=np.float64) * scale for g in grads], reported


_MISTAKES = [
    ("per_array", "looks like each array was clipped by its own norm; clip_grad_norm uses one norm for all the "
                  "arrays together, so every array gets the same factor and their directions stay as they were"),
    ("always", "looks like the gradients were scaled by max_norm / total_norm even though their norm was already "
               "under max_norm (scaling them up); the factor is min(1, max_norm / (total_norm + 1e-6))"),
    ("norm_after", "looks like total_norm was measured after clipping; return the norm of the gradients you were "
                   "given (it is what training logs to spot a spike)"),
    ("no_eps", "looks like the factor is max_norm / total_norm without the 1e-6: divide by total_norm + 1e-6"),
    ("sum_of_norms", "looks like the norms of the arrays were added; the global norm is the square root of the sum "
                     "of all squared entries, sqrt(n_1^2 + n_2^2 + ...)"),
    ("squared", "looks like the square root is missing: total_norm is sqrt(sum of the squared entries)"),
    ("rms", "looks like a mean of the squares (a root mean square); the norm sums the squares, it does not "
            "average them"),
]


def _diagnose(got_arrays, got_norm, grads, max_norm):
    """' (hint)' naming the one classic mistake that reproduces the learner's result, or ''."""
    if sum(np.size(g) for g in grads) > 2000:
        return ""
    right_arrays, right_norm = _expected(grads, max_norm)
    matches = []
    for mistake, hint in _MISTAKES:
        arrays, norm = _expected(grads, max_norm, mistake)
        differs = not math.isclose(norm, right_norm, rel_tol=1e-9) or \
            any(not np.allclose(a, r, rtol=1e-9, atol=0.0) for a, r in zip(arrays, right_arrays))
        same = (got_norm is None or math.isclose(got_norm, norm, rel_tol=1e-5)) and \
            (got_arrays is None or all(np.allclose(g, a, rtol=1e-5, atol=1e-12) for g, a in zip(got_arrays, arrays)))
        if differs and same:
            matches.append(hint)
    return f" ({matches[0]})" if len(matches) == 1 else ""


# ---- calling the learner's function -------------------------------------------------------------

def _describe(grads, max_norm):
    dtypes = ["" if g.dtype == np.float64 else f" {g.dtype}" for g in grads]
    shown = ", ".join(f"{g.shape}{dtype}" for g, dtype in zip(grads[:6], dtypes))
    more = f", ... ({len(grads)} arrays)" if len(grads) > 6 else ""
    return f"clip_grad_norm(grads of shapes [{shown}{more}], max_norm={max_norm})"


def _clipped(clip_grad_norm, grads, max_norm):
    """Call the learner's function; return (list of float64 arrays, total_norm as a float, description)."""
    what = _describe(grads, max_norm)
    clipped, total = items(clip_grad_norm(grads, max_norm), f"the result of {what}", names=("clipped", "total_norm"))
    arrays = items(clipped, f"the clipped gradients of {what}")
    if len(arrays) != len(grads):
        fail(f"{what} should return one clipped array per gradient ({len(grads)}), got {len(arrays)}")
    precision = precision_of(grads)  # the least precise gradient sets the precision of the whole call
    out = [checked_array(array, precision, what=f"clipped[{i}] of {what}", shape=np.shape(g),
                         shape_hint=lambda shape, i=i: f"the shape of grads[{i}]")
           for i, (array, g) in enumerate(zip(arrays, grads))]
    norm = as_float(total, precision, f"the total_norm returned by {what}", shape_hint=lambda shape: (
        "one norm per array? total_norm is one number for all of them" if len(shape) == 1 else ""))
    return out, norm, what


def _check(clip_grad_norm, grads, max_norm):
    """Compare total_norm, then every clipped array, with the formula."""
    got_arrays, got_norm, what = _clipped(clip_grad_norm, grads, max_norm)
    want_arrays, want_norm = _expected(grads, max_norm)
    tol = precision_of(grads).tolerance(float64=1e-9, float32=1e-5, float16=1e-2)
    if not abs(got_norm - want_norm) <= tol * max(want_norm, 1e-300):
        fail(f"{what}: total_norm should be {want_norm:.10g}, got {got_norm:.10g}"
             f"{_diagnose(None, got_norm, grads, max_norm)}")
    for i, (got, want, g) in enumerate(zip(got_arrays, want_arrays, grads)):
        error = np.abs(got - want)
        error[np.isnan(error)] = np.inf
        limit = tol * max(float(np.abs(want).max(initial=0.0)), 1e-300)
        if error.size and error.max() > limit:
            index = tuple(int(k) for k in np.unravel_index(int(np.argmax(error)), error.shape))
            ratio = (float(got[index] / np.asarray(g, dtype=np.float64)[index])
                     if np.asarray(g)[index] != 0 else float("nan"))
            factor = min(1.0, max_norm / (want_norm + EPS))
            fail(f"{what}: clipped[{i}]{list(index)} should be grads[{i}]{list(index)} times "
                 f"min(1, {max_norm} / ({want_norm:.6g} + 1e-6)) = {factor:.10g}, that is {want[index]:.10g}; "
                 f"got {got[index]:.10g} (a factor {ratio:.10g}){_diagnose(got_arrays, None, grads, max_norm)}",
                 got=got if got.ndim <= 2 else None, expected=want if want.ndim <= 2 else None)
    return got_arrays, got_norm


def _grads(seed, shapes, scale=1.0, dtypes=None, scales=None):
    rng = np.random.default_rng(seed)
    dtypes = dtypes or [np.float64] * len(shapes)
    scales = scales or [scale] * len(shapes)
    return [rng.normal(0, s, shape).astype(dtype) for shape, s, dtype in zip(shapes, scales, dtypes)]


# ---- tests --------------------------------------------------------------------------------------

def test_shapes_and_order(clip_grad_norm):
    """Returns (clipped, total_norm): one array per gradient, in order, each of its gradient's shape"""
    grads = [np.full((2, 2), 1.0), np.array([2.0]), np.full((2, 2), 3.0), np.full((2, 1, 2), -1.0)]
    got, norm, what = _clipped(clip_grad_norm, grads, 100.0)
    for i, g in enumerate(got):
        for j, other in enumerate(grads):
            if j != i and other.shape == g.shape and np.allclose(g, other, rtol=1e-9, atol=0.0):
                fail(f"{what}: clipped[{i}] holds the values of grads[{j}]: return the arrays in the order they came")
    _check(clip_grad_norm, grads, 100.0)


def test_hand_checked(clip_grad_norm):
    """Matches hand-checked values: gradients of norm 5 clipped to 1, and left alone under 10"""
    grads = [np.array([3.0, 0.0]), np.array([[4.0]])]
    got, norm, what = _clipped(clip_grad_norm, grads, 1.0)
    if not abs(norm - 5.0) <= 1e-9:
        fail(f"{what}: total_norm should be sqrt(3^2 + 0^2 + 4^2) = 5, got {norm:.10g}"
             f"{_diagnose(got, norm, grads, 1.0)}")
    factor = 1.0 / (5.0 + 1e-6)
    for i, want in ((0, [3.0 * factor, 0.0]), (1, [4.0 * factor])):
        if not np.allclose(got[i].ravel(), want, rtol=1e-12, atol=0.0):
            fail(f"{what}: clipped[{i}] should be grads[{i}] * 1 / (5 + 1e-6), {np.round(want, 9).tolist()}, got "
                 f"{got[i].ravel().tolist()}{_diagnose(got, norm, grads, 1.0)}")
    _check(clip_grad_norm, grads, 10.0)


def test_one_global_norm(clip_grad_norm):
    """One norm for all the arrays together: every array gets the same factor"""
    # Norms 3 and 4 give a global norm of 5; clipped to 2.5, both arrays are halved.
    _check(clip_grad_norm, [np.array([[1.0, 2.0], [2.0, 0.0]]), np.array([0.0, 4.0, 0.0])], 2.5)
    _check(clip_grad_norm, _grads(1, [(4, 3), (3,), (2, 2, 2)], scales=[1.0, 0.1, 3.0]), 1.0)


def test_under_the_limit(clip_grad_norm):
    """Gradients whose norm is under max_norm come back unchanged"""
    for seed, max_norm in ((2, 50.0), (3, 8.0)):
        grads = _grads(seed, [(3, 4), (4,), (2, 3)])
        _check(clip_grad_norm, grads, max_norm)


def test_norm_before_clipping(clip_grad_norm):
    """total_norm is the norm of the gradients given, before clipping"""
    grads = _grads(4, [(5, 5), (5,)], scale=2.0)
    _check(clip_grad_norm, grads, 0.5)


def test_epsilon(clip_grad_norm):
    """The factor is max_norm / (total_norm + 1e-6), and all-zero gradients stay zero"""
    # The 1e-6 changes the factor by about 1e-6 / total_norm: visible in float64 for a small norm.
    _check(clip_grad_norm, [np.array([0.06, 0.08])], 0.05)
    got, norm, what = _clipped(clip_grad_norm, [np.zeros((2, 2)), np.zeros(3)], 1.0)
    for i, g in enumerate(got):
        if not np.isfinite(g).all() or np.abs(g).max() != 0.0:
            fail(f"{what} with all-zero gradients: clipped[{i}] should be all zeros, got {g.ravel().tolist()}")
    if norm != 0.0:
        fail(f"{what} with all-zero gradients: total_norm should be 0, got {norm:.6g}")


def test_shapes_and_dtypes_mixed(clip_grad_norm):
    """Arrays of different shapes and dtypes (float64 and float32) are clipped together"""
    grads = _grads(5, [(3, 4), (4,), (2, 3, 2), (1,)], scale=1.5,
                   dtypes=[np.float32, np.float64, np.float32, np.float64])
    _check(clip_grad_norm, grads, 1.0)
    _check(clip_grad_norm, _grads(6, [(6, 2), (2,)], dtypes=[np.float32, np.float32]), 0.3)


def test_large(clip_grad_norm):
    """A model-sized list: 40 arrays, about 20,000 entries"""
    shapes = [(16, 64), (64,), (64, 16), (16,)] * 10
    _check(clip_grad_norm, _grads(7, shapes, scale=0.05), 1.0)
    _check(clip_grad_norm, _grads(8, shapes, scale=0.001), 1.0)


def test_integer_max_norm(clip_grad_norm):
    """An integer max_norm works as the same float"""
    _check(clip_grad_norm, _grads(9, [(3, 3), (3,)], scale=2.0), 1)
