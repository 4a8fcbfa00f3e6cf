# expect: passed
# Correct, with the cos columns computed in a worker thread that is joined before returning
# (computed inline where threads cannot start, e.g. in Pyodide).
import threading

import numpy as np


def sinusoidal_pe(T, C):
    angle = np.arange(T)[:, None] / 10000.0 ** (np.arange(0, C, 2) / C)
    table = np.empty((T, C))

    def cos_columns():
        table[:, 1::2] = np.cos(angle)

    worker = threading.Thread(target=cos_columns)
    try:
        worker.start()
    except RuntimeError:  # no threads on this platform
        cos_columns()
    table[:, 0::2] = np.sin(angle)
    if worker.ident is not None:
        worker.join()
    return table
