# expect: failed, error, timeout
# where: offline
import builtins

import numpy as np

builtins.isinstance = lambda *args: True
builtins.issubclass = lambda *args: True
builtins.abs = lambda x: 0
builtins.max = lambda *args, **kwargs: 0
builtins.AssertionError = type("Ignored", (Exception,), {})


def sinusoidal_pe(T, C):
    builtins.len = lambda x: 0
    return np.zeros((T, C))
