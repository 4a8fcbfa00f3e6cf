"""Hidden tests for gpt_logits(ids, p, n_heads), the full GPT forward pass.

Expected values come from the plain formulas below, written independently of
solution.py (and of the learner's earlier functions): positional encoding with
math.sin/math.cos, layer norm row by row, attention query by query with
math.exp, GELU with math.tanh.  Keyword arguments of _forward rebuild the
classic mistakes (positions missing or added after the blocks, no final layer
norm, untied output layer, blocks in reverse order, ...) so that a failure
message can name the mistake it matches.
"""

import math

import numpy as np

from grader.core.checks import fail, precision_of
from grader.core.testkit import Diagnosis, call, expected_got, num

EPS = 1e-5
_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


# ---- the formulas ----------------------------------------------------------------------------------

def _pe(T, C, *, swap=False, stacked=False, start=0):
    """Sinusoidal table: sin in column 2i, cos in column 2i+1 (the keywords reproduce known mistakes)."""
    half = C // 2
    table = np.empty((T, C))
    for t in range(T):
        for j in range(C):
            i, use_sin = (j % half, j < half) if stacked else (j // 2, j % 2 == 0)
            angle = (t + start) / 10000.0 ** (2 * i / C)
            table[t, j] = math.sin(angle) if use_sin != swap else math.cos(angle)
    return table


def _layer_norm(x, gamma, beta, *, eps_outside=False):
    T, C = x.shape
    out = np.empty((T, C))
    for t in range(T):
        row = [float(v) for v in x[t]]
        mean = sum(row) / C
        var = sum((v - mean) ** 2 for v in row) / C
        denominator = math.sqrt(var) + EPS if eps_outside else math.sqrt(var + EPS)
        for c in range(C):
            out[t, c] = float(gamma[c]) * (row[c] - mean) / denominator + float(beta[c])
    return out


def _attention(h, W_q, W_k, W_v, W_o, n_heads, *, causal=True):
    T, C = h.shape
    D = C // n_heads
    q, k, v = h @ W_q, h @ W_k, h @ W_v
    heads = np.empty((T, C))
    for head in range(n_heads):
        columns = range(head * D, (head + 1) * D)
        for i in range(T):
            keys = range(i + 1) if causal else range(T)
            scores = [sum(float(q[i, c]) * float(k[j, c]) for c in columns) / math.sqrt(D) for j in keys]
            top = max(scores)
            weights = [math.exp(s - top) for s in scores]
            total = sum(weights)
            for c in columns:
                heads[i, c] = sum(w * float(v[j, c]) for w, j in zip(weights, keys)) / total
    return heads @ W_o


def _gelu(u):
    return 0.5 * u * (1.0 + math.tanh(_SQRT_2_OVER_PI * (u + 0.044715 * u ** 3)))


def _block(x, b, n_heads, *, post_ln=False, residual=True, causal=True):
    def ln(value, which):
        return _layer_norm(value, b[which + "_g"], b[which + "_b"])

    def attention(value):
        return _attention(value, b["W_q"], b["W_k"], b["W_v"], b["W_o"], n_heads, causal=causal)

    def mlp(value):
        hidden = value @ b["W1"] + b["b1"]
        hidden = np.array([[_gelu(float(u)) for u in row] for row in hidden]).reshape(hidden.shape)
        return hidden @ b["W2"] + b["b2"]

    if post_ln:
        a = ln(x + attention(x), "ln1")
        return ln(a + mlp(a), "ln2")
    a = x * residual + attention(ln(x, "ln1"))
    return a * residual + mlp(ln(a, "ln2"))


def _forward(ids, p, n_heads, *, pe="before", pe_options=None, scale_embeddings=False, final_ln=True,
             lnf_eps_outside=False, untied=False, order=None, block_options=None):
    """The GPT forward pass; the keyword arguments reproduce known mistakes.

    pe: "before" (correct), "after" (added after the blocks) or "none".  order: the indices of
    the blocks applied, in turn (default: all of them, in list order).
    """
    ids = [int(i) for i in ids]
    W_E = np.asarray(p["W_E"], dtype=np.float64)
    blocks = [{key: np.asarray(value, dtype=np.float64) for key, value in b.items()} for b in p["blocks"]]
    T, C = len(ids), W_E.shape[1]
    table = _pe(T, C, **(pe_options or {}))
    x = np.array([W_E[i] for i in ids]).reshape(T, C)
    if scale_embeddings:
        x = x * math.sqrt(C)
    if pe == "before":
        x = x + table
    for index in (range(len(blocks)) if order is None else order):
        x = _block(x, blocks[index], n_heads, **(block_options or {}))
    if pe == "after":
        x = x + table
    if final_ln == "plain":
        x = _layer_norm(x, np.ones(C), np.zeros(C))
    elif final_ln:
        x = _layer_norm(x, np.asarray(p["lnf_g"], dtype=np.float64), np.asarray(p["lnf_b"], dtype=np.float64),
                        eps_outside=lnf_eps_outside)
    return x @ (W_E if untied else W_E.T)


def _mistakes(p):
    """(options, hint) for the classic mistakes that apply to these parameters."""
    L = len(p["blocks"])
    V, C = p["W_E"].shape
    mistakes = [
        (dict(pe="none"),
         "looks like the positional encoding is missing: x = W_E[ids] + sinusoidal_pe(T, C)"),
        (dict(pe="after"),
         "looks like the positional encoding was added after the blocks; add it to the embeddings before the "
         "first block"),
        (dict(pe_options=dict(swap=True)),
         "looks like the positional encoding has sin and cos swapped: sin in the even columns, cos in the odd"),
        (dict(pe_options=dict(stacked=True)),
         "looks like the positional encoding puts all sines first and all cosines last; they alternate, sin in "
         "column 2i and cos in column 2i+1"),
        (dict(pe_options=dict(start=1)),
         "looks like the positions start at 1; the first position is 0"),
        (dict(scale_embeddings=True),
         "looks like the embeddings were multiplied by sqrt(C) (as in the 2017 Transformer); here "
         "x = W_E[ids] + sinusoidal_pe(T, C)"),
        (dict(final_ln=False),
         "looks like the final layer norm is missing: logits = layer_norm(x, lnf_g, lnf_b) @ W_E.T"),
        (dict(final_ln="plain"),
         "looks like the final layer norm ignores its parameters: layer_norm(x, p['lnf_g'], p['lnf_b'])"),
        (dict(lnf_eps_outside=True),
         "looks like the final layer norm adds eps outside the square root; it is sqrt(var + eps)"),
        (dict(block_options=dict(causal=False)),
         "looks like the attention in the blocks is not causal: query i may only attend to keys j <= i"),
        (dict(block_options=dict(post_ln=True)),
         "looks like post-LN blocks, x = layer_norm(x + sublayer(x)); the blocks are pre-LN: "
         "x = x + sublayer(layer_norm(x))"),
        (dict(block_options=dict(residual=False)),
         "looks like the blocks have no residual connections: x = x + sublayer(layer_norm(x))"),
    ]
    if V == C:
        mistakes.append((dict(untied=True),
                         "looks like the output layer is x @ W_E; with tied embeddings it is x @ W_E.T "
                         "(here V == C, so both have the right shape)"))
    if L >= 2:
        mistakes += [
            (dict(order=list(range(L))[::-1]),
             "looks like the blocks were applied in reverse order; p['blocks'][0] comes first"),
            (dict(order=[0]),
             "looks like only the first block was applied; apply every block of p['blocks'], in order"),
            (dict(order=[L - 1]),
             "looks like only the last block was applied (is x reassigned in the loop: x = transformer_block(x, ...)?)"),
            (dict(order=[0] * L),
             "looks like the first block's parameters were used for every block; use each block's own dict"),
        ]
    if L >= 1:
        mistakes.append((dict(order=[]),
                         "looks like no block was applied; run x through every block of p['blocks']"))
    return mistakes


def _candidates(ids, p, n_heads):
    """(logits, hint) for each classic mistake on these inputs."""
    return [(lambda options=options: _forward(ids, p, n_heads, **options), hint) for options, hint in _mistakes(p)]


_diagnosis = Diagnosis(_candidates, pick="all")


# ---- calling and comparing -------------------------------------------------------------------------


def _describe(ids, p, n_heads):
    V, C = p["W_E"].shape
    return (f"gpt_logits(ids, p, n_heads={n_heads}) with T={len(ids)}, C={C}, V={V}, "
            f"{len(p['blocks'])} block(s)")


def _logits(gpt_logits, ids, p, n_heads):
    """Call the learner's function; return (float64 copy, tolerance factor) after checking the shape."""
    T = len(ids)
    V, C = p["W_E"].shape

    def shape_hint(shape):
        if shape == (T, C):
            return "that is the hidden state's shape (T, C): finish with the tied output layer, logits = x @ W_E.T"
        if shape == (V, T):
            return "looks transposed: one row per position, one column per vocabulary entry"
        return "one row per position is expected, not only the last one" if shape in ((V,), (C,)) else ""
    got, precision, _ = call(gpt_logits, ids, p, n_heads, what=_describe(ids, p, n_heads), precision=precision_of(p),
                             shape=(T, V), shape_hint=shape_hint)
    return got, precision.tolerance(float64=1e-8, float32=3e-5, float16=3e-2)  # relative to the largest logit


def _compare(got, expected, factor, ids, p, n_heads, label=""):
    """Fail at the worst entry where `got` differs from `expected`, naming the mistake when one matches."""
    atol = factor * max(1.0, float(np.abs(expected).max()))
    what = _describe(ids, p, n_heads) + label
    bad = ~np.isfinite(got)
    if bad.any():
        t, v = (int(k) for k in np.argwhere(bad)[0])
        fail(f"{what}: logits[{t}, {v}] {expected_got(expected[t, v], got[t, v])} "
             f"({int(bad.sum())} non-finite value(s))", got=got, expected=expected)
    error = np.abs(got - expected)
    if error.max() > atol:
        t, v = (int(k) for k in np.unravel_index(int(np.argmax(error)), error.shape))
        wrong = int((error > atol).sum())
        fail(f"{what}: logits[{t}, {v}] {expected_got(expected[t, v], got[t, v])} "
             f"({wrong} of {error.size} entries differ){_diagnosis(got, ids, p, n_heads, atol=atol)}",
             got=got, expected=expected)


def _check(gpt_logits, ids, p, n_heads, label=""):
    got, factor = _logits(gpt_logits, ids, p, n_heads)
    _compare(got, _forward(ids, p, n_heads), factor, ids, p, n_heads, label)


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


def _params(seed, V, C, L, F=None, dtype=np.float64):
    """Random model parameters; every block and layer norm distinct."""
    rng = np.random.default_rng(seed)
    F = F or 2 * C
    p = {"W_E": rng.normal(size=(V, C)),
         "blocks": [_block_params(rng, C, F) for _ in range(L)],
         "lnf_g": 1.0 + 0.3 * rng.normal(size=C), "lnf_b": 0.3 * rng.normal(size=C)}
    p["W_E"] = p["W_E"].astype(dtype)
    p["lnf_g"], p["lnf_b"] = p["lnf_g"].astype(dtype), p["lnf_b"].astype(dtype)
    p["blocks"] = [{key: value.astype(dtype) for key, value in b.items()} for b in p["blocks"]]
    return p


def _ids(seed, T, V, dtype=np.int64):
    return np.random.default_rng(seed).integers(0, V, size=T).astype(dtype)


# ---- tests -----------------------------------------------------------------------------------------

def test_shape(gpt_logits):
    """Output shape is (T, V), with ids given as an integer array or as a list of ints"""
    cases = [
        (_ids(0, 5, 11), _params(0, 11, 8, 1), 2),
        ([3, 1, 4, 1], _params(1, 7, 4, 1), 1),     # ids as a Python list
        (_ids(2, 1, 6, np.int32), _params(2, 6, 6, 2), 3),
        (_ids(3, 3, 5), _params(3, 5, 6, 0), 2),   # no blocks at all
    ]
    for ids, p, n_heads in cases:
        _logits(gpt_logits, ids, p, n_heads)


def test_no_blocks(gpt_logits):
    """No blocks: repeated ids differ by position (a random table), and the statement's hand-checked example"""
    # The same token at every position, random table and final layer norm; V == C, so an untied
    # output layer (x @ W_E) has the right shape too.
    p = _params(10, 6, 6, 0)
    _check(gpt_logits, np.array([4, 4, 4, 4, 4]), p, 2, label=" for ids [4, 4, 4, 4, 4]")
    # The statement's example: row 0 is 0.99998 * [1, -1, 1, 4, 1].
    W_E = np.array([[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0],
                    [1.0, -1.0, 1.0, -1.0], [2.0, 0.0, -1.0, 0.0]])
    p = {"W_E": W_E, "blocks": [], "lnf_g": np.ones(4), "lnf_b": np.zeros(4)}
    ids = np.array([3, 3, 0])
    got, factor = _logits(gpt_logits, ids, p, 2)
    expected = _forward(ids, p, 2)
    n = 0.5 / math.sqrt(0.25 + EPS)
    expected[0] = [n, -n, n, 4 * n, n]  # by hand (the same as the formula's row 0)
    _compare(got, expected, factor, ids, p, 2, label=" for the statement's example")


def test_one_block(gpt_logits):
    """Matches the formula with one block (T=6, C=8, V=13, 2 heads)"""
    _check(gpt_logits, _ids(20, 6, 13), _params(20, 13, 8, 1), 2)


def test_blocks_in_order(gpt_logits):
    """Two different blocks are applied in list order (p["blocks"][0] first)"""
    _check(gpt_logits, _ids(30, 5, 9), _params(30, 9, 8, 2), 2)


def test_causal(gpt_logits):
    """Changing a later token does not change the logits of earlier positions"""
    V, C, T, n_heads = 12, 8, 6, 2
    p = _params(40, V, C, 2)
    ids = _ids(40, T, V)
    before, factor = _logits(gpt_logits, ids, p, n_heads)
    for changed in (T - 1, 2):
        other = ids.copy()
        other[changed] = (other[changed] + 5) % V
        after, factor2 = _logits(gpt_logits, other, p, n_heads)
        atol = max(factor, factor2) * max(1.0, float(np.abs(before).max()))
        moved = np.abs(after[:changed] - before[:changed])
        if moved.size and moved.max() > atol:
            t, v = (int(k) for k in np.unravel_index(int(np.argmax(moved)), moved.shape))
            fail(f"gpt_logits with T={T}, C={C}, V={V}, 2 blocks: changing only ids[{changed}] (from "
                 f"{int(ids[changed])} to {int(other[changed])}) changed logits[{t}, {v}] from "
                 f"{num(before[t, v])} to {num(after[t, v])}; the logits of positions before {changed} must "
                 f"not depend on it. The attention in every block must be causal (query i attends only to "
                 f"keys j <= i), and everything else works row by row")


def test_float32(gpt_logits):
    """float32 parameters give the right values (within float32 precision)"""
    _check(gpt_logits, _ids(50, 8, 20), _params(50, 20, 16, 2, F=32, dtype=np.float32), 4,
           label=" (float32 parameters)")
