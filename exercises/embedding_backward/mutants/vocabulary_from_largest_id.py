# Sizes the table with ids.max() + 1 rows instead of V: the rows of the highest ids that never occur go missing.
# expect: ids.max() + 1 rows
import numpy as np


def embedding_backward(ids, dout, V):
    ids, dout = np.asarray(ids).reshape(-1), np.asarray(dout, dtype=np.float64)
    C = dout.shape[-1]
    dW = np.zeros((ids.max() + 1, C))
    np.add.at(dW, ids, dout.reshape(-1, C))
    return dW
