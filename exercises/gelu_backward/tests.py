"""Hidden tests for gelu_backward(x, dout), the gradient through GPT-2's tanh GELU.

Expected values come from math.tanh in plain Python, one entry at a time, written independently of
solution.py, and one test checks the result against central differences of a plain-Python GELU.
When a result is wrong, the tests rebuild what classic mistakes give (the exact erf derivative, the
product rule's second term forgotten, 0.044715 instead of 3 * 0.044715, dout forgotten, ...) so the
message can name the mistake.
"""

import math

import numpy as np

from grader.core.checks import fail, precision_of
from grader.core.testkit import call, diagnose

_C = math.sqrt(2.0 / math.pi)
_K = 0.044715


def _gelu(v):
    return 0.5 * v * (1.0 + math.tanh(_C * (v + _K * v ** 3)))


def _derivative(v, *, inner=3 * _K, c_inner=_C, second=0.5, tanh_slope=None, first=True):
    """gelu'(v) from the formula; the keyword arguments reproduce known mistakes."""
    t = math.tanh(_C * (v + _K * v ** 3))
    slope = 1.0 - t * t if tanh_slope is None else tanh_slope(t)
    du_dx = c_inner * (1.0 + inner * v * v)
    return (0.5 * (1.0 + t) if first else 0.0) + second * v * slope * du_dx


def _erf_derivative(v):
    return 0.5 * (1.0 + math.erf(v / math.sqrt(2.0))) + v * math.exp(-0.5 * v * v) / math.sqrt(2.0 * math.pi)


def _floats(a):
    return [float(v) for v in np.asarray(a, dtype=np.float64).ravel().tolist()]


def _table(x, dout, f, *, times_dout=True):
    """f(x_i) * dout_i for every entry (plain Python), as a float64 array of x's shape."""
    xs, ds = _floats(x), _floats(dout)
    values = [f(v) * (d if times_dout else 1.0) for v, d in zip(xs, ds)]
    return np.array(values, dtype=np.float64).reshape(np.shape(x))


_MISTAKES = [
    (lambda x, d: _table(x, d, _erf_derivative),
     "looks like the derivative of the exact erf GELU, Phi(x) + x * phi(x); the forward pass is GPT-2's tanh "
     "approximation, so differentiate that one"),
    (lambda x, d: _table(x, d, lambda v: _derivative(v, second=0.0)),
     "looks like only 0.5 * (1 + tanh(u)): the product rule's second term, 0.5 * x * (1 - tanh(u)**2) * du/dx, "
     "is missing"),
    (lambda x, d: _table(x, d, lambda v: _derivative(v, first=False)),
     "looks like only 0.5 * x * (1 - tanh(u)**2) * du/dx: the product rule's first term, 0.5 * (1 + tanh(u)), "
     "is missing"),
    (lambda x, d: _table(x, d, _derivative, times_dout=False),
     "looks like gelu'(x) alone: multiply it by dout, entry by entry (the chain rule)"),
    (lambda x, d: _table(x, d, lambda v: _derivative(v, inner=_K)),
     "looks like du/dx uses 0.044715 * x**2; the derivative of 0.044715 * x**3 is 3 * 0.044715 * x**2"),
    (lambda x, d: _table(x, d, lambda v: _derivative(v, c_inner=1.0)),
     "looks like the factor sqrt(2 / pi) is missing from du/dx"),
    (lambda x, d: _table(x, d, lambda v: _derivative(v, tanh_slope=lambda t: 1.0 - t)),
     "looks like the derivative of tanh(u) was taken as 1 - tanh(u); it is 1 - tanh(u)**2"),
    (lambda x, d: _table(x, d, lambda v: _derivative(v, second=1.0)),
     "looks like the 0.5 is missing from the second term: it is 0.5 * x * (1 - tanh(u)**2) * du/dx"),
    (lambda x, d: _table(x, d, _gelu),
     "looks like gelu(x) * dout, the forward function: the backward pass needs its derivative"),
    (lambda x, d: _table(x, d, lambda v: 1.0 if v > 0 else 0.0),
     "looks like the ReLU's derivative (1 for x > 0, else 0); the GELU's is smooth"),
]


def _mistakes(x, dout):
    """(result, hint) for each classic mistake on x and dout, each computed only when a diagnosis reaches it."""
    return [(lambda wrong=wrong: wrong(x, dout), hint) for wrong, hint in _MISTAKES]


def _why(got, x, dout, atol):
    """' (hint)' naming the classic mistake closest to `got` (within atol), or ''."""
    return diagnose(got, _mistakes(x, dout), correct=lambda: _table(x, dout, _derivative), atol=atol, pick="closest")


# ---- calling the learner's function -------------------------------------------------------------

def _gradient(gelu_backward, x, dout, *, dout_as_list=False):
    """Call the learner's function; return (float64 copy, precision, description) after the shape check."""
    kind = f" {x.dtype}" if x.dtype != np.float64 else ""
    shown = "dout as a nested list" if dout_as_list else "dout"
    return call(gelu_backward, x, dout.tolist() if dout_as_list else dout, precision=precision_of(x, dout),
                what=f"gelu_backward(x of shape {x.shape}{kind}, {shown})", shape=x.shape,
                shape_hint=lambda shape: "the GELU acts entry by entry, so its gradient has the shape of x")


def _tolerance(precision, expected):
    """Absolute tolerance scaled to the largest expected entry: far below the gap to the erf derivative."""
    scale = max(float(np.abs(expected).max()) if expected.size else 0.0, 1e-3)
    # float64: sqrt(2 / pi) written out to 8 digits (0.79788456) is fine, as in step 10.
    return precision.tolerance(float64=1e-8, float32=1e-5) * scale


def _check(gelu_backward, x, dout, **options):
    """Call gelu_backward and compare each entry with the plain-Python formula; return the learner's array."""
    got, precision, what = _gradient(gelu_backward, x, dout, **options)
    expected = _table(x, dout, _derivative)
    tol = _tolerance(precision, expected)
    error = np.abs(got - expected)
    error[np.isnan(error)] = np.inf
    if error.max() > tol:
        index = tuple(int(k) for k in np.unravel_index(int(np.argmax(error)), error.shape))
        wrong = int((error > tol).sum())
        xi, di = float(np.asarray(x, dtype=np.float64)[index]), float(np.asarray(dout, dtype=np.float64)[index])
        fail(f"{what}, entry {list(index)}: at x = {xi:.6g}, dout = {di:.6g} expected {expected[index] + 0.0:.8g}, "
             f"got {got[index]:.8g} ({wrong} of {error.size} entries differ)"
             f"{_why(got, x, dout, max(10 * tol, 1e-7))}",
             got=got if got.ndim <= 2 else None, expected=expected if got.ndim <= 2 else None)
    return got


def _random_case(seed, shape, low=-4.0, high=4.0, dtype=np.float64):
    rng = np.random.default_rng(seed)
    x = rng.uniform(low, high, size=shape).astype(dtype)
    dout = rng.normal(0.0, 1.0, size=shape).astype(dtype)
    return x, dout


# ---- tests --------------------------------------------------------------------------------------

def test_shape(gelu_backward):
    """Output has the shape of x (1-D, 2-D and 3-D)"""
    for seed, shape in [(1, (7,)), (2, (3, 4)), (3, (2, 3, 4)), (4, (1,))]:
        _gradient(gelu_backward, *_random_case(seed, shape))


def test_hand_checked(gelu_backward):
    """Hand-checked values: gelu'(0) = 0.5, gelu'(1) = 1.0829641, gelu'(-1) = -0.0829641, gelu'(2) = 1.0860993"""
    x = np.array([0.0, 1.0, -1.0, 2.0])
    dout = np.array([1.0, 2.0, 1.0, -1.0])
    got, _, what = _gradient(gelu_backward, x, dout)
    for i, want in enumerate([0.5, 2.1659282, -0.0829641, -1.0860993]):
        if not abs(got[i] - want) <= 1e-6:
            fail(f"{what} with x = {x.tolist()}, dout = {dout.tolist()}, entry {i}: expected {want}, "
                 f"got {got[i]:.8g}{_why(got, x, dout, 1e-6)}")
    _check(gelu_backward, x, dout)


def test_finite_differences(gelu_backward):
    """Agrees with central differences of sum(gelu(x) * dout) for every entry of x"""
    x, dout = _random_case(5, (3, 4))
    got, _, what = _gradient(gelu_backward, x, dout)
    h = 1e-6
    for index in np.ndindex(x.shape):
        v, d = float(x[index]), float(dout[index])
        numeric = d * (_gelu(v + h) - _gelu(v - h)) / (2 * h)
        if not abs(got[index] - numeric) <= 1e-7 * max(1.0, abs(numeric)):
            fail(f"{what}, entry {list(index)}: at x = {v:.6g}, dout = {d:.6g} the loss changes at rate "
                 f"{numeric:.8g} when x moves (central difference, h = 1e-6), but the gradient says "
                 f"{got[index]:.8g}{_why(got, x, dout, 1e-6)}")


def test_tanh_not_erf(gelu_backward):
    """Is the derivative of the tanh GELU, not of the exact erf one (|x| from 1 to 3)"""
    # The two derivatives differ most near |x| = 2: 8.7e-4, about 7.7e-4 of the largest value.
    grid = np.linspace(1.0, 3.0, 41)
    x = np.concatenate([grid, -grid, [2.0187, -2.0187]])
    _check(gelu_backward, x, np.ones_like(x))
    x, dout = _random_case(6, (4, 5), low=1.0, high=3.0)
    _check(gelu_backward, x * np.sign(np.random.default_rng(7).normal(size=x.shape)), dout)


def test_times_dout(gelu_backward):
    """Multiplies by dout entry by entry (negative, zero and large values of dout)"""
    x = np.array([[-2.0, -0.5, 0.0], [0.5, 1.0, 2.5]])
    dout = np.array([[3.0, -2.0, 0.0], [0.0, -10.0, 0.25]])
    _check(gelu_backward, x, dout)
    _check(gelu_backward, *_random_case(8, (2, 3, 4)))


def test_symmetry(gelu_backward):
    """gelu'(x) + gelu'(-x) = 1 for every x"""
    x = np.array([0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 4.5])
    ones = np.ones_like(x)
    plus, precision, what = _gradient(gelu_backward, x, ones)
    minus, _, _ = _gradient(gelu_backward, -x, ones)
    total = plus + minus
    tol = precision.tolerance(float64=1e-8)
    for i, v in enumerate(x):
        if not abs(total[i] - 1.0) <= tol:
            fail(f"gelu_backward(x, 1) + gelu_backward(-x, 1) at x = {v:g}: expected 1 (gelu(x) - gelu(-x) = x, "
                 f"so the derivatives add up to 1), got {total[i]:.8g}{_why(plus, x, ones, 1e-6)}")


def test_dout_as_list(gelu_backward):
    """dout given as a (nested) list of floats"""
    for seed, shape in [(9, (5,)), (10, (2, 3)), (11, (2, 2, 3))]:
        _check(gelu_backward, *_random_case(seed, shape), dout_as_list=True)


def test_float32(gelu_backward):
    """float32 inputs, compared at float32 precision (still far from the erf derivative)"""
    for seed, shape, low, high in [(12, (6, 8), -4.0, 4.0), (13, (40,), 1.0, 3.0), (14, (2, 3, 5), -3.0, -1.0)]:
        _check(gelu_backward, *_random_case(seed, shape, low, high, dtype=np.float32))


def test_large(gelu_backward):
    """A large case (32 x 256) and inputs up to |x| = 1000 stay finite and correct"""
    x = np.array([-1000.0, -100.0, -30.0, -10.0, 10.0, 30.0, 100.0, 1000.0])
    _check(gelu_backward, x, np.ones_like(x))
    _check(gelu_backward, *_random_case(15, (32, 256), low=-6.0, high=6.0))
