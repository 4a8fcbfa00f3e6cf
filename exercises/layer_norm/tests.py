"""Hidden tests for layer_norm(x, gamma, beta, eps=1e-5).

Expected values come from plain Python (math.fsum and math.sqrt over each
vector of the last axis), written independently of solution.py.  When a result
is wrong, the tests rebuild the results of classic mistakes (ddof=1, eps outside
the square root, the wrong axis, gamma and beta swapped, the eps argument
ignored, ...) so the message can name the mistake.
"""

import math

import numpy as np

from grader.core.checks import Failed, as_array, expect_close, fail
from grader.core.random_checks import array, compare_on_random_inputs
from grader.core.testkit import call, compare, diagnose, num


def _expected(x, gamma, beta, eps):
    """gamma * (x - mean) / sqrt(var + eps) + beta over the last axis, one vector at a time, in plain Python."""
    x = np.asarray(x, dtype=np.float64)
    C = x.shape[-1]
    g = [float(v) for v in np.asarray(gamma, dtype=np.float64)]
    b = [float(v) for v in np.asarray(beta, dtype=np.float64)]
    rows = []
    for row in x.reshape(-1, C).tolist():
        mean = math.fsum(row) / C
        var = math.fsum((v - mean) ** 2 for v in row) / C       # biased: divide by C
        scale = math.sqrt(var + eps)
        rows.append([g[c] * (row[c] - mean) / scale + b[c] for c in range(C)])
    return np.array(rows, dtype=np.float64).reshape(x.shape)


def _normalised(x, eps, *, axis=-1, ddof=0, center=True, inside=True, root=True, var_about_zero=False):
    """(x - mean) / sqrt(var + eps) with numpy; the keyword arguments reproduce known mistakes."""
    mean = x.mean(axis=axis, keepdims=True)
    centred = x - mean if center else x
    if var_about_zero:
        var = (x ** 2).mean(axis=axis, keepdims=True)
    else:
        var = ((x - mean) ** 2).sum(axis=axis, keepdims=True) / (
            (x.size if axis is None else x.shape[axis]) - ddof)
    if not root:
        return centred / (var + eps)
    return centred / (np.sqrt(var + eps) if inside else np.sqrt(var) + eps)


def _mistakes(x, gamma, beta, eps):
    """(result, hint) for each classic mistake on these inputs."""
    x = np.asarray(x, dtype=np.float64)
    g = np.asarray(gamma, dtype=np.float64)
    b = np.asarray(beta, dtype=np.float64)
    with np.errstate(all="ignore"):
        candidates = [
            (g * _normalised(x, eps, ddof=1) + b,
             "looks like the unbiased variance (ddof=1, dividing by C - 1); layer norm divides by C "
             "(np.var's default ddof=0)"),
            (g * _normalised(x, eps, inside=False) + b,
             "looks like eps was added after the square root, sqrt(var) + eps; it goes inside: "
             "sqrt(var + eps)"),
            (g * _normalised(x, 1e-5) + b,
             "looks like eps = 1e-5 was used whatever the eps argument said; use the eps parameter"),
            (g * _normalised(x, 0.0) + b,
             "looks like eps was left out; divide by sqrt(var + eps)"),
            (g * _normalised(x, eps, root=False) + b,
             "looks like the division is by var + eps instead of its square root"),
            (b * _normalised(x, eps) + g,
             "looks like gamma and beta are swapped: gamma multiplies, beta is added"),
            (_normalised(x, eps),
             "looks like gamma and beta were not applied: return gamma * x_hat + beta"),
            (g * _normalised(x, eps, center=False, var_about_zero=True) + b,
             "looks like RMSNorm: layer norm subtracts the mean and uses the variance around the mean"),
            (g * _normalised(x, eps, center=False) + b,
             "looks like the mean was not subtracted from x before dividing"),
        ]
        if x.ndim >= 2:
            candidates.append((g * _normalised(x, eps, axis=0) + b,
                               "looks like the mean and variance were taken over axis 0 (down the columns); "
                               "normalise each vector over the last axis, axis=-1"))
            candidates.append((g * _normalised(x, eps, axis=None) + b,
                               "looks like one mean and variance for the whole array; take them over the "
                               "last axis with keepdims=True"))
        if x.ndim >= 3:
            candidates.append((g * _normalised(x, eps, axis=-2) + b,
                               "looks like the mean and variance were taken over axis -2 (the time axis); "
                               "normalise over the last axis"))
    return candidates


def _normalised_by_learner(layer_norm, x, gamma, beta, eps=None):
    """Call the learner's function; return (float64 copy, absolute tolerance, description)."""
    what = (f"layer_norm(x, gamma, beta{'' if eps is None else f', eps={eps:g}'}) "
            f"for x of shape {x.shape} ({x.dtype})")

    def shape_hint(shape):
        if shape == tuple(x.shape[:-1]) or shape == tuple(x.shape[:-1]) + (1,):
            return "one value per vector: that looks like the mean or the variance alone"
        if x.ndim >= 2 and shape == tuple(x.shape[:-2]) + (x.shape[-1], x.shape[-2]):
            return "looks transposed"
        return ""
    # float32 x with float64 gamma calls for float32: the result is float64 but computed partly in float32.
    got, precision, _ = call(layer_norm, x, gamma, beta, **({} if eps is None else {"eps": eps}), what=what,
                             shape=x.shape, shape_hint=shape_hint)
    return got, precision.tolerance(), what


def _check(layer_norm, x, gamma, beta, eps=None):
    """Compare the learner's layer norm with the plain-Python one; return the learner's array."""
    got, base, what = _normalised_by_learner(layer_norm, x, gamma, beta, eps)
    e = 1e-5 if eps is None else eps
    expected = _expected(x, gamma, beta, e)
    # The output is as large as gamma * x_hat + beta.  In low precision the rounding of x (and of x - mean)
    # is amplified by 1/sqrt(var + eps), so the tolerance grows with |x| / std there.
    tol = base * max(1.0, float(np.abs(expected).max()))
    if base > 1e-9:
        x64 = np.asarray(x, dtype=np.float64)
        spread = np.sqrt(x64.var(axis=-1) + e).min()
        tol *= max(1.0, float(np.abs(x64).max() / spread))
    compare(got, expected, atol=tol, what=what, mistakes=lambda: _mistakes(x, gamma, beta, e),
            mistakes_atol=max(10 * tol, 1e-8))
    return got


def test_shape(layer_norm):
    """Output has the shape of x: (C,), (T, C) and (B, T, C)"""
    rng = np.random.default_rng(0)
    for shape in [(4, 6), (6,), (2, 3, 5), (1, 3)]:
        C = shape[-1]
        _normalised_by_learner(layer_norm, rng.standard_normal(shape), np.ones(C), np.zeros(C))


def test_hand_checked(layer_norm):
    """Hand-checked: layer_norm([1, 3]) with eps=0 is [-1, 1]; [2, 4, 6] with gamma and beta"""
    # mean 2, biased variance ((1-2)^2 + (3-2)^2) / 2 = 1, so x_hat = [-1, 1] exactly.
    got = _check(layer_norm, np.array([[1.0, 3.0]]), np.ones(2), np.zeros(2), eps=0.0)
    if not (abs(got[0, 0] + 1.0) <= 1e-6 and abs(got[0, 1] - 1.0) <= 1e-6):
        fail(f"layer_norm([[1, 3]], [1, 1], [0, 0], eps=0): expected [-1, 1] (mean 2, variance 1), "
             f"got [{num(got[0, 0])}, {num(got[0, 1])}]")
    # mean 4, variance (4 + 0 + 4) / 3 = 8/3, so x_hat = [-sqrt(3/2), 0, sqrt(3/2)] = [-1.224745, 0, 1.224745];
    # gamma = [1, 2, 0.5] and beta = [0, 1, -1] give [-1.224745, 1, -0.387628].
    got = _check(layer_norm, np.array([[2.0, 4.0, 6.0]]), np.array([1.0, 2.0, 0.5]), np.array([0.0, 1.0, -1.0]),
                 eps=0.0)
    for c, want in enumerate([-math.sqrt(1.5), 1.0, 0.5 * math.sqrt(1.5) - 1.0]):
        if not abs(got[0, c] - want) <= 1e-6:
            fail(f"layer_norm([[2, 4, 6]], gamma=[1, 2, 0.5], beta=[0, 1, -1], eps=0)[0, {c}]: expected "
                 f"{num(want)}, got {num(got[0, c])}")
    # Default eps: [1, 2, 3, 4] has mean 2.5 and variance 1.25.
    _check(layer_norm, np.array([[1.0, 2.0, 3.0, 4.0]]), np.ones(4), np.zeros(4))


def test_mean_zero_variance_one(layer_norm):
    """With gamma = 1 and beta = 0, every vector has mean 0 and variance 1 (biased variance, ddof=0)"""
    rng = np.random.default_rng(1)
    T, C = 6, 8
    x = rng.standard_normal((T, C)) * 3.0 + 2.0
    got, base, what = _normalised_by_learner(layer_norm, x, np.ones(C), np.zeros(C))
    tol = base * 100
    means = got.mean(axis=-1)
    variances = got.var(axis=-1)
    # With eps = 1e-5 the variance of x_hat is var / (var + eps), a hair below 1.
    target = np.array([v / (v + 1e-5) for v in x.var(axis=-1)])
    t = int(np.argmax(np.abs(means)))
    if not abs(means[t]) <= tol:
        fail(f"{what}: row {t} should have mean 0, got mean {num(means[t])}"
             f"{diagnose(got, lambda: _mistakes(x, np.ones(C), np.zeros(C), 1e-5), atol=1e-6)}")
    t = int(np.argmax(np.abs(variances - target)))
    if not abs(variances[t] - target[t]) <= tol:
        hint = diagnose(got, lambda: _mistakes(x, np.ones(C), np.zeros(C), 1e-5), atol=1e-6)
        fail(f"{what}: row {t} should have variance {target[t]:.8f} (1 up to eps: var / (var + eps), with the "
             f"biased variance, ddof=0), got variance {num(variances[t])}{hint}")
    _check(layer_norm, x, np.ones(C), np.zeros(C))


def test_gamma_beta(layer_norm):
    """gamma scales and beta shifts each feature of the last axis"""
    rng = np.random.default_rng(2)
    T, C = 5, 6
    x = rng.standard_normal((T, C)) * 2.0 - 1.0
    gamma = rng.uniform(0.5, 2.0, size=C)
    beta = rng.standard_normal(C)
    _check(layer_norm, x, gamma, beta)
    _check(layer_norm, x, np.zeros(C), beta)
    _check(layer_norm, rng.standard_normal((4, 7)), np.full(7, 3.0), np.full(7, -2.0))


def test_eps_inside_sqrt(layer_norm):
    """eps is added to the variance inside the square root, sqrt(var + eps), and the eps argument is used"""
    rng = np.random.default_rng(3)
    C = 6
    gamma = rng.uniform(0.5, 2.0, size=C)
    beta = rng.standard_normal(C)
    # Variance about 1e-6, below eps: sqrt(var + eps) and sqrt(var) + eps differ by a factor of 3.
    tiny = rng.standard_normal((3, C)) * 1e-3
    _check(layer_norm, tiny, gamma, beta)
    # A constant vector has variance 0: x_hat is 0 and the result is beta, not nan.
    constant = np.array([[0.5] * C, [-2.0] * C])
    got = _check(layer_norm, constant, gamma, beta)
    if not np.isfinite(got).all():
        fail("layer_norm of a constant vector: expected beta (variance 0, so x_hat = 0 / sqrt(eps) = 0), "
             "got nan")
    x = rng.standard_normal((4, C)) * 0.5
    _check(layer_norm, x, gamma, beta, eps=0.1)
    _check(layer_norm, x, gamma, beta, eps=1e-3)


def test_batch(layer_norm):
    """A batch (B, T, C) is normalised over its last axis only"""
    rng = np.random.default_rng(4)
    B, T, C = 2, 3, 5
    gamma = rng.uniform(0.5, 2.0, size=C)
    beta = rng.standard_normal(C)
    _check(layer_norm, rng.standard_normal((B, T, C)) * 2.0 + 1.0, gamma, beta)
    _check(layer_norm, rng.standard_normal(C) * 2.0, gamma, beta)


def test_float32_and_offset(layer_norm):
    """Works in float32, and for values far from 0 (around 1000)"""
    rng = np.random.default_rng(5)
    T, C = 8, 16
    gamma = rng.uniform(0.5, 2.0, size=C)
    beta = rng.standard_normal(C)
    x = rng.standard_normal((T, C)) * 2.0
    _check(layer_norm, x.astype(np.float32), gamma.astype(np.float32), beta.astype(np.float32))
    _check(layer_norm, x.astype(np.float32), gamma, beta)
    _check(layer_norm, 1000.0 + x, gamma, beta)


# Values within _SPREAD of _OFFSET: a variance computed as mean(x**2) - mean(x)**2 subtracts two numbers
# near 1e10 and keeps only about 1e-6 of precision, far more than float64 rounding of the formula.
_OFFSET, _SPREAD = 1e5, 4.0


def _close_far_from_zero(result, expected, precision, what):
    """Compare at the precision of the inputs, naming the classic cause when it is off."""
    base = precision.tolerance()
    tol = base * max(1.0, float(np.abs(expected).max()))
    if base > 1e-9:  # in float32 the rounding of x itself (|x| * 6e-8) is amplified by 1 / std
        tol *= _OFFSET / (_SPREAD / 4)
    got = as_array(result, precision, what=what)  # a wrong type or dtype is not the one-pass variance
    try:
        expect_close(got, expected, atol=tol, rtol=0.0, what=what)
    except Failed as exc:
        fail(f"{exc} (adding a constant to a whole vector does not change its layer norm; with values near "
             f"100000, a variance computed as mean(x**2) - mean(x)**2 loses its digits to rounding: average "
             f"(x - mean)**2 instead, as np.var does)")


def test_random_far_from_zero(layer_norm):
    """Matches the formula on 30 random inputs whose values sit far from 0 (within 4 of 100000)"""
    compare_on_random_inputs(
        layer_norm, lambda x, gamma, beta: _expected(x, gamma, beta, 1e-5),
        {"x": array(("T", "C"), low=_OFFSET - _SPREAD, high=_OFFSET + _SPREAD),
         "gamma": array(("C",), low=0.5, high=2.0), "beta": array(("C",), low=-1.0, high=1.0)},
        dims={"T": (1, 4), "C": (4, 8)}, count=30, seed=0, check=_close_far_from_zero)
