"""Hidden tests for transformer_block(x, p, n_heads), a pre-LayerNorm GPT block.

Expected values come from the plain formulas below, written independently of
solution.py: layer norm row by row, attention query by query with math.exp,
GELU with math.tanh.  Keyword arguments of _block rebuild the classic mistakes
(post-LN, missing residuals, one layer norm for both sublayers, eps outside the
square root, ...) so that a failure message can name the mistake it matches.
"""

import math

import numpy as np

from grader.core.checks import fail
from grader.core.testkit import call, expected_got, num

EPS = 1e-5
_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


# ---- the formulas, with switches for the classic mistakes ------------------------------------------

def _layer_norm(x, gamma, beta, *, eps_mode="inside", ddof=0, affine=True):
    """Layer norm of every row of x (T, C), in plain Python over each row."""
    T, C = x.shape
    if not affine:
        gamma, beta = [1.0] * C, [0.0] * C
    out = np.empty((T, C))
    for t in range(T):
        row = [float(v) for v in x[t]]
        mean = sum(row) / C
        var = sum((v - mean) ** 2 for v in row) / (C - ddof)
        if eps_mode == "inside":
            denominator = math.sqrt(var + EPS)
        elif eps_mode == "outside":
            denominator = math.sqrt(var) + EPS
        else:  # "none"
            denominator = math.sqrt(var)
        for c in range(C):
            out[t, c] = float(gamma[c]) * (row[c] - mean) / denominator + float(beta[c])
    return out


def _attention(h, W_q, W_k, W_v, W_o, n_heads, *, causal=True, scale="D", split="blocks"):
    """Multi-head self-attention, one query at a time (softmax with math.exp)."""
    T, C = h.shape
    D = C // n_heads
    q, k, v = h @ W_q, h @ W_k, h @ W_v
    divisor = {"D": math.sqrt(D), "C": math.sqrt(C), "none": 1.0}[scale]
    heads = np.empty((T, C))
    for head in range(n_heads):
        columns = list(range(head * D, (head + 1) * D)) if split == "blocks" else list(range(head, C, n_heads))
        for i in range(T):
            keys = range(i + 1) if causal else range(T)
            scores = [sum(float(q[i, c]) * float(k[j, c]) for c in columns) / divisor for j in keys]
            top = max(scores)
            weights = [math.exp(s - top) for s in scores]
            total = sum(weights)
            for d, c in enumerate(columns):
                heads[i, head * D + d] = sum(w * float(v[j, c]) for w, j in zip(weights, keys)) / total
    return heads @ W_o


def _gelu(u):
    return 0.5 * u * (1.0 + math.tanh(_SQRT_2_OVER_PI * (u + 0.044715 * u ** 3)))


def _gelu_erf(u):
    return 0.5 * u * (1.0 + math.erf(u / math.sqrt(2.0)))


def _relu(u):
    return max(u, 0.0)


def _mlp(h, W1, b1, W2, b2, *, act=_gelu):
    hidden = h @ W1 + b1
    hidden = np.array([[act(float(u)) for u in row] for row in hidden]).reshape(hidden.shape)
    return hidden @ W2 + b2


def _block(x, p, n_heads, *, post_ln=False, attn_residual=True, mlp_residual=True, ln_for_mlp="ln2",
           ln_for_attn="ln1", add_to_normalised=False, mlp_reads_x=False, ln=None, attn=None, act=_gelu):
    """The pre-LN block; the keyword arguments reproduce known mistakes."""
    x = np.asarray(x, dtype=np.float64)
    p = {key: np.asarray(value, dtype=np.float64) for key, value in p.items()}
    ln, attn = ln or {}, attn or {}

    def norm(value, which):
        return _layer_norm(value, p[which + "_g"], p[which + "_b"], **ln)

    def attention(value):
        return _attention(value, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, **attn)

    def feed_forward(value):
        return _mlp(value, p["W1"], p["b1"], p["W2"], p["b2"], act=act)

    if post_ln:
        a = norm(x + attention(x), ln_for_attn)
        return norm(a + feed_forward(a), ln_for_mlp)
    h = norm(x, ln_for_attn)
    a = (h if add_to_normalised else x) * attn_residual + attention(h)
    h2 = norm(x if mlp_reads_x else a, ln_for_mlp)
    return (h2 if add_to_normalised else a) * mlp_residual + feed_forward(h2)


_MISTAKES = [
    (dict(post_ln=True),
     "looks like post-LN, x = layer_norm(x + sublayer(x)); GPT-2's block is pre-LN: "
     "x = x + sublayer(layer_norm(x))"),
    (dict(attn_residual=False, mlp_residual=False),
     "looks like both residual connections are missing: each sublayer's output is added to x, "
     "x = x + sublayer(layer_norm(x))"),
    (dict(attn_residual=False),
     "looks like the attention residual is missing: a = x + multi_head_attention(layer_norm(x, ...), ...)"),
    (dict(mlp_residual=False),
     "looks like the MLP residual is missing: the result is a + mlp(layer_norm(a, ...), ...)"),
    (dict(add_to_normalised=True),
     "looks like the residual adds the normalised x (h = layer_norm(x); x = h + sublayer(h)); "
     "the sublayer's output is added to the un-normalised x"),
    (dict(mlp_reads_x=True),
     "looks like the MLP's layer norm reads the block's input x instead of a = x + attention(...)"),
    (dict(ln_for_mlp="ln1"),
     "looks like ln1_g/ln1_b were used for both layer norms; the one before the MLP uses ln2_g/ln2_b"),
    (dict(ln_for_mlp="ln2", ln_for_attn="ln2"),
     "looks like ln2_g/ln2_b were used for both layer norms; the one before attention uses ln1_g/ln1_b"),
    (dict(ln_for_mlp="ln1", ln_for_attn="ln2"),
     "looks like ln1 and ln2 are swapped: ln1 goes before attention, ln2 before the MLP"),
    (dict(ln=dict(eps_mode="outside")),
     "looks like eps was added outside the square root, sqrt(var) + eps; it goes inside: sqrt(var + eps)"),
    (dict(ln=dict(eps_mode="none")),
     "looks like the layer norm has no eps: divide by sqrt(var + eps) with eps = 1e-5"),
    (dict(ln=dict(ddof=1)),
     "looks like the layer norm uses the unbiased variance (ddof=1); use the biased one, ddof=0 "
     "(np.var's default)"),
    (dict(ln=dict(affine=False)),
     "looks like the layer norms ignore gamma and beta: gamma * (x - mean) / sqrt(var + eps) + beta"),
    (dict(attn=dict(causal=False)),
     "looks like attention is not causal: query i may only attend to keys j <= i"),
    (dict(attn=dict(scale="C")),
     "looks like the attention scores are divided by sqrt(C) instead of sqrt(D), D = C // n_heads"),
    (dict(attn=dict(scale="none")),
     "looks like the attention scores are not divided by sqrt(D)"),
    (dict(attn=dict(split="interleaved")),
     "looks like head h takes the columns h, h + n_heads, ...; it takes the contiguous block "
     "h*D:(h+1)*D"),
    (dict(act=_gelu_erf),
     "looks like the MLP uses the exact erf GELU; this track uses GPT-2's tanh approximation"),
    (dict(act=_relu),
     "looks like the MLP uses ReLU instead of GELU"),
]


_RESIDUAL_HINTS = [hint for options, hint in _MISTAKES if "attn_residual" in options or "mlp_residual" in options]


def _diagnose(got, x, p, n_heads, atol):
    """' (hint)' naming the classic mistake(s) that reproduce `got`, or ''."""
    hints = []
    try:
        for options, hint in _MISTAKES:
            candidate = _block(x, p, n_heads, **options)
            if np.allclose(got, candidate, rtol=0.0, atol=atol):
                hints.append(hint)
        if not hints and n_heads > 1:
            candidate = _block(x, p, 1)
            if np.allclose(got, candidate, rtol=0.0, atol=atol):
                hints.append(f"looks like a single head over all C columns; split into n_heads={n_heads} heads "
                             f"of D = C // n_heads columns")
    except Exception:  # a diagnosis must never raise
        return ""
    if not hints:
        return ""
    if len(hints) > 1 and all(hint in _RESIDUAL_HINTS for hint in hints):
        return (" (looks like a residual connection is missing, one or both: each sublayer's output is added "
                "to the un-normalised x, x = x + sublayer(layer_norm(x)))")
    if len(hints) == 1:
        return f" ({hints[0]})"
    return " (these inputs match more than one classic mistake: " + "; or ".join(hints) + ")"


# ---- calling and comparing -------------------------------------------------------------------------


def _describe(x, p, n_heads):
    T, C = x.shape
    return f"transformer_block(x, p, n_heads={n_heads}) with T={T}, C={C}, F={p['W1'].shape[1]}"


def _output(transformer_block, x, p, n_heads):
    """Call the learner's function; return (float64 copy, tolerance factor) after checking the shape."""
    T, C = x.shape

    def shape_hint(shape):
        if shape == (T, p["W1"].shape[1]):
            return "that is the MLP's hidden shape (T, F): the MLP ends with @ W2 + b2"
        if shape == (C, T):
            return "looks transposed: one row per token"
        if len(shape) == 3:
            return "a 3-D result: were the heads stacked instead of concatenated along the last axis?"
        return ""
    got, precision, _ = call(transformer_block, x, p, n_heads, what=_describe(x, p, n_heads), shape=(T, C),
                             shape_hint=shape_hint)
    return got, precision.tolerance(float64=1e-8, float32=3e-5, float16=3e-2)  # relative to the largest output


def _compare(got, expected, factor, x, p, n_heads, label=""):
    """Fail at the worst entry where `got` differs from `expected`, naming the mistake when one matches."""
    atol = factor * max(1.0, float(np.abs(expected).max()))
    what = _describe(x, p, n_heads) + label
    bad = ~np.isfinite(got)
    if bad.any():
        t, c = (int(k) for k in np.argwhere(bad)[0])
        fail(f"{what}: entry [{t}, {c}] {expected_got(expected[t, c], got[t, c])} "
             f"({int(bad.sum())} non-finite value(s))", got=got, expected=expected)
    error = np.abs(got - expected)
    if error.max() > atol:
        t, c = (int(k) for k in np.unravel_index(int(np.argmax(error)), error.shape))
        wrong = int((error > atol).sum())
        fail(f"{what}: entry [{t}, {c}] {expected_got(expected[t, c], got[t, c])} "
             f"({wrong} of {error.size} entries differ){_diagnose(got, x, p, n_heads, atol)}", got=got, expected=expected)


def _check(transformer_block, x, p, n_heads, label=""):
    got, factor = _output(transformer_block, x, p, n_heads)
    _compare(got, _block(x, p, n_heads), factor, x, p, n_heads, label)


def _params(seed, C, F, dtype=np.float64, attn_out_scale=1.0):
    """Random block parameters with distinct layer norms and peaked attention."""
    rng = np.random.default_rng(seed)
    p = {
        "ln1_g": 1.0 + 0.3 * rng.normal(size=C), "ln1_b": 0.3 * rng.normal(size=C),
        "W_q": rng.normal(scale=1.5 / math.sqrt(C), size=(C, C)),
        "W_k": rng.normal(scale=1.5 / math.sqrt(C), size=(C, C)),
        "W_v": rng.normal(scale=1.0 / math.sqrt(C), size=(C, C)),
        "W_o": attn_out_scale * rng.normal(scale=1.0 / math.sqrt(C), size=(C, C)),
        "ln2_g": 1.0 + 0.3 * rng.normal(size=C), "ln2_b": 0.3 * rng.normal(size=C),
        "W1": rng.normal(scale=1.0 / math.sqrt(C), size=(C, F)), "b1": 0.3 * rng.normal(size=F),
        "W2": rng.normal(scale=1.0 / math.sqrt(F), size=(F, C)), "b2": 0.3 * rng.normal(size=C),
    }
    return {key: value.astype(dtype) for key, value in p.items()}


def _x(seed, T, C, dtype=np.float64, scale=1.0):
    return (scale * np.random.default_rng(seed).normal(size=(T, C))).astype(dtype)


# ---- tests -----------------------------------------------------------------------------------------

def test_shape(transformer_block):
    """Output shape is (T, C), for several sizes and head counts"""
    for seed, (T, C, n_heads, F) in enumerate([(4, 8, 2, 32), (1, 4, 1, 8), (6, 12, 3, 16), (3, 6, 6, 6)]):
        _output(transformer_block, _x(seed, T, C), _params(seed, C, F), n_heads)


def test_residual_identity(transformer_block):
    """With W_o, W2 and b2 zero both sublayers output 0, so the block returns x (residual connections)"""
    T, C, F, n_heads = 5, 8, 16, 2
    x = _x(1, T, C)
    p = _params(1, C, F)
    p["W_o"] = np.zeros((C, C))
    p["W2"] = np.zeros((F, C))
    p["b2"] = np.zeros(C)
    got, factor = _output(transformer_block, x, p, n_heads)
    _compare(got, x, factor, x, p, n_heads, label=" with W_o = W2 = b2 = 0 (expected: x itself)")


def test_single_token(transformer_block):
    """A single token (T=1): the statement's hand-checked example, and a random block with 2 heads"""
    # The statement's example.  With one token the causal softmax weight is 1, so attention returns
    # LN1(x) @ W_v @ W_o = 0.5 * LN1(x).  LN1([1, 3]) = [-1, 1] / sqrt(1 + 1e-5); then
    # a = [0.5000025, 3.4999975], LN2(a) = [-1, 1] * 1.4999975 / sqrt(1.4999975**2 + 1e-5), and the
    # MLP with identity weights is gelu itself.
    x = np.array([[1.0, 3.0]])
    eye = np.eye(2)
    p = {"ln1_g": np.ones(2), "ln1_b": np.zeros(2), "W_q": eye.copy(), "W_k": eye.copy(),
         "W_v": eye.copy(), "W_o": 0.5 * eye, "ln2_g": np.ones(2), "ln2_b": np.zeros(2),
         "W1": eye.copy(), "b1": np.zeros(2), "W2": eye.copy(), "b2": np.zeros(2)}
    n1 = 1.0 / math.sqrt(1.0 + EPS)
    a = [1.0 - 0.5 * n1, 3.0 + 0.5 * n1]
    half_gap = (a[1] - a[0]) / 2.0
    n2 = half_gap / math.sqrt(half_gap ** 2 + EPS)
    expected = np.array([[a[0] + _gelu(-n2), a[1] + _gelu(n2)]])  # about [[0.341194, 4.341187]]
    got, factor = _output(transformer_block, x, p, 1)
    _compare(got, expected, factor, x, p, 1, label=" for the statement's single-token example")
    # The same token with a non-trivial block and 2 heads (each head has one key: weight 1).
    x = np.array([[0.3, -1.2, 2.0, 0.7]])
    p = _params(3, 4, 8)
    _check(transformer_block, x, p, 2, label=" for a single token")


def test_causal(transformer_block):
    """Changing a later token does not change the earlier rows (causal attention)"""
    T, C, F, n_heads = 6, 8, 16, 2
    x = _x(4, T, C)
    p = _params(4, C, F)
    before, factor = _output(transformer_block, x, p, n_heads)
    for changed in (T - 1, 2):
        x2 = x.copy()
        x2[changed] = _x(40 + changed, 1, C)[0]
        after, factor2 = _output(transformer_block, x2, p, n_heads)
        atol = max(factor, factor2) * max(1.0, float(np.abs(before).max()))
        moved = np.abs(after[:changed] - before[:changed])
        if moved.max() > atol:
            t, c = (int(k) for k in np.unravel_index(int(np.argmax(moved)), moved.shape))
            fail(f"transformer_block with T={T}, C={C}, n_heads={n_heads}: changing only token {changed} changed "
                 f"row {t} (entry [{t}, {c}] went from {num(before[t, c])} to {num(after[t, c])}); rows "
                 f"before {changed} must not depend on it. Attention must be causal: query i attends only "
                 f"to keys j <= i (set the scores of j > i to -inf before the softmax)")


def test_tiny_variance(transformer_block):
    """Rows with a tiny spread: eps goes inside the square root, biased variance"""
    # Entries of size 1e-3: the variance (about 1e-6) is smaller than eps, so sqrt(var + eps),
    # sqrt(var) + eps and sqrt(var) differ a lot.  W_o is small too, so the MLP's layer norm also
    # sees rows with a tiny spread.
    T, C, F, n_heads = 4, 8, 16, 2
    x = _x(5, T, C, scale=1e-3)
    p = _params(5, C, F, attn_out_scale=1e-3)
    _check(transformer_block, x, p, n_heads, label=" with entries of x about 1e-3")


def test_random(transformer_block):
    """Matches the pre-LN block formula on random inputs (2 and 3 heads)"""
    _check(transformer_block, _x(6, 6, 8), _params(6, 8, 32), 2)
    _check(transformer_block, _x(7, 5, 12), _params(7, 12, 24), 3)


def test_float32(transformer_block):
    """float32 inputs and parameters give the right values (within float32 precision)"""
    T, C, F, n_heads = 8, 16, 64, 4
    x = _x(8, T, C, dtype=np.float32)
    p = _params(8, C, F, dtype=np.float32)
    _check(transformer_block, x, p, n_heads, label=" (float32 inputs)")
