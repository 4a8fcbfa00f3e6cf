"""Hidden tests for causal_attention(q, k, v): attention where query i only sees keys j <= i.

Expected values come from a plain-Python formula below (nested lists, math.exp,
math.sqrt), written independently of solution.py: for each query the softmax
runs over the allowed keys only, so masked keys get weight exactly 0.  When a
result is wrong, the tests rebuild the results of classic mistakes (no mask,
diagonal masked, masked scores set to 0, mask applied after the softmax, ...)
so the message can name the mistake.
"""

import math

import numpy as np

from grader.core.checks import fail, precision_of
from grader.core.testkit import checked_array, diagnose, num, num_pair


# ---- the formula, in plain Python, with switches that reproduce known mistakes ------------------

def _softmax(scores):
    """Softmax of a list where None stands for a masked score (-inf); all masked gives NaN."""
    kept = [s for s in scores if s is not None]
    if not kept:
        return [math.nan] * len(scores)
    top = max(kept)
    e = [0.0 if s is None else math.exp(s - top) for s in scores]
    total = sum(e)
    return [x / total for x in e]


def _causal_2d(q, k, v, *, divisor=None, allowed=None, fill=None, after=False, normalise="rows"):
    """Causal attention for lists of lists; the keyword arguments reproduce mistakes.

    divisor(d): what the scores are divided by (correct: sqrt(d)).
    allowed(i, j): whether query i may see key j (correct: j <= i).
    fill: None (correct) drops masked scores, as -inf does; a number replaces them with it.
    after: softmax over every key, then zero the masked weights without renormalising.
    normalise: "rows" (correct, over the keys) or "columns" (over the queries).
    """
    T, d, dv = len(q), len(q[0]), len(v[0])
    scale = math.sqrt(d) if divisor is None else divisor(d)
    ok = (lambda i, j: j <= i) if allowed is None else allowed
    S = [[sum(q[i][m] * k[j][m] for m in range(d)) / scale for j in range(T)] for i in range(T)]
    if after:
        W = [[w if ok(i, j) else 0.0 for j, w in enumerate(_softmax(S[i]))] for i in range(T)]
    else:
        masked = [[S[i][j] if ok(i, j) else fill for j in range(T)] for i in range(T)]
        if normalise == "rows":
            W = [_softmax(row) for row in masked]
        else:
            columns = [_softmax([masked[i][j] for i in range(T)]) for j in range(T)]
            W = [[columns[j][i] for j in range(T)] for i in range(T)]
    return [[sum(W[i][j] * v[j][c] for j in range(T)) for c in range(dv)] for i in range(T)]


def _weights_2d(q, k):
    """The correct (T, T) weight matrix, from the formula (v = identity)."""
    T = len(q)
    return _causal_2d(q, k, [[1.0 if j == c else 0.0 for c in range(T)] for j in range(T)])


def _expected(q, k, v, **options):
    """The formula applied to every matrix of the leading (batch) axes; a float64 array."""
    def recurse(qq, kk, vv, depth):
        if depth == 0:
            return _causal_2d(qq, kk, vv, **options)
        return [recurse(a, b, c, depth - 1) for a, b, c in zip(qq, kk, vv)]
    return np.array(recurse(q.tolist(), k.tolist(), v.tolist(), q.ndim - 2), dtype=np.float64)


_DIAGONAL = ("looks like the diagonal was masked too (keys j >= i instead of j > i): query i may attend "
             "to itself, so the mask is np.triu(..., k=1), and row 0 always keeps key 0")
_MISTAKES = [
    (dict(allowed=lambda i, j: True),
     "looks like no causal mask was applied: query i must not see the keys j > i"),
    (dict(allowed=lambda i, j: j < i, fill=-1e9),
     _DIAGONAL),
    (dict(allowed=lambda i, j: j >= i),
     "looks like the mask hides the past instead of the future (np.tril where np.triu belongs, or the "
     "comparison reversed): query i sees the keys j <= i"),
    (dict(fill=0.0),
     "looks like the masked scores were set to 0 (or multiplied by a 0/1 mask) instead of -inf: a score "
     "of 0 still gets weight exp(0) in the softmax"),
    (dict(after=True),
     "looks like the mask was applied after the softmax: the weights left over no longer sum to 1; put "
     "-inf into the scores before the softmax"),
    (dict(normalise="columns"),
     "looks like the softmax ran over the wrong axis (over the queries, axis=-2); each query's weights, "
     "a row, must sum to 1: softmax over axis=-1"),
    (dict(divisor=lambda d: 1.0),
     "looks like the scores were not scaled: divide q @ k^T by sqrt(d)"),
    (dict(divisor=lambda d: float(d)),
     "looks like the scores were divided by d instead of sqrt(d)"),
]


def _explain(got, q, k, v):
    """' (hint)' naming the classic mistake that reproduces `got` (on small inputs), or ''."""
    if got.size > 2000:
        return ""
    finite_rows = np.isfinite(got).all(axis=-1)               # (..., T)
    if not finite_rows.all():
        if not finite_rows[..., 0].any() and finite_rows[..., 1:].all():
            return f" (only row 0 is NaN or inf: {_DIAGONAL})"
        if got.shape[-2] > 1 and not finite_rows[..., :-1].any() and finite_rows[..., -1].all():
            return (" (every row but the last is NaN or inf: looks like -inf was written into the "
                    "weights after the softmax; it belongs in the scores, before the softmax, where "
                    "exp(-inf) = 0)")
        return (" (NaN or inf: masked scores should be -inf before the softmax, the diagonal is never "
                "masked, so every row keeps at least one finite score)")
    # Two mistakes can give the same numbers on a small input: name both.
    return diagnose(got, [(lambda options=options: _expected(q, k, v, **options), hint) for options, hint in _MISTAKES],
                    correct=lambda: _expected(q, k, v), atol=1e-4, rtol=1e-4, pick="all")


# ---- calling the learner's function and comparing --------------------------------------------------

def _shapes(q, k, v):
    return f"q of shape {q.shape}, k of shape {k.shape}, v of shape {v.shape}"


def _output(causal_attention, q, k, v, *, batched=False, finite=True):
    """Call the learner's function; return (float64 copy, tolerance) after checking the shape (and finiteness)."""
    what = f"causal_attention(q, k, v) for {_shapes(q, k, v)}"
    want = tuple(q.shape[:-1]) + (v.shape[-1],)
    precision = precision_of(q, k, v)
    try:
        result = causal_attention(q, k, v)
    except ValueError as exc:
        description = getattr(exc, "description", "ValueError")
        if batched:
            hint = ("With leading batch axes, use T = q.shape[-2] for the (T, T) mask (q.shape[0] is the batch "
                    "size) and transpose only the last two axes of k: np.swapaxes(k, -1, -2); k.T reverses "
                    "every axis.")
        else:
            hint = ("q and k have shape (T, d): the scores q @ k^T need k transposed to (d, T); the (T, T) "
                    "mask matches the scores, and the weights (T, T) multiply v of shape (T, dv).")
        fail(f"{what}: your function raised an error instead of returning an array of shape {want}. "
             f"{hint}\n{description}")
    # float32 is good to about 1e-7 relative, but scores are sums of products and go through exp;
    # float64 gets 1e-6, far below what every classic mistake is off by.
    tol = precision.tolerance(float64=1e-6, float32=1e-4, float16=1e-1)
    lead, T, dv = tuple(q.shape[:-2]), q.shape[-2], v.shape[-1]

    def shape_hint(shape):
        if shape == lead + (T, T) and T != dv:
            return ("looks like the attention weights, of shape (T, T), were returned; "
                    "multiply them by v to get the output")
        if shape == lead + (dv, T) and dv != T:
            return "looks like the output is transposed: one row per query"
        return "the leading batch axes should be kept as they are" if batched and shape[-2:] == want[-2:] else ""
    got = checked_array(result, precision, what=what, shape=want, shape_hint=shape_hint)
    bad = ~np.isfinite(got)
    if finite and bad.any():
        index = tuple(int(i) for i in np.argwhere(bad)[0])
        fail(f"{what}: out{_index(index)} expected a finite number, got {got[index]} ({int(bad.sum())} of "
             f"{got.size} entries are NaN or inf){_explain(got, q, k, v)}")
    return got, tol


def _index(index):
    return "[" + ", ".join(str(i) for i in index) + "]"


def _compare(got, expected, tol, q, k, v, *, label="out", what=None):
    """Fail at the worst entry where `got` differs from `expected`."""
    error = np.abs(got - expected) - (tol + 1e-7 * np.abs(expected))
    error[np.isnan(error)] = np.inf
    if error.max() > 0:
        index = tuple(int(i) for i in np.unravel_index(int(np.argmax(error)), error.shape))
        wrong = int((error > 0).sum())
        want, have = num_pair(expected[index], got[index])
        what = what or f"causal_attention(q, k, v) for {_shapes(q, k, v)}"
        fail(f"{what}: {label}{_index(index)} expected {want}, got {have} "
             f"({wrong} of {error.size} entries differ){_explain(got, q, k, v)}", got=got, expected=expected)


def _random(rng, *shape, scale=1.0):
    return np.round(rng.normal(size=shape) * scale, 3)


# ---- the tests -----------------------------------------------------------------------------------

def test_shape(causal_attention):
    """Output shape is (T, dv)"""
    rng = np.random.default_rng(1)
    for T, d, dv in [(3, 4, 5), (5, 2, 3), (1, 3, 2), (4, 4, 4)]:
        q, k, v = _random(rng, T, d), _random(rng, T, d), _random(rng, T, dv)
        _output(causal_attention, q, k, v, finite=False)


def test_hand_checked(causal_attention):
    """Matches hand-checked examples"""
    # All scores equal (k = 0): query i spreads its weight evenly over keys 0..i, so out[i] is the
    # running mean of v[0..i]: [1, 0], ([1, 0] + [3, 2]) / 2 = [2, 1], ([1, 0] + [3, 2] + [5, -2]) / 3 = [3, 0].
    q = np.array([[1.0], [1.0], [1.0]])
    k = np.array([[0.0], [0.0], [0.0]])
    v = np.array([[1.0, 0.0], [3.0, 2.0], [5.0, -2.0]])
    got, tol = _output(causal_attention, q, k, v)
    running_mean = [[1.0, 0.0], [2.0, 1.0], [3.0, 0.0]]
    for i in range(3):
        for c in range(2):
            if not abs(got[i, c] - running_mean[i][c]) <= tol:
                want, have = num_pair(running_mean[i][c], got[i, c])
                fail(f"causal_attention(q, k, v) with every key 0 (all scores equal), q = {q.tolist()}, "
                     f"v = {v.tolist()}: out[{i}, {c}] expected the mean of v[0..{i}, {c}] = {want}, "
                     f"got {have}{_explain(got, q, k, v)}")
    # d = 4, sqrt(d) = 2, k = q.  Row 1: scores [0, 4/2] = [0, 2] -> weights [1, e^2] / (1 + e^2)
    # = [0.1192, 0.8808].  Row 2: scores [2, 2, 8/2 = 4] -> [1, 1, e^2] / (2 + e^2) = [0.1065, 0.1065, 0.7870].
    q = np.array([[2.0, 0.0, 0.0, 0.0], [0.0, 2.0, 0.0, 0.0], [2.0, 2.0, 0.0, 0.0]])
    e2 = math.exp(2.0)
    w1 = [1.0 / (1.0 + e2), e2 / (1.0 + e2)]
    w2 = [1.0 / (2.0 + e2), 1.0 / (2.0 + e2), e2 / (2.0 + e2)]
    hand = [
        (0, 0, 1.0, "v[0, 0] = 1 (query 0 only sees key 0)"),
        (0, 1, 0.0, "v[0, 1] = 0 (query 0 only sees key 0)"),
        (1, 0, w1[0] * 1.0 + w1[1] * 3.0, "0.1192 * 1 + 0.8808 * 3"),
        (1, 1, w1[0] * 0.0 + w1[1] * 2.0, "0.1192 * 0 + 0.8808 * 2"),
        (2, 0, w2[0] * 1.0 + w2[1] * 3.0 + w2[2] * 5.0, "0.1065 * 1 + 0.1065 * 3 + 0.7870 * 5"),
        (2, 1, w2[0] * 0.0 + w2[1] * 2.0 + w2[2] * -2.0, "0.1065 * 0 + 0.1065 * 2 + 0.7870 * (-2)"),
    ]
    got, tol = _output(causal_attention, q, q, v)
    for i, c, want, formula in hand:
        if not abs(got[i, c] - want) <= tol + 1e-7 * abs(want):
            shown_want, shown_got = num_pair(want, got[i, c])
            fail(f"causal_attention(q, q, v) for q = {q.tolist()}, v = {v.tolist()}: out[{i}, {c}] expected "
                 f"{formula} = {shown_want}, got {shown_got}{_explain(got, q, q, v)}")


def test_first_row(causal_attention):
    """The first query only sees the first key: out[0] = v[0]"""
    rng = np.random.default_rng(2)
    T, d, dv = 5, 3, 4
    q, k, v = _random(rng, T, d), _random(rng, T, d), _random(rng, T, dv)
    got, tol = _output(causal_attention, q, k, v)
    for c in range(dv):
        if not abs(got[0, c] - v[0, c]) <= tol:
            want, have = num_pair(v[0, c], got[0, c])
            fail(f"causal_attention(q, k, v) for {_shapes(q, k, v)}: out[0, {c}] expected v[0, {c}] = {want} "
                 f"(query 0 may only attend to key 0, with weight 1), got {have}{_explain(got, q, k, v)}")


def test_weights(causal_attention):
    """Weights are 0 above the diagonal and each row sums to 1 (v = identity exposes them)"""
    rng = np.random.default_rng(3)
    T, d = 5, 3
    q, k = _random(rng, T, d, scale=1.5), _random(rng, T, d, scale=1.5)
    v = np.eye(T)
    got, tol = _output(causal_attention, q, k, v)
    what = f"causal_attention(q, k, v) for {_shapes(q, k, v)} with v = identity (so the output is the weights)"
    future = np.triu(np.abs(got), k=1)
    if future.max() > tol:
        i, j = (int(x) for x in np.unravel_index(int(np.argmax(future)), future.shape))
        fail(f"{what}: weight[{i}, {j}] expected 0 (key {j} is in the future of query {i}, j > i), "
             f"got {num(got[i, j])} ({int((future > tol).sum())} of {T * (T - 1) // 2} weights above the "
             f"diagonal are not 0){_explain(got, q, k, v)}")
    sums = got.sum(axis=1)
    off = np.abs(sums - 1.0) > tol * T + 1e-7
    if off.any():
        i = int(np.argmax(off))
        fail(f"{what}: the weights of query {i} expected to sum to 1, got {num(sums[i])} "
             f"({int(off.sum())} of {T} rows are off){_explain(got, q, k, v)}")
    _compare(got, np.array(_weights_2d(q.tolist(), k.tolist())), tol, q, k, v, label="weight", what=what)


def test_causality(causal_attention):
    """Changing a future token does not change earlier outputs"""
    rng = np.random.default_rng(4)
    T, d, dv = 6, 4, 3
    q, k, v = _random(rng, T, d), _random(rng, T, d), _random(rng, T, dv)
    before, tol = _output(causal_attention, q, k, v)
    for t in (4, 1):
        # New q, k and v rows for the tokens t..T-1; rows 0..t-1 of the output may not change.
        q2, k2, v2 = q.copy(), k.copy(), v.copy()
        q2[t:], k2[t:], v2[t:] = _random(rng, T - t, d, scale=2), _random(rng, T - t, d, scale=2), \
            _random(rng, T - t, dv, scale=2)
        after, tol2 = _output(causal_attention, q2, k2, v2)
        change = np.abs(after[:t] - before[:t])
        change[np.isnan(change)] = np.inf
        if change.max() > max(tol, tol2):
            i, c = (int(x) for x in np.unravel_index(int(np.argmax(change)), change.shape))
            was, now = num_pair(before[i, c], after[i, c])
            fail(f"causal_attention(q, k, v) for {_shapes(q, k, v)}: changing the q, k and v rows of tokens "
                 f"{t}..{T - 1} changed out[{i}, {c}] from {was} to {now}; output row {i} may only depend on "
                 f"tokens 0..{i}{_explain(before, q, k, v)}")


def test_batched(causal_attention):
    """Batched inputs (..., T, d) give the per-item results"""
    rng = np.random.default_rng(11)
    # 3-D: (B, T, d) with B, T, d and dv all different, so a mask built from q.shape[0] or d taken
    # from q.shape[1] shows up.
    q, k, v = _random(rng, 2, 4, 3), _random(rng, 2, 4, 3), _random(rng, 2, 4, 5)
    got, tol = _output(causal_attention, q, k, v, batched=True)
    _compare(got, _expected(q, k, v), tol, q, k, v)
    # 4-D: (B, heads, T, d), float32 as in a real model: the tolerance follows the inputs' precision.
    q = _random(rng, 2, 3, 5, 2).astype(np.float32)
    k = _random(rng, 2, 3, 5, 2).astype(np.float32)
    v = _random(rng, 2, 3, 5, 3).astype(np.float32)
    got, tol = _output(causal_attention, q, k, v, batched=True)
    _compare(got, _expected(q.astype(np.float64), k.astype(np.float64), v.astype(np.float64)), tol, q, k, v)


def test_larger(causal_attention):
    """Larger case: T = 32, d = 16"""
    rng = np.random.default_rng(5)
    T, d, dv = 32, 16, 8
    q, k, v = _random(rng, T, d), _random(rng, T, d), _random(rng, T, dv)
    got, tol = _output(causal_attention, q, k, v)
    _compare(got, _expected(q, k, v), tol, q, k, v)
