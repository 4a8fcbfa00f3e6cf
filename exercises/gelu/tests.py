"""Hidden tests for gelu(x), GPT-2's tanh approximation of GELU.

Expected values come from math.tanh and math.sqrt in plain Python, one entry at
a time, written independently of solution.py.  When a result is wrong, the tests
rebuild the results of classic mistakes (the exact erf form, a missing 0.5, a
rounded constant, x**2 instead of x**3, the sigmoid approximation, ...) so the
message can name the mistake.
"""

import math

import numpy as np

from grader.core.checks import as_array, fail, precision_of
from grader.core.testkit import call, diagnose

_C = math.sqrt(2.0 / math.pi)


def _gelu(v, *, c=_C, k=0.044715, power=3, half=0.5, one=1.0):
    """GELU of one float; the keyword arguments reproduce known mistakes."""
    return half * v * (one + math.tanh(c * (v + k * v ** power)))


def _table(x, f):
    """f applied to every entry of the array x, in plain Python, as a float64 array of x's shape."""
    flat = [f(float(v)) for v in np.asarray(x, dtype=np.float64).ravel().tolist()]
    return np.array(flat, dtype=np.float64).reshape(np.shape(x))


def _sigmoid_approx(v):
    z = 1.702 * v
    return v / (1.0 + math.exp(-z)) if z >= 0 else v * math.exp(z) / (1.0 + math.exp(z))


_MISTAKES = [
    (lambda v: 0.5 * v * (1.0 + math.erf(v / math.sqrt(2.0))),
     "looks like the exact GELU, 0.5 * x * (1 + erf(x / sqrt(2))); this step asks for GPT-2's tanh "
     "approximation, which differs from it by up to 4.7e-4 near |x| = 2.7"),
    (lambda v: _gelu(v, half=1.0), "looks like the factor 0.5 is missing: the result is twice too large"),
    (lambda v: _gelu(v, k=0.0447), "looks like the constant 0.0447 was used; it is 0.044715"),
    (lambda v: _gelu(v, power=2), "looks like x**2 was used in the cubic term; it is 0.044715 * x**3"),
    (lambda v: _gelu(v, power=1), "looks like the cubic term is 0.044715 * x instead of 0.044715 * x**3"),
    (lambda v: _gelu(v, k=0.0), "looks like the cubic term 0.044715 * x**3 is missing"),
    (lambda v: _gelu(v, c=math.sqrt(2.0 * math.pi)),
     "looks like sqrt(2 * pi) was used; the factor is sqrt(2 / pi) = 0.7978845608"),
    (lambda v: _gelu(v, c=math.sqrt(2.0 / 3.14)),
     "looks like pi was rounded to 3.14; use np.pi (sqrt(2 / pi) = 0.7978845608)"),
    (lambda v: _gelu(v, c=0.7978), "looks like sqrt(2 / pi) was rounded to 0.7978; use np.sqrt(2 / np.pi)"),
    (lambda v: _gelu(v, c=1.0), "looks like the factor sqrt(2 / pi) is missing inside the tanh"),
    (lambda v: _gelu(v, one=0.0), "looks like the '1 +' is missing: it is 0.5 * x * (1 + tanh(...))"),
    (_sigmoid_approx, "looks like the sigmoid approximation x * sigmoid(1.702 * x); use the tanh formula"),
    (lambda v: max(v, 0.0), "looks like ReLU, max(x, 0); GELU is smooth and slightly negative for x < 0"),
]


def _mistakes(x):
    """(result, hint) for each classic mistake on x, each computed only when a diagnosis reaches it."""
    return [(lambda f=f: _table(x, f), hint) for f, hint in _MISTAKES]


def _explain(got, x, atol):
    """' (hint)' naming the classic mistake closest to `got`, or the cause of NaNs for large |x|, or ''."""
    found = diagnose(got, _mistakes(x), atol=atol, pick="closest")
    if not found and np.isnan(got).any() and np.abs(np.asarray(x, dtype=np.float64)).max() > 10:
        return (" (NaN for large |x|: is tanh built from np.exp, e.g. (e^2u - 1) / (e^2u + 1)? "
                "e^2u overflows; use np.tanh, which handles any input)")
    return found


def _check(gelu, x):
    """Call gelu(x) and compare each entry with the plain-Python formula; return the learner's array."""
    got, precision, what = call(gelu, x, what=f"gelu(x) for x of shape {x.shape} ({x.dtype})", shape=x.shape,
                                shape_hint=lambda shape: "same number of entries: was the array flattened or "
                                "transposed? GELU is elementwise" if np.prod(shape) == x.size else "")
    base = precision.tolerance(float64=1e-8)  # float64: a constant such as 0.79788456 written out to 8 digits is fine
    expected = _table(x, _gelu)
    # Absolute tolerance for |gelu(x)| <= 1, relative beyond (gelu(x) is about x for large x).
    tol = base * np.maximum(1.0, np.abs(np.asarray(x, dtype=np.float64)))
    error = np.abs(got - expected)
    error[np.isnan(error)] = np.inf
    excess = error - tol
    if excess.max() > 0:
        index = tuple(int(k) for k in np.unravel_index(int(np.argmax(excess)), excess.shape))
        wrong = int((excess > 0).sum())
        xi = float(np.asarray(x, dtype=np.float64)[index])
        fail(f"{what}: at x = {xi:.6g} (entry {list(index)}) expected {expected[index] + 0.0:.8g}, "
             f"got {got[index]:.8g} ({wrong} of {error.size} entries differ)"
             f"{_explain(got, x, max(10 * base, 1e-7))}", got=got, expected=expected)
    return got


def test_shape(gelu):
    """Output has the same shape as x (1-D, 2-D and 3-D)"""
    rng = np.random.default_rng(0)
    for shape in [(7,), (3, 4), (2, 3, 4), (1,)]:
        x = rng.standard_normal(shape)
        result = gelu(x)
        if result is None:
            fail(f"gelu(x) for x of shape {shape}: expected an array of shape {shape}, got None "
                 f"(did you forget to return the result?)")
        got = as_array(result, precision_of(x), what=f"gelu(x) for x of shape {shape}")
        if tuple(got.shape) != shape:
            fail(f"gelu(x) for x of shape {shape}: expected the same shape, got {tuple(got.shape)}")


def test_hand_checked(gelu):
    """Hand-checked values: gelu(0) = 0, gelu(1) = 0.8411920, gelu(-1) = -0.1588080, gelu(2) = 1.9545977"""
    x = np.array([0.0, 1.0, -1.0, 2.0])
    got = _check(gelu, x)
    # gelu(1) = 0.5 * (1 + tanh(0.7978845608 * 1.044715)) = 0.5 * (1 + tanh(0.8335620)) = 0.5 * 1.6823840 = 0.8411920
    for i, want in enumerate([0.0, 0.8411920, -0.1588080, 1.9545977]):
        if not abs(got[i] - want) <= 1e-6:
            fail(f"gelu({x[i]:g}): expected {want}, got {got[i]:.8g}{_explain(got, x, 1e-6)}")


def test_matches_tanh_formula(gelu):
    """Matches the tanh formula from -5 to 5, not the exact erf form"""
    # A grid with a step of 0.1, plus the points where tanh and erf forms differ most (|x| near 2.7).
    x = np.concatenate([np.arange(-50, 51) / 10.0, [-2.7, -2.699, 2.699, 2.7, 1.8428, -1.8428, 0.05]])
    _check(gelu, x)
    _check(gelu, x.reshape(4, 27))


def test_odd_part_is_x(gelu):
    """gelu(x) - gelu(-x) = x for every x (the 0.5 factor and the '1 +')"""
    x = np.array([0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 4.5])
    what = "gelu(x) - gelu(-x)"
    plus, minus = gelu(x), gelu(-x)
    precision = precision_of(x)
    tol = precision.tolerance(float64=1e-8) * 10
    a = as_array(plus, precision, what="gelu(x)")
    b = as_array(minus, precision, what="gelu(-x)")
    if a.shape != x.shape or b.shape != x.shape:
        fail(f"gelu(x) for x of shape {x.shape}: expected the same shape, got {a.shape} and {b.shape}")
    diff = a - b
    error = np.abs(diff - x)
    error[np.isnan(error)] = np.inf
    i = int(np.argmax(error))
    if error[i] > tol * max(1.0, x[i]):
        hint = ""
        if abs(diff[i] - 2 * x[i]) <= 1e-3 * x[i]:
            hint = " (twice x: the factor 0.5 is missing)"
        elif abs(diff[i]) <= 1e-3:
            hint = " (0: the '1 +' is missing, it is 0.5 * x * (1 + tanh(...)))"
        fail(f"{what} at x = {x[i]:g}: expected {x[i]:g} (since tanh is odd, 0.5x(1 + t) + 0.5x(1 - t) = x), "
             f"got {diff[i]:.8g}{hint}")


def test_large_inputs(gelu):
    """Large |x|: gelu(x) = x for large positive x and 0 for large negative x, with no overflow"""
    x = np.array([-100.0, -50.0, -30.0, -10.0, -6.0, 6.0, 10.0, 30.0, 50.0, 100.0])
    got = _check(gelu, x)
    for i in (0, len(x) - 1):
        if not np.isfinite(got[i]):
            fail(f"gelu({x[i]:g}): expected {x[i] if x[i] > 0 else 0:g}, got {got[i]}{_explain(got, x, 1e-6)}")
    _check(gelu, np.array([[-1000.0, 1000.0], [-200.0, 200.0]]))


def test_float32_batch(gelu):
    """A float32 batch (B, T, F) matches the formula entry by entry"""
    rng = np.random.default_rng(1)
    x = (rng.standard_normal((2, 5, 8)) * 3.0).astype(np.float32)
    _check(gelu, x)
    _check(gelu, rng.standard_normal((3, 6)) * 2.0)
