# expect: failed, error, timeout
# A thread that keeps patching numpy: offline it runs in the learner's process only, so the wrong
# answer fails; Pyodide cannot start threads at all. Every call starts one more spinner competing
# for the GIL, so on a loaded machine a later test may run out of time: as good a verdict as a failure.
import threading

import numpy as np


def _spin():
    while True:
        np.allclose = lambda *args, **kwargs: True


def sinusoidal_pe(T, C):
    threading.Thread(target=_spin, daemon=True).start()
    return np.zeros((T, C))
