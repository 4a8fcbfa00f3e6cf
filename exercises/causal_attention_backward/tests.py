"""Hidden tests for causal_attention_backward(q, k, v, dout).

Expected values come from plain Python below (nested lists, math.exp, math.sqrt), written independently
of solution.py: the forward weights over the allowed keys only, then the chain rule entry by entry.  One
test checks the result against central differences of a plain-Python causal attention.  When a gradient
is wrong, the tests rebuild the gradients of classic mistakes (no mask in the backward, the 1/sqrt(d)
scale forgotten, the softmax backward summed without keepdims or over the wrong axis, a transpose
missing) so the message can name the mistake.
"""

import math

import numpy as np

from grader.core.checks import fail
from grader.core.testkit import Diagnosis, call_many, expect_gradient


# ---- the expected gradients, in plain Python ----------------------------------------------------

def _weights(q, k):
    """The causal attention weights of lists q, k: row i is the softmax of the scores of keys 0..i."""
    T, d = len(q), len(q[0])
    rows = []
    for i in range(T):
        scores = [sum(q[i][m] * k[j][m] for m in range(d)) / math.sqrt(d) for j in range(i + 1)]
        top = max(scores)
        e = [math.exp(s - top) for s in scores]
        total = sum(e)
        rows.append([x / total for x in e] + [0.0] * (T - i - 1))
    return rows


def _forward_2d(q, k, v):
    """causal_attention of step 8 for lists of lists."""
    A = _weights(q, k)
    T, dv = len(v), len(v[0])
    return [[sum(A[i][j] * v[j][c] for j in range(T)) for c in range(dv)] for i in range(T)]


def _backward_2d(q, k, v, dout):
    """(dq, dk, dv) for lists of lists, by the chain rule entry by entry."""
    T, d, dv = len(q), len(q[0]), len(v[0])
    A = _weights(q, k)
    s = 1.0 / math.sqrt(d)
    # out[i][c] = sum_j A[i][j] v[j][c]
    d_v = [[sum(A[i][j] * dout[i][c] for i in range(T)) for c in range(dv)] for j in range(T)]
    dA = [[sum(dout[i][c] * v[j][c] for c in range(dv)) for j in range(T)] for i in range(T)]
    # Softmax over the allowed keys of row i: dS[i][j] = A[i][j] (dA[i][j] - sum_j' A[i][j'] dA[i][j']).
    dS = []
    for i in range(T):
        inner = sum(A[i][j] * dA[i][j] for j in range(i + 1))
        dS.append([A[i][j] * (dA[i][j] - inner) if j <= i else 0.0 for j in range(T)])
    # S[i][j] = s * q[i] . k[j]
    d_q = [[s * sum(dS[i][j] * k[j][m] for j in range(T)) for m in range(d)] for i in range(T)]
    d_k = [[s * sum(dS[i][j] * q[i][m] for i in range(T)) for m in range(d)] for j in range(T)]
    return d_q, d_k, d_v


def _expected(q, k, v, dout):
    """(dq, dk, dv) as float64 arrays, the formula applied to every matrix of the leading axes."""
    lead = q.shape[:-2]
    results = ([], [], [])
    for index in np.ndindex(lead):
        for store, grad in zip(results, _backward_2d(*(a[index].tolist() for a in (q, k, v, dout)))):
            store.append(grad)
    return tuple(np.array(r, dtype=np.float64).reshape(a.shape) for r, a in zip(results, (q, k, v)))


# ---- classic mistakes, rebuilt with numpy -------------------------------------------------------

def _variant(q, k, v, dout, *, mask=True, grad_scale=True, inner="keepdims", dk_transposed=True,
             dv_transposed=True, width=None, divisor=None):
    """(dq, dk, dv) by the matrix formulas; the keyword arguments reproduce known mistakes."""
    T, d = q.shape[-2], q.shape[-1]
    t = lambda a: np.swapaxes(a, -1, -2)
    scale = 1.0 / (math.sqrt(d if width is None else width) if divisor is None else divisor)
    scores = q @ t(k) * scale
    if mask:
        scores = np.where(np.triu(np.ones((T, T), dtype=bool), k=1), -np.inf, scores)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    dv = t(weights) @ dout if dv_transposed else weights @ dout
    dweights = dout @ t(v)
    if inner == "keepdims":
        dscores = weights * (dweights - (weights * dweights).sum(axis=-1, keepdims=True))
    elif inner == "no_keepdims":
        dscores = weights * (dweights - (weights * dweights).sum(axis=-1)[..., None, :])
    else:  # summed over the queries
        dscores = weights * (dweights - (weights * dweights).sum(axis=-2, keepdims=True))
    g = scale if grad_scale else 1.0
    dq = dscores @ k * g
    dk = (t(dscores) if dk_transposed else dscores) @ q * g
    return dq, dk, dv


_MISTAKES = [
    (dict(mask=False), "looks like the backward pass forgot the causal mask: its weights let query i see the "
                       "keys j > i, unlike the forward pass"),
    (dict(grad_scale=False), "looks like the 1/sqrt(d) scale was forgotten in dq and dk: the scores are "
                             "q @ k^T / sqrt(d), so both gradients carry the 1/sqrt(d) too"),
    (dict(divisor=1.0), "looks like the scores were not scaled by 1/sqrt(d) at all"),
    (dict(inner="no_keepdims"), "looks like the softmax backward's sum(dweights * weights, axis=-1) lost its "
                                "keepdims: shape (..., T) broadcasts along the last axis, so query j's sum is "
                                "subtracted from row i"),
    (dict(inner="queries"), "looks like the softmax backward summed over the queries (axis=-2): each query's "
                            "weights are one softmax, a row, so sum over axis=-1"),
    (dict(dk_transposed=False), "looks like dk = dscores @ q: key j collects from every query i, so it is "
                                "dscores^T @ q (swap the last two axes of dscores)"),
    (dict(dv_transposed=False), "looks like dv = weights @ dout: value j collects from every query i, so it is "
                                "weights^T @ dout (swap the last two axes of the weights)"),
]


def _mistakes(q, k, v, dout, which):
    """(result, hint) for the classic mistakes that give `which` (dq, dk or dv) a wrong value."""
    position = ("dq", "dk", "dv").index(which)
    candidates = list(_MISTAKES)
    if q.shape[-1] != v.shape[-1]:
        candidates.append((dict(width=v.shape[-1]), "looks like d was read from v: the scale is 1/sqrt(d) with "
                                                    "d = q.shape[-1], the width of the queries and keys"))
    candidates.append((dict(divisor=q.shape[-1]), "looks like the scores were divided by d instead of sqrt(d)"))
    return [(lambda options=options: _variant(q, k, v, dout, **options)[position], hint)
            for options, hint in candidates]


_diagnosis = Diagnosis(_mistakes, correct=lambda q, k, v, dout, which: _expected(q, k, v, dout)[
    ("dq", "dk", "dv").index(which)], rtol=1e-5)


# ---- calling the learner's function -------------------------------------------------------------

def _describe(q, v):
    kind = "" if q.dtype == np.float64 else f" {q.dtype}"
    return f"causal_attention_backward(q, k of shape {q.shape}, v, dout of shape {v.shape}{kind})"


def _gradients(causal_attention_backward, q, k, v, dout):
    """Call the learner's function; return ([dq, dk, dv] as float64 copies, base tolerance, the call)."""
    def shape_hint(name, shape):
        if name == "dv" and shape == q.shape and q.shape != v.shape:
            return "the shape of q: dv has the shape of v, (..., T, dv)"
        if name in ("dq", "dk") and shape == v.shape and q.shape != v.shape:
            return "the shape of v: dq and dk have the shape of q and k, (..., T, d)"
        if shape[-2:] == (q.shape[-2], q.shape[-2]):
            return "a (T, T) matrix: that is the shape of the scores, not of the inputs"
        return ""
    arrays, precision, what = call_many(causal_attention_backward, q, k, v, dout, names=("dq", "dk", "dv"),
                                        shapes=(q.shape, k.shape, v.shape), what=_describe(q, v),
                                        shape_hint=shape_hint)
    return arrays, precision.tolerance(float64=1e-9, float32=1e-4), what


def _compare(got, expected, base, what, inputs):
    """Fail at the worst entry of the first gradient that differs.  The absolute tolerance is scaled to
    the largest expected value, since dq's first row and every dq, dk for T = 1 are exactly zero."""
    tol = base * max(1.0, max(float(np.abs(e).max()) for e in expected))
    for name, mine, want in zip(("dq", "dk", "dv"), got, expected):
        error = np.abs(mine - want)
        error[np.isnan(error)] = np.inf
        if error.max() > tol:
            index = tuple(int(i) for i in np.unravel_index(int(np.argmax(error)), error.shape))
            wrong = int((error > tol).sum())
            shown = (mine, want) if mine.ndim <= 2 else (mine.reshape(-1, mine.shape[-1]),
                                                          want.reshape(-1, want.shape[-1]))
            fail(f"{name} of {what}{list(index)}: expected {want[index]:.8g}, got {mine[index]:.8g} "
                 f"({wrong} of {error.size} entries differ){_diagnosis(mine, *inputs, name)}",
                 got=shown[0], expected=shown[1])


def _check(causal_attention_backward, q, k, v, dout):
    got, base, what = _gradients(causal_attention_backward, q, k, v, dout)
    _compare(got, _expected(q, k, v, dout), base, what, (q, k, v, dout))
    return got, base, what


def _random(seed, lead, T, d, dv, dtype=np.float64):
    rng = np.random.default_rng(seed)
    q, k = rng.normal(0, 1.0, lead + (T, d)), rng.normal(0, 1.0, lead + (T, d))
    v, dout = rng.normal(0, 1.0, lead + (T, dv)), rng.normal(0, 1.0, lead + (T, dv))
    return tuple(a.astype(dtype) for a in (q, k, v, dout))


# ---- tests --------------------------------------------------------------------------------------

def test_shape(causal_attention_backward):
    """Returns (dq, dk, dv) of the shapes of q, k and v (dv != d, with and without leading axes)"""
    for seed, lead, T, d, dv in [(0, (), 4, 3, 5), (1, (2,), 3, 2, 4), (2, (), 1, 2, 3), (3, (2, 2), 3, 4, 2)]:
        _gradients(causal_attention_backward, *_random(seed, lead, T, d, dv))


def test_hand_checked(causal_attention_backward):
    """Hand-checked: T = 2, d = 1, q = [[1], [1]], k = [[0], [ln 3]] (weights [1, 0] and [1/4, 3/4])"""
    q, k = np.array([[1.0], [1.0]]), np.array([[0.0], [math.log(3.0)]])
    v, dout = np.array([[1.0, 0.0], [0.0, 2.0]]), np.array([[1.0, 1.0], [2.0, 0.0]])
    # dv = A^T dout = [[1.5, 1], [1.5, 0]]; dA = dout v^T = [[1, 2], [2, 0]]; dS row 0 = 0, row 1 =
    # [1/4 (2 - 0.5), 3/4 (0 - 0.5)] = [0.375, -0.375]; dq = dS k, dk = dS^T q.
    want = {"dq": [[0.0], [-0.375 * math.log(3.0)]], "dk": [[0.375], [-0.375]], "dv": [[1.5, 1.0], [1.5, 0.0]]}
    (dq, dk, dv), _, what = _gradients(causal_attention_backward, q, k, v, dout)
    for name, mine in (("dq", dq), ("dk", dk), ("dv", dv)):
        if not np.allclose(mine, want[name], rtol=0.0, atol=1e-9):
            fail(f"{name} of {what}: expected {np.round(want[name], 6).tolist()}, got {np.round(mine, 6).tolist()}"
                 f"{_diagnosis(mine, q, k, v, dout, name)}", got=mine, expected=np.array(want[name]))
    # A second small case: d = 4, so the scale is 1/2.
    q = np.array([[1.0, 0.0, 1.0, 0.0], [0.0, 2.0, 0.0, 1.0], [1.0, 1.0, -1.0, 0.0]])
    k = np.array([[0.0, 1.0, 0.0, 1.0], [1.0, 0.0, 2.0, 0.0], [1.0, -1.0, 0.0, 1.0]])
    v = np.array([[1.0, 2.0], [0.0, -1.0], [3.0, 1.0]])
    _check(causal_attention_backward, q, k, v, np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]))


def test_zero_rows(causal_attention_backward):
    """T = 1: dq and dk are exactly 0 and dv = dout; for T >= 2, dq's first row is 0"""
    # One position: its weight is 1 whatever the scores, so nothing depends on q or k.
    q, k, v, dout = _random(4, (), 1, 3, 2)
    (dq, dk, dv), base, what = _check(causal_attention_backward, q, k, v, dout)
    q, k, v, dout = _random(5, (3,), 1, 2, 4)
    _check(causal_attention_backward, q, k, v, dout)
    # Query 0 only sees key 0, with weight 1: the first row of dq is 0.
    q, k, v, dout = _random(6, (), 5, 3, 2)
    (dq, dk, dv), base, what = _gradients(causal_attention_backward, q, k, v, dout)
    if not np.abs(dq[0]).max() <= base * max(1.0, float(np.abs(dq).max())):
        fail(f"dq of {what}: row 0 should be 0 (query 0 only sees key 0, whose weight is always 1), got "
             f"{np.round(dq[0], 6).tolist()}{_diagnosis(dq, q, k, v, dout, 'dq')}")
    _compare((dq, dk, dv), _expected(q, k, v, dout), base, what, (q, k, v, dout))


def test_sums(causal_attention_backward):
    """dk sums to 0 over the positions, and dv sums to dout's sum over the positions"""
    # Adding one vector to every key shifts the scores of each query by the same amount: the softmax
    # does not change.  Adding one vector to every value adds it to every output: each row of weights sums to 1.
    q, k, v, dout = _random(7, (), 6, 4, 3)
    (dq, dk, dv), base, what = _gradients(causal_attention_backward, q, k, v, dout)
    tol = 10 * base * max(1.0, float(np.abs(dk).max()), float(np.abs(dv).max()))
    for name, total, want, reason in (
            ("dk", dk.sum(axis=-2), np.zeros(dk.shape[-1]), "the weights of a query do not change when every "
                                                            "key moves by the same vector"),
            ("dv", dv.sum(axis=-2), dout.sum(axis=-2), "each row of weights sums to 1")):
        if not np.allclose(total, want, rtol=0.0, atol=tol):
            fail(f"{name} of {what} summed over the positions: expected {np.round(want, 6).tolist()} ({reason}), "
                 f"got {np.round(total, 6).tolist()}{_diagnosis({'dk': dk, 'dv': dv}[name], q, k, v, dout, name)}")
    _compare((dq, dk, dv), _expected(q, k, v, dout), base, what, (q, k, v, dout))


def test_finite_differences(causal_attention_backward):
    """Agrees with central differences of causal attention (float64, batched)"""
    q, k, v, dout = _random(8, (2,), 3, 2, 3)
    (dq, dk, dv), _, what = _gradients(causal_attention_backward, q, k, v, dout)

    def loss(q, k, v):  # sum(causal_attention(q, k, v) * dout): its gradient is the backward pass of dout
        total = 0.0
        for b in range(q.shape[0]):
            out = _forward_2d(q[b].tolist(), k[b].tolist(), v[b].tolist())
            total += math.fsum(o * g for orow, grow in zip(out, dout[b].tolist()) for o, g in zip(orow, grow))
        return total

    losses = {"dq": lambda a: loss(a, k, v), "dk": lambda a: loss(q, a, v), "dv": lambda a: loss(q, k, a)}
    for name, mine, array in (("dq", dq, q), ("dk", dk, k), ("dv", dv, v)):
        expect_gradient(mine, losses[name], array, h=1e-6, atol=1e-6, rtol=1e-6,
                        what=f"{name} of {what}, for the loss sum(causal_attention(q, k, v) * dout)",
                        mistakes=lambda name=name: _mistakes(q, k, v, dout, name))


def test_scale(causal_attention_backward):
    """The 1/sqrt(d) scale, with d = q.shape[-1], in the forward weights and in dq and dk"""
    _check(causal_attention_backward, *_random(9, (), 5, 4, 2))
    _check(causal_attention_backward, *_random(10, (), 4, 9, 3))
    _check(causal_attention_backward, *_random(11, (), 4, 3, 3))


def test_heads(causal_attention_backward):
    """Batched inputs: heads (H, T, d) and a batch of heads (B, H, T, d)"""
    _check(causal_attention_backward, *_random(12, (3,), 4, 3, 2))
    _check(causal_attention_backward, *_random(13, (2, 2), 3, 2, 5))


def test_float32(causal_attention_backward):
    """float32 inputs give gradients within float32 precision"""
    _check(causal_attention_backward, *_random(14, (), 8, 4, 6, dtype=np.float32))
    _check(causal_attention_backward, *_random(15, (2,), 5, 3, 2, dtype=np.float32))


def test_large(causal_attention_backward):
    """A larger case: 4 heads, T = 32, d = 16, dv = 8"""
    _check(causal_attention_backward, *_random(16, (4,), 32, 16, 8))
