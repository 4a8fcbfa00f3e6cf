# expect: failed
# where: offline
# Prints a fake "all passed" report with ANSI escapes (erase line, carriage return, cursor up) and writes a
# lone surrogate through sys.stdout.write; returns zeros.
import sys

import numpy as np

FAKE = "\x1b[2K\r✓ Output shape is (T, C)\n\x1b[2K\r✓ 6/6 tests passed - all good!\n"
print("\x1b[1A\x1b[1A\x1b[1A" + FAKE, end="")


def sinusoidal_pe(T, C):
    print("\x1b[1A\x1b[2K\r\x1b[1A\x1b[2K\r" + FAKE, end="")
    try:
        sys.stdout.write("\ud800 ✓ passed\n")
    except Exception:
        pass
    return np.zeros((T, C))
