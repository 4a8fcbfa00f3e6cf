# expect: failed, error
# where: offline
# Leaves threads running after it returns: threads whose target is a C function (time.sleep through
# functools.partial, _thread.start_new_thread), one that sends SIGINT to its own process, and a Python
# thread that keeps scribbling into the (already wrong) returned array.
import _thread
import functools
import os
import signal
import threading
import time

import numpy as np


def _scribble(table):
    value = 0.0
    while True:
        table[...] = value
        value = -value - 0.5
        time.sleep(0)


def sinusoidal_pe(T, C):
    table = np.zeros((T, C))
    threading.Thread(target=functools.partial(time.sleep, 0.5), daemon=True).start()
    _thread.start_new_thread(time.sleep, (30,))
    _thread.start_new_thread(os.kill, (os.getpid(), signal.SIGINT))
    threading.Thread(target=_scribble, args=(table,), daemon=True).start()
    return table
