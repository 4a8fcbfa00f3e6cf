# expect: failed, error
# where: offline
# Writes a fake length prefix (4096, as multiprocessing frames it) and 4096 random bytes to every file
# descriptor 0..255 it might have inherited; returns zeros.
import os

import numpy as np


def sinusoidal_pe(T, C):
    junk = b"\x00\x00\x10\x00" + os.urandom(4096)
    for fd in range(256):
        try:
            os.write(fd, junk)
        except Exception:
            pass
    return np.zeros((T, C))
