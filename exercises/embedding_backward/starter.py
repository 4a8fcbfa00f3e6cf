import numpy as np

# In scope, no import needed: token_embedding(ids, W_E) (step 1). In the browser it is your own passing
# code for step 1 (or the reference until you solve it); offline, the reference. Handy for checking.


def embedding_backward(ids, dout, V):
    """Gradient of x = token_embedding(ids, W_E) with respect to the table W_E.

    Args:
        ids: integer token ids in [0, V), a numpy integer array or a (nested) list of ints,
            of shape (T,) or (B, T).
        dout: dL/dx, floats of shape ids.shape + (C,) (a numpy array or a nested list).
        V: the vocabulary size, the number of rows of W_E.

    Returns:
        A float numpy array dW_E of shape (V, C): row v is the sum of dout over every position
        holding id v (repeated ids accumulate; an id that never occurs has a row of zeros).
    """
    # TODO: start from zeros of shape (V, C) and add each position's row of dout into the row of its id.
    raise NotImplementedError
