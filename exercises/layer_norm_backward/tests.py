"""Hidden tests for layer_norm_backward(x, gamma, dout, eps=1e-5).

Expected values come from the Jacobian of the normalisation written out entry by entry below
(d x_hat_j / d x_i, one (C, C) matrix per vector), independently of solution.py, and one test
checks the result against central differences of a plain-Python layer norm.  When a gradient is
wrong, the tests rebuild the gradients of classic mistakes (the variance's or the mean's term
missing, eps outside the square root, ddof=1, gamma forgotten, ...) so the message can name it.
"""

import math

import numpy as np

from grader.core.checks import fail
from grader.core.testkit import Diagnosis, call_many


# ---- the expected gradients ---------------------------------------------------------------------

def _expected(x, gamma, dout, eps):
    """(dx, dgamma, dbeta) in float64, dx through the explicit Jacobian of each vector."""
    x = np.asarray(x, dtype=np.float64)
    C = x.shape[-1]
    rows = x.reshape(-1, C)
    g = np.asarray(dout, dtype=np.float64).reshape(-1, C) * np.asarray(gamma, dtype=np.float64)   # dL/dx_hat
    dx = np.empty_like(rows)
    x_hats = np.empty_like(rows)
    for n, row in enumerate(rows):
        mean = row.mean()
        s = math.sqrt(((row - mean) ** 2).mean() + eps)
        x_hat = (row - mean) / s
        # jacobian[i, j] = d x_hat_j / d x_i = (delta_ij - 1/C) / s - x_hat_i x_hat_j / (C s)
        jacobian = (np.eye(C) - 1.0 / C) / s - np.outer(x_hat, x_hat) / (C * s)
        dx[n] = jacobian @ g[n]
        x_hats[n] = x_hat
    d = np.asarray(dout, dtype=np.float64).reshape(-1, C)
    return dx.reshape(x.shape), (d * x_hats).sum(axis=0), d.sum(axis=0)


def _layer_norm(x, gamma, beta, eps):
    """The forward pass of step 6 in plain Python, for the central differences: a list of rows."""
    out = []
    for row in x:
        mean = math.fsum(row) / len(row)
        s = math.sqrt(math.fsum((v - mean) ** 2 for v in row) / len(row) + eps)
        out.append([g * (v - mean) / s + b for v, g, b in zip(row, gamma, beta)])
    return out


def _variant(x, gamma, dout, eps, *, mean_term=True, var_term=True, ddof=0, eps_inside=True, use_gamma=True,
             fixed_eps=None):
    """dx by the compact formula, the keyword arguments reproducing known mistakes."""
    eps = eps if fixed_eps is None else fixed_eps
    C = x.shape[-1]
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).sum(axis=-1, keepdims=True) / (C - ddof)
    rstd = 1.0 / np.sqrt(var + eps) if eps_inside else 1.0 / (np.sqrt(var) + eps)
    x_hat = (x - mean) * rstd
    g = dout * gamma if use_gamma else dout
    dx = g.copy()
    if mean_term:
        dx = dx - g.mean(axis=-1, keepdims=True)
    if var_term:
        dx = dx - x_hat * (g * x_hat).mean(axis=-1, keepdims=True)
    return dx * rstd


def _dx_mistakes(x, gamma, dout, eps):
    """(dx, hint) for classic mistakes."""
    out = [
        (dict(var_term=False), "looks like the variance's term is missing: the variance depends on every x_i "
                               "too, which adds -x_hat * mean(dout * gamma * x_hat) inside the bracket"),
        (dict(mean_term=False), "looks like the mean's term is missing: the mean depends on every x_i, which "
                                "adds -mean(dout * gamma) inside the bracket"),
        (dict(mean_term=False, var_term=False), "looks like the mean and the variance were treated as constants "
                                                "(dx = dout * gamma / sqrt(var + eps)): both depend on x"),
        (dict(eps_inside=False), "looks like eps was added after the square root, 1 / (sqrt(var) + eps); "
                                 "the forward pass divides by sqrt(var + eps)"),
        (dict(ddof=1), "looks like the unbiased variance (ddof=1, dividing by C - 1); layer norm divides by C"),
        (dict(use_gamma=False), "looks like gamma is missing from dx: dL/dx_hat = dout * gamma, since "
                                "y = gamma * x_hat + beta"),
    ]
    if eps != 1e-5:
        out.append((dict(fixed_eps=1e-5), "looks like eps = 1e-5 was used whatever the eps argument said"))
    return [(_variant(x, gamma, dout, eps, **options), hint) for options, hint in out]


def _mistakes(x, gamma, dout, eps, which):
    """(result, hint) for the classic mistakes that give `which` (dx, dgamma or dbeta) a wrong value."""
    x, gamma, dout = (np.asarray(a, dtype=np.float64) for a in (x, gamma, dout))
    C = x.shape[-1]
    if which == "dx":
        return _dx_mistakes(x, gamma, dout, eps)
    mean = x.mean(axis=-1, keepdims=True)
    x_hat = (x - mean) / np.sqrt(((x - mean) ** 2).mean(axis=-1, keepdims=True) + eps)
    d = dout.reshape(-1, C)
    swapped = {"dgamma": (d.sum(axis=0), "looks like dbeta (the sum of dout): dgamma is the sum of "
                                         "dout * x_hat"),
               "dbeta": ((d * x_hat.reshape(-1, C)).sum(axis=0),
                         "looks like dgamma (the sum of dout * x_hat): dbeta is the sum of dout")}
    candidates = [swapped[which]]
    if which == "dgamma":
        candidates.append(((d * x_hat.reshape(-1, C) * gamma).sum(axis=0),
                           "looks like dout * gamma * x_hat: dgamma is the sum of dout * x_hat"))
    return candidates


_diagnosis = Diagnosis(_mistakes)


# ---- calling the learner's function -------------------------------------------------------------

def _describe(x, gamma, dout, eps):
    kind = "" if x.dtype == np.float64 else f" {x.dtype}"
    return (f"layer_norm_backward(x of shape {x.shape}{kind}, gamma, dout"
            f"{'' if eps is None else f', eps={eps:g}'})")


def _shape_hint(name, shape, x):
    C = x.shape[-1]
    if name in ("dgamma", "dbeta") and shape != (C,):
        if shape == x.shape:
            return "one value per entry of x: sum over every leading axis to get one value per feature"
        if x.ndim == 3 and shape == x.shape[1:]:
            return "summed over axis 0 only: sum over every leading axis, e.g. reshape(-1, C).sum(axis=0)"
        if shape == x.shape[:-1]:
            return "summed over the last axis: sum over the leading axes instead, one value per feature"
    return ""


def _gradients(layer_norm_backward, x, gamma, dout, eps=None):
    """Call the learner's function; return (dx, dgamma, dbeta) as float64 copies, the tolerance, the call."""
    C = x.shape[-1]
    arrays, precision, what = call_many(layer_norm_backward, x, gamma, dout, **({} if eps is None else {"eps": eps}),
                                        names=("dx", "dgamma", "dbeta"), shapes=(x.shape, (C,), (C,)),
                                        what=_describe(x, gamma, dout, eps),
                                        shape_hint=lambda name, shape: _shape_hint(name, shape, x))
    return arrays, precision.tolerance(float64=1e-9, float32=1e-4), what


def _check(layer_norm_backward, x, gamma, dout, eps=None):
    """Compare the three gradients with the expected ones; return the learner's."""
    got, base, what = _gradients(layer_norm_backward, x, gamma, dout, eps)
    e = 1e-5 if eps is None else eps
    expected = _expected(x, gamma, dout, e)
    for name, mine, want in zip(("dx", "dgamma", "dbeta"), got, expected):
        tol = base * max(1.0, float(np.abs(want).max()))
        error = np.abs(mine - want)
        error[np.isnan(error)] = np.inf
        if error.max() > tol:
            index = tuple(int(k) for k in np.unravel_index(int(np.argmax(error)), error.shape))
            wrong = int((error > tol).sum())
            hint = _diagnosis(mine, x, gamma, dout, e, name, atol=max(10 * tol, 1e-7))
            shown_got, shown_want = (mine, want) if mine.ndim <= 2 else (mine.reshape(-1, x.shape[-1]),
                                                                         want.reshape(-1, x.shape[-1]))
            fail(f"{name} of {what}{list(index)}: expected {want[index]:.8g}, got {mine[index]:.8g} "
                 f"({wrong} of {error.size} entries differ){hint}", got=shown_got, expected=shown_want)
    return got


def _random(seed, shape, dtype=np.float64, scale=2.0):
    rng = np.random.default_rng(seed)
    C = shape[-1]
    x = (rng.standard_normal(shape) * scale + rng.uniform(-1, 1)).astype(dtype)
    gamma = rng.uniform(0.5, 2.0, size=C).astype(dtype)
    dout = rng.standard_normal(shape).astype(dtype)
    return x, gamma, dout


# ---- tests --------------------------------------------------------------------------------------

def test_shape(layer_norm_backward):
    """Returns (dx, dgamma, dbeta): dx of the shape of x, dgamma and dbeta of shape (C,)"""
    for seed, shape in [(0, (4, 6)), (1, (5,)), (2, (2, 3, 4)), (3, (1, 3))]:
        _gradients(layer_norm_backward, *_random(seed, shape))


def test_hand_checked(layer_norm_backward):
    """Hand-checked: x = [-1, -1, 1, 1], gamma = [2, 1, 1, 1], dout = [1, 0, 0, 0], eps = 0; the statement's example"""
    # mean 0, variance 1, so x_hat = x.  g = dout * gamma = [2, 0, 0, 0], mean(g) = 0.5 and
    # mean(g * x_hat) = -0.5: dx = (g - 0.5 - x_hat * (-0.5)) / 1 = [1, -1, 0, 0].
    x, gamma, dout = np.array([[-1.0, -1.0, 1.0, 1.0]]), np.array([2.0, 1.0, 1.0, 1.0]), np.array([[1.0, 0, 0, 0]])
    (dx, dgamma, dbeta), _, what = _gradients(layer_norm_backward, x, gamma, dout, eps=0.0)
    for name, mine, want in (("dx", dx[0], [1.0, -1.0, 0.0, 0.0]), ("dgamma", dgamma, [-1.0, 0.0, 0.0, 0.0]),
                             ("dbeta", dbeta, [1.0, 0.0, 0.0, 0.0])):
        if not np.allclose(mine, want, rtol=0.0, atol=1e-9):
            hint = _diagnosis(mine[None] if name == "dx" else mine, x, gamma, dout, 0.0, name, atol=1e-7)
            fail(f"{name} of {what}: expected {want}, got {np.round(mine, 6).tolist()}{hint}")
    _check(layer_norm_backward, x, gamma, dout, eps=0.0)
    # The statement's example, with the default eps.
    x = np.array([[1.0, 2.0, 4.0], [0.0, 3.0, 3.0]])
    _check(layer_norm_backward, x, np.array([1.0, 2.0, 0.5]), np.array([[1.0, 0.0, -1.0], [2.0, -1.0, 0.5]]))


def test_identities(layer_norm_backward):
    """Each vector of dx sums to 0 (the mean's term), and with eps = 0 it is orthogonal to x - mean"""
    # Shifting a vector of x by a constant does not change its layer norm, so dx sums to 0; with eps = 0,
    # scaling x - mean does not either, so dx . (x - mean) = 0.
    x, gamma, dout = _random(4, (5, 6))
    (dx, _, _), base, what = _gradients(layer_norm_backward, x, gamma, dout, eps=0.0)
    tol = 100 * base * max(1.0, float(np.abs(dx).max()))
    centred = x - x.mean(axis=-1, keepdims=True)
    for name, values, reason in (
            ("sum", dx.sum(axis=-1), "the mean's term, -mean(dout * gamma), makes each vector of dx sum to 0"),
            ("dot product with x - mean", (dx * centred).sum(axis=-1),
             "the variance's term, -x_hat * mean(dout * gamma * x_hat), makes dx orthogonal to x - mean")):
        t = int(np.argmax(np.abs(values)))
        if not abs(values[t]) <= tol * np.abs(centred).max():
            fail(f"dx of {what}: row {t} has {name} {values[t]:.6g}, expected 0 ({reason})"
                 f"{_diagnosis(dx, x, gamma, dout, 0.0, 'dx', atol=1e-7)}")
    _check(layer_norm_backward, x, gamma, dout, eps=0.0)


def test_finite_differences(layer_norm_backward):
    """Agrees with central differences of the layer norm (gamma != 1, float64)"""
    rng = np.random.default_rng(5)
    T, C = 3, 5
    x, gamma, beta = rng.normal(0, 1.5, (T, C)), rng.uniform(0.5, 2.0, C), rng.normal(0, 0.5, C)
    dout = rng.normal(size=(T, C))
    eps = 1e-3
    (dx, dgamma, dbeta), _, what = _gradients(layer_norm_backward, x, gamma, dout, eps=eps)

    def loss(x, gamma, beta):  # sum(layer_norm(x) * dout): its gradient is the backward pass of dout
        out = _layer_norm(x.tolist(), gamma.tolist(), beta.tolist(), eps)
        return math.fsum(o * d for orow, drow in zip(out, dout.tolist()) for o, d in zip(orow, drow))

    h = 1e-6
    for name, mine, position in (("dx", dx, 0), ("dgamma", dgamma, 1), ("dbeta", dbeta, 2)):
        arrays = [x, gamma, beta]
        for index in np.ndindex(arrays[position].shape):
            plus, minus = [a.copy() for a in arrays], [a.copy() for a in arrays]
            plus[position][index] += h
            minus[position][index] -= h
            numeric = (loss(*plus) - loss(*minus)) / (2 * h)
            if not abs(mine[index] - numeric) <= 1e-6 * max(1.0, abs(numeric)):
                hint = _diagnosis(mine, x, gamma, dout, eps, name, atol=1e-6)
                fail(f"{name} of {what}{list(index)}: the loss sum(layer_norm(x, gamma, beta, eps) * dout) changes "
                     f"at rate {numeric:.8g} when that entry moves (central difference, h = 1e-6), but {name} says "
                     f"{mine[index]:.8g}{hint}")


def test_batch_3d(layer_norm_backward):
    """A batch (B, T, C): dgamma and dbeta are summed over both leading axes"""
    _check(layer_norm_backward, *_random(6, (2, 3, 5)))
    _check(layer_norm_backward, *_random(7, (3, 1, 4)), eps=1e-2)
    _check(layer_norm_backward, *_random(8, (7,)))


def test_eps(layer_norm_backward):
    """eps is inside the square root, sqrt(var + eps), and the eps argument is used"""
    # Variance about 1e-6, below eps: sqrt(var + eps) and sqrt(var) + eps differ by a factor of 3.
    x, gamma, dout = _random(9, (3, 6), scale=1e-3)
    _check(layer_norm_backward, x, gamma, dout)
    x, gamma, dout = _random(10, (4, 5), scale=0.5)
    _check(layer_norm_backward, x, gamma, dout, eps=0.1)
    _check(layer_norm_backward, x, gamma, dout, eps=1e-3)


def test_float32(layer_norm_backward):
    """float32 inputs give gradients within float32 precision"""
    _check(layer_norm_backward, *_random(11, (8, 16), dtype=np.float32))
    _check(layer_norm_backward, *_random(12, (2, 4, 8), dtype=np.float32))


def test_large(layer_norm_backward):
    """A larger case: x of shape (4, 32, 64)"""
    _check(layer_norm_backward, *_random(13, (4, 32, 64)))
