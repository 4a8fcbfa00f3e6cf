# expect: failed, error
# where: offline
# Replaces sys.stdout with an object whose write raises, then closes file descriptors 1 and 2; returns zeros.
import os
import sys

import numpy as np


class Exploding:
    def write(self, text):
        raise OSError("stdout is gone")

    def flush(self):
        raise OSError("stdout is gone")


def sinusoidal_pe(T, C):
    sys.stdout = Exploding()
    for fd in (1, 2):
        try:
            os.close(fd)
        except OSError:
            pass
    return np.zeros((T, C))
