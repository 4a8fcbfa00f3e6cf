"""Hidden tests for gpt_loss_and_grads(ids, targets, p, n_heads).

Expected values come from code written independently of solution.py and of the steps it uses: a GPT
forward pass (positional encoding with math.sin and math.cos, attention one head at a time) and a
backward pass from the chain rule with explicit Jacobians (the layer norm's (C, C) matrix per row, the
softmax's matrix per query).  One test checks every entry of every parameter of a two-block model
against central differences of that forward pass.  Keyword arguments of _loss_and_grads rebuild the
classic mistakes, so that a failure message can name the one it matches.
"""

import math

import numpy as np

from grader.core.checks import as_array, fail, precision_of, type_got
from grader.core.testkit import as_dict, checked_array, diagnose, expected_got, items, num

EPS = 1e-5
BLOCK_KEYS = ("ln1_g", "ln1_b", "W_q", "W_k", "W_v", "W_o", "ln2_g", "ln2_b", "W1", "b1", "W2", "b2")
TOP_KEYS = ("W_E", "blocks", "lnf_g", "lnf_b")
_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


# ---- the forward pass ------------------------------------------------------------------------------

def _pe(T, C):
    table = np.zeros((T, C))
    for t in range(T):
        for i in range(C // 2):
            angle = t / 10000.0 ** (2 * i / C)
            table[t, 2 * i], table[t, 2 * i + 1] = math.sin(angle), math.cos(angle)
    return table


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


def _block(x, b, n_heads):
    h1 = _layer_norm(x, b["ln1_g"], b["ln1_b"])
    x1 = x + _attention(h1 @ b["W_q"], h1 @ b["W_k"], h1 @ b["W_v"], n_heads) @ b["W_o"]
    return x1 + _gelu(_layer_norm(x1, b["ln2_g"], b["ln2_b"]) @ b["W1"] + b["b1"]) @ b["W2"] + b["b2"]


def _cross_entropy(logits, targets):
    total = 0.0
    for row, y in zip(logits, targets):
        top = float(row.max())
        total += top + math.log(float(np.exp(row - top).sum())) - float(row[y])
    return total / len(targets)


def _loss(ids, targets, p, n_heads):
    """Step 14's cross-entropy of step 13's logits, in float64."""
    W_E = p["W_E"]
    x = W_E[ids] + _pe(len(ids), W_E.shape[1])
    for b in p["blocks"]:
        x = _block(x, b, n_heads)
    return _cross_entropy(_layer_norm(x, p["lnf_g"], p["lnf_b"]) @ W_E.T, targets)


# ---- the backward pass -----------------------------------------------------------------------------

def _layer_norm_backward(x, gamma, dy):
    """(dx, dgamma, dbeta): row by row, dx_t = J_t^T (gamma * dy_t) with the Jacobian of x_hat_t."""
    T, C = x.shape
    dx, x_hats = np.zeros((T, C)), np.zeros((T, C))
    for t in range(T):
        centred = x[t] - x[t].mean()
        rstd = 1.0 / math.sqrt(float((centred ** 2).mean()) + EPS)
        x_hats[t] = centred * rstd
        jacobian = rstd * (np.eye(C) - 1.0 / C - np.outer(x_hats[t], x_hats[t]) / C)
        dx[t] = jacobian.T @ (gamma * dy[t])
    return dx, (dy * x_hats).sum(axis=0), dy.sum(axis=0)


def _gelu_derivative(z):
    u = _SQRT_2_OVER_PI * (z + 0.044715 * z ** 3)
    sech2 = 1.0 - np.tanh(u) ** 2
    return 0.5 * (1.0 + np.tanh(u)) + 0.5 * z * sech2 * _SQRT_2_OVER_PI * (1.0 + 3 * 0.044715 * z ** 2)


def _block_backward(x, b, n_heads, dout):
    """(dx, grads) of one block, query by query through the softmax's Jacobian diag(a) - a a^T."""
    T, C = x.shape
    D = C // n_heads
    h1 = _layer_norm(x, b["ln1_g"], b["ln1_b"])
    q, k, v = h1 @ b["W_q"], h1 @ b["W_k"], h1 @ b["W_v"]
    weights = {}
    heads = np.zeros((T, C))
    for head in range(n_heads):
        cols = slice(head * D, (head + 1) * D)
        for i in range(T):
            scores = k[:i + 1, cols] @ q[i, cols] / math.sqrt(D)
            a = np.exp(scores - scores.max())
            weights[head, i] = a / a.sum()
            heads[i, cols] = weights[head, i] @ v[:i + 1, cols]
    x1 = x + heads @ b["W_o"]
    h2 = _layer_norm(x1, b["ln2_g"], b["ln2_b"])
    z = h2 @ b["W1"] + b["b1"]

    grads = {"W2": _gelu(z).T @ dout, "b2": dout.sum(axis=0)}
    dz = (dout @ b["W2"].T) * _gelu_derivative(z)
    grads["W1"], grads["b1"] = h2.T @ dz, dz.sum(axis=0)
    dx1, grads["ln2_g"], grads["ln2_b"] = _layer_norm_backward(x1, b["ln2_g"], dz @ b["W1"].T)
    dx1 = dx1 + dout
    grads["W_o"] = heads.T @ dx1
    dheads = dx1 @ b["W_o"].T
    dq, dk, dv = np.zeros((T, C)), np.zeros((T, C)), np.zeros((T, C))
    for head in range(n_heads):
        cols = slice(head * D, (head + 1) * D)
        for i in range(T):
            a = weights[head, i]
            dv[:i + 1, cols] += np.outer(a, dheads[i, cols])
            dscores = (np.diag(a) - np.outer(a, a)) @ (v[:i + 1, cols] @ dheads[i, cols]) / math.sqrt(D)
            dq[i, cols] = dscores @ k[:i + 1, cols]
            dk[:i + 1, cols] += np.outer(dscores, q[i, cols])
    grads["W_q"], grads["W_k"], grads["W_v"] = h1.T @ dq, h1.T @ dk, h1.T @ dv
    dh1 = dq @ b["W_q"].T + dk @ b["W_k"].T + dv @ b["W_v"].T
    dx, grads["ln1_g"], grads["ln1_b"] = _layer_norm_backward(x, b["ln1_g"], dh1)
    return dx1 + dx, grads


def _loss_and_grads(ids, targets, p, n_heads, *, tied_output=True, embedding=True, order="reverse",
                    final_ln=True, positions=False, mean=True, reverse_list=False, output_from="h"):
    """(loss, grads); the keyword arguments reproduce known mistakes.

    tied_output / embedding: whether W_E gets its output / input gradient ("overwrite": one row per id).
    order: "forward" runs the block backwards first to last.  final_ln=False passes dlogits @ W_E to the
    last block without the final layer norm's backward.  positions adds the gradient of x0 to rows
    0..T-1 of W_E.  mean=False is the summed loss (and its gradients).  reverse_list stores the block
    gradients last block first.  output_from="x" takes the output gradient of W_E against the
    un-normalised x.
    """
    ids, targets = [int(i) for i in ids], [int(y) for y in targets]
    p = {"W_E": np.asarray(p["W_E"], dtype=np.float64),
         "blocks": [{key: np.asarray(value, dtype=np.float64) for key, value in b.items()} for b in p["blocks"]],
         "lnf_g": np.asarray(p["lnf_g"], dtype=np.float64), "lnf_b": np.asarray(p["lnf_b"], dtype=np.float64)}
    W_E = p["W_E"]
    V, C = W_E.shape
    T, L = len(ids), len(p["blocks"])
    inputs = [W_E[ids] + _pe(T, C)]
    for b in p["blocks"]:
        inputs.append(_block(inputs[-1], b, n_heads))
    x = inputs.pop()
    h = _layer_norm(x, p["lnf_g"], p["lnf_b"])
    logits = h @ W_E.T
    loss = _cross_entropy(logits, targets)
    dlogits = np.zeros((T, V))
    for t in range(T):
        e = np.exp(logits[t] - logits[t].max())
        dlogits[t] = e / e.sum()
        dlogits[t, targets[t]] -= 1.0
    dlogits /= T
    if not mean:
        loss, dlogits = loss * T, dlogits * T
    dW_E = np.zeros((V, C))
    if tied_output:
        dW_E += dlogits.T @ (h if output_from == "h" else x)
    dx, dlnf_g, dlnf_b = _layer_norm_backward(x, p["lnf_g"], dlogits @ W_E)
    if not final_ln:
        dx = dlogits @ W_E
    block_grads = [None] * L
    for i in (reversed(range(L)) if order == "reverse" else range(L)):
        dx, block_grads[i] = _block_backward(inputs[i], p["blocks"][i], n_heads, dx)
    if embedding == "overwrite":                     # dW[ids] += dx: a repeated id keeps its last row only
        for i, t in {i: t for t, i in enumerate(ids)}.items():
            dW_E[i] += dx[t]
    elif embedding:
        for t, i in enumerate(ids):
            dW_E[i] += dx[t]
    if positions:
        dW_E[:T] += dx
    if reverse_list:
        block_grads.reverse()
    return loss, {"W_E": dW_E, "blocks": block_grads, "lnf_g": dlnf_g, "lnf_b": dlnf_b}


def _mistakes(T, V, L):
    mistakes = [
        (dict(tied_output=False),
         "looks like the output layer's gradient of W_E is missing: W_E is used twice (embedding and tied output "
         "layer, logits = h @ W_E.T), so grads['W_E'] = embedding gradient + dlogits.T @ h"),
        (dict(embedding=False),
         "looks like the embedding's gradient of W_E is missing: W_E is used twice, so grads['W_E'] also gets "
         "row ids[t] += dx[t] for every position t (embedding_backward)"),
        (dict(embedding="overwrite"),
         "looks like a repeated id keeps only one position's gradient (W[ids] += dx does that): the rows of "
         "every position holding the same id add up (np.add.at, a loop, or embedding_backward)"),
        (dict(final_ln=False),
         "looks like the final layer norm was skipped in the backward pass: dlogits @ W_E is the gradient of "
         "its output, which goes through layer_norm_backward before the last block"),
        (dict(mean=False),
         "looks like the loss is summed over positions: it is the mean, so divide by T (cross_entropy and "
         "cross_entropy_grad already do)"),
        (dict(output_from="x"),
         "looks like the output gradient of W_E uses the un-normalised x: logits = layer_norm(x) @ W_E.T, so it "
         "is dlogits.T @ layer_norm(x, lnf_g, lnf_b)"),
    ]
    if T <= V:
        mistakes.append((dict(positions=True),
                         "looks like the positional encoding's gradient was added to rows 0..T-1 of W_E: the "
                         "positions are constants, only the token embedding W_E[ids] gets a gradient"))
    if L >= 2:
        mistakes += [
            (dict(order="forward"),
             "looks like the blocks were backpropagated first to last: the gradient flows from the last block "
             "back to the first, each with its own input"),
            (dict(reverse_list=True),
             "looks like grads['blocks'] is in reverse order: grads['blocks'][i] belongs to p['blocks'][i]"),
        ]
    return mistakes


def _explain(loss, grads, ids, targets, p, n_heads, factor):
    """' (hint)' naming the one classic mistake whose loss and every gradient match the learner's, or ''."""
    def agree(learner, mistake):
        (loss, grads), (want_loss, want) = learner, mistake
        return abs(loss - want_loss) <= factor * max(1.0, abs(want_loss)) and all(
            got.shape == expected.shape and np.allclose(got, expected, rtol=0.0, atol=_atol(expected, factor, 1.0))
            for _, got, expected in _arrays(grads, want))
    mistakes = [(lambda options=options: _loss_and_grads(ids, targets, p, n_heads, **options), hint)
                for options, hint in _mistakes(len(ids), p["W_E"].shape[0], len(p["blocks"]))]
    return diagnose((loss, grads), mistakes, agree=agree, pick="unique")


# ---- calling and comparing -----------------------------------------------------------------------------

def _describe(ids, p, n_heads, label=""):
    V, C = np.shape(p["W_E"])
    return (f"gpt_loss_and_grads(ids, targets, p, n_heads={n_heads}) with T={len(ids)}, C={C}, V={V}, "
            f"{len(p['blocks'])} block(s){label}")


def _factor(precision):
    """The tolerance, relative to the largest value of the array compared."""
    return precision.tolerance(float64=1e-8, float32=2e-4, float16=5e-2)


def _atol(expected, factor, floor):
    return factor * max(float(np.abs(expected).max(initial=0.0)), floor)


def _scalar(value, precision, what):
    """The learner's loss as a Python float: a real number of any kind (float, numpy scalar, 0-d array)."""
    if type(value) is bool or issubclass(type(value), np.bool_):
        fail(f"{what} should be a real number, got a bool")
    if type(value) in (float, int):
        return float(value)
    if issubclass(type(value), (np.floating, np.integer)):
        if issubclass(type(value), np.floating) and value.dtype.itemsize < precision.dtype.itemsize:
            fail(f"{what} is {value.dtype} but {precision.reason}: compute and return {precision.dtype}")
        return float(value)
    if issubclass(type(value), np.ndarray):
        array = as_array(value, precision, what=what)
        if array.shape != ():
            fail(f"{what} should be a single number, got an array of shape {tuple(array.shape)} "
                 f"(the loss is the mean over positions: one number)")
        return float(array)
    fail(f"{what} should be a real number (a float), got {type_got(value)}")


def _block_grads(raw, i, shapes, precision, what):
    name = f"grads['blocks'][{i}]"
    raw = as_dict(raw, BLOCK_KEYS, f"{name} from {what}", keys_named=f"the twelve keys of p['blocks'][{i}]")
    return {key: checked_array(raw[key], precision, what=f"{name}[{key!r}] from {what}", shape=shapes[key])
            for key in BLOCK_KEYS}


def _loss_and_gradients(gpt_loss_and_grads, ids, targets, p, n_heads, label=""):
    """Call the learner's function; return (loss, grads as float64 arrays, tolerance factor, description)."""
    precision = precision_of(p)
    what = _describe(ids, p, n_heads, label)
    raw_loss, raw = items(gpt_loss_and_grads(ids, targets, p, n_heads), what, names=("loss", "grads"))
    loss = _scalar(raw_loss, precision, f"the loss from {what}")
    raw = as_dict(raw, TOP_KEYS, f"grads from {what}",
                  keys_named="the keys of p, 'W_E', 'blocks', 'lnf_g' and 'lnf_b'")

    def shape_hint(shape, key):
        return "looks transposed: W_E is (V, C)" if key == "W_E" and shape == tuple(np.shape(p[key]))[::-1] else ""
    grads = {key: checked_array(raw[key], precision, what=f"grads[{key!r}] from {what}", shape=np.shape(p[key]),
                                shape_hint=lambda shape, key=key: shape_hint(shape, key))
             for key in ("W_E", "lnf_g", "lnf_b")}
    L = len(p["blocks"])
    blocks = items(raw["blocks"], f"grads['blocks'] from {what}", names=[f"block {i}" for i in range(L)])
    shapes = [{key: tuple(np.shape(value)) for key, value in block.items()} for block in p["blocks"]]
    grads["blocks"] = [_block_grads(blocks[i], i, shapes[i], precision, what) for i in range(L)]
    return loss, grads, _factor(precision), what


def _arrays(grads, expected):
    """(name, got, expected) for every gradient array, in p's order."""
    out = [("grads['W_E']", grads["W_E"], expected["W_E"])]
    for i, (got_block, want_block) in enumerate(zip(grads["blocks"], expected["blocks"])):
        out += [(f"grads['blocks'][{i}][{key!r}]", got_block[key], want_block[key]) for key in BLOCK_KEYS]
    return out + [(f"grads[{key!r}]", grads[key], expected[key]) for key in ("lnf_g", "lnf_b")]


def _compare(loss, grads, ids, targets, p, n_heads, factor, what):
    """Fail at the loss, or at the worst entry of the first gradient (in p's order) that differs."""
    want_loss, want = _loss_and_grads(ids, targets, p, n_heads)

    def diagnose():
        return _explain(loss, grads, ids, targets, p, n_heads, factor)

    if not abs(loss - want_loss) <= factor * max(1.0, abs(want_loss)):
        fail(f"{what}: the loss should be {num(want_loss)} (step 14's cross_entropy of step 13's logits), "
             f"got {num(loss)}{diagnose()}")
    arrays = _arrays(grads, want)
    floor = 1e-3 * max(float(np.abs(expected).max(initial=0.0)) for _, _, expected in arrays)
    for name, got, expected in arrays:
        atol = _atol(expected, factor, floor)
        error = np.abs(got - expected)
        error[~np.isfinite(error)] = np.inf
        if error.size and error.max() > atol:
            index = tuple(int(i) for i in np.unravel_index(int(np.argmax(error)), error.shape))
            shown = "[" + ", ".join(str(i) for i in index) + "]"
            wrong = int((error > atol).sum())
            fail(f"{what}: {name}{shown} {expected_got(expected[index], got[index])} "
                 f"({wrong} of {error.size} entries differ){diagnose()}", got=got, expected=expected)


def _check(gpt_loss_and_grads, ids, targets, p, n_heads, label=""):
    loss, grads, factor, what = _loss_and_gradients(gpt_loss_and_grads, ids, targets, p, n_heads, label)
    _compare(loss, grads, ids, targets, p, n_heads, factor, what)


def _block_params(rng, C, F):
    return {"ln1_g": 1.0 + 0.4 * rng.normal(size=C), "ln1_b": 0.3 * rng.normal(size=C),
            "W_q": rng.normal(scale=1.5 / math.sqrt(C), size=(C, C)),
            "W_k": rng.normal(scale=1.5 / math.sqrt(C), size=(C, C)),
            "W_v": rng.normal(scale=1.0 / math.sqrt(C), size=(C, C)),
            "W_o": rng.normal(scale=1.0 / math.sqrt(C), size=(C, C)),
            "ln2_g": 1.0 + 0.4 * rng.normal(size=C), "ln2_b": 0.3 * rng.normal(size=C),
            "W1": rng.normal(scale=1.0 / math.sqrt(C), size=(C, F)), "b1": 0.5 * rng.normal(size=F),
            "W2": rng.normal(scale=1.0 / math.sqrt(F), size=(F, C)), "b2": 0.3 * rng.normal(size=C)}


def _params(seed, V, C, L, F=None, dtype=np.float64):
    """A random model: every block and layer norm distinct, every gamma away from 1."""
    rng = np.random.default_rng(seed)
    F = F or 2 * C
    p = {"W_E": rng.normal(size=(V, C)).astype(dtype),
         "blocks": [{key: value.astype(dtype) for key, value in _block_params(rng, C, F).items()} for _ in range(L)],
         "lnf_g": (1.0 + 0.4 * rng.normal(size=C)).astype(dtype), "lnf_b": (0.3 * rng.normal(size=C)).astype(dtype)}
    return p


def _ids(seed, T, V):
    """(ids, targets) with a repeated id; the last id of the vocabulary never occurs as an input."""
    rng = np.random.default_rng(100 + seed)
    ids = rng.integers(0, V - 1, size=T)
    ids[-1] = ids[0]
    return ids, rng.integers(0, V, size=T)


# ---- tests --------------------------------------------------------------------------------------------

def test_shape(gpt_loss_and_grads):
    """Returns (loss, grads): grads has p's structure, "blocks" a list with one dict per block, every shape p's"""
    cases = [(0, 5, 11, 8, 1, 2, False), (1, 4, 7, 4, 0, 1, True), (2, 3, 6, 6, 2, 3, False)]
    for seed, T, V, C, L, n_heads, as_lists in cases:
        ids, targets = _ids(seed, T, V)
        if as_lists:
            ids, targets = [int(i) for i in ids], [int(y) for y in targets]
        _loss_and_gradients(gpt_loss_and_grads, ids, targets, _params(seed, V, C, L), n_heads)


def test_loss(gpt_loss_and_grads):
    """The loss is step 14's cross_entropy of step 13's gpt_logits"""
    ids, targets = _ids(10, 6, 9)
    p = _params(10, 9, 8, 1)
    loss, grads, factor, what = _loss_and_gradients(gpt_loss_and_grads, ids, targets, p, 2)
    want = _loss(ids, targets, p, 2)
    if not abs(loss - want) <= factor * max(1.0, want):
        hint = ""
        if abs(loss - want * len(ids)) <= factor * want * len(ids):
            hint = " (looks like the sum over positions: the loss is the mean, divide by T)"
        fail(f"{what}: the loss should be {num(want)}, the mean over positions of -log softmax(logits[t])"
             f"[targets[t]], got {num(loss)}{hint}")


def test_hand_checked(gpt_loss_and_grads):
    """Hand-checked: lnf_g = lnf_b = 0 gives loss log V, zero gradients below the final layer norm"""
    # With a zero final layer norm every logit is 0: the loss is log V, and no gradient passes the final
    # layer norm (its backward multiplies by lnf_g = 0), so W_E and every block get exactly 0, while
    # dL/dlnf_b = sum_t dlogits[t] @ W_E = mean of the rows of W_E - mean of the rows W_E[targets[t]].
    for seed, L in ((20, 0), (21, 1)):
        V, C, T = 5, 4, 4
        ids, targets = _ids(seed, T, V)
        p = _params(seed, V, C, L)
        p["lnf_g"], p["lnf_b"] = np.zeros(C), np.zeros(C)
        label = f", lnf_g = lnf_b = 0, targets {[int(y) for y in targets]}"
        loss, grads, factor, what = _loss_and_gradients(gpt_loss_and_grads, ids, targets, p, 2, label=label)
        if not abs(loss - math.log(V)) <= factor * math.log(V):
            fail(f"{what}: every logit is 0, so the loss should be log(V) = log({V}) = {num(math.log(V))}, "
                 f"got {num(loss)}{_explain(loss, grads, ids, targets, p, 2, factor)}")
        W_E = p["W_E"]
        want = W_E.mean(axis=0) - W_E[targets].mean(axis=0)
        error = np.abs(grads["lnf_b"] - want)
        if not error.max() <= _atol(want, factor, 1.0):
            c = int(np.argmax(error))
            fail(f"{what}: grads['lnf_b'][{c}] expected {num(want[c])} (the mean of column {c} of W_E minus the "
                 f"mean of W_E[targets[t], {c}]), got {num(grads['lnf_b'][c])}"
                 f"{_explain(loss, grads, ids, targets, p, 2, factor)}", got=grads["lnf_b"], expected=want)
        _compare(loss, grads, ids, targets, p, 2, factor, what)


def test_no_blocks(gpt_loss_and_grads):
    """With no blocks, grads["blocks"] is an empty list and W_E gets its input and its output gradient"""
    ids, targets = [2, 0, 2, 3, 2], [0, 2, 3, 3, 1]      # id 2 three times; ids 1 and 4 never occur as inputs
    _check(gpt_loss_and_grads, ids, targets, _params(30, 6, 4, 0), 2, label=" (ids and targets as lists)")


def test_finite_differences(gpt_loss_and_grads):
    """Agrees with central differences of the loss for every entry of every parameter (two blocks)"""
    V, C, F, T, n_heads = 5, 4, 4, 3, 2
    ids, targets = _ids(40, T, V)
    p = _params(40, V, C, 2, F=F)
    loss, grads, factor, what = _loss_and_gradients(gpt_loss_and_grads, ids, targets, p, n_heads)
    h = 1e-5
    checked = [("grads['W_E']", "p['W_E']", p["W_E"], grads["W_E"])]
    for i, block in enumerate(p["blocks"]):
        checked += [(f"grads['blocks'][{i}][{key!r}]", f"p['blocks'][{i}][{key!r}]", block[key],
                     grads["blocks"][i][key]) for key in BLOCK_KEYS]
    checked += [(f"grads[{key!r}]", f"p[{key!r}]", p[key], grads[key]) for key in ("lnf_g", "lnf_b")]
    for name, source, array, got in checked:
        for index in np.ndindex(array.shape):
            saved = array[index]
            array[index] = saved + h
            plus = _loss(ids, targets, p, n_heads)
            array[index] = saved - h
            minus = _loss(ids, targets, p, n_heads)
            array[index] = saved
            numeric = (plus - minus) / (2 * h)
            if not abs(got[index] - numeric) <= 1e-6 * max(1.0, abs(numeric)):
                shown = "[" + ", ".join(str(i) for i in index) + "]"
                fail(f"{what}: {name}{shown} is {num(got[index])}, but the loss changes at rate {num(numeric)} "
                     f"when {source}{shown} moves (central difference, h = 1e-5)"
                     f"{_explain(loss, grads, ids, targets, p, n_heads, factor)}")


def test_two_blocks(gpt_loss_and_grads):
    """Matches the chain rule with two different blocks (ids and targets as arrays and as lists)"""
    ids, targets = _ids(50, 7, 11)
    _check(gpt_loss_and_grads, ids, targets, _params(50, 11, 8, 2, F=24), 2)
    ids, targets = _ids(51, 6, 9)
    _check(gpt_loss_and_grads, [int(i) for i in ids], [int(y) for y in targets], _params(51, 9, 6, 2), 3,
           label=" (ids and targets as lists)")


def test_float32(gpt_loss_and_grads):
    """float32 parameters give the right loss and gradients (within float32 precision)"""
    ids, targets = _ids(60, 8, 20)
    _check(gpt_loss_and_grads, ids, targets, _params(60, 20, 16, 2, F=32, dtype=np.float32), 4,
           label=" (float32 parameters)")


def test_large(gpt_loss_and_grads):
    """A larger model: T = 32, C = 32, V = 64, two blocks of 4 heads"""
    ids, targets = _ids(70, 32, 64)
    _check(gpt_loss_and_grads, ids, targets, _params(70, 64, 32, 2, F=64), 4)
