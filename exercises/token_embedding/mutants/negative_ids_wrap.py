# Plain W_E[ids] with no range check: ids >= V raise, but negative ids wrap around to the end of the table.
import numpy as np


def token_embedding(ids, W_E):
    return W_E[np.asarray(ids)]
