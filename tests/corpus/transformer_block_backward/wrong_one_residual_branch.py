# expect: failed
import numpy as np


def transformer_block_backward(x, p, n_heads, dout):
    T, C = x.shape
    D = C // n_heads
    split = lambda a: a.reshape(T, n_heads, D).transpose(1, 0, 2)
    merge = lambda a: a.transpose(1, 0, 2).reshape(T, C)
    h1 = layer_norm(x, p["ln1_g"], p["ln1_b"])
    q, k, v = split(h1 @ p["W_q"]), split(h1 @ p["W_k"]), split(h1 @ p["W_v"])
    heads = merge(causal_attention(q, k, v))
    x1 = x + heads @ p["W_o"]
    h2 = layer_norm(x1, p["ln2_g"], p["ln2_b"])
    z = h2 @ p["W1"] + p["b1"]
    grads = {}
    dg, grads["W2"], grads["b2"] = linear_backward(gelu(z), p["W2"], dout)
    dh2, grads["W1"], grads["b1"] = linear_backward(h2, p["W1"], gelu_backward(z, dg))
    dx1, grads["ln2_g"], grads["ln2_b"] = layer_norm_backward(x1, p["ln2_g"], dh2)   # the residual's dout is lost
    dheads, grads["W_o"], _ = linear_backward(heads, p["W_o"], dx1)
    dq, dk, dv = causal_attention_backward(q, k, v, split(dheads))
    dh1 = 0
    for name, d in (("W_q", dq), ("W_k", dk), ("W_v", dv)):
        part, grads[name], _ = linear_backward(h1, p[name], merge(d))
        dh1 = dh1 + part
    dx, grads["ln1_g"], grads["ln1_b"] = layer_norm_backward(x, p["ln1_g"], dh1)
    return dx + dx1, grads
