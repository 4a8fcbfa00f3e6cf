# Computes the probabilities but forgets to return them (the function returns None).
# expect: did you forget to return the result
import numpy as np


def softmax(x, axis=-1):
    shifted = x - x.max(axis=axis, keepdims=True)
    exps = np.exp(shifted)
    probs = exps / exps.sum(axis=axis, keepdims=True)
