"""Hidden tests for gpt_step(token_id, p, n_heads, cache), a GPT run one token at a time with a cache.

Every test feeds ids one by one, passing back the cache exactly as the learner's previous call
returned it (the tests never look inside it), and compares the logits of each call with the matching
row of a whole-sequence GPT forward pass written here independently of solution.py and of the
learner's earlier steps (positional encoding with math.sin/math.cos, layer norm row by row, causal
attention query by query with math.exp, GELU with math.tanh): row t of step 13's gpt_logits.
Keyword arguments of _forward rebuild the classic mistakes (every position encoded as position 0,
positions from 1, no context from the cache, heads merged in the wrong order, no final layer norm)
so that a failure message can name the one it matches.
"""

import math

import numpy as np

from grader.core.checks import fail, precision_of
from grader.core.testkit import Diagnosis, checked_array, items

EPS = 1e-5
_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


# ---- the whole-sequence forward pass ---------------------------------------------------------------

def _pe_row(t, C):
    """Sinusoidal encoding of position t: sin in column 2i, cos in column 2i + 1."""
    row = np.empty(C)
    for i in range(C // 2):
        angle = t / 10000.0 ** (2 * i / C)
        row[2 * i], row[2 * i + 1] = math.sin(angle), math.cos(angle)
    return row


def _layer_norm(x, gamma, beta):
    out = np.empty(x.shape)
    for t, row in enumerate(x):
        values = [float(u) for u in row]
        mean = sum(values) / len(values)
        var = sum((u - mean) ** 2 for u in values) / len(values)
        out[t] = [float(g) * (u - mean) / math.sqrt(var + EPS) + float(b) for u, g, b in zip(values, gamma, beta)]
    return out


def _attention(h, b, n_heads, *, context=True, merge="heads_side_by_side"):
    """Causal multi-head attention of h (T, C) with block b's weights.

    context=False: each query sees only its own key (a cache that is never used).  merge: how the
    (n_heads, D) outputs of a position become a row of C: head h in columns h*D .. h*D + D - 1
    (correct), or "interleaved", column d * n_heads + h (the transpose before the reshape).
    """
    T, C = h.shape
    D = C // n_heads
    q, k, v = h @ b["W_q"], h @ b["W_k"], h @ b["W_v"]
    merged = np.empty((T, C))
    for i in range(T):
        keys = range(i + 1) if context else range(i, i + 1)
        heads = np.empty((n_heads, D))
        for head in range(n_heads):
            columns = range(head * D, (head + 1) * D)
            scores = [sum(float(q[i, c]) * float(k[j, c]) for c in columns) / math.sqrt(D) for j in keys]
            top = max(scores)
            weights = [math.exp(s - top) for s in scores]
            total = sum(weights)
            heads[head] = [sum(w * float(v[j, c]) for w, j in zip(weights, keys)) / total for c in columns]
        merged[i] = heads.T.reshape(C) if merge == "interleaved" else heads.reshape(C)
    return merged @ b["W_o"]


def _gelu(u):
    return 0.5 * u * (1.0 + math.tanh(_SQRT_2_OVER_PI * (u + 0.044715 * u ** 3)))


def _block(x, b, n_heads, **attention_options):
    x = x + _attention(_layer_norm(x, b["ln1_g"], b["ln1_b"]), b, n_heads, **attention_options)
    hidden = _layer_norm(x, b["ln2_g"], b["ln2_b"]) @ b["W1"] + b["b1"]
    hidden = np.vectorize(_gelu)(hidden) if hidden.size else hidden
    return x + hidden @ b["W2"] + b["b2"]


def _forward(ids, p, n_heads, *, positions="0, 1, 2, ...", final_ln=True, one_cache=False, output_W_E=None,
             **attention_options):
    """The logits (T, V) of the whole sequence; the keyword arguments reproduce known mistakes.

    positions: "0, 1, 2, ..." (correct), "all 0" or "from 1".  one_cache: every block's keys and values in
    one list (_one_cache_forward).  output_W_E: the tied output layer's matrix, when it is not p["W_E"].
    """
    if one_cache:
        return _one_cache_forward(ids, p, n_heads)
    ids = [int(i) for i in ids]
    W_E = np.asarray(p["W_E"], dtype=np.float64)
    blocks = [{key: np.asarray(value, dtype=np.float64) for key, value in b.items()} for b in p["blocks"]]
    C = W_E.shape[1]
    start = {"0, 1, 2, ...": 0, "all 0": 0, "from 1": 1}[positions]
    x = np.array([W_E[i] + _pe_row(0 if positions == "all 0" else t + start, C) for t, i in enumerate(ids)])
    for b in blocks:
        x = _block(x, b, n_heads, **attention_options)
    if final_ln:
        x = _layer_norm(x, np.asarray(p["lnf_g"], dtype=np.float64), np.asarray(p["lnf_b"], dtype=np.float64))
    return x @ (W_E if output_W_E is None else np.asarray(output_W_E, dtype=np.float64)).T


def _one_cache_forward(ids, p, n_heads):
    """The logits (T, V) when one list of keys and values serves every block (a classic mistake).

    Fed one position at a time, block l of position t appends its key and value to the list and attends
    over all of it: every block's keys of the earlier positions, and blocks 0..l of position t.
    """
    W_E = np.asarray(p["W_E"], dtype=np.float64)
    blocks = [{key: np.asarray(value, dtype=np.float64) for key, value in b.items()} for b in p["blocks"]]
    C = W_E.shape[1]
    D = C // n_heads
    keys, values, rows = [], [], []
    for t, token_id in enumerate(ids):
        x = W_E[int(token_id)] + _pe_row(t, C)
        for b in blocks:
            h = _layer_norm(x[None, :], b["ln1_g"], b["ln1_b"])[0]
            q = h @ b["W_q"]
            keys.append(h @ b["W_k"])
            values.append(h @ b["W_v"])
            merged = np.empty(C)
            for head in range(n_heads):
                columns = slice(head * D, (head + 1) * D)
                scores = [float(q[columns] @ k[columns]) / math.sqrt(D) for k in keys]
                weights = [math.exp(s - max(scores)) for s in scores]
                merged[columns] = sum(w * v[columns] for w, v in zip(weights, values)) / sum(weights)
            x = x + merged @ b["W_o"]
            hidden = _layer_norm(x[None, :], b["ln2_g"], b["ln2_b"])[0] @ b["W1"] + b["b1"]
            x = x + np.array([_gelu(float(u)) for u in hidden]) @ b["W2"] + b["b2"]
        rows.append(x)
    x = _layer_norm(np.array(rows), np.asarray(p["lnf_g"], dtype=np.float64), np.asarray(p["lnf_b"], dtype=np.float64))
    return x @ W_E.T


def _mistakes(p, n_heads):
    mistakes = [
        (dict(positions="all 0"), "looks like every token was encoded as position 0; the position of a call is "
                                  "the number of ids fed before it, so keep it in the cache"),
        (dict(positions="from 1"), "looks like the positions start at 1; the first id fed is position 0"),
        (dict(final_ln=False), "looks like the final layer norm is missing: "
                               "logits = layer_norm(x, p['lnf_g'], p['lnf_b']) @ p['W_E'].T"),
    ]
    if p["blocks"]:
        mistakes.append((dict(context=False), "looks like each token only attends to itself: pass each block the "
                                              "cache it returned at the previous call, not None"))
        if len(p["blocks"]) > 1:
            mistakes.append((dict(one_cache=True), "looks like one cache serves every block: each block needs a "
                                                   "cache of its own (block 2's keys come from block 1's output), "
                                                   "e.g. a list of one attention_with_cache cache per block"))
        if n_heads > 1:
            mistakes.append((dict(merge="interleaved"), "looks like the heads were merged in the wrong order: "
                                                        "out of shape (n_heads, D) becomes out.reshape(C), head h "
                                                        "in columns h*D to h*D + D - 1, as in step 9"))
    return mistakes


def _candidates(T, ids, p, n_heads):
    """(logits of the first T positions, hint) for each classic mistake."""
    return [(lambda options=options: _forward(ids[:T], p, n_heads, **options), hint)
            for options, hint in _mistakes(p, n_heads)]


# `got` holds the rows fed so far; every mistake that matches is named.
_diagnosis = Diagnosis(_candidates, correct=lambda T, ids, p, n_heads: _forward(ids[:T], p, n_heads), pick="all")


# ---- calling the learner's function ---------------------------------------------------------------

def _describe(ids, p, n_heads):
    V, C = p["W_E"].shape
    kind = " float32" if p["W_E"].dtype == np.float32 else ""
    shown = "[" + ", ".join(str(int(i)) for i in ids) + "]"
    return (f"gpt_step fed the ids {shown} one at a time (C={C}, V={V}, {len(p['blocks'])} block(s), "
            f"n_heads={n_heads}{kind}), each call given the cache the previous one returned")


def _step(gpt_step, token_id, p, n_heads, cache, what):
    """One call; returns (logits as a float64 copy, the cache exactly as returned)."""
    raw, new_cache = items(gpt_step(token_id, p, n_heads, cache), what, names=("logits", "cache"))
    V, C = p["W_E"].shape

    def shape_hint(shape):
        if shape == (1, V):
            return "one row: return logits[0], or work with a vector of shape (C,) throughout"
        if shape == (C,):
            return "that is the hidden vector: finish with the final layer norm and @ p['W_E'].T"
        return ""
    logits = checked_array(raw, precision_of(p), what=f"the logits of {what}", shape=(V,), shape_hint=shape_hint)
    return logits, new_cache


def _tolerance(p, expected):
    factor = precision_of(p).tolerance(float64=1e-8, float32=3e-5, float16=3e-2)  # relative to the largest logit
    return factor * max(1.0, float(np.abs(expected).max()))


def _compare(rows, expected, ids, p, n_heads, what, note=""):
    """Fail at the first fed position whose logits differ from that row of the whole-sequence forward pass."""
    got = np.array(rows)
    atol = _tolerance(p, expected)
    for t, row in enumerate(got):
        error = np.abs(row - expected[t])
        error[np.isnan(error)] = np.inf
        if error.max() > atol:
            v = int(np.argmax(error))
            wrong = int((error > atol).sum())
            fail(f"{what}: the call for position {t} (id {int(ids[t])}) gave logits[{v}] = {row[v]:.8g}, expected "
                 f"{expected[t, v]:.8g}, row {t} of gpt_logits(ids, p, n_heads) ({wrong} of {row.size} entries "
                 f"differ){_diagnosis(got[:t + 1], t + 1, ids, p, n_heads, atol=atol)}{note}",
                 got=row, expected=expected[t])


def _feed(gpt_step, ids, p, n_heads, cache=None, what=None):
    """Feed ids one at a time from `cache`; return (rows of logits, the last cache)."""
    what = what or _describe(ids, p, n_heads)
    rows = []
    for t, token_id in enumerate(ids):
        logits, cache = _step(gpt_step, token_id, p, n_heads, cache, f"{what}: the call for position {t}")
        rows.append(logits)
    return rows, cache


def _check(gpt_step, ids, p, n_heads, what=None):
    rows, _ = _feed(gpt_step, ids, p, n_heads, what=what)
    _compare(rows, _forward(ids, p, n_heads), ids, p, n_heads, what or _describe(ids, p, n_heads))


def _block_params(rng, C, F):
    return {
        "ln1_g": 1.0 + 0.3 * rng.normal(size=C), "ln1_b": 0.3 * rng.normal(size=C),
        "W_q": rng.normal(scale=1.5 / math.sqrt(C), size=(C, C)),
        "W_k": rng.normal(scale=1.5 / math.sqrt(C), size=(C, C)),
        "W_v": rng.normal(scale=1.0 / math.sqrt(C), size=(C, C)),
        "W_o": rng.normal(scale=1.0 / math.sqrt(C), size=(C, C)),
        "ln2_g": 1.0 + 0.3 * rng.normal(size=C), "ln2_b": 0.3 * rng.normal(size=C),
        "W1": rng.normal(scale=1.0 / math.sqrt(C), size=(C, F)), "b1": 0.3 * rng.normal(size=F),
        "W2": rng.normal(scale=1.0 / math.sqrt(F), size=(F, C)), "b2": 0.3 * rng.normal(size=C),
    }


def _params(seed, V, C, L, dtype=np.float64):
    """Random model parameters, every block and layer norm distinct."""
    rng = np.random.default_rng(seed)
    p = {"W_E": rng.normal(size=(V, C)), "blocks": [_block_params(rng, C, 2 * C) for _ in range(L)],
         "lnf_g": 1.0 + 0.3 * rng.normal(size=C), "lnf_b": 0.3 * rng.normal(size=C)}
    cast = lambda value: value.astype(dtype)  # noqa: E731
    return {"W_E": cast(p["W_E"]), "blocks": [{key: cast(value) for key, value in b.items()} for b in p["blocks"]],
            "lnf_g": cast(p["lnf_g"]), "lnf_b": cast(p["lnf_b"])}


def _ids(seed, T, V):
    return [int(i) for i in np.random.default_rng(seed).integers(0, V, size=T)]


# ---- tests ----------------------------------------------------------------------------------------

def test_shape(gpt_step):
    """Returns (logits, cache), logits of shape (V,), with and without blocks"""
    for seed, V, C, L, n_heads in [(0, 11, 8, 1, 2), (1, 7, 4, 2, 2), (2, 5, 6, 0, 3)]:
        p = _params(seed, V, C, L)
        ids = _ids(seed, 2, V)
        _feed(gpt_step, ids, p, n_heads)


def test_first_token(gpt_step):
    """The first id, with cache=None, gives row 0 of gpt_logits: position 0, attending to itself"""
    p = _params(10, 9, 8, 1)
    for token_id in (4, 0):
        ids = [token_id]
        what = f"gpt_step({token_id}, p, n_heads=2, None) with C=8, V=9, 1 block"
        logits, _ = _step(gpt_step, token_id, p, 2, None, what)
        _compare([logits], _forward(ids, p, 2), ids, p, 2, what)


def test_no_blocks(gpt_step):
    """A model with no blocks: layer_norm(W_E[id] + PE[position]) @ W_E.T, the same id differs by position"""
    # gpt_logits' worked example (step 13): row 0 is 0.99998 * [1, -1, 1, 4, 1].
    W_E = np.array([[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0],
                    [1.0, -1.0, 1.0, -1.0], [2.0, 0.0, -1.0, 0.0]])
    p = {"W_E": W_E, "blocks": [], "lnf_g": np.ones(4), "lnf_b": np.zeros(4)}
    ids = [3, 3, 0]
    what = _describe(ids, p, 2) + " (the worked example of step 13)"
    rows, _ = _feed(gpt_step, ids, p, 2, what=what)
    expected = _forward(ids, p, 2)
    n = 0.5 / math.sqrt(0.25 + EPS)
    expected[0] = [n, -n, n, 4 * n, n]  # by hand (the same as the formula's row 0)
    _compare(rows, expected, ids, p, 2, what)
    # The same token five times, random parameters: only the positions tell the rows apart.
    _check(gpt_step, [4, 4, 4, 4, 4], _params(11, 6, 6, 0), 2)


def test_matches_gpt_logits(gpt_step):
    """Fed a sequence one id at a time, two blocks and two heads, it gives the rows of gpt_logits"""
    _check(gpt_step, _ids(20, 8, 13), _params(20, 13, 8, 2), 2)


def test_four_heads(gpt_step):
    """Four heads of size 3 (C=12), one block, repeated ids"""
    _check(gpt_step, [5, 1, 5, 5, 2, 1], _params(30, 7, 12, 1), 4)


def test_caches_are_independent(gpt_step):
    """Two sequences fed in turn, and two continuations of the same cache, each get their own logits"""
    V, C, n_heads = 10, 8, 2
    p = _params(40, V, C, 2)
    first, second = _ids(41, 4, V), _ids(42, 4, V)
    expected = {"first": _forward(first, p, n_heads), "second": _forward(second, p, n_heads)}
    caches, rows = {"first": None, "second": None}, {"first": [], "second": []}
    for t in range(4):
        for name, ids in (("first", first), ("second", second)):
            what = (f"gpt_step fed two sequences in turn, {first} and {second}, each with its own cache "
                    f"(C={C}, V={V}, 2 blocks, n_heads={n_heads}): the call for position {t} of the {name}")
            logits, caches[name] = _step(gpt_step, ids[t], p, n_heads, caches[name], what)
            rows[name].append(logits)
    note = (". Each call may only depend on the cache it is given: keep nothing between calls in global "
            "variables, and build a new cache instead of changing the one passed in")
    for name, ids in (("first", first), ("second", second)):
        _compare(rows[name], expected[name], ids, p, n_heads,
                 f"gpt_step fed two sequences in turn, {first} and {second}, each with its own cache; in the "
                 f"{name} one", note)
    # Two different ids after the same cache: the cache given must be the only state.
    for last in (3, 8):
        ids = first + [last]
        what = (f"gpt_step given the cache of {first} twice, then fed {last} (C={C}, V={V}, 2 blocks, "
                f"n_heads={n_heads}): the call for position 4")
        logits, _ = _step(gpt_step, last, p, n_heads, caches["first"], what)
        _compare(rows["first"] + [logits], _forward(ids, p, n_heads), ids, p, n_heads, what, note)


def test_float32(gpt_step):
    """float32 parameters give the right values (within float32 precision)"""
    _check(gpt_step, _ids(50, 6, 20), _params(50, 20, 16, 2, dtype=np.float32), 4)


def test_larger(gpt_step):
    """Larger case: 20 ids as numpy integers, C=16, V=50, two blocks, four heads"""
    ids = np.random.default_rng(60).integers(0, 50, size=20)
    p = _params(60, 50, 16, 2)
    rows, _ = _feed(gpt_step, list(ids), p, 4)
    _compare(rows, _forward(ids, p, 4), ids, p, 4, _describe(ids, p, 4) + " (each id a numpy integer)")


def test_uses_the_cache(gpt_step):
    """Earlier positions come from the cache, not recomputed from the ids at every call"""
    # Before the last call the embedding rows of the earlier ids change (the last id's row does not).  A
    # cache keeps what was computed from the old rows, so only the tied output layer sees the new ones;
    # recomputing the prefix from the ids (e.g. gpt_logits(ids_so_far, p, n_heads)[-1]) sees them too.
    V, C, n_heads = 12, 8, 2
    p = _params(70, V, C, 2)
    ids = [3, 7, 1, 7, 5]
    what = _describe(ids[:-1], p, n_heads)
    rows, cache = _feed(gpt_step, ids[:-1], p, n_heads, what=what)
    _compare(rows, _forward(ids[:-1], p, n_heads), ids[:-1], p, n_heads, what)
    changed = dict(p, W_E=p["W_E"].copy())
    changed["W_E"][[3, 7, 1]] += np.random.default_rng(71).normal(size=(3, C))
    what = (f"gpt_step fed {ids[:-1]} one at a time, then {ids[-1]} with p['W_E'] rows 3, 7 and 1 (those of the "
            f"earlier ids) changed (C={C}, V={V}, 2 blocks, n_heads={n_heads})")
    logits, _ = _step(gpt_step, ids[-1], changed, n_heads, cache, f"{what}: the call for position 4")
    expected = _forward(ids, p, n_heads, output_W_E=changed["W_E"])[-1]
    atol = _tolerance(p, expected)
    error = np.abs(logits - expected)
    error[np.isnan(error)] = np.inf
    if error.max() > atol:
        v = int(np.argmax(error))
        recomputed = _forward(ids, changed, n_heads)[-1]
        hint = ""
        if np.abs(logits - recomputed).max() <= atol:
            hint = (" (looks like the earlier positions were recomputed from the ids: the result is row 4 of "
                    "gpt_logits(ids, p, n_heads) with the new rows. Keep each block's keys and values in the cache "
                    "and run only the new position through the model: that is the point of the cache)")
        fail(f"{what}: the call for position 4 gave logits[{v}] = {logits[v]:.8g}, expected {expected[v]:.8g}: the "
             f"earlier positions as they were computed when fed (from the cache), the new position and the output "
             f"layer with the new p{hint}", got=logits, expected=expected)
