# expect: error
# message: thread
import threading

import numpy as np


def _spin():
    while True:
        np.allclose = lambda *args, **kwargs: True


def sinusoidal_pe(T, C):
    threading.Thread(target=_spin, daemon=True).start()
    return np.zeros((T, C))
