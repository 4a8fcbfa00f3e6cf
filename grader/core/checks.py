"""Assertion helpers for hidden tests.

Each helper raises `Failed` with a message written for the learner: what was
expected and what their code returned.  The helpers never call methods of the
learner's objects (no repr, ==, len or attribute access on them), because a
hostile submission could return an object whose methods patch the grader;
`as_array` turns a learner value into a plain float64 ndarray copy first.
"""

import math

import numpy as np


class Failed(AssertionError):
    """A hidden test found a wrong answer; the message is shown to the learner.

    `got` and `expected`, when given, are the arrays the learner sees drawn
    side by side (see grader/core/comparison.py).
    """

    def __init__(self, message, got=None, expected=None):
        super().__init__(message)
        self.got, self.expected = got, expected


def fail(message, *, got=None, expected=None):
    """Fail with `message`; pass the learner's array and the expected one to have them drawn."""
    raise Failed(message, got, expected)


def type_name(value):
    """The name of a value's type, found without running any of the learner's code."""
    # type() and the class's own __name__ slot never run learner code.
    return type.__dict__["__name__"].__get__(type(value))


def as_array(value, *, what="your function's result"):
    """Return `value` as a float64 ndarray copy, or fail if it is not a real floating-point ndarray.

    Integer arrays are rejected (an integer table is the classic sign of integer
    division); float16/32/64 are all accepted.
    """
    if not issubclass(type(value), np.ndarray):
        hint = " (wrap it with np.array(...))" if issubclass(type(value), (list, tuple)) else ""
        fail(f"{what} should be a numpy.ndarray, got {type_name(value)}{hint}")
    # subok=False copies the data into a plain ndarray, dropping any subclass behaviour.
    array = np.array(value, copy=True, subok=False)
    if not np.issubdtype(array.dtype, np.floating):
        fail(f"{what} should hold floating-point numbers, got dtype {array.dtype}")
    return array.astype(np.float64)


def tolerance_for(value):
    """Absolute tolerance suited to the precision the learner computed in (float16, float32 or float64)."""
    if issubclass(type(value), np.ndarray):
        itemsize = np.asarray(value).dtype.itemsize
        if itemsize <= 2:
            return 1e-2
        if itemsize <= 4:
            return 1e-5
    return 1e-9


def expect_shape(array, shape, *, what="your function's result"):
    shape = tuple(int(n) for n in shape)
    if array.shape != shape:
        fail(f"{what} should have shape {shape}, got {tuple(array.shape)}")


def expect_finite(array, *, what="your function's result"):
    bad = ~np.isfinite(array)
    if bad.any():
        index = tuple(int(i) for i in np.argwhere(bad)[0])
        fail(f"{what} contains {int(bad.sum())} non-finite value(s) (NaN or inf), "
             f"first at index {_format_index(index)}: {array[index]}")


def expect_close(actual, expected, *, atol=1e-9, rtol=1e-7, what="your function's result"):
    """Fail naming the worst entry when `actual` and `expected` (float arrays of one shape) differ.

    The failure carries both arrays, so the learner sees them drawn.
    """
    expected = np.asarray(expected, dtype=np.float64)
    try:
        expect_shape(actual, expected.shape, what=what)
        expect_finite(actual, what=what)
    except Failed as failure:
        fail(str(failure), got=actual, expected=expected)
    error = np.abs(actual - expected) - (atol + rtol * np.abs(expected))
    if error.size and error.max() > 0:
        index = tuple(int(i) for i in np.unravel_index(int(np.argmax(error)), error.shape))
        wrong = int((error > 0).sum())
        fail(f"{what}{_format_index(index)}: expected {_num(expected[index])}, got {_num(actual[index])} "
             f"({wrong} of {error.size} entries differ)", got=actual, expected=expected)


def expect_in_range(array, low, high, *, tol=0.0, what="your function's result"):
    outside = (array < low - tol) | (array > high + tol) | np.isnan(array)
    if outside.any():
        index = tuple(int(i) for i in np.argwhere(outside)[0])
        fail(f"all values of {what} should lie in [{low}, {high}], but {what}{_format_index(index)} "
             f"= {_num(array[index])} ({int(outside.sum())} value(s) outside)")


def _format_index(index):
    return "[" + ", ".join(str(i) for i in index) + "]" if index else ""


def _num(x):
    x = float(x)
    if math.isfinite(x) and x == round(x) and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.6g}"
