"""Hidden tests for train_step(p, opt, x, y, n_heads, lr, weight_decay, max_norm).

Expected values come from the tests' own GPT below: a forward pass and a hand-written backward pass
(written independently of solution.py and of the references of the steps it uses), then the batch
mean, one global clip and AdamW, all in plain numpy.  The tests compare the loss, opt["t"],
opt["m"], opt["v"] and the update p_new - p of every parameter (Adam divides a constant gradient
scale away, so a sum over the batch instead of the mean shows only in m and v), on tiny models so
that the browser runs them in well under a second.  When a result is wrong, it is compared with the
results of classic mistakes so the message can name the mistake.
"""

import math

import numpy as np

from grader.core.checks import as_array, fail, precision_of, type_name
from grader.core.testkit import as_dict, as_float, as_int, items

LN_EPS = 1e-5
BETA1, BETA2, ADAM_EPS = 0.9, 0.999, 1e-8
BLOCK_KEYS = ("W_q", "W_k", "W_v", "W_o", "ln1_g", "ln1_b", "ln2_g", "ln2_b", "W1", "b1", "W2", "b2")
# A step run with t = 0: the reference adamw_step returns NaN, one dividing Python floats raises ZeroDivisionError.
T_ZERO_HINT = (": is opt['t'] incremented before adamw_step? With t = 0 the bias correction divides by "
               "1 - beta ** 0 = 0")


# ---- the tests' own GPT: forward and backward for one sequence -----------------------------------

def _positions(T, C):
    table = np.zeros((T, C))
    for t in range(T):
        for i in range(C // 2):
            table[t, 2 * i] = math.sin(t / 10000.0 ** (2 * i / C))
            table[t, 2 * i + 1] = math.cos(t / 10000.0 ** (2 * i / C))
    return table


def _norm_forward(x, g, b):
    centred = x - x.mean(axis=1, keepdims=True)
    inv_std = 1.0 / np.sqrt((centred ** 2).mean(axis=1, keepdims=True) + LN_EPS)
    unit = centred * inv_std
    return unit * g + b, (unit, inv_std, g)


def _norm_backward(d_out, cache):
    unit, inv_std, g = cache
    d_unit = d_out * g
    d_x = inv_std * (d_unit - d_unit.mean(axis=1, keepdims=True)
                     - unit * (d_unit * unit).mean(axis=1, keepdims=True))
    return d_x, (d_out * unit).sum(axis=0), d_out.sum(axis=0)


_C_GELU = math.sqrt(2.0 / math.pi)


def _gelu(z):
    return 0.5 * z * (1.0 + np.tanh(_C_GELU * (z + 0.044715 * z ** 3)))


def _gelu_slope(z):
    th = np.tanh(_C_GELU * (z + 0.044715 * z ** 3))
    return 0.5 * (1.0 + th) + 0.5 * z * (1.0 - th ** 2) * _C_GELU * (1.0 + 3 * 0.044715 * z ** 2)


def _loss_and_grads(ids, targets, p, n_heads):
    """Mean cross-entropy of one sequence and {path: gradient} for every parameter."""
    W_E = p["W_E"]
    T, C = len(ids), W_E.shape[1]
    D = C // n_heads
    x = W_E[ids] + _positions(T, C)
    future = np.triu(np.ones((T, T), dtype=bool), k=1)
    caches = []
    for block in p["blocks"]:
        h1, ln1 = _norm_forward(x, block["ln1_g"], block["ln1_b"])
        q, k, v = (np.stack(np.split(h1 @ block[name], n_heads, axis=1)) for name in ("W_q", "W_k", "W_v"))
        scores = np.where(future, -np.inf, q @ k.transpose(0, 2, 1) / math.sqrt(D))
        weights = np.exp(scores - scores.max(axis=2, keepdims=True))
        weights /= weights.sum(axis=2, keepdims=True)
        merged = np.concatenate(list(weights @ v), axis=1)
        x1 = x + merged @ block["W_o"]
        h2, ln2 = _norm_forward(x1, block["ln2_g"], block["ln2_b"])
        z = h2 @ block["W1"] + block["b1"]
        caches.append((h1, ln1, q, k, v, weights, merged, h2, ln2, z))
        x = x1 + _gelu(z) @ block["W2"] + block["b2"]
    h, lnf = _norm_forward(x, p["lnf_g"], p["lnf_b"])
    logits = h @ W_E.T
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    loss = -float(np.mean(log_probs[np.arange(T), targets]))
    # Backward.
    d_logits = np.exp(log_probs)
    d_logits[np.arange(T), targets] -= 1.0
    d_logits /= T
    grads = {("W_E",): d_logits.T @ h}
    d_x, grads[("lnf_g",)], grads[("lnf_b",)] = _norm_backward(d_logits @ W_E, lnf)
    for i in reversed(range(len(caches))):
        block, (h1, ln1, q, k, v, weights, merged, h2, ln2, z) = p["blocks"][i], caches[i]
        u = _gelu(z)
        grads[("blocks", i, "W2")], grads[("blocks", i, "b2")] = u.T @ d_x, d_x.sum(axis=0)
        d_z = (d_x @ block["W2"].T) * _gelu_slope(z)
        grads[("blocks", i, "W1")], grads[("blocks", i, "b1")] = h2.T @ d_z, d_z.sum(axis=0)
        d_x1, grads[("blocks", i, "ln2_g")], grads[("blocks", i, "ln2_b")] = _norm_backward(d_z @ block["W1"].T, ln2)
        d_x1 = d_x1 + d_x
        grads[("blocks", i, "W_o")] = merged.T @ d_x1
        d_heads = np.stack(np.split(d_x1 @ block["W_o"].T, n_heads, axis=1))
        d_weights = d_heads @ v.transpose(0, 2, 1)
        d_v = weights.transpose(0, 2, 1) @ d_heads
        d_scores = weights * (d_weights - (d_weights * weights).sum(axis=2, keepdims=True)) / math.sqrt(D)
        d_q, d_k = d_scores @ k, d_scores.transpose(0, 2, 1) @ q
        d_h1 = 0.0
        for name, d_head in (("W_q", d_q), ("W_k", d_k), ("W_v", d_v)):
            d_proj = np.concatenate(list(d_head), axis=1)
            grads[("blocks", i, name)] = h1.T @ d_proj
            d_h1 = d_h1 + d_proj @ block[name].T
        d_x0, grads[("blocks", i, "ln1_g")], grads[("blocks", i, "ln1_b")] = _norm_backward(d_h1, ln1)
        d_x = d_x0 + d_x1
    np.add.at(grads[("W_E",)], ids, d_x)              # the input use of the tied embedding
    return loss, grads


# ---- the expected training step -----------------------------------------------------------------

def _paths(p):
    """Every parameter's path, in a fixed order: ("W_E",), ("blocks", i, key), ..., ("lnf_b",)."""
    return [("W_E",)] + [("blocks", i, key) for i in range(len(p["blocks"])) for key in BLOCK_KEYS] + \
        [("lnf_g",), ("lnf_b",)]


def _at(tree, path):
    for key in path:
        tree = tree[key]
    return tree


def _name(path, root="p"):
    return root + "".join(f"[{key}]" if isinstance(key, int) else f"['{key}']" for key in path)


def _expected(p, opt, x, y, n_heads, lr, weight_decay, max_norm, mistake=None):
    """(new params, t, m, v, loss), each a {path: array} (t and loss numbers), from the formulas.

    `mistake` reproduces a classic one.
    """
    paths = _paths(p)
    B = len(x)
    loss, grads = 0.0, {path: 0.0 for path in paths}
    for b in range(B):
        loss_b, grads_b = _loss_and_grads(x[b], y[b], p, n_heads)
        loss += loss_b / B
        for path in paths:
            if mistake == "last_sequence":
                grads[path] = grads_b[path]
            else:
                grads[path] = grads[path] + grads_b[path] * (1.0 if mistake == "sum" else 1.0 / B)
    if mistake == "per_array_clip":
        norms = {path: math.sqrt(float((grads[path] ** 2).sum())) for path in paths}
        grads = {path: grads[path] * min(1.0, max_norm / (norms[path] + 1e-6)) for path in paths}
    elif mistake != "no_clip":
        total = math.sqrt(sum(float((grads[path] ** 2).sum()) for path in paths))
        grads = {path: g * min(1.0, max_norm / (total + 1e-6)) for path, g in grads.items()}
    t = 0 if opt is None else opt["t"]
    t += 1
    new, m, v = {}, {}, {}
    for path in paths:
        param, g = np.asarray(_at(p, path), dtype=np.float64), grads[path]
        m0 = 0.0 if opt is None else np.asarray(_at(opt["m"], path), dtype=np.float64)
        v0 = 0.0 if opt is None else np.asarray(_at(opt["v"], path), dtype=np.float64)
        m[path] = BETA1 * m0 + (1 - BETA1) * g
        v[path] = BETA2 * v0 + (1 - BETA2) * g * g
        step = m[path] / (1 - BETA1 ** t) / (np.sqrt(v[path] / (1 - BETA2 ** t)) + ADAM_EPS)
        decays = param.ndim >= 2 if mistake not in ("decay_all", "no_decay") else mistake == "decay_all"
        new[path] = param * (1 - lr * (weight_decay if decays else 0.0)) - lr * step
    if mistake == "loss_after":
        updated = _tree(p, new)
        loss = sum(_loss_and_grads(x[b], y[b], updated, n_heads)[0] for b in range(B)) / B
    return new, t, m, v, loss


def _tree(like, arrays):
    """A parameter dict shaped like `like` holding `arrays` ({path: array})."""
    return {"W_E": arrays[("W_E",)], "lnf_g": arrays[("lnf_g",)], "lnf_b": arrays[("lnf_b",)],
            "blocks": [{key: arrays[("blocks", i, key)] for key in BLOCK_KEYS} for i in range(len(like["blocks"]))]}


_MISTAKES = [
    ("sum", "looks like the gradients were summed over the batch instead of averaged: divide each sequence's "
            "gradients by B (the loss is the mean over the batch; Adam hides the factor B in the update, "
            "but not in m and v)"),
    ("decay_all", "looks like weight decay was applied to every array, biases and layer-norm gains included; "
                  "decay only arrays of 2 or more dimensions (pass weight_decay=0.0 to adamw_step for the others)"),
    ("no_decay", "looks like no array was decayed: the matrices (arrays of 2 or more dimensions) get weight_decay"),
    ("loss_after", "looks like the loss was measured after the update; return the loss of the batch before it "
                   "(the one gpt_loss_and_grads gives with the parameters you were passed)"),
    ("per_array_clip", "looks like each array was clipped by its own norm; clip all the gradients together, with "
                       "one call of clip_grad_norm on the list of every array"),
    ("no_clip", "looks like the gradients were not clipped: pass every gradient, together, through "
                "clip_grad_norm(grads, max_norm) before adamw_step"),
    ("last_sequence", "looks like only the last sequence's gradients were kept: add up the gradients of every "
                      "sequence of the batch (divided by B), do not overwrite them"),
]


# ---- calling the learner's function -------------------------------------------------------------


def _leaf(tree, path, precision, root, what):
    """The array at `path` of the learner's tree, as a float64 copy."""
    node, where = tree, root
    for key in path:
        if isinstance(key, int):
            blocks = items(node, f"{where} in the result of {what}")
            if len(blocks) <= key:
                fail(f"{where} in the result of {what} should hold {key + 1} or more blocks, got {len(blocks)}")
            node = blocks[key]
        else:
            if type(node) is not dict:
                fail(f"{where} in the result of {what} should be a dict, got {type_name(node)}")
            if key not in dict.keys(node):
                fail(f"{where} in the result of {what} has no key '{key}': keep the structure of p")
            node = dict.__getitem__(node, key)
        where += f"[{key}]" if isinstance(key, int) else f"['{key}']"
    return as_array(node, precision, what=f"{where} in the result of {what}")


def _step_result(train_step, case, opt):
    """Call the learner's function; return (new params, t, m, v, loss) as _expected does, and a description."""
    p, x, y = case["p"], case["x"], case["y"]
    what = (f"train_step(p, {'None' if opt is None else 'opt'}, x, y, n_heads={case['n_heads']}, lr={case['lr']}, "
            f"weight_decay={case['weight_decay']}, max_norm={case['max_norm']}) for {case['about']}")
    precision = precision_of(p, opt)
    try:
        result = train_step(p, opt, x, y, case["n_heads"], case["lr"], weight_decay=case["weight_decay"],
                            max_norm=case["max_norm"])
    except ZeroDivisionError as exc:
        # An adamw_step of the learner's own (the page puts it in scope once passed) may divide Python floats and
        # raise where the reference returns NaN (see _check): the same slip, the same words.
        fail(f"{what} raised ZeroDivisionError ({exc}){T_ZERO_HINT}")
    new_p, new_opt, loss = items(result, f"the result of {what}", names=("p", "opt", "loss"))
    new, m, v = {}, {}, {}
    opt_items = as_dict(new_opt, ("t", "m", "v"), f"the opt returned by {what}",
                        keys_named="the keys 't', 'm' and 'v' ({'t': int, 'm': like p, 'v': like p})", others=True)
    for path in _paths(p):
        shape = np.shape(_at(p, path))
        for store, tree, root in ((new, new_p, "p"), (m, opt_items["m"], "opt['m']"), (v, opt_items["v"], "opt['v']")):
            store[path] = _leaf(tree, path, precision, root, what)
            if store[path].shape != shape:
                fail(f"{_name(path, root)} in the result of {what} should have the shape of {_name(path)}, {shape}, "
                     f"got {tuple(store[path].shape)}")
    t = as_int(opt_items["t"], f"opt['t'] returned by {what}", of="the step count")
    return (new, t, m, v, as_float(loss, precision, f"the loss returned by {what}")), what


def _diagnose(got, case, opt):
    """' (hint)' naming the one classic mistake that reproduces the learner's step, or ''."""
    args = (case["p"], opt, case["x"], case["y"], case["n_heads"], case["lr"], case["weight_decay"], case["max_norm"])
    right = _expected(*args)
    matches = []
    for mistake, hint in _MISTAKES:
        wrong = _expected(*args, mistake=mistake)
        if _agree(wrong, right, 1e-9, case["p"]) is not None and _agree(got, wrong, 1e-4, case["p"]) is None:
            matches.append(hint)
    return f" ({matches[0]})" if len(matches) == 1 else ""


def _agree(got, want, rtol, p):
    """None when two steps agree, else (what, path, index, got value, expected value, how many differ)."""
    new_g, t_g, m_g, v_g, loss_g = got
    new_w, t_w, m_w, v_w, loss_w = want
    if t_g != t_w:
        return ("opt['t']", None, None, t_g, t_w, 1)
    if not abs(loss_g - loss_w) <= rtol * abs(loss_w):
        return ("the loss", None, None, loss_g, loss_w, 1)
    for root, g_store, w_store in (("opt['m']", m_g, m_w), ("opt['v']", v_g, v_w), ("update", new_g, new_w)):
        for path in w_store:
            g, w = g_store[path], w_store[path]
            if root == "update":                         # compare the update p_new - p, not the parameter
                base = np.asarray(_at(p, path), dtype=np.float64)
                g, w = g - base, w - base
            scale = max(float(np.abs(w).max()), 1e-300)
            error = np.abs(g - w)
            error[np.isnan(error)] = np.inf
            if error.max() > rtol * scale:
                index = tuple(int(k) for k in np.unravel_index(int(np.argmax(error)), error.shape))
                return (root, path, index, float(g[index]), float(w[index]), int((error > rtol * scale).sum()))
    return None


def _check(train_step, case, opt=None):
    """Run one step and compare it with the expected one; return the learner's (p, opt) as trees."""
    got, what = _step_result(train_step, case, opt)
    want = _expected(case["p"], opt, case["x"], case["y"], case["n_heads"], case["lr"], case["weight_decay"],
                     case["max_norm"])
    rtol = precision_of(case["p"], opt).tolerance(float64=1e-6, float32=2e-3, float16=5e-2)
    difference = _agree(got, want, rtol, p=case["p"])
    if difference is not None:
        root, path, index, g, w, count = difference
        if path is None:
            fail(f"{what}: {root} should be {w:.10g}, got {g:.10g}{_diagnose(got, case, opt)}")
        where = "[" + ", ".join(str(k) for k in index) + "]"
        name = f"the update of {_name(path)}{where} (new minus old)" if root == "update" else _name(path, root) + where
        hint = _diagnose(got, case, opt)
        if not math.isfinite(g) and not hint:
            hint = f" (not a number){T_ZERO_HINT}"
        size = np.size(_at(case["p"], path))
        fail(f"{what}: {name} should be {w:.8g}, got {g:.8g} ({count} of {size} entries differ){hint}")
    new, t, m, v, _ = got
    return _tree(case["p"], new), {"t": t, "m": _tree(case["p"], m), "v": _tree(case["p"], v)}


# ---- tiny models --------------------------------------------------------------------------------

def _model(seed, V, C, F, n_blocks, dtype=np.float64):
    rng = np.random.default_rng(seed)
    normal = lambda scale, *shape: rng.normal(0.0, scale, shape).astype(dtype)
    blocks = [{"W_q": normal(0.5, C, C), "W_k": normal(0.5, C, C), "W_v": normal(0.5, C, C), "W_o": normal(0.5, C, C),
               "ln1_g": (1 + normal(0.1, C)).astype(dtype), "ln1_b": normal(0.1, C),
               "ln2_g": (1 + normal(0.1, C)).astype(dtype), "ln2_b": normal(0.1, C),
               "W1": normal(0.5, C, F), "b1": normal(0.1, F), "W2": normal(0.5, F, C), "b2": normal(0.1, C)}
              for _ in range(n_blocks)]
    return {"W_E": normal(0.5, V, C), "blocks": blocks, "lnf_g": (1 + normal(0.1, C)).astype(dtype),
            "lnf_b": normal(0.1, C)}


def _case(seed, *, V=7, C=8, F=16, n_blocks=1, n_heads=2, B=3, T=4, lr=0.01, weight_decay=0.1, max_norm=1.0,
          dtype=np.float64, about=None):
    rng = np.random.default_rng(seed + 1000)
    x = rng.integers(0, V, size=(B, T))
    y = rng.integers(0, V, size=(B, T))
    about = about or f"a model with V={V}, C={C}, {n_blocks} block(s), B={B}, T={T}"
    return dict(p=_model(seed, V, C, F, n_blocks, dtype), x=x, y=y, n_heads=n_heads, lr=lr,
                weight_decay=weight_decay, max_norm=max_norm, about=about)


# ---- tests --------------------------------------------------------------------------------------

def test_returns_p_opt_loss(train_step):
    """Returns (p, opt, loss): p and opt['m'], opt['v'] shaped like p, opt['t'] = 1 after the first call"""
    case = _case(1)
    (new, t, m, v, loss), what = _step_result(train_step, case, None)
    if t != 1:
        fail(f"{what}: opt['t'] should be 1 after the first call (opt None means t = 0, incremented before the "
             f"step), got {t}")


def test_first_step_clip_binds(train_step):
    """First call (opt None), gradient norm about 2.8 clipped to 1: loss, m, v and every update"""
    _check(train_step, _case(1, max_norm=1.0, about="a model with V=7, C=8, 1 block, B=3, T=4 (norm 2.84)"))


def test_first_step_clip_does_not_bind(train_step):
    """First call (opt None), gradient norm about 2.8 under max_norm 10: the gradients are used as they are"""
    _check(train_step, _case(1, max_norm=10.0, about="a model with V=7, C=8, 1 block, B=3, T=4 (norm 2.84)"))
    _check(train_step, _case(4, V=6, B=2, max_norm=100.0, weight_decay=0.3, about="B=2, max_norm above the norm"))


def test_second_step_result(train_step):
    """A second call with the p and opt the first returned: t = 2, moments carried over"""
    case = _case(4, V=6, B=2, max_norm=5.0, lr=0.02, weight_decay=0.2, about="the first of two calls")
    p1, opt1 = _check(train_step, case)
    rng = np.random.default_rng(44)
    second = dict(case, p=p1, x=rng.integers(0, 6, size=(2, 4)), y=rng.integers(0, 6, size=(2, 4)),
                  about="the second call, with the p and opt of the first and a new batch")
    _check(train_step, second, opt1)


def test_weight_decay_only_on_matrices(train_step):
    """Weight decay shrinks the matrices (2 or more dimensions), never the biases and layer-norm gains"""
    _check(train_step, _case(5, lr=0.05, weight_decay=0.5, max_norm=100.0,
                             about="a model with V=7, C=8, 1 block, B=3, T=4 and a strong weight decay"))


def test_more_blocks_and_heads(train_step):
    """Two blocks and four heads (C=8, D=2)"""
    _check(train_step, _case(2, V=5, C=8, F=8, n_blocks=2, n_heads=4, B=2, T=3, max_norm=2.0,
                             about="a model with V=5, C=8, 2 blocks, 4 heads, B=2, T=3"))


def test_no_blocks(train_step):
    """A model with no blocks: embedding, final layer norm and the tied output only"""
    _check(train_step, _case(3, n_blocks=0, B=2, max_norm=10.0, about="a model with no blocks, B=2, T=4"))


def test_float32_parameters(train_step):
    """float32 parameters: compared within a float32 tolerance"""
    _check(train_step, _case(6, dtype=np.float32, max_norm=100.0, about="float32 parameters, V=7, C=8, B=3"))


def test_loss_decreases(train_step):
    """Fifteen calls on one batch lower the loss of a tiny model"""
    case = _case(7, V=6, C=8, F=16, B=2, T=4, lr=0.02, weight_decay=0.01, max_norm=1.0,
                 about="a model with V=6, C=8, 1 block, B=2, T=4")
    p, opt, losses = case["p"], None, []
    for call in range(15):
        (new, t, m, v, loss), what = _step_result(train_step, dict(case, p=p), opt)
        if t != call + 1:
            fail(f"call {call + 1} of {what}: opt['t'] should be {call + 1}, got {t}")
        losses.append(loss)
        p, opt = _tree(case["p"], new), {"t": t, "m": _tree(case["p"], m), "v": _tree(case["p"], v)}
    first = _expected(case["p"], None, case["x"], case["y"], case["n_heads"], case["lr"], case["weight_decay"],
                      case["max_norm"])[4]
    if not abs(losses[0] - first) <= 1e-6 * first:
        fail(f"the first call of {what}: the loss should be {first:.8g}, got {losses[0]:.8g}")
    if not losses[-1] < 0.7 * losses[0]:
        shown = ", ".join(f"{value:.4g}" for value in losses)
        fail(f"fifteen calls of {what} on one batch, each with the p and opt the previous call returned, should "
             f"lower the loss below 70% of the first, got the losses {shown}")
