"""Hidden tests for multi_head_attention(x, W_q, W_k, W_v, W_o, n_heads).

Expected values come from a plain-Python formula below (nested lists, math.exp,
math.sqrt), written independently of solution.py and of the learner's earlier
steps: project, split the columns into heads, causal attention in each head
scaled by sqrt(D), concatenate, project with W_o.  When a result is wrong, the
tests rebuild the results of classic mistakes (sqrt(C) instead of sqrt(D),
heads split or merged in the wrong order, W_o forgotten, no causal mask, ...)
so the message can name the mistake.
"""

import math

import numpy as np

from grader.core.checks import fail, precision_of
from grader.core.testkit import Diagnosis, checked_array, num_pair


# ---- the formula, in plain Python, with switches that reproduce known mistakes ------------------

def _matmul(A, B):
    return [[sum(A[i][m] * B[m][j] for m in range(len(B))) for j in range(len(B[0]))] for i in range(len(A))]


def _transpose(A):
    return [list(row) for row in zip(*A)]


def _split(a, H, how):
    """(T, C) list -> H heads of (T, D).  blocks: head h = columns h*D..(h+1)*D-1 (correct)."""
    T, C = len(a), len(a[0])
    D = C // H
    if how == "blocks":
        return [[[a[t][h * D + m] for m in range(D)] for t in range(T)] for h in range(H)]
    if how == "interleaved":          # a.reshape(T, D, H): head h = columns h, h + H, h + 2H, ...
        return [[[a[t][m * H + h] for m in range(D)] for t in range(T)] for h in range(H)]
    flat = [a[t][c] for t in range(T) for c in range(C)]   # a.reshape(H, T, D), no transpose
    return [[[flat[h * T * D + t * D + m] for m in range(D)] for t in range(T)] for h in range(H)]


def _merge(heads, how):
    """H heads of (T, D) -> (T, C).  blocks: head h fills columns h*D..(h+1)*D-1 (correct)."""
    H, T, D = len(heads), len(heads[0]), len(heads[0][0])
    C = H * D
    if how == "blocks":
        return [[heads[c // D][t][c % D] for c in range(C)] for t in range(T)]
    if how == "interleaved":          # np.stack(heads, axis=-1).reshape(T, C)
        return [[heads[c % H][t][c // H] for c in range(C)] for t in range(T)]
    flat = [heads[h][t][m] for h in range(H) for t in range(T) for m in range(D)]   # (H, T, D).reshape(T, C)
    return [[flat[t * C + c] for c in range(C)] for t in range(T)]


def _head(q, k, v, divisor, causal, normalise):
    """Attention of one head: q, k, v are (T, D) lists."""
    T, D = len(q), len(q[0])
    out = []
    if normalise == "columns":
        S = [[sum(q[i][m] * k[j][m] for m in range(D)) / divisor for j in range(T)] for i in range(T)]
        W = [[0.0] * T for _ in range(T)]
        for j in range(T):
            rows = [i for i in range(T) if j <= i or not causal]
            top = max(S[i][j] for i in rows)
            e = {i: math.exp(S[i][j] - top) for i in rows}
            total = sum(e.values())
            for i in rows:
                W[i][j] = e[i] / total
        return _matmul(W, v)
    for i in range(T):
        keys = range(i + 1) if causal is True else range(T) if causal is False else range(i)
        if not keys:
            # causal == "diagonal" (keys j < i) with a large negative fill: query 0 has every score
            # equal to the fill value and spreads its weight evenly over all keys.
            out.append([sum(v[j][c] for j in range(T)) / T for c in range(D)])
            continue
        scores = [sum(q[i][m] * k[j][m] for m in range(D)) / divisor for j in keys]
        top = max(scores)
        e = [math.exp(s - top) for s in scores]
        total = sum(e)
        out.append([sum(e[n] / total * v[j][c] for n, j in enumerate(keys)) for c in range(D)])
    return out


def _mha(x, W_q, W_k, W_v, W_o, H, *, scale="D", split="blocks", merge="blocks", use_W_o=True, causal=True,
         transpose_W=False, normalise="rows"):
    """Multi-head causal self-attention for lists of lists; the keyword arguments reproduce mistakes."""
    C = len(x[0])
    D = C // H
    weights = [W_q, W_k, W_v, W_o]
    if transpose_W:
        weights = [_transpose(W) for W in weights]
    W_q, W_k, W_v, W_o = weights
    divisor = {"D": math.sqrt(D), "C": math.sqrt(C), "none": 1.0, "D_not_sqrt": float(D)}[scale]
    q, k, v = _matmul(x, W_q), _matmul(x, W_k), _matmul(x, W_v)
    qs, ks, vs = _split(q, H, split), _split(k, H, split), _split(v, H, split)
    heads = [_head(qs[h], ks[h], vs[h], divisor, causal, normalise) for h in range(H)]
    merged = _merge(heads, merge)
    return _matmul(merged, W_o) if use_W_o else merged


def _expected(args, **options):
    x, W_q, W_k, W_v, W_o, H = args
    lists = [a.astype(np.float64).tolist() for a in (x, W_q, W_k, W_v, W_o)]
    return np.array(_mha(*lists, H, **options), dtype=np.float64)


_MISTAKES = [
    (dict(scale="C"),
     "looks like the scores were divided by sqrt(C); each head works in D = C // n_heads dimensions, "
     "so divide by sqrt(D) (your causal_attention does this if it reads d from its own q)"),
    (dict(scale="none"),
     "looks like the scores were not scaled: divide each head's q @ k^T by sqrt(D)"),
    (dict(scale="D_not_sqrt"),
     "looks like the scores were divided by D instead of sqrt(D)"),
    (dict(split="interleaved", merge="interleaved"),
     "looks like the heads were split with reshape(T, D, n_heads), which gives head h the interleaved "
     "columns h, h + n_heads, ...; head h owns the block of columns h*D:(h+1)*D: reshape(T, n_heads, D)"),
    (dict(split="interleaved"),
     "looks like the heads were split with reshape(T, D, n_heads), which gives head h the interleaved "
     "columns h, h + n_heads, ...; head h owns the block of columns h*D:(h+1)*D: reshape(T, n_heads, D)"),
    (dict(merge="interleaved"),
     "looks like the heads were merged in the wrong order (interleaved, as np.stack(heads, axis=-1)"
     ".reshape(T, C) does); concatenate them side by side: head h fills columns h*D:(h+1)*D"),
    (dict(merge="no_transpose"),
     "looks like the (n_heads, T, D) heads were reshaped to (T, C) without moving the head axis first; "
     "transpose to (T, n_heads, D) before the reshape, or np.concatenate(heads, axis=-1)"),
    (dict(split="no_transpose", merge="no_transpose"),
     "looks like q, k and v were reshaped straight to (n_heads, T, D), which mixes positions into the "
     "heads; reshape to (T, n_heads, D) and then move the head axis first"),
    (dict(split="no_transpose"),
     "looks like q, k and v were reshaped straight to (n_heads, T, D), which mixes positions into the "
     "heads; reshape to (T, n_heads, D) and then move the head axis first"),
    (dict(use_W_o=False),
     "looks like the output projection was left out: multiply the concatenated heads by W_o"),
    (dict(causal=False),
     "looks like the heads are not causal: each head must mask the keys j > i (causal_attention, step 8)"),
    (dict(causal="diagonal"),
     "looks like the diagonal was masked too (keys j >= i instead of j > i): query i may attend to itself"),
    (dict(transpose_W=True),
     "looks like the weights were applied transposed (x @ W.T); here q = x @ W_q, and the output is "
     "heads @ W_o"),
    (dict(normalise="columns"),
     "looks like the softmax ran over the queries (axis=-2); each query's weights must sum to 1: axis=-1"),
]


def _mistakes(args):
    """(result, hint) for each classic mistake (none on large inputs or a width that does not split)."""
    x, H = args[0], args[5]
    if x.shape[0] * x.shape[1] > 200 or x.shape[1] % H:
        return []
    return [(lambda options=options: _expected(args, **options), hint) for options, hint in _MISTAKES]


# A mistake that coincides with the right answer on an input is not named.
_diagnosis = Diagnosis(_mistakes, correct=_expected, atol=1e-4, rtol=1e-4)


# ---- calling the learner's function and comparing --------------------------------------------------

def _describe(args):
    x, H = args[0], args[5]
    return f"multi_head_attention(x, W_q, W_k, W_v, W_o, n_heads={H}) for x of shape {x.shape}"


def _output(mha, args):
    """Call the learner's function; return (float64 copy, tolerance) after checking shape and finiteness."""
    x, W_q, W_k, W_v, W_o, H = args
    what = _describe(args)
    T, C = x.shape
    precision = precision_of(x, W_q, W_k, W_v, W_o)
    try:
        result = mha(x, W_q, W_k, W_v, W_o, H)
    except ValueError as exc:
        description = getattr(exc, "description", "ValueError")
        fail(f"{what}: your function raised an error instead of returning an array of shape {(T, C)}. "
             f"q = x @ W_q has shape (T, C) = {(T, C)}; with D = C // n_heads = {C // H}, split it into "
             f"n_heads arrays of shape (T, D) (or one (n_heads, T, D) array), run causal attention in each, "
             f"and put the heads back side by side into (T, C) before @ W_o.\n{description}")
    # float32 is good to about 1e-7 relative, but scores are sums of products and go through exp;
    # float64 gets 1e-6, far below what every classic mistake is off by.
    tol = precision.tolerance(float64=1e-6, float32=1e-4, float16=1e-1)
    D = C // H

    def shape_hint(shape):
        if shape == (H, T, D):
            return ("looks like the heads were returned stacked, (n_heads, T, D); concatenate them along "
                    "the last axis into (T, C) and multiply by W_o")
        if shape == (T, D):
            return "looks like only one head was returned; concatenate all n_heads heads into (T, C)"
        if shape == (T, H, D):
            return "merge the last two axes: reshape (T, n_heads, D) to (T, C), then multiply by W_o"
        return ""
    got = checked_array(result, precision, what=what, shape=(T, C), shape_hint=shape_hint)
    bad = ~np.isfinite(got)
    if bad.any():
        t, c = (int(i) for i in np.argwhere(bad)[0])
        fail(f"{what}: out[{t}, {c}] expected a finite number, got {got[t, c]} ({int(bad.sum())} of {got.size} "
             f"entries are NaN or inf; is the diagonal masked? query i may attend to itself, keys j > i are "
             f"masked)")
    return got, tol


def _compare(got, expected, tol, args, *, note=""):
    """Fail at the worst entry where `got` differs from `expected`."""
    error = np.abs(got - expected) - (tol + 1e-7 * np.abs(expected))
    error[np.isnan(error)] = np.inf
    if error.max() > 0:
        t, c = (int(i) for i in np.unravel_index(int(np.argmax(error)), error.shape))
        wrong = int((error > 0).sum())
        want, have = num_pair(expected[t, c], got[t, c])
        fail(f"{_describe(args)}{note}: out[{t}, {c}] expected {want}, got {have} "
             f"({wrong} of {error.size} entries differ){_diagnosis(got, args)}", got=got, expected=expected)


def _case(rng, T, C, H, *, dtype=np.float64):
    """Random x (T, C) and weights (C, C) scaled by 1/sqrt(C), rounded to 3 decimals."""
    x = np.round(rng.normal(size=(T, C)), 3)
    Ws = [np.round(rng.normal(size=(C, C)) / math.sqrt(C), 3) for _ in range(4)]
    return tuple(a.astype(dtype) for a in [x] + Ws) + (H,)


# ---- the tests -----------------------------------------------------------------------------------

def test_shape(multi_head_attention):
    """Output shape is (T, C)"""
    rng = np.random.default_rng(1)
    for T, C, H in [(3, 4, 2), (5, 6, 3), (1, 4, 4), (4, 8, 1)]:
        _output(multi_head_attention, _case(rng, T, C, H))


def test_hand_checked(multi_head_attention):
    """Matches hand-checked examples (identity weights, 1 and 2 heads)"""
    x = np.array([[1.0, 0.0], [0.0, 1.0]])
    I = np.eye(2)
    e = math.e
    # 2 heads, D = 1, every W = I: head 0 sees column 0 of x, [1, 0]; head 1 sees column 1, [0, 1].
    # Row 0 of each head can only see itself.  Row 1 of head 0: scores [0*1, 0*0] = [0, 0] -> (1 + 0)/2 = 0.5.
    # Row 1 of head 1: scores [1*0, 1*1] / sqrt(1) = [0, 1] -> weights [1, e]/(1 + e), output e/(1 + e) = 0.7311.
    # 1 head, D = 2: row 1 scores [0, 1/sqrt(2)] -> weights [0.3302, 0.6698], the output row itself.
    w = 1.0 / (1.0 + math.exp(1.0 / math.sqrt(2.0)))
    cases = [
        (2, [[1.0, 0.0], [0.5, e / (1.0 + e)]],
         ["v[0] of head 0", "v[0] of head 1", "(1 + 0) / 2", "e / (1 + e)"]),
        (1, [[1.0, 0.0], [w, 1.0 - w]],
         ["v[0, 0]", "v[0, 1]", "1 / (1 + e^(1/sqrt(2)))", "e^(1/sqrt(2)) / (1 + e^(1/sqrt(2)))"]),
    ]
    for H, want, formulas in cases:
        args = (x, I, I, I, I, H)
        got, tol = _output(multi_head_attention, args)
        for n, (t, c) in enumerate([(0, 0), (0, 1), (1, 0), (1, 1)]):
            if not abs(got[t, c] - want[t][c]) <= tol:
                shown_want, shown_got = num_pair(want[t][c], got[t, c])
                fail(f"multi_head_attention(x, I, I, I, I, n_heads={H}) for x = {x.tolist()} and every W the 2x2 "
                     f"identity: out[{t}, {c}] expected {formulas[n]} = {shown_want}, got {shown_got}"
                     f"{_diagnosis(got, args)}")


def test_matches_formula(multi_head_attention):
    """Matches the formula with 1, 2 and 4 heads"""
    rng = np.random.default_rng(7)
    for T, C, H in [(5, 8, 2), (4, 8, 4), (3, 6, 1), (6, 6, 3)]:
        args = _case(rng, T, C, H)
        got, tol = _output(multi_head_attention, args)
        _compare(got, _expected(args), tol, args)


def test_heads_own_their_columns(multi_head_attention):
    """With W_o = identity, output columns h*D:(h+1)*D are head h and depend only on its columns"""
    rng = np.random.default_rng(9)
    T, C, H = 4, 8, 2
    D = C // H
    x, W_q, W_k, W_v, _, _ = _case(rng, T, C, H)
    W_o = np.eye(C)
    args = (x, W_q, W_k, W_v, W_o, H)
    before, tol = _output(multi_head_attention, args)
    # New q, k and v columns for head 1 only (columns D..2D-1 of W_q, W_k, W_v).
    changed = [W.copy() for W in (W_q, W_k, W_v)]
    for W in changed:
        W[:, D:2 * D] = np.round(rng.normal(size=(C, D)), 3)
    args2 = (x, *changed, W_o, H)
    after, tol2 = _output(multi_head_attention, args2)
    change = np.abs(after - before)
    change[:, D:2 * D] = 0.0
    if change.max() > max(tol, tol2):
        t, c = (int(i) for i in np.unravel_index(int(np.argmax(change)), change.shape))
        was, now = num_pair(before[t, c], after[t, c])
        fail(f"{_describe(args)} with W_o = identity: changing only the columns {D}..{2 * D - 1} of W_q, W_k and "
             f"W_v (head 1's) changed out[{t}, {c}], which belongs to head {c // D}, from {was} to {now}; head h "
             f"uses only the columns h*D:(h+1)*D of q, k and v and fills only those columns of the output"
             f"{_diagnosis(before, args)}")
    _compare(before, _expected(args), tol, args, note=" with W_o = identity")


def test_causality(multi_head_attention):
    """Changing a future token does not change earlier outputs"""
    rng = np.random.default_rng(4)
    T, C, H = 6, 8, 2
    args = _case(rng, T, C, H)
    before, tol = _output(multi_head_attention, args)
    for t in (4, 1):
        x2 = args[0].copy()
        x2[t:] = np.round(rng.normal(size=(T - t, C)) * 2, 3)
        after, tol2 = _output(multi_head_attention, (x2,) + args[1:])
        change = np.abs(after[:t] - before[:t])
        if change.max() > max(tol, tol2):
            i, c = (int(n) for n in np.unravel_index(int(np.argmax(change)), change.shape))
            was, now = num_pair(before[i, c], after[i, c])
            fail(f"{_describe(args)}: changing the tokens x[{t}..{T - 1}] changed out[{i}, {c}] from {was} to "
                 f"{now}; output row {i} may only depend on x[0..{i}] (every head is causal){_diagnosis(before, args)}")


def test_larger(multi_head_attention):
    """Larger case: T = 12, C = 32, 4 heads, in float64 and float32"""
    rng = np.random.default_rng(5)
    args = _case(rng, 12, 32, 4)
    got, tol = _output(multi_head_attention, args)
    _compare(got, _expected(args), tol, args)
    # The same kind of input in float32, as in a real model: the tolerance follows the inputs' precision.
    args = _case(rng, 10, 16, 4, dtype=np.float32)
    got, tol = _output(multi_head_attention, args)
    _compare(got, _expected(args), tol, args)
