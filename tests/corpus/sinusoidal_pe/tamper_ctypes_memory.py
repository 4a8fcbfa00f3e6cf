# expect: failed, error
# where: offline
# Rewrites memory with ctypes: the interned string "failed" becomes "passed", and the bytecode of every
# checking function found by gc (fail, as_array, allclose, ...) is overwritten in place with "return
# co_consts[0]" (for numpy's allclose, its truthy docstring); returns zeros.
import ctypes
import gc
import sys
import types

import numpy as np

TARGETS = {"fail", "as_array", "precision_of", "expect_finite", "expect_in_range", "expect_shape",
           "_compare", "_call", "allclose", "isclose", "array_equal", "assert_allclose", "assert_array_equal"}


def _return_first_const():
    return None


def _overwrite_string(old, new):
    old = sys.intern(old)
    data = id(old) + sys.getsizeof(old) - len(old) - 1  # compact ASCII: characters follow the header
    ctypes.memmove(data, new.encode("ascii"), len(old))


def _overwrite_code(function):
    code = function.__code__
    stub = _return_first_const.__code__.co_code  # RESUME, LOAD_CONST 0, RETURN_VALUE (CPython 3.11+)
    if len(code.co_code) >= len(stub) and code.co_consts:
        ctypes.memmove(id(code) + type(code).__basicsize__, stub, len(stub))


def sinusoidal_pe(T, C):
    try:
        _overwrite_string("failed", "passed")
    except Exception:
        pass
    for obj in gc.get_objects():
        if isinstance(obj, types.FunctionType) and obj.__name__ in TARGETS and obj.__module__ != __name__:
            try:
                _overwrite_code(obj)
            except Exception:
                pass
    return np.zeros((T, C))
