# expect: passed
import numpy as np


def top_p_filter(logits, top_p):
    probs = softmax(np.asarray(logits, dtype=np.float64))
    ranked = sorted(range(len(probs)), key=lambda i: (-probs[i], i))
    kept, total = [], 0.0
    for i in ranked:
        kept.append(i)
        total += probs[i]
        if total >= top_p:
            break
    out = np.zeros(len(probs))
    out[kept] = probs[kept] / probs[kept].sum()
    return out
