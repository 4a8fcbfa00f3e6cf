# Writes the new step count and moments into the opt it was given instead of a new dict.
# expect: `a = a * 2` makes a new array
import numpy as np


def train_step(p, opt, x, y, n_heads, lr, weight_decay=0.01, max_norm=1.0):
    names = [("W_E", None)] + [(i, key) for i, block in enumerate(p["blocks"]) for key in block] + \
        [("lnf_g", None), ("lnf_b", None)]
    get = lambda tree, name: tree[name[0]] if name[1] is None else tree["blocks"][name[0]][name[1]]
    B = len(x)
    loss, grads = 0.0, [np.zeros_like(get(p, n)) for n in names]
    for b in range(B):
        loss_b, grads_b = gpt_loss_and_grads(x[b], y[b], p, n_heads)
        loss += loss_b / B
        grads = [g + get(grads_b, n) / B for g, n in zip(grads, names)]
    grads, _ = clip_grad_norm(grads, max_norm)
    if opt is None:
        opt = {"t": 0, "m": {}, "v": {}}
        for store in (opt["m"], opt["v"]):
            store.update(W_E=np.zeros_like(p["W_E"]), lnf_g=np.zeros_like(p["lnf_g"]), lnf_b=np.zeros_like(p["lnf_b"]),
                         blocks=[{k: np.zeros_like(a) for k, a in block.items()} for block in p["blocks"]])
    opt["t"] += 1
    new_p = {"W_E": None, "lnf_g": None, "lnf_b": None, "blocks": [dict() for _ in p["blocks"]]}
    for n, g in zip(names, grads):
        a = get(p, n)
        new_a, new_m, new_v = adamw_step(a, g, get(opt["m"], n), get(opt["v"], n), opt["t"], lr,
                                         weight_decay=weight_decay if a.ndim >= 2 else 0.0)
        for tree, value in ((new_p, new_a), (opt["m"], new_m), (opt["v"], new_v)):
            if n[1] is None:
                tree[n[0]] = value
            else:
                tree["blocks"][n[0]][n[1]] = value
    return new_p, opt, float(loss)
