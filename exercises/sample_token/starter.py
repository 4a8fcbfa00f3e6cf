import numpy as np

# In scope, no import needed: softmax(x, axis=-1) (step 5). In the browser it is your own passing
# code for step 5 (or the reference until you solve it); offline, the reference. Call it.


def sample_token(logits, rng, temperature=1.0, top_k=None):
    """Sample the next token id from a row of logits.

    Args:
        logits: float numpy array of shape (V,), the scores of the V tokens.
        rng: a numpy.random.Generator; make exactly one draw with it:
            rng.choice(len(p), p=p).
        temperature: a float > 0; the logits are divided by it.
        top_k: None (keep every token) or an int k >= 1: every logit strictly
            smaller than the k-th largest logit is set to -inf first (logits
            equal to the k-th largest are kept).

    Returns:
        A Python int in [0, V):
            p = softmax(logits / temperature)   (after the top_k filter)
            return int(rng.choice(len(p), p=p))
    """
    # TODO: filter with top_k, divide by the temperature, softmax, draw once.
    raise NotImplementedError
