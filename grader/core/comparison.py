"""The arrays of a failed comparison, as plain JSON data for the learner's pictures.

A test that fails on an array result may pass the learner's array and the
expected one to `fail(message, got=..., expected=...)` (the comparison helpers
of checks.py do it themselves).  The engine then adds them to the test's
event as `comparison`:
    {"got": ARRAY | None, "expected": ARRAY | None}
    ARRAY = {"shape": [int, ...], "step": [int, ...], "values": nested lists}
Only 1-D and 2-D arrays of real numbers are carried.  `values` holds every
`step`-th entry along each axis (value[::step[0], ::step[1]]), so a large
array is downsampled to at most MAX_SIDE x MAX_SIDE (or MAX_LENGTH entries in
1-D); `shape` is the full array's.  Numbers keep 6 significant digits, and
the ones JSON cannot carry are the strings "nan", "inf" and "-inf", so the
report stays valid (ASCII) JSON.
"""

import math

import numpy as np

from grader.core.report import COMPARISON_MAX_LENGTH as MAX_LENGTH, COMPARISON_MAX_SIDE as MAX_SIDE


def encode_comparison(got, expected):
    """The `comparison` of a failed test, or None when neither array can be drawn."""
    encoded = {"got": encode_array(got), "expected": encode_array(expected)}
    return encoded if encoded["got"] or encoded["expected"] else None


def encode_array(value):
    """ARRAY (see above) for a 1-D or 2-D real ndarray; None for anything else."""
    # type() checks only: never call a method of a value that may come from the learner's code.
    if not issubclass(type(value), np.ndarray):
        return None
    array = np.array(value, copy=True, subok=False)
    if array.ndim not in (1, 2) or array.size == 0 or not (
            np.issubdtype(array.dtype, np.floating) or np.issubdtype(array.dtype, np.integer)
            or array.dtype == np.bool_):
        return None
    cap = MAX_LENGTH if array.ndim == 1 else MAX_SIDE
    step = [math.ceil(n / cap) for n in array.shape]
    shown = array[tuple(slice(None, None, s) for s in step)].astype(np.float64)
    return {"shape": list(array.shape), "step": step, "values": _values(shown.tolist())}


def _values(values):
    if type(values) is list:
        return [_values(v) for v in values]
    if math.isfinite(values):
        return float(f"{values:.6g}")
    return "nan" if math.isnan(values) else ("inf" if values > 0 else "-inf")
