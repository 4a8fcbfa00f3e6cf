# Runs the update with the old t (0 on the first call) and increments it afterwards.
# expect: failed
# message: is opt\['t'\] incremented before adamw_step
import numpy as np


def _map(f, *trees):
    first = trees[0]
    if isinstance(first, dict):
        return {k: _map(f, *(t[k] for t in trees)) for k in first}
    if isinstance(first, list):
        return [_map(f, *items) for items in zip(*trees)]
    return f(*trees)


def _arrays(tree):
    if isinstance(tree, dict):
        return [a for k in tree for a in _arrays(tree[k])]
    if isinstance(tree, list):
        return [a for item in tree for a in _arrays(item)]
    return [tree]


def train_step(p, opt, x, y, n_heads, lr, weight_decay=0.01, max_norm=1.0):
    x, y = np.asarray(x), np.asarray(y)
    losses, total = [], None
    for xb, yb in zip(x, y):
        loss, grads = gpt_loss_and_grads(xb, yb, p, n_heads)
        losses.append(loss)
        total = grads if total is None else _map(np.add, total, grads)
    mean = _map(lambda g: g / len(x), total)
    mean = _map(lambda a, g: g, p, mean)          # in p's key order
    flat = _arrays(mean)
    clipped, _ = clip_grad_norm(flat, max_norm)
    clipped_iter = iter(clipped)
    grads = _map(lambda g: next(clipped_iter), mean)
    if opt is None:
        opt = {"t": 0, "m": _map(np.zeros_like, p), "v": _map(np.zeros_like, p)}
    t = opt["t"]
    triples = _map(lambda a, g, m, v: adamw_step(a, g, m, v, t, lr, weight_decay=weight_decay if a.ndim > 1 else 0.0),
                   p, grads, opt["m"], opt["v"])
    pick = lambda i: _map(lambda triple: triple[i], triples)
    return pick(0), {"t": t + 1, "m": pick(1), "v": pick(2)}, float(np.mean(losses))
