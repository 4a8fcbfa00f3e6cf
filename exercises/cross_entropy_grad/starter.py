import numpy as np

# In scope, no import needed: softmax(x, axis=-1) (step 5). In the browser it is your own passing
# code for step 5 (or the reference until you solve it); offline, the reference. Call it.


def cross_entropy_grad(logits, targets):
    """Gradient of cross_entropy(logits, targets) with respect to the logits.

    Args:
        logits: float numpy array of shape (T, V), one row of scores per position.
        targets: T integer token ids in [0, V) (a numpy integer array or a
            list of ints): targets[t] is the correct token for position t.

    Returns:
        A new float numpy array of shape (T, V): grad[t, j] is the derivative of
        cross_entropy(logits, targets) (step 14, the mean over the T positions)
        with respect to logits[t, j]. It must stay finite for logits as large as
        1e4 in magnitude.
    """
    # TODO: the derivative of the mean loss with respect to every logit.
    raise NotImplementedError
