"""Hidden tests for attention_with_cache(q, k, v, cache), one step of attention with a key-value cache.

Expected values come from plain-Python attention below (math.exp, head by head, key by key), written
independently of solution.py and of the learner's softmax.  One test feeds a sequence position by
position and compares every output with the matching row of causal attention over the whole sequence,
computed here at once.  Keyword arguments of _attend rebuild the classic mistakes (the new position
alone, the old positions alone, the wrong scale, a softmax over the heads) so that a failure message
can name the one it matches.  That no argument is changed in place is checked by the grader itself.
"""

import math

import numpy as np

from grader.core.checks import fail, precision_of
from grader.core.testkit import Diagnosis, checked_array, items


# ---- the formula, in plain Python ---------------------------------------------------------------

def _attend(q, K, V, *, keys="all", scale="sqrt_d", softmax_over="keys"):
    """out (H, D) of query q (H, D) over keys K and values V (H, n, D), the new position being the last.

    keys: "all" (correct), "new" (only the new position) or "old" (every position but the new one).
    scale: what the scores are divided by: "sqrt_d" (correct), "sqrt_n" (sqrt of the number of
    positions), "d" or "none".  softmax_over: "keys" (correct) or "heads".
    """
    q, K, V = (np.asarray(a, dtype=np.float64) for a in (q, K, V))
    H, n, D = K.shape
    positions = {"all": range(n), "new": range(n - 1, n), "old": range(n - 1)}[keys]
    divisor = {"sqrt_d": math.sqrt(D), "sqrt_n": math.sqrt(len(positions)), "d": D, "none": 1.0}[scale]
    scores = [[sum(float(q[h, c]) * float(K[h, j, c]) for c in range(D)) / divisor for j in positions]
              for h in range(H)]
    if softmax_over == "heads":
        weights = [list(column) for column in zip(*(_softmax(list(column)) for column in zip(*scores)))]
    else:
        weights = [_softmax(row) for row in scores]
    out = np.zeros((H, D))
    for h in range(H):
        for w, j in zip(weights[h], positions):
            for c in range(D):
                out[h, c] += w * float(V[h, j, c])
    return out


def _softmax(row):
    top = max(row)
    exps = [math.exp(s - top) for s in row]
    total = sum(exps)
    return [e / total for e in exps]


def _grown(cache, k, v):
    """The expected cache (K, V), each (H, t + 1, D), float64."""
    k, v = np.asarray(k, dtype=np.float64)[:, None, :], np.asarray(v, dtype=np.float64)[:, None, :]
    if cache is None:
        return k, v
    return (np.concatenate([np.asarray(cache[0], dtype=np.float64), k], axis=1),
            np.concatenate([np.asarray(cache[1], dtype=np.float64), v], axis=1))


_OUT_MISTAKES = [
    (dict(keys="new"), "looks like only the new position was attended to: the weights are over the cached keys "
                       "and the new one, all t + 1 of them"),
    (dict(keys="old"), "looks like the new position was left out: append k and v to the cache first, then attend "
                       "over all t + 1 positions (the new token also attends to itself)"),
    (dict(scale="sqrt_n"), "looks like the scores were divided by the square root of the number of positions; "
                           "divide by sqrt(D), the size of one head's vectors"),
    (dict(scale="none"), "looks like the scores were not scaled; divide them by sqrt(D)"),
    (dict(scale="d"), "looks like the scores were divided by D; divide them by sqrt(D)"),
    (dict(softmax_over="heads"), "looks like the softmax was taken over the heads (axis 0); each head normalises "
                                 "its own t + 1 scores (axis=-1)"),
]


def _mistakes(q, K, V):
    """(output, hint) for each classic mistake on these inputs (none on large ones)."""
    if K.size > 2000:
        return []
    return [(lambda options=options: _attend(q, K, V, **options), hint) for options, hint in _OUT_MISTAKES
            if not (options.get("keys") == "old" and K.shape[1] < 2)]


_diagnosis = Diagnosis(_mistakes, correct=_attend, atol=1e-6, rtol=1e-5, pick="all")


def _cache_diagnosis_of_shape(shape, cache, k):
    """What a new cache's K or V of the wrong shape suggests, or ''."""
    H, D = k.shape
    t = 0 if cache is None else cache[0].shape[1]
    if shape == (H, t, D) and t > 0:
        return "looks like k and v were not appended: the new cache holds the t old positions and the new one"
    if shape == (H, 1, D) and t > 0:
        return ("looks like the cache was replaced by the new k and v: keep the t cached positions and "
                "append the new one after them")
    return ""


def _cache_diagnosis(K_got, V_got, cache, k, v):
    """' (hint)' for a cache of the right shape built the wrong way, or ''."""
    try:
        t = 0 if cache is None else cache[0].shape[1]
        if np.allclose(K_got[:, -1], v) and np.allclose(V_got[:, -1], k):
            return " (looks like k and v were swapped: the first array of the cache holds the keys)"
        if np.allclose(V_got[:, -1], k) and not np.allclose(k, v):
            return " (looks like the new key was appended to the values too: V gets v)"
        if t > 0 and np.allclose(K_got[:, 0], k) and np.allclose(K_got[:, 1:], cache[0]):
            return " (looks like the new key was put first: it goes last, after the t cached positions, axis=1)"
    except Exception:  # a diagnosis must never raise
        pass
    return ""


# ---- calling the learner's function -------------------------------------------------------------

def _describe(q, k, v, cache):
    H, D = q.shape
    kind = " float32" if q.dtype == np.float32 else ""
    given = "cache=None" if cache is None else f"a cache of t={cache[0].shape[1]} position(s)"
    return f"attention_with_cache(q, k, v, cache) with{kind} q, k, v of shape ({H}, {D}) and {given}"


def _results(attention_with_cache, q, k, v, cache, what=None):
    """Call the learner's function; return (out, K, V as float64 copies, the cache as returned, tol, what)."""
    what = what or _describe(q, k, v, cache)
    precision = precision_of(q, k, v, cache)
    raw_out, new_cache = items(attention_with_cache(q, k, v, cache), what, names=("out", "cache"))
    H, D = q.shape
    t = 0 if cache is None else cache[0].shape[1]

    def out_hint(shape):
        if shape in ((H, t + 1), (H, 1, t + 1)):
            return "that is the shape of the weights: multiply them by the cached values V"
        return "drop the axis of length 1: out has one vector per head" if shape == (H, 1, D) else ""
    out = checked_array(raw_out, precision, what=f"out of {what}", shape=(H, D), shape_hint=out_hint)
    K, V = (checked_array(array, precision, what=f"the new cache's {name} of {what}", shape=(H, t + 1, D),
                          shape_hint=lambda shape: _cache_diagnosis_of_shape(shape, cache, k))
            for name, array in zip("KV", items(new_cache, f"the new cache of {what}", names=("K", "V"))))
    tol = precision.tolerance(float64=1e-6, float32=1e-4, float16=1e-1)
    return out, K, V, new_cache, tol, what


def _check_cache(K, V, cache, k, v, tol, what):
    """The new cache is the old one with k and v appended along axis 1."""
    K_want, V_want = _grown(cache, k, v)
    for name, got, want in (("K", K, K_want), ("V", V, V_want)):
        error = np.abs(got - want)
        error[np.isnan(error)] = np.inf
        if error.max() > tol:
            h, j, c = (int(i) for i in np.unravel_index(int(np.argmax(error)), error.shape))
            source = f"{name.lower()}[{h}, {c}] (the new position)" if j == want.shape[1] - 1 else \
                f"the old cache's {name}[{h}, {j}, {c}]"
            fail(f"{what}: the new cache's {name}[{h}, {j}, {c}] should be {source} = {want[h, j, c]:.6g}, "
                 f"got {got[h, j, c]:.6g}{_cache_diagnosis(K, V, cache, k, v)}")


def _check_out(out, expected, q, K, V, tol, what, label="out"):
    error = np.abs(out - expected) - (tol + 1e-6 * np.abs(expected))
    error[np.isnan(error)] = np.inf
    if error.max() > 0:
        h, c = (int(i) for i in np.unravel_index(int(np.argmax(error)), error.shape))
        wrong = int((error > 0).sum())
        fail(f"{what}: {label}[{h}, {c}] expected {expected[h, c]:.6g}, got {out[h, c]:.6g} ({wrong} of "
             f"{error.size} entries differ){_diagnosis(out, q, K, V)}", got=out, expected=expected)


def _step(attention_with_cache, q, k, v, cache, what=None):
    """One call checked in full (cache, then out); returns the cache as the learner returned it."""
    out, K, V, new_cache, tol, what = _results(attention_with_cache, q, k, v, cache, what)
    _check_cache(K, V, cache, k, v, tol, what)
    K_want, V_want = _grown(cache, k, v)
    _check_out(out, _attend(q, K_want, V_want), q, K_want, V_want, tol, what)
    return new_cache


def _random(rng, *shape, dtype=np.float64):
    return np.round(rng.normal(size=shape), 3).astype(dtype)


def _qkv(rng, H, D, dtype=np.float64):
    return _random(rng, H, D, dtype=dtype), _random(rng, H, D, dtype=dtype), _random(rng, H, D, dtype=dtype)


# ---- tests --------------------------------------------------------------------------------------

def test_shapes(attention_with_cache):
    """out is (H, D) and the new cache (K, V) is (H, t + 1, D)"""
    rng = np.random.default_rng(1)
    for H, D, t in [(2, 3, 0), (3, 2, 4), (1, 5, 1), (4, 4, 2)]:
        q, k, v = _qkv(rng, H, D)
        cache = None if t == 0 else (_random(rng, H, t, D), _random(rng, H, t, D))
        _results(attention_with_cache, q, k, v, cache)


def test_first_position(attention_with_cache):
    """With no cache the only key is the new one: out = v, and the cache holds k and v"""
    rng = np.random.default_rng(2)
    H, D = 3, 4
    q, k, v = _qkv(rng, H, D)
    out, K, V, _, tol, what = _results(attention_with_cache, q, k, v, None)
    _check_cache(K, V, None, k, v, tol, what)
    _check_out(out, v.astype(np.float64), q, K, V, tol, what + " (one position, weight 1, so out = v)")


def test_hand_checked(attention_with_cache):
    """Matches the statement's worked example, checked by hand"""
    q0, k0, v0 = (np.array(rows) for rows in ([[1.0, 0.0], [0.0, 2.0]], [[1.0, 1.0], [2.0, 0.0]],
                                              [[1.0, 2.0], [3.0, -1.0]]))
    cache = _step(attention_with_cache, q0, k0, v0, None, what="the statement's first call")
    q1, k1, v1 = (np.array(rows) for rows in ([[2.0, 0.0], [1.0, 1.0]], [[0.0, 2.0], [0.0, 2.0]],
                                              [[-1.0, 0.0], [1.0, 1.0]]))
    what = "the statement's second call, attention_with_cache(q1, k1, v1, cache)"
    out, K, V, _, tol, what = _results(attention_with_cache, q1, k1, v1, cache, what)
    _check_cache(K, V, (k0[:, None, :], v0[:, None, :]), k1, v1, tol, what)
    # Head 0: scores [2, 0] / sqrt(2), weights [0.8044, 0.1956], out 0.8044 [1, 2] + 0.1956 [-1, 0].
    # Head 1: scores [2, 2] / sqrt(2), equal weights, out the mean of [3, -1] and [1, 1] = [2, 0].
    w = 1.0 / (1.0 + math.exp(-math.sqrt(2.0)))
    expected = np.array([[w - (1.0 - w), 2.0 * w], [2.0, 0.0]])
    _check_out(out, expected, q1, K, V, tol, what)


def test_cache_appended(attention_with_cache):
    """The new cache is the given one with k and v appended after the cached positions"""
    rng = np.random.default_rng(3)
    H, D, t = 2, 3, 4
    cache = (_random(rng, H, t, D), _random(rng, H, t, D))
    q, k, v = _qkv(rng, H, D)
    out, K, V, _, tol, what = _results(attention_with_cache, q, k, v, cache)
    _check_cache(K, V, cache, k, v, tol, what)


def test_given_cache(attention_with_cache):
    """Attends over the cached positions and the new one, scores divided by sqrt(D)"""
    rng = np.random.default_rng(4)
    for H, D, t in [(2, 4, 3), (3, 2, 5), (1, 9, 1)]:
        cache = (_random(rng, H, t, D), _random(rng, H, t, D))
        q, k, v = _qkv(rng, H, D)
        _step(attention_with_cache, 1.5 * q, k, v, cache)


def _causal_rows(q, k, v):
    """Causal attention of whole sequences q, k, v (H, T, D): out[h, i] over keys 0..i."""
    H, T, D = q.shape
    out = np.zeros((H, T, D))
    for i in range(T):
        out[:, i] = _attend(q[:, i], k[:, :i + 1], v[:, :i + 1])
    return out


def _feed(attention_with_cache, q, k, v, label):
    """Feed (H, T, D) sequences position by position, passing back the learner's cache; check every output."""
    H, T, D = q.shape
    expected = _causal_rows(q, k, v)
    precision = precision_of(q, k, v)
    tol = precision.tolerance(float64=1e-6, float32=1e-4, float16=1e-1)
    cache = None
    for i in range(T):
        what = (f"attention_with_cache fed {label} position by position (H={H}, D={D}), the cache passed back "
                f"as returned: the call for position {i}")
        out, K, V, cache, _, what = _results(attention_with_cache, q[:, i], k[:, i], v[:, i], cache, what)
        _check_out(out, expected[:, i], q[:, i], K, V, tol, what,
                   label=f"out (row {i} of causal attention over the whole sequence)")


def test_reproduces_causal_attention(attention_with_cache):
    """Fed position by position, it gives the rows of causal attention over the whole sequence"""
    rng = np.random.default_rng(5)
    H, T, D = 3, 6, 4
    _feed(attention_with_cache, _random(rng, H, T, D), _random(rng, H, T, D), _random(rng, H, T, D),
          f"a sequence of T={T}")


def test_float32(attention_with_cache):
    """float32 inputs and cache give the right values (within float32 precision)"""
    rng = np.random.default_rng(6)
    H, D, t = 2, 8, 5
    cache = (_random(rng, H, t, D, dtype=np.float32), _random(rng, H, t, D, dtype=np.float32))
    q, k, v = _qkv(rng, H, D, dtype=np.float32)
    cache = _step(attention_with_cache, q, k, v, cache)
    q, k, v = _qkv(rng, H, D, dtype=np.float32)
    _step(attention_with_cache, q, k, v, cache)


def test_larger(attention_with_cache):
    """Larger case: 4 heads of size 16, 24 positions fed one by one"""
    rng = np.random.default_rng(7)
    H, T, D = 4, 24, 16
    _feed(attention_with_cache, _random(rng, H, T, D), _random(rng, H, T, D), _random(rng, H, T, D),
          f"a sequence of T={T}")
