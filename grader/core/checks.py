"""Assertion helpers for hidden tests.

Each helper raises `Failed` with a message written for the learner: what was
expected and what their code returned.  The helpers never call methods of the
learner's objects (no repr, ==, len or attribute access on them), because a
hostile submission could return an object whose methods patch the grader;
`as_array` turns a learner value into a plain float64 ndarray copy first.

Precision and tolerances come from the test's inputs (`precision_of`), never from
the learner's result.
"""

import numpy as np

from grader.core.numbers import num, num_pair


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


def type_got(value):
    """What a "got ..." message calls a value the learner returned: its type's name, and for None a reminder
    that a function without `return` gives None."""
    return "None (did you forget `return`?)" if value is None else type_name(value)


def precision_of(*inputs):
    """The precision a call with these inputs (the test's own arguments, never the result) calls for.

    It is the least precise numpy floating-point dtype among the inputs (arrays and scalars, also
    inside lists, tuples and dicts): a correct solution may compute in it.  Python numbers do not
    count (as in numpy, a Python float does not change an array's precision); inputs with no numpy
    float at all (sizes, ids, generators) call for float64, numpy's default.
    """
    dtypes = set(_float_dtypes(inputs))
    if not dtypes:
        return Precision(np.float64, "this test expects float64")
    lowest = min(dtypes, key=lambda dtype: dtype.itemsize)
    return Precision(lowest, f"the inputs are {lowest}" if len(dtypes) == 1 else f"the least precise input is {lowest}")


def _float_dtypes(value):
    if isinstance(value, (list, tuple)):
        for item in value:
            yield from _float_dtypes(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _float_dtypes(item)
    elif isinstance(value, (np.ndarray, np.generic)) and np.issubdtype(value.dtype, np.floating):
        yield value.dtype


class Precision:
    """The floating-point precision a test's inputs call for; `precision_of(*inputs)` makes one.

    A result must come in this precision or a higher one (`as_array` checks it), and is compared at
    `tolerance()` for this precision.  Neither ever depends on the result: a tolerance read from
    the result's dtype would let a wrong answer pass by returning float16.
    """

    def __init__(self, dtype, reason):
        self.dtype = np.dtype(dtype)
        self.reason = reason  # why this precision, for the learner: "the inputs are float64"

    def tolerance(self, *, float64=1e-9, float32=1e-5, float16=1e-2):
        """The absolute tolerance for this precision; pass your own per precision to scale them."""
        if self.dtype.itemsize >= 8:
            return float64
        return float32 if self.dtype.itemsize >= 4 else float16

    def __repr__(self):
        return f"Precision({self.dtype}: {self.reason})"


def as_array(value, precision, *, what="your function's result"):
    """Return the learner's `value` as a float64 ndarray copy, or fail if it is not a floating-point
    ndarray at least as precise as `precision` (from `precision_of(*inputs)`).

    Integer arrays are rejected (an integer table is the classic sign of integer division), and
    so is a result less precise than the inputs call for, with a message saying so.
    """
    if not isinstance(precision, Precision):
        raise TypeError("as_array(value, precision): pass precision_of(*inputs), the precision of the "
                        f"test's inputs, not {type_name(precision)}")
    if not issubclass(type(value), np.ndarray):
        hint = " (wrap it with np.array(...))" if issubclass(type(value), (list, tuple)) else ""
        fail(f"{what} should be a numpy.ndarray, got {type_got(value)}{hint}")
    # subok=False copies the data into a plain ndarray, dropping any subclass behaviour.
    array = np.array(value, copy=True, subok=False)
    if not np.issubdtype(array.dtype, np.floating):
        fail(f"{what} should hold floating-point numbers, got dtype {array.dtype}")
    if array.dtype.itemsize < precision.dtype.itemsize:
        fail(f"{what} is {array.dtype} but {precision.reason}: compute and return {precision.dtype}")
    return array.astype(np.float64)


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
        want, have = num_pair(expected[index], actual[index])
        fail(f"{what}{_format_index(index)}: expected {want}, got {have} "
             f"({wrong} of {error.size} entries differ)", got=actual, expected=expected)


def expect_in_range(array, low, high, *, tol=0.0, what="your function's result"):
    outside = (array < low - tol) | (array > high + tol) | np.isnan(array)
    if outside.any():
        index = tuple(int(i) for i in np.argwhere(outside)[0])
        fail(f"all values of {what} should lie in [{low}, {high}], but {what}{_format_index(index)} "
             f"= {num(array[index])} ({int(outside.sum())} value(s) outside)")


def _format_index(index):
    return "[" + ", ".join(str(i) for i in index) + "]" if index else ""
