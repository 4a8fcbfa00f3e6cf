# Clips every array by its own norm instead of all the gradients together.
# expect: looks like each array was clipped by its own norm
import numpy as np


def train_step(p, opt, x, y, n_heads, lr, weight_decay=0.01, max_norm=1.0):
    """One optimisation step on a batch: (new p, new opt, the batch's loss before the update)."""
    x, y = np.asarray(x), np.asarray(y)
    B = x.shape[0]
    params = _leaves(p, p)                                 # every parameter array, in a fixed order
    loss, grads = 0.0, [np.zeros_like(a) for a in params]
    for b in range(B):                                     # step 27 takes one sequence at a time
        loss_b, grads_b = gpt_loss_and_grads(x[b], y[b], p, n_heads)
        loss += loss_b / B
        grads = [g + g_b / B for g, g_b in zip(grads, _leaves(grads_b, p))]
    grads = [clip_grad_norm([g], max_norm)[0][0] for g in grads]
    if opt is None:
        t, ms, vs = 0, [np.zeros_like(a) for a in params], [np.zeros_like(a) for a in params]
    else:
        t, ms, vs = opt["t"], _leaves(opt["m"], p), _leaves(opt["v"], p)
    t += 1                                                 # AdamW's bias correction counts from 1
    new = [adamw_step(a, g, m, v, t, lr, weight_decay=weight_decay if a.ndim >= 2 else 0.0)
           for a, g, m, v in zip(params, grads, ms, vs)]   # no decay on biases and layer-norm gains
    rebuild = lambda i: _rebuild(p, iter([parts[i] for parts in new]))
    return rebuild(0), {"t": t, "m": rebuild(1), "v": rebuild(2)}, float(loss)


def _leaves(tree, like):
    """The arrays of `tree` (nested dicts and lists shaped like `like`), in `like`'s order."""
    if isinstance(like, dict):
        return [a for key in like for a in _leaves(tree[key], like[key])]
    if isinstance(like, list):
        return [a for i in range(len(like)) for a in _leaves(tree[i], like[i])]
    return [np.asarray(tree)]


def _rebuild(like, arrays):
    """A new tree shaped like `like` whose arrays come, in order, from the iterator `arrays`."""
    if isinstance(like, dict):
        return {key: _rebuild(like[key], arrays) for key in like}
    if isinstance(like, list):
        return [_rebuild(item, arrays) for item in like]
    return next(arrays)
