"""Randomised checks: the learner's function against an expected-value function on random inputs.

    from grader.core.random_checks import array, choice, dim, compare_on_random_inputs

    def test_random_shapes(softmax):
        '''Matches the formula on 30 random inputs'''
        compare_on_random_inputs(softmax, _expected_softmax,
                                 {"x": array(("B", "T"), low=-5, high=5), "axis": choice(-1, 0)},
                                 dims={"B": (1, 4), "T": (1, 6)})

The input space is a dict of argument name -> spec:
    array(shape, low=, high=, dtype=)  a numpy array; shape entries are ints, dimension names
                                       ("T") or products of them ("H*D"); values uniform in
                                       [low, high) (low/high may name a dimension, e.g. ids below "V")
    dim(name)                          the size drawn for that dimension, as a Python int
    choice(a, b, ...)                  one of the values
    anything else                      passed as it is
and `dims` gives each dimension's sizes, both ends included: {"T": (1, 6)}.

The expected function may return an array (or nested lists of numbers), a number, or a tuple or dict of
those: the default check compares the learner's result item by item (a tuple of as many items, a dict
with the same keys), each at the input's precision, and a failure shows both results item by item.

Inputs are drawn from numpy's default_rng seeded with (seed, case number): the same
inputs on every run, in CPython and in Pyodide.  On the first failing input the
helper shrinks it (smaller dimensions first, then simpler values: zeros, integers,
one decimal) while it still fails, within MAX_SHRINK_CALLS calls and
MAX_SHRINK_SECONDS, and reports the smallest one as a call the learner can run.

Learner values are only ever looked at through as_array-style copies (see checks.py).
"""

import copy
import time

import numpy as np

from grader.core.checks import Failed, as_array, expect_close, fail, precision_of, type_name
from grader.core.engine import LearnerRaised
from grader.core.numbers import expected_got
from grader.core.testkit import as_dict, as_float, items

MAX_SHRINK_CALLS = 150
MAX_SHRINK_SECONDS = 2.0
MAX_SHOWN_ENTRIES = 100


class array:
    """A numpy array argument (see the module docstring)."""

    def __init__(self, shape, *, low=-1.0, high=1.0, dtype="float64"):
        self.shape, self.low, self.high, self.dtype = tuple(shape), low, high, np.dtype(dtype)

    def draw(self, sizes, rng):
        shape = tuple(_size(entry, sizes) for entry in self.shape)
        low, high = _bound(self.low, sizes), _bound(self.high, sizes)
        if self.dtype.kind in "iu":
            return rng.integers(low, high, size=shape).astype(self.dtype)
        return rng.uniform(low, high, size=shape).astype(self.dtype)

    def simpler(self, value, sizes):
        """Simpler arrays of the same shape: all simplest, all rounded, then one entry at a time."""
        simplest = self._simplest(sizes)
        candidates = [np.full_like(value, simplest)]
        if self.dtype.kind == "f":
            candidates += [self.clip(np.round(value), sizes), self.clip(np.round(value, 1), sizes)]
        for index in np.ndindex(value.shape):
            if value[index] != simplest:
                one = value.copy()
                one[index] = simplest
                candidates.append(one)
        return [c for c in candidates if not np.array_equal(c, value)]

    def _simplest(self, sizes):
        """The value nearest 0 inside [low, high)."""
        low, high = _bound(self.low, sizes), _bound(self.high, sizes)
        if low <= 0 < high or (low == 0 and self.dtype.kind == "f"):
            return 0
        return low if low > 0 else (high - 1 if self.dtype.kind in "iu" else high)

    def clip(self, value, sizes):
        """`value` moved inside [low, high) (bounds naming a dimension may have shrunk)."""
        low, high = _bound(self.low, sizes), _bound(self.high, sizes)
        return np.clip(value, low, high - 1 if self.dtype.kind in "iu" else high).astype(self.dtype)


class dim:
    """The size drawn for dimension `name`, as a Python int."""

    def __init__(self, name):
        self.name = name

    def draw(self, sizes, rng):
        return _size(self.name, sizes)

    def simpler(self, value, sizes):
        return []  # follows the dimension, which shrinks on its own


class choice:
    """One of `values`, each equally likely; the first counts as the simplest."""

    def __init__(self, *values):
        self.values = values

    def draw(self, sizes, rng):
        return self.values[int(rng.integers(len(self.values)))]

    def simpler(self, value, sizes):
        return list(self.values[:self.values.index(value)])


def compare_on_random_inputs(function, expected, space, *, dims=None, count=30, seed=0, check=None):
    """Call `function(**inputs)` and `expected(**inputs)` on `count` random inputs drawn from `space`.

    `check(result, expected_value, precision, what)` fails (a checks helper or fail()) when
    the learner's result is wrong; `precision` is `precision_of` the input.  The default
    check compares float arrays with expect_close at that precision's tolerance.  On the
    first failing input, fails with the smallest failing input found; if the learner's code
    raised on it, re-raises that exception (the test is then an error) with the input as its
    `context` (shown before the engine's "Your code raised ...").
    """
    search = _Search(function, expected, space, dims or {}, seed, check or _close)
    for case in range(count):
        sizes, inputs = search.draw(case)
        outcome = search.attempt(inputs)
        if outcome is not None:
            sizes, inputs, outcome = search.shrink(case, sizes, inputs, outcome)
            search.report(inputs, outcome, f"random input {case + 1} of {count} failed, seed {seed}")


class _Search:
    def __init__(self, function, expected, space, dims, seed, check):
        self.function, self.expected, self.space, self.dims = function, expected, space, dims
        self.seed, self.check = seed, check
        self.name = getattr(function, "__name__", "your function")
        self.what = f"{self.name}({', '.join(space)})"

    def draw(self, case, sizes=None):
        """(sizes, inputs) of one case; with `sizes`, the same case's values at those sizes."""
        rng = np.random.default_rng([self.seed, case])
        if sizes is None:
            sizes = {name: int(rng.integers(low, high + 1)) for name, (low, high) in self.dims.items()}
        return sizes, {name: _draw(spec, sizes, rng) for name, spec in self.space.items()}

    def attempt(self, inputs, *, shrinking=False):
        """None when the learner's result is right, else ("failed", message, result) or ("raised", exc).

        While shrinking, an input the expected function raises on (say all zeros, for a formula that
        divides by a norm) counts as not failing: it is not a smaller example of the learner's mistake.
        """
        try:
            result = self.function(**copy.deepcopy(inputs))
        except Failed as exc:  # e.g. a result that cannot be sent back
            return ("failed", str(exc), None)
        except Exception as exc:
            if not isinstance(exc, LearnerRaised):  # a bug of the test's own, not the learner's
                raise
            return ("raised", exc)
        try:
            expected = self.expected(**copy.deepcopy(inputs))
        except Exception:
            if shrinking:
                return None
            raise
        try:
            self.check(result, expected, precision_of(inputs), self.what)
        except Failed as exc:
            return ("failed", str(exc), result)
        return None

    def shrink(self, case, sizes, inputs, outcome):
        """The smallest failing (sizes, inputs, outcome) found from a failing case, within the budgets."""
        calls, deadline = 0, time.perf_counter() + MAX_SHRINK_SECONDS
        improved = True
        while improved:
            improved = False
            for candidate_sizes, candidate in self._smaller_sizes(case, inputs, sizes):
                if calls >= MAX_SHRINK_CALLS or time.perf_counter() >= deadline:
                    return sizes, inputs, outcome
                calls += 1
                found = self.attempt(candidate, shrinking=True)
                if found is not None:
                    sizes, inputs, outcome, improved = candidate_sizes, candidate, found, True
                    break
        return self.shrink_values(sizes, inputs, outcome, calls, deadline)

    def _smaller_sizes(self, case, inputs, sizes):
        """(sizes, inputs) with one dimension smaller, smallest first: the current values cut down to
        the new sizes (which keeps what made them fail), then freshly drawn ones (drawn lazily)."""
        for name, (low, _) in self.dims.items():
            for size in sorted({low, (low + sizes[name]) // 2, sizes[name] - 1}):
                if low <= size < sizes[name]:
                    smaller = dict(sizes, **{name: size})
                    yield smaller, {arg: _cut(spec, inputs[arg], smaller, case, self.seed)
                                    for arg, spec in self.space.items()}
                    yield self.draw(case, smaller)

    def shrink_values(self, sizes, inputs, outcome, calls, deadline):
        """Simpler values at these sizes, one argument at a time, while the input keeps failing."""
        improved = True
        while improved and calls < MAX_SHRINK_CALLS and time.perf_counter() < deadline:
            improved = False
            for name, spec in self.space.items():
                for simpler in (spec.simpler(inputs[name], sizes) if hasattr(spec, "simpler") else []):
                    if calls >= MAX_SHRINK_CALLS or time.perf_counter() >= deadline:
                        return sizes, inputs, outcome
                    calls += 1
                    candidate = dict(inputs, **{name: simpler})
                    found = self.attempt(candidate, shrinking=True)
                    if found is not None:
                        inputs, outcome, improved = candidate, found, True
                        break
        return sizes, inputs, outcome

    def report(self, inputs, outcome, origin):
        call = "\n".join(_show(value, f"    {name} = ") for name, value in inputs.items())
        verdict = "raises an exception" if outcome[0] == "raised" else "is wrong"
        header = f"{self.what} {verdict} on this input, the smallest failing one found ({origin}):\n{call}"
        if outcome[0] == "raised":
            exc = outcome[1]
            exc.context = header
            raise exc
        _, message, result = outcome
        expected = _numbers_as_array(self.expected(**copy.deepcopy(inputs)))
        fail(f"{header}\n{_show(expected, '  expected: ')}\n{_show(result, '  got:      ')}\n  {message}")


def _close(result, expected, precision, what):
    """The default check: float arrays (or numbers) close at the precision's tolerance; a tuple or a dict of
    them item by item, each message naming the item ("attention(q, k, v)[1]", "fit(x)['mean']")."""
    if isinstance(expected, dict):
        got = as_dict(result, list(expected), what)
        for key, value in expected.items():
            _close(got[key], value, precision, f"{what}[{key!r}]")
        return
    if isinstance(expected, tuple):
        got = items(result, what)
        if len(got) != len(expected):
            fail(f"{what}: expected a tuple of {len(expected)} values, got {len(got)}")
        for index, (item, value) in enumerate(zip(got, expected)):
            _close(item, value, precision, f"{what}[{index}]")
        return
    tolerance = precision.tolerance()
    if isinstance(expected, (int, float, np.generic)) and not isinstance(expected, bool):
        got, expected = as_float(result, precision, what), float(expected)
        if not abs(got - expected) <= tolerance + max(tolerance, 1e-7) * abs(expected):  # NaN fails too
            fail(f"{what}: {expected_got(expected, got)}")
        return
    expect_close(as_array(result, precision, what=what), expected, atol=tolerance, rtol=max(tolerance, 1e-7),
                 what=what)


def _cut(spec, value, sizes, case, seed):
    """`value` fitted to smaller `sizes`: an array keeps its leading entries (and its values within
    bounds that may have shrunk too); an array with a product dimension and a dim() are drawn again."""
    if isinstance(spec, dim) or (isinstance(spec, array) and any("*" in str(e) for e in spec.shape)):
        return _draw(spec, sizes, np.random.default_rng([seed, case]))
    if not isinstance(spec, array):
        return value
    return spec.clip(value[tuple(slice(0, _size(entry, sizes)) for entry in spec.shape)], sizes)


def _draw(spec, sizes, rng):
    return spec.draw(sizes, rng) if isinstance(spec, (array, dim, choice)) else spec


def _size(entry, sizes):
    if isinstance(entry, int):
        return entry
    product = 1
    for name in entry.split("*"):
        if name.strip() not in sizes:
            raise ValueError(f"dimension {name.strip()!r} is not in dims={sizes}")
        product *= sizes[name.strip()]
    return product


def _bound(value, sizes):
    return _size(value, sizes) if isinstance(value, str) else value


def _numbers_as_array(expected):
    """A (nested) list of numbers as the array the default check compares it as; anything else as it is."""
    if isinstance(expected, list):
        try:
            plain = np.array(expected)
        except ValueError:  # ragged
            return expected
        if plain.dtype.kind in "biuf":
            return plain
    return expected


def _show(value, label):
    """`label` then Python source for `value`; a learner's value only through a plain copy (never its methods)."""
    if issubclass(type(value), np.ndarray):
        plain = np.array(value, copy=True, subok=False)
        if plain.dtype.kind not in "biuf":
            return f"{label}an array of dtype {plain.dtype}"
        opening = f"{label}np.array("
        text = np.array2string(plain, separator=", ", threshold=MAX_SHOWN_ENTRIES, max_line_width=100,
                               prefix=opening)
        dtype = "" if plain.dtype in (np.float64, np.int64, np.bool_) else f", dtype=np.{plain.dtype}"
        return f"{opening}{text}{dtype})"
    if type(value) in (bool, int, float, str, type(None)) or issubclass(type(value), np.generic):
        return label + repr(value.item() if issubclass(type(value), np.generic) else value)
    indent = " " * (len(label) + 2)
    if issubclass(type(value), (tuple, list)):  # read without calling the learner's methods (see items)
        parts = tuple.__iter__(value) if issubclass(type(value), tuple) else list.__iter__(value)
        shown = [_show(part, indent).lstrip() for part in parts]
        ends = "()" if issubclass(type(value), tuple) else "[]"
        return f"{label}{ends[0]}" + f",\n{indent}".join(shown) + ("," if len(shown) == 1 and ends == "()" else "") \
            + ends[1]
    if type(value) is dict and all(type(key) is str for key in dict.__iter__(value)):
        shown = [_show(dict.__getitem__(value, key), f"{key!r}: ").replace("\n", "\n" + indent)
                 for key in dict.__iter__(value)]
        return f"{label}{{" + f",\n{indent}".join(shown) + "}"
    return f"{label}a {type_name(value)}"
