"""Hidden tests for attention(q, k, v) = softmax(q @ k^T / sqrt(d)) @ v.

Expected values come from a plain-Python formula below (nested lists, math.exp,
math.sqrt), written independently of solution.py.  When a result is wrong, the
tests rebuild the results of classic mistakes (no scaling, dividing by d,
softmax over the wrong axis, k not transposed, ...) so the message can name the
mistake.
"""

import math

import numpy as np

from grader.core.checks import fail, precision_of
from grader.core.testkit import Diagnosis, checked_array, num, num_pair


# ---- the formula, in plain Python, with switches that reproduce known mistakes ------------------

def _attention_2d(q, k, v, *, divisor=None, normalise="rows", scores="q_kT", weights_only=False):
    """softmax(q k^T / divisor) v for lists of lists; the keyword arguments reproduce mistakes.

    divisor(d, dv, Tq, Tk) gives the number the scores are divided by (correct: sqrt(d)).
    normalise: "rows" (correct), "columns" or "all" (one softmax over the whole matrix).
    scores: "q_kT" (correct), "q_k" (k not transposed, needs d == Tk) or "k_qT" (transposed scores).
    """
    Tq, d, Tk, dv = len(q), len(q[0]), len(k), len(v[0])
    scale = math.sqrt(d) if divisor is None else divisor(d, dv, Tq, Tk)
    if scores == "q_kT":
        S = [[sum(q[i][m] * k[j][m] for m in range(d)) / scale for j in range(Tk)] for i in range(Tq)]
    elif scores == "q_k":
        S = [[sum(q[i][m] * k[m][j] for m in range(d)) / scale for j in range(d)] for i in range(Tq)]
    else:
        S = [[sum(k[i][m] * q[j][m] for m in range(d)) / scale for j in range(Tq)] for i in range(Tk)]
    rows, cols = len(S), len(S[0])
    if normalise == "rows":
        W = []
        for row in S:
            top = max(row)
            e = [math.exp(s - top) for s in row]
            total = sum(e)
            W.append([x / total for x in e])
    elif normalise == "columns":
        W = [[0.0] * cols for _ in range(rows)]
        for j in range(cols):
            top = max(S[i][j] for i in range(rows))
            e = [math.exp(S[i][j] - top) for i in range(rows)]
            total = sum(e)
            for i in range(rows):
                W[i][j] = e[i] / total
    else:
        top = max(max(row) for row in S)
        e = [[math.exp(s - top) for s in row] for row in S]
        total = sum(sum(row) for row in e)
        W = [[x / total for x in row] for row in e]
    if weights_only:
        return W
    return [[sum(W[i][j] * v[j][c] for j in range(cols)) for c in range(dv)] for i in range(rows)]


def _expected(q, k, v, **options):
    """The formula applied to every matrix of the leading (batch) axes; a float64 array."""
    def recurse(qq, kk, vv, depth):
        if depth == 0:
            return _attention_2d(qq, kk, vv, **options)
        return [recurse(a, b, c, depth - 1) for a, b, c in zip(qq, kk, vv)]
    return np.array(recurse(q.tolist(), k.tolist(), v.tolist(), q.ndim - 2), dtype=np.float64)


_MISTAKES = [
    (dict(divisor=lambda d, dv, Tq, Tk: 1.0),
     "looks like the scores were not scaled: divide q @ k^T by sqrt(d)"),
    (dict(divisor=lambda d, dv, Tq, Tk: float(d)),
     "looks like the scores were divided by d instead of sqrt(d)"),
    (dict(divisor=lambda d, dv, Tq, Tk: 1.0 / math.sqrt(d)),
     "looks like the scores were multiplied by sqrt(d) instead of divided by it"),
    (dict(divisor=lambda d, dv, Tq, Tk: math.sqrt(dv)),
     "looks like the scores were divided by sqrt(dv), the width of v; d is the width of q and k, q.shape[-1]"),
    (dict(divisor=lambda d, dv, Tq, Tk: math.sqrt(Tq)),
     "looks like the scores were divided by sqrt of the number of queries Tq; d is the last axis, "
     "q.shape[-1] (q.shape[0] or q.shape[1] is a number of tokens)"),
    (dict(divisor=lambda d, dv, Tq, Tk: math.sqrt(Tk)),
     "looks like the scores were divided by sqrt of the number of keys Tk; d is the last axis, q.shape[-1]"),
    (dict(normalise="columns"),
     "looks like the softmax ran over the wrong axis (each column sums to 1); each row, one query, "
     "must sum to 1: softmax over axis=-1"),
    (dict(normalise="all"),
     "looks like one softmax was taken over the whole score matrix; each row, one query, gets its own "
     "softmax over axis=-1"),
    (dict(scores="q_k"),
     "looks like q @ k was used without transposing k; the scores are q @ k^T, one dot product per "
     "query-key pair"),
    (dict(scores="k_qT"),
     "looks like the score matrix was transposed (k @ q^T): row i of the scores belongs to query i"),
    (dict(weights_only=True),
     "looks like the attention weights were returned; multiply them by v to get the output"),
]


def _mistakes(q, k, v):
    """(result, hint) for the classic mistakes that apply to these shapes (none on large inputs)."""
    Tq, d, Tk = q.shape[-2], q.shape[-1], k.shape[-2]
    if int(np.prod(q.shape[:-1])) * v.shape[-1] > 2000:
        return []
    return [(lambda options=options: _expected(q, k, v, **options), hint) for options, hint in _MISTAKES
            if not (options.get("scores") == "q_k" and d != Tk) and not (options.get("scores") == "k_qT" and Tq != Tk)]


# A mistake that coincides with the right answer on an input is not named.
_diagnosis = Diagnosis(_mistakes, correct=_expected, atol=1e-4, rtol=1e-4)


# ---- calling the learner's function and comparing --------------------------------------------------

def _shapes(q, k, v):
    return f"q of shape {q.shape}, k of shape {k.shape}, v of shape {v.shape}"


def _output(attention, q, k, v, *, batched=False):
    """Call the learner's function; return (float64 copy, tolerance) after checking the shape."""
    what = f"attention(q, k, v) for {_shapes(q, k, v)}"
    precision = precision_of(q, k, v)
    try:
        result = attention(q, k, v)
    except ValueError as exc:
        description = getattr(exc, "description", "ValueError")
        if batched:
            hint = ("With leading batch axes, transpose only the last two axes of k: np.swapaxes(k, -1, -2) "
                    "or k.transpose(0, 2, 1) for 3-D k; k.T reverses every axis, (B, Tk, d) becomes (d, Tk, B).")
        else:
            hint = ("q has shape (Tq, d) and k has shape (Tk, d): the scores q @ k^T need k transposed to "
                    "(d, Tk), and the weights (Tq, Tk) multiply v of shape (Tk, dv).")
        fail(f"{what}: your function raised an error instead of returning an array of shape "
             f"{q.shape[:-1] + v.shape[-1:]}. {hint}\n{description}")
    # float32 is good to about 1e-7 relative, but scores are sums of products and go through exp;
    # float64 gets 1e-6, far below what every classic mistake is off by.
    tol = precision.tolerance(float64=1e-6, float32=1e-4, float16=1e-1)
    lead = tuple(q.shape[:-2])
    Tq, Tk, dv = q.shape[-2], k.shape[-2], v.shape[-1]
    want = lead + (Tq, dv)

    def shape_hint(shape):
        if shape == lead + (Tq, Tk) and Tk != dv:
            return ("looks like the attention weights, of shape (Tq, Tk), were returned; "
                    "multiply them by v to get the output")
        if shape == lead + (dv, Tq) and dv != Tq:
            return "looks like the output is transposed: one row per query"
        if shape == lead + (Tk, dv) and Tk != Tq:
            return "one row per key instead of one row per query: is the score matrix transposed?"
        return "the leading batch axes should be kept as they are" if batched and shape[-2:] == want[-2:] else ""
    return checked_array(result, precision, what=what, shape=want, shape_hint=shape_hint), tol


def _compare(got, expected, tol, q, k, v, *, label="out"):
    """Fail at the worst entry where `got` differs from `expected`."""
    error = np.abs(got - expected) - (tol + 1e-7 * np.abs(expected))
    error[np.isnan(error)] = np.inf
    if error.max() > 0:
        index = tuple(int(i) for i in np.unravel_index(int(np.argmax(error)), error.shape))
        wrong = int((error > 0).sum())
        where = "[" + ", ".join(str(i) for i in index) + "]"
        want, have = num_pair(expected[index], got[index])
        fail(f"attention(q, k, v) for {_shapes(q, k, v)}: {label}{where} expected {want}, "
             f"got {have} ({wrong} of {error.size} entries differ){_diagnosis(got, q, k, v)}",
             got=got, expected=expected)


def _random(rng, *shape, scale=1.0):
    return np.round(rng.normal(size=shape) * scale, 3)


# ---- the tests -----------------------------------------------------------------------------------

def test_shape(attention):
    """Output shape is (Tq, dv)"""
    rng = np.random.default_rng(1)
    # (Tq, Tk, d, dv): all different, so that a wrong axis shows up as a wrong shape.
    for Tq, Tk, d, dv in [(2, 3, 4, 5), (5, 3, 2, 4), (1, 1, 3, 2), (4, 4, 4, 4)]:
        q, k, v = _random(rng, Tq, d), _random(rng, Tk, d), _random(rng, Tk, dv)
        _output(attention, q, k, v)


def test_hand_checked(attention):
    """Matches a hand-checked example"""
    # d = 4, so sqrt(d) = 2.  Query 0 scores [4/2, 0] = [2, 0]: weights e^2/(e^2+1) = 0.8808 and
    # 1/(e^2+1) = 0.1192.  Query 1 is all zeros: scores [0, 0], weights [0.5, 0.5], the mean of v's rows.
    q = np.array([[1.0, 1.0, 1.0, 1.0], [0.0, 0.0, 0.0, 0.0]])
    k = np.array([[1.0, 1.0, 1.0, 1.0], [0.0, 0.0, 0.0, 0.0]])
    v = np.array([[1.0, 2.0], [3.0, 4.0]])
    got, tol = _output(attention, q, k, v)
    w = math.exp(2.0) / (math.exp(2.0) + 1.0)
    hand = [
        (0, 0, w * 1.0 + (1.0 - w) * 3.0, "0.8808 * 1 + 0.1192 * 3"),
        (0, 1, w * 2.0 + (1.0 - w) * 4.0, "0.8808 * 2 + 0.1192 * 4"),
        (1, 0, 2.0, "(1 + 3) / 2"),
        (1, 1, 3.0, "(2 + 4) / 2"),
    ]
    for i, c, want, formula in hand:
        if not abs(got[i, c] - want) <= tol + 1e-7 * abs(want):
            shown_want, shown_got = num_pair(want, got[i, c])
            fail(f"attention(q, k, v) for q = {q.tolist()}, k = {k.tolist()}, v = {v.tolist()}: "
                 f"out[{i}, {c}] expected {formula} = {shown_want}, got {shown_got}"
                 f"{_diagnosis(got, q, k, v)}")


def test_matches_formula(attention):
    """Matches softmax(q k^T / sqrt(d)) v on square and rectangular inputs"""
    # First a square case (Tq = Tk = d) where q @ k without the transpose runs, so that mistake can be named.
    q = np.array([[1.0, 0.0, 2.0], [0.0, -1.0, 1.0], [0.5, 0.5, 0.0]])
    k = np.array([[0.0, 1.0, 1.0], [2.0, 0.0, -1.0], [1.0, 1.0, 0.0]])
    v = np.array([[1.0, 0.0], [0.0, 1.0], [2.0, 2.0]])
    got, tol = _output(attention, q, k, v)
    _compare(got, _expected(q, k, v), tol, q, k, v)
    rng = np.random.default_rng(7)
    for Tq, Tk, d, dv in [(3, 5, 4, 2), (4, 2, 9, 3), (6, 6, 2, 5)]:
        q, k, v = _random(rng, Tq, d), _random(rng, Tk, d), _random(rng, Tk, dv)
        got, tol = _output(attention, q, k, v)
        _compare(got, _expected(q, k, v), tol, q, k, v)


def test_weights_rows_sum_to_one(attention):
    """Attention weights of each query sum to 1 (v = identity exposes them)"""
    # With v the (Tk, Tk) identity, the output is the weight matrix itself.
    rng = np.random.default_rng(3)
    Tq, Tk, d = 3, 5, 4
    q, k = _random(rng, Tq, d, scale=1.5), _random(rng, Tk, d, scale=1.5)
    v = np.eye(Tk)
    got, tol = _output(attention, q, k, v)
    what = f"attention(q, k, v) for {_shapes(q, k, v)} with v = identity (so the output is the weights)"
    if not np.isfinite(got).all():
        fail(f"{what}: expected finite weights, got NaN or inf")
    if got.min() < -tol:
        i, j = (int(x) for x in np.unravel_index(int(np.argmin(got)), got.shape))
        fail(f"{what}: weight[{i}, {j}] expected a value >= 0 (weights come out of a softmax), "
             f"got {num(got[i, j])}{_diagnosis(got, q, k, v)}")
    sums = got.sum(axis=1)
    bad = np.abs(sums - 1.0) > tol * Tk + 1e-7
    if bad.any():
        i = int(np.argmax(bad))
        hint = ""
        if np.allclose(got.sum(axis=0), 1.0, atol=1e-4):
            hint = (" (each column sums to 1 instead: the softmax ran over the queries, axis=0 / -2; "
                    "it must run over the keys, axis=-1)")
        elif abs(got.sum() - 1.0) <= 1e-4:
            hint = " (the whole matrix sums to 1: each row needs its own softmax, over axis=-1)"
        fail(f"{what}: row {i} of the weights expected to sum to 1, got {num(sums[i])} "
             f"({int(bad.sum())} of {Tq} rows are off){hint or _diagnosis(got, q, k, v)}")
    expected = _expected(q, k, v, weights_only=True)
    _compare(got, expected, tol, q, k, v, label="weight")


def test_batched(attention):
    """Batched inputs (..., T, d) give the per-item results"""
    rng = np.random.default_rng(11)
    # 3-D: (B, T, d).  d = 3 differs from Tq = 4, so q.shape[1] used as d gives a wrong scale.
    q, k, v = _random(rng, 2, 4, 3), _random(rng, 2, 5, 3), _random(rng, 2, 5, 2)
    got, tol = _output(attention, q, k, v, batched=True)
    _compare(got, _expected(q, k, v), tol, q, k, v)
    # 4-D: (B, heads, T, d), float32 as in a real model: the tolerance follows the inputs' precision.
    q = _random(rng, 2, 3, 3, 2).astype(np.float32)
    k = _random(rng, 2, 3, 4, 2).astype(np.float32)
    v = _random(rng, 2, 3, 4, 3).astype(np.float32)
    got, tol = _output(attention, q, k, v, batched=True)
    _compare(got, _expected(q.astype(np.float64), k.astype(np.float64), v.astype(np.float64)), tol, q, k, v)


def test_sharp_and_uniform(attention):
    """Identical keys give the mean of v; one dominant key selects its value"""
    v = np.array([[1.0, -2.0, 0.5], [3.0, 0.0, 1.5], [-1.0, 4.0, 2.0], [0.0, 1.0, -3.0]])
    mean = v.mean(axis=0)
    # Every key the same: all scores of a query are equal, every weight is 1/4.
    q = np.array([[1.0, 2.0], [-3.0, 0.5]])
    k = np.array([[0.5, -1.0]] * 4)
    got, tol = _output(attention, q, k, v)
    for i in range(2):
        for c in range(3):
            if not abs(got[i, c] - mean[c]) <= tol + 1e-7:
                shown_want, shown_got = num_pair(mean[c], got[i, c])
                fail(f"attention(q, k, v) with 4 identical keys: out[{i}, {c}] expected the mean of v's "
                     f"column {c} = {shown_want} (equal scores, every weight 1/4), got {shown_got}"
                     f"{_diagnosis(got, q, k, v)}")
    # Key 2 is far better aligned with the query than the others (score 16/2 = 8 against 0): the output
    # is close to v[2], with weight e^8 / (e^8 + 3) = 0.99899 on it.
    q = np.array([[4.0, 0.0, 0.0, 0.0]])
    k = np.array([[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [4.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]])
    got, tol = _output(attention, q, k, v)
    _compare(got, _expected(q, k, v), tol, q, k, v)


def test_larger(attention):
    """Larger case: T = 32, d = 16"""
    rng = np.random.default_rng(5)
    T, d, dv = 32, 16, 8
    q, k, v = _random(rng, T, d), _random(rng, T, d), _random(rng, T, dv)
    got, tol = _output(attention, q, k, v)
    _compare(got, _expected(q, k, v), tol, q, k, v)
