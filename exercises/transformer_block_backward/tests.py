"""Hidden tests for transformer_block_backward(x, p, n_heads, dout).

Expected values come from code written independently of solution.py and of the steps it uses: a
forward pass with one loop per head, and a backward pass from the chain rule with explicit Jacobians
(the layer norm's (C, C) matrix per row, the softmax's (t+1, t+1) matrix per query).  One test checks
the learner's gradients against central differences of that forward pass, entry by entry.  Keyword
arguments of _backward rebuild the classic mistakes, so that a failure message can name the one it
matches.
"""

import math

import numpy as np

from grader.core.checks import fail, precision_of
from grader.core.testkit import as_dict, checked_array, diagnose, expected_got, items, num

EPS = 1e-5
KEYS = ("ln1_g", "ln1_b", "W_q", "W_k", "W_v", "W_o", "ln2_g", "ln2_b", "W1", "b1", "W2", "b2")
_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


# ---- the forward pass ------------------------------------------------------------------------------

def _layer_norm(x, gamma, beta):
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    return gamma * (x - mean) / np.sqrt(var + EPS) + beta


def _gelu(z):
    return 0.5 * z * (1.0 + np.tanh(_SQRT_2_OVER_PI * (z + 0.044715 * z ** 3)))


def _attention(q, k, v, n_heads):
    """Causal multi-head attention of the projected q, k, v (T, C): heads side by side, in order."""
    T, C = q.shape
    D = C // n_heads
    out = np.zeros((T, C))
    future = np.triu(np.ones((T, T), dtype=bool), k=1)
    for head in range(n_heads):
        cols = slice(head * D, (head + 1) * D)
        scores = np.where(future, -np.inf, q[:, cols] @ k[:, cols].T / math.sqrt(D))
        weights = np.exp(scores - scores.max(axis=1, keepdims=True))
        out[:, cols] = weights / weights.sum(axis=1, keepdims=True) @ v[:, cols]
    return out


def _forward(x, p, n_heads):
    h1 = _layer_norm(x, p["ln1_g"], p["ln1_b"])
    x1 = x + _attention(h1 @ p["W_q"], h1 @ p["W_k"], h1 @ p["W_v"], n_heads) @ p["W_o"]
    h2 = _layer_norm(x1, p["ln2_g"], p["ln2_b"])
    return x1 + _gelu(h2 @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]


# ---- the backward pass, with switches for the classic mistakes ---------------------------------------

def _layer_norm_backward(x, gamma, dy):
    """(dx, dgamma, dbeta): row by row, dx_t = J_t^T (gamma * dy_t) with the Jacobian of x_hat_t."""
    T, C = x.shape
    dx, x_hats = np.zeros((T, C)), np.zeros((T, C))
    for t in range(T):
        centred = x[t] - x[t].mean()
        rstd = 1.0 / math.sqrt(float((centred ** 2).mean()) + EPS)
        x_hat = centred * rstd
        jacobian = rstd * (np.eye(C) - 1.0 / C - np.outer(x_hat, x_hat) / C)    # d x_hat / d x, symmetric
        dx[t] = jacobian.T @ (gamma * dy[t])
        x_hats[t] = x_hat
    return dx, (dy * x_hats).sum(axis=0), dy.sum(axis=0)


def _gelu_derivative(z):
    u = _SQRT_2_OVER_PI * (z + 0.044715 * z ** 3)
    sech2 = 1.0 - np.tanh(u) ** 2
    return 0.5 * (1.0 + np.tanh(u)) + 0.5 * z * sech2 * _SQRT_2_OVER_PI * (1.0 + 3 * 0.044715 * z ** 2)


def _to_heads(a, n_heads, layout):
    """(T, C) -> (n_heads, T, D); "reshape" is the reshape without the transpose."""
    T, C = a.shape
    D = C // n_heads
    if layout == "reshape":
        return a.reshape(n_heads, T, D)
    return a.reshape(T, n_heads, D).transpose(1, 0, 2)


def _from_heads(a, layout):
    n_heads, T, D = a.shape
    if layout == "reshape":
        return a.reshape(T, n_heads * D)
    return a.transpose(1, 0, 2).reshape(T, n_heads * D)


def _attention_backward(q, k, v, dout, scale, backward_scale):
    """(dq, dk, dv) of one causal head, query by query, through the softmax's Jacobian diag(a) - a a^T."""
    T = q.shape[0]
    dq, dk, dv = np.zeros_like(q), np.zeros_like(k), np.zeros_like(v)
    for i in range(T):
        scores = k[:i + 1] @ q[i] * scale
        a = np.exp(scores - scores.max())
        a = a / a.sum()
        dv[:i + 1] += np.outer(a, dout[i])
        dscores = (np.diag(a) - np.outer(a, a)) @ (v[:i + 1] @ dout[i])
        dq[i] = dscores @ k[:i + 1] * backward_scale
        dk[:i + 1] += np.outer(dscores, q[i]) * backward_scale
    return dq, dk, dv


def _backward(x, p, n_heads, dout, *, residual="both", layout="columns", scale="D", swap=(),
              dh1_from=("q", "k", "v"), gelu_at="z", ln2_at="x1", one_head=False):
    """(dx, grads) of sum(out * dout); the keyword arguments reproduce known mistakes.

    residual: "both" (correct), "no_x" (dx is only the gradient through ln1), "no_x1" (dx1 is only the
    gradient through ln2), "skip_mlp" (dx1 = dout).  layout: how the backward splits and merges heads.
    scale: "D" (correct), "C" (1/sqrt(C)), "forward_only" (dq and dk not scaled).  swap: pairs of
    gradient names exchanged.  dh1_from: the projections whose gradients reach h1.  gelu_at: "z" or
    "no_bias" (the derivative taken at h2 @ W1).  ln2_at: "x1" or "x" (ln2's backward at the block input).
    one_head: the backward treats the whole (T, C) arrays as one head (scaled by 1/sqrt(C)).
    """
    x = np.asarray(x, dtype=np.float64)
    dout = np.asarray(dout, dtype=np.float64)
    p = {key: np.asarray(value, dtype=np.float64) for key, value in p.items()}
    T, C = x.shape
    D = C // n_heads
    h1 = _layer_norm(x, p["ln1_g"], p["ln1_b"])
    q, k, v = h1 @ p["W_q"], h1 @ p["W_k"], h1 @ p["W_v"]
    forward_scale = 1.0 / math.sqrt(C if scale == "C" else D)
    backward_scale = 1.0 if scale == "forward_only" else forward_scale
    heads = np.zeros((T, C))
    for head in range(n_heads):
        cols = slice(head * D, (head + 1) * D)
        for i in range(T):
            scores = k[:i + 1, cols] @ q[i, cols] * forward_scale
            a = np.exp(scores - scores.max())
            heads[i, cols] = (a / a.sum()) @ v[:i + 1, cols]
    x1 = x + heads @ p["W_o"]
    h2 = _layer_norm(x1, p["ln2_g"], p["ln2_b"])
    z = h2 @ p["W1"] + p["b1"]
    g = _gelu(z)

    grads = {"W2": g.T @ dout, "b2": dout.sum(axis=0)}
    dz = (dout @ p["W2"].T) * _gelu_derivative(z if gelu_at == "z" else h2 @ p["W1"])
    grads["W1"], grads["b1"] = h2.T @ dz, dz.sum(axis=0)
    dx1_ln, grads["ln2_g"], grads["ln2_b"] = _layer_norm_backward(x1 if ln2_at == "x1" else x, p["ln2_g"],
                                                                  dz @ p["W1"].T)
    dx1 = {"no_x1": dx1_ln, "skip_mlp": dout}.get(residual, dout + dx1_ln)
    grads["W_o"] = heads.T @ dx1
    dheads = _to_heads(dx1 @ p["W_o"].T, n_heads, layout)
    qh, kh, vh = (_to_heads(a, n_heads, "columns") for a in (q, k, v))
    parts = [_attention_backward(qh[h], kh[h], vh[h], dheads[h], forward_scale, backward_scale)
             for h in range(n_heads)]
    dq, dk, dv = (_from_heads(np.array([part[i] for part in parts]), layout) for i in range(3))
    if one_head:
        dq, dk, dv = _attention_backward(q, k, v, dx1 @ p["W_o"].T, 1.0 / math.sqrt(C), 1.0 / math.sqrt(C))
    grads["W_q"], grads["W_k"], grads["W_v"] = h1.T @ dq, h1.T @ dk, h1.T @ dv
    dh1 = np.zeros((T, C))
    for name, d in (("q", dq), ("k", dk), ("v", dv)):
        if name in dh1_from:
            dh1 = dh1 + d @ p["W_" + name].T
    dx_ln, grads["ln1_g"], grads["ln1_b"] = _layer_norm_backward(x, p["ln1_g"], dh1)
    for first, second in swap:
        grads[first], grads[second] = grads[second], grads[first]
    return (dx_ln if residual == "no_x" else dx1 + dx_ln), grads


_MISTAKES = [
    (dict(residual="no_x"),
     "looks like dx is only the gradient through ln1 and the attention: x also reaches the output directly, "
     "through the residual, so dx = dx1 + (the gradient through ln1)"),
    (dict(residual="no_x1"),
     "looks like dout does not reach x1 directly: out = x1 + mlp(ln2(x1)), so dx1 = dout + (the gradient "
     "through ln2 and the MLP)"),
    (dict(residual="skip_mlp"),
     "looks like dx1 = dout only: the MLP branch's gradient (through ln2) must be added to it"),
    (dict(layout="reshape"),
     "looks like the backward splits or merges the heads with a plain reshape: head h holds columns "
     "h*D to (h+1)*D - 1, so go through (T, n_heads, D) and transpose, as in the forward pass"),
    (dict(swap=(("ln1_g", "ln2_g"), ("ln1_b", "ln2_b"))),
     "looks like the two layer norms' gradients are swapped: ln1 is the one before the attention"),
    (dict(swap=(("ln1_g", "ln2_g"),)),
     "looks like the gradients of ln1_g and ln2_g are swapped: ln1 is the one before the attention"),
    (dict(swap=(("W_q", "W_k"),)),
     "looks like the gradients of W_q and W_k are swapped"),
    (dict(scale="forward_only"),
     "looks like the 1/sqrt(D) scale is missing from dq and dk: scores = q k^T / sqrt(D), so both gradients "
     "carry the same factor"),
    (dict(scale="C"),
     "looks like the attention scale is 1/sqrt(C): each head's scores are divided by sqrt(D), D = C / n_heads"),
    (dict(one_head=True),
     "looks like the attention backward ran on the whole (T, C) arrays as one head: split q, k, v and the "
     "gradient of the heads into n_heads heads of D columns, as the forward pass does"),
    (dict(dh1_from=("v",)),
     "looks like dh1 keeps only the gradient through W_v: h1 feeds q, k and v, so dh1 = dq W_q^T + dk W_k^T "
     "+ dv W_v^T"),
    (dict(dh1_from=("q",)),
     "looks like dh1 keeps only the gradient through W_q: h1 feeds q, k and v, so the three gradients add up"),
    (dict(dh1_from=("k",)),
     "looks like dh1 keeps only the gradient through W_k: h1 feeds q, k and v, so the three gradients add up"),
    (dict(gelu_at="no_bias"),
     "looks like GELU's derivative is taken at h2 @ W1 without b1: take it at z = h2 @ W1 + b1, its input"),
    (dict(ln2_at="x"),
     "looks like ln2's backward is evaluated at the block input x: ln2 normalises x1 = x + attention(...)"),
]


def _explain(got_dx, got, x, p, n_heads, dout, factor):
    """' (hint)' naming the one classic mistake whose every gradient matches the learner's, or ''."""
    def agree(learner, mistake):
        arrays = [(learner[0], mistake[0])] + [(learner[1][key], mistake[1][key]) for key in KEYS]
        return all(a.shape == b.shape and np.allclose(a, b, rtol=0.0, atol=_atol(b, factor, 1.0)) for a, b in arrays)
    return diagnose((got_dx, got), [(lambda options=options: _backward(x, p, n_heads, dout, **options), hint)
                                    for options, hint in _MISTAKES], agree=agree, pick="unique")


# ---- calling and comparing -----------------------------------------------------------------------------

def _describe(x, p, n_heads, label=""):
    T, C = np.shape(x)
    F = np.shape(p["W1"])[1]
    return f"transformer_block_backward(x, p, n_heads={n_heads}, dout) with T={T}, C={C}, F={F}{label}"


def _factor(precision):
    """The tolerance, relative to the largest value of the array compared."""
    return precision.tolerance(float64=1e-8, float32=2e-4, float16=5e-2)


def _atol(expected, factor, floor):
    return factor * max(float(np.abs(expected).max(initial=0.0)), floor)


def _gradients(transformer_block_backward, x, p, n_heads, dout, label=""):
    """Call the learner's function; return (dx, grads as float64 arrays, tolerance factor, description)."""
    precision = precision_of(x, p, dout)
    what = _describe(x, p, n_heads, label)
    raw_dx, raw = items(transformer_block_backward(x, p, n_heads, dout), what, names=("dx", "grads"))
    T, C = np.shape(x)
    dx = checked_array(raw_dx, precision, what=f"dx from {what}", shape=(T, C))
    raw = as_dict(raw, KEYS, f"grads from {what}", keys_named="the twelve keys of p")

    def shape_hint(shape, wanted):
        if shape == wanted[::-1] and len(wanted) == 2:
            return "looks transposed: dW = (layer input)^T @ (gradient of its output)"
        if len(wanted) == 1 and shape == (T,) + wanted:
            return "a bias or a layer-norm parameter is shared by every row: sum its gradient over the rows"
        if len(wanted) == 1 and shape == (1,) + wanted:
            return "summed with keepdims=True: the gradient has the parameter's shape, drop the kept axis"
        return ""
    grads = {key: checked_array(raw[key], precision, what=f"grads[{key!r}] from {what}", shape=np.shape(p[key]),
                                shape_hint=lambda shape, key=key: shape_hint(shape, tuple(np.shape(p[key]))))
             for key in KEYS}
    return dx, grads, _factor(precision), what


def _compare(dx, grads, expected_dx, expected, factor, what, diagnose):
    """Fail at the worst entry of the first array (dx, then the grads in p's order) that differs."""
    floor = 1e-3 * max(float(np.abs(a).max(initial=0.0)) for a in [expected_dx, *expected.values()])
    arrays = [("dx", dx, expected_dx)] + [(f"grads[{key!r}]", grads[key], expected[key]) for key in KEYS]
    for name, got, want in arrays:
        atol = _atol(want, factor, floor)
        error = np.abs(got - want)
        error[~np.isfinite(error)] = np.inf
        if error.size and error.max() > atol:
            index = tuple(int(i) for i in np.unravel_index(int(np.argmax(error)), error.shape))
            shown = "[" + ", ".join(str(i) for i in index) + "]"
            wrong = int((error > atol).sum())
            fail(f"{what}: {name}{shown} {expected_got(want[index], got[index])} "
                 f"({wrong} of {error.size} entries differ){diagnose()}", got=got, expected=want)


def _check(transformer_block_backward, x, p, n_heads, dout, label=""):
    dx, grads, factor, what = _gradients(transformer_block_backward, x, p, n_heads, dout, label)
    expected_dx, expected = _backward(x, p, n_heads, dout)
    _compare(dx, grads, expected_dx, expected, factor, what,
             lambda: _explain(dx, grads, x, p, n_heads, dout, factor))
    return dx, grads


def _params(seed, C, F, dtype=np.float64):
    """Random block parameters: every gamma away from 1, attention weights large enough to be peaked."""
    rng = np.random.default_rng(seed)
    p = {"ln1_g": 1.0 + 0.4 * rng.normal(size=C), "ln1_b": 0.3 * rng.normal(size=C),
         "W_q": rng.normal(scale=1.5 / math.sqrt(C), size=(C, C)),
         "W_k": rng.normal(scale=1.5 / math.sqrt(C), size=(C, C)),
         "W_v": rng.normal(scale=1.0 / math.sqrt(C), size=(C, C)),
         "W_o": rng.normal(scale=1.0 / math.sqrt(C), size=(C, C)),
         "ln2_g": 1.0 + 0.4 * rng.normal(size=C), "ln2_b": 0.3 * rng.normal(size=C),
         "W1": rng.normal(scale=1.0 / math.sqrt(C), size=(C, F)), "b1": 0.5 * rng.normal(size=F),
         "W2": rng.normal(scale=1.0 / math.sqrt(F), size=(F, C)), "b2": 0.3 * rng.normal(size=C)}
    return {key: value.astype(dtype) for key, value in p.items()}


def _x(seed, T, C, dtype=np.float64):
    rng = np.random.default_rng(1000 + seed)
    return rng.normal(0.5, 1.5, size=(T, C)).astype(dtype), rng.normal(size=(T, C)).astype(dtype)


# ---- tests --------------------------------------------------------------------------------------------

def test_shape(transformer_block_backward):
    """Returns (dx, grads): dx shaped like x, grads with the twelve keys of p, each shaped like its parameter"""
    for seed, T, C, F, n_heads in [(0, 3, 4, 8, 2), (1, 5, 6, 10, 3), (2, 2, 8, 12, 4)]:
        x, dout = _x(seed, T, C)
        _gradients(transformer_block_backward, x, _params(seed, C, F), n_heads, dout)


def test_residual_paths(transformer_block_backward):
    """With W_o = W2 = 0 the residuals carry dout to dx unchanged, and the gradients before W_o and W2 are 0"""
    # Both sublayers output constants, so out = x + b2 and dx = dout exactly.  dW2 = gelu(z)^T dout and
    # dW_o = heads^T dout are the only weight gradients left; b2's is the sum of dout's rows.
    T, C, F, n_heads = 4, 6, 12, 2
    x, dout = _x(10, T, C)
    p = _params(10, C, F)
    p["W_o"], p["W2"] = np.zeros((C, C)), np.zeros((F, C))
    dx, grads, factor, what = _gradients(transformer_block_backward, x, p, n_heads, dout, label=" and W_o = W2 = 0")
    error = np.abs(dx - dout)
    if not error.max() <= _atol(dout, factor, 1.0):
        t, c = (int(i) for i in np.unravel_index(int(np.argmax(error)), error.shape))
        fail(f"{what}: dx[{t}, {c}] expected dout[{t}, {c}] = {num(dout[t, c])}, got {num(dx[t, c])}: with both "
             f"sublayers' outputs constant, out = x + b2, and the residual connections pass dout to dx unchanged"
             f"{_explain(dx, grads, x, p, n_heads, dout, factor)}", got=dx, expected=dout)
    expected_dx, expected = _backward(x, p, n_heads, dout)
    _compare(dx, grads, expected_dx, expected, factor, what, lambda: _explain(dx, grads, x, p, n_heads, dout, factor))


def test_row_sums(transformer_block_backward):
    """Each row of dx sums to that row of dout: shifting a row of x by a constant shifts that output row alike"""
    # Both layer norms ignore a constant added to a row, and the two residuals pass it through: the block maps
    # x + c on row t to out + c on row t, so sum_c dx[t, c] = sum_c dout[t, c] for every row t.
    T, C, F, n_heads = 5, 6, 12, 3
    x, dout = _x(20, T, C)
    p = _params(20, C, F)
    dx, grads, factor, what = _gradients(transformer_block_backward, x, p, n_heads, dout)
    for t in range(T):
        want, got = float(dout[t].sum()), float(dx[t].sum())
        if not abs(got - want) <= _atol(dx, factor, 1.0) * C:
            # A sum within rounding of 0 shows as 0: its last bits differ between numpy builds (the page's, CPython's).
            shown = num(got) if abs(got) > 1e-12 * (abs(want) + 1.0) else "0"
            fail(f"{what}: row {t} of dx sums to {shown}, but row {t} of dout sums to {num(want)}; they are "
                 f"equal since adding a constant to row {t} of x adds it to row {t} of the output (both layer norms "
                 f"ignore it, the residuals carry it){_explain(dx, grads, x, p, n_heads, dout, factor)}")


def test_first_row_only(transformer_block_backward):
    """A gradient on the first output row only: dx is 0 on the later rows, and W_q, W_k get no gradient"""
    # Row 0 attends only to itself (weight 1 whatever the scores), and no later row of x reaches output row 0.
    T, C, F, n_heads = 4, 4, 8, 2
    x, dout = _x(30, T, C)
    dout[1:] = 0.0
    p = _params(30, C, F)
    dx, grads, factor, what = _gradients(transformer_block_backward, x, p, n_heads, dout,
                                         label=", dout zero after row 0")
    later = np.abs(dx[1:])
    if not later.max() <= _atol(dx, factor, 1.0):
        t, c = (int(i) for i in np.unravel_index(int(np.argmax(later)), later.shape))
        t += 1
        fail(f"{what}: dx[{t}, {c}] = {num(dx[t, c])}, expected 0: output row 0 depends only on row 0 of x (the "
             f"attention is causal), so the later rows of x get no gradient"
             f"{_explain(dx, grads, x, p, n_heads, dout, factor)}")
    expected_dx, expected = _backward(x, p, n_heads, dout)
    _compare(dx, grads, expected_dx, expected, factor, what, lambda: _explain(dx, grads, x, p, n_heads, dout, factor))


def test_single_token(transformer_block_backward):
    """A single token (T = 1): the attention weight is 1, so W_q and W_k get a zero gradient"""
    x, dout = _x(40, 1, 6)
    _check(transformer_block_backward, x, _params(40, 6, 12), 2, dout, label=" (a single token)")


def test_finite_differences(transformer_block_backward):
    """Agrees with central differences of the block for x and every entry of every parameter"""
    T, C, F, n_heads = 3, 4, 6, 2
    x, dout = _x(50, T, C)
    p = _params(50, C, F)
    dx, grads, factor, what = _gradients(transformer_block_backward, x, p, n_heads, dout)
    x, p = x.copy(), {key: value.copy() for key, value in p.items()}
    h = 1e-5

    def loss():
        return float((_forward(x, p, n_heads) * dout).sum())

    for name, array, got in [("dx", x, dx)] + [(f"grads[{key!r}]", p[key], grads[key]) for key in KEYS]:
        for index in np.ndindex(array.shape):
            saved = array[index]
            array[index] = saved + h
            plus = loss()
            array[index] = saved - h
            minus = loss()
            array[index] = saved
            numeric = (plus - minus) / (2 * h)
            if not abs(got[index] - numeric) <= 1e-6 * max(1.0, abs(numeric)):
                source = "x" if name == "dx" else f"p[{name[7:-2]!r}]"
                shown = "[" + ", ".join(str(i) for i in index) + "]"
                fail(f"{what}: {name}{shown} is {num(got[index])}, but sum(out * dout) changes at rate "
                     f"{num(numeric)} when {source}{shown} moves (central difference, h = 1e-5)"
                     f"{_explain(dx, grads, x, p, n_heads, dout, factor)}")


def test_random(transformer_block_backward):
    """Matches the chain rule on random blocks (2, 3 and 4 heads; F not 4C)"""
    for seed, T, C, F, n_heads in [(60, 6, 8, 16, 2), (61, 5, 9, 20, 3), (62, 7, 8, 24, 4)]:
        x, dout = _x(seed, T, C)
        _check(transformer_block_backward, x, _params(seed, C, F), n_heads, dout)


def test_float32(transformer_block_backward):
    """float32 inputs give the right gradients (within float32 precision)"""
    x, dout = _x(70, 8, 16, dtype=np.float32)
    _check(transformer_block_backward, x, _params(70, 16, 48, dtype=np.float32), 4, dout, label=" (float32)")


def test_large(transformer_block_backward):
    """A larger block: T = 32, C = 32, F = 128, 4 heads"""
    x, dout = _x(80, 32, 32)
    _check(transformer_block_backward, x, _params(80, 32, 128), 4, dout)
