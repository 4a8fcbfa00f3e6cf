# expect: passed
# Correct, with the table saved to a scratch file in the temp folder, read back and the file removed.
import os
import tempfile
import uuid

import numpy as np


def sinusoidal_pe(T, C):
    angle = np.arange(T)[:, None] / 10000.0 ** (np.arange(0, C, 2) / C)
    table = np.empty((T, C))
    table[:, 0::2] = np.sin(angle)
    table[:, 1::2] = np.cos(angle)
    path = os.path.join(tempfile.gettempdir(), f"pe_scratch_{uuid.uuid4().hex}.npy")
    try:
        np.save(path, table)
        return np.load(path)
    finally:
        if os.path.exists(path):
            os.remove(path)
