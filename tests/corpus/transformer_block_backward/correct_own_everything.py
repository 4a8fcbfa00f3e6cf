# expect: passed
import numpy as np


def _ln(x, g, b, eps=1e-5):
    mu = x.mean(-1, keepdims=True)
    r = 1 / np.sqrt(((x - mu) ** 2).mean(-1, keepdims=True) + eps)
    xh = (x - mu) * r
    return g * xh + b, (xh, r)


def _ln_back(dy, g, cache):
    xh, r = cache
    dxh = dy * g
    dx = r * (dxh - dxh.mean(-1, keepdims=True) - xh * (dxh * xh).mean(-1, keepdims=True))
    return dx, (dy * xh).sum(0), dy.sum(0)


def transformer_block_backward(x, p, n_heads, dout):
    T, C = x.shape
    D = C // n_heads
    h1, c1 = _ln(x, p["ln1_g"], p["ln1_b"])
    qs, ks, vs = (np.stack(np.split(h1 @ p[n], n_heads, axis=1)) for n in ("W_q", "W_k", "W_v"))
    mask = np.tril(np.ones((T, T), dtype=bool))
    s = np.where(mask, qs @ ks.transpose(0, 2, 1) / np.sqrt(D), -np.inf)
    a = np.exp(s - s.max(-1, keepdims=True))
    a /= a.sum(-1, keepdims=True)
    heads = np.concatenate(list(a @ vs), axis=1)
    x1 = x + heads @ p["W_o"]
    h2, c2 = _ln(x1, p["ln2_g"], p["ln2_b"])
    z = h2 @ p["W1"] + p["b1"]
    c = np.sqrt(2 / np.pi)
    t = np.tanh(c * (z + 0.044715 * z ** 3))
    g = 0.5 * z * (1 + t)
    grads = {"W2": g.T @ dout, "b2": dout.sum(0)}
    dg = dout @ p["W2"].T
    dz = dg * (0.5 * (1 + t) + 0.5 * z * (1 - t ** 2) * c * (1 + 3 * 0.044715 * z ** 2))
    grads["W1"], grads["b1"] = h2.T @ dz, dz.sum(0)
    dx1, grads["ln2_g"], grads["ln2_b"] = _ln_back(dz @ p["W1"].T, p["ln2_g"], c2)
    dx1 = dx1 + dout
    grads["W_o"] = heads.T @ dx1
    dheads = np.stack(np.split(dx1 @ p["W_o"].T, n_heads, axis=1))
    dv = a.transpose(0, 2, 1) @ dheads
    da = dheads @ vs.transpose(0, 2, 1)
    ds = a * (da - (da * a).sum(-1, keepdims=True)) / np.sqrt(D)
    dq, dk = ds @ ks, ds.transpose(0, 2, 1) @ qs
    dh1 = np.zeros_like(h1)
    for name, d in (("W_q", dq), ("W_k", dk), ("W_v", dv)):
        d = np.concatenate(list(d), axis=1)
        grads[name] = h1.T @ d
        dh1 += d @ p[name].T
    dx, grads["ln1_g"], grads["ln1_b"] = _ln_back(dh1, p["ln1_g"], c1)
    return dx + dx1, grads
