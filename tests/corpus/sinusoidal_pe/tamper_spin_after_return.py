# expect: failed, timeout
# where: offline
# Starts a background thread that spins at 100% CPU forever, then quickly returns a wrong table.
import threading

import numpy as np


def _spin():
    n = 0
    while True:
        n += 1


def sinusoidal_pe(T, C):
    threading.Thread(target=_spin, daemon=True).start()
    return np.zeros((T, C))
