"""Hidden tests for xavier_uniform(seed, fan_in, fan_out, gain=1.0).

No test assumes a particular sequence of draws.  Statistical checks (each stating its bound) fail a correct
solution with probability below 1e-11 each; there are 5 of them, so below 1e-10 for the whole file.  The
bound checks are exact.
"""

import math

import numpy as np

from grader.core.checks import fail
from grader.core.testkit import (bounded_moments_range, call, call_flat, expect_distribution, expect_moments,
                                 expect_seeded, normal_cdf, num, uniform_cdf)

FALSE_FAILURE = 1e-11
FAN_IN, FAN_OUT = 150, 400          # 60000 draws: KS threshold 0.0147, far below every mistake's distance


def _bound(fan_in, fan_out, gain):
    return gain * math.sqrt(6.0 / (fan_in + fan_out))


def _wrong_bounds(fan_in, fan_out, gain):
    """(bound, hint) for each classic mistake."""
    return [(gain * math.sqrt(6.0 / fan_in), "looks like the bound used fan_in alone: Glorot and Bengio average "
                                             "both fans, sqrt(6 / (fan_in + fan_out))"),
            (gain * math.sqrt(6.0 / fan_out), "looks like the bound used fan_out alone"),
            (math.sqrt(6.0 / (fan_in + fan_out)), "looks like the gain was left out"),
            (gain ** 2 * math.sqrt(6.0 / (fan_in + fan_out)), "looks like the bound was multiplied by gain squared; "
                                                              "the gain multiplies the bound, its square the variance"),
            (gain * math.sqrt(2.0 / (fan_in + fan_out)), "looks like the bound is the standard deviation "
                                                         "sqrt(2 / (fan_in + fan_out)); U(-a, a) has std a / sqrt(3)"),
            (gain * math.sqrt(3.0 / (fan_in + fan_out)), "looks like the bound is sqrt(3 / (fan_in + fan_out)): the "
                                                         "variance is 2 / (fan_in + fan_out), so a = sqrt(3 * 2 / ...)")]


def _weights(xavier_uniform, seed, fan_in, fan_out, gain):
    what = f"xavier_uniform({seed}, {fan_in}, {fan_out}, gain={gain})"
    got, _, _ = call_flat(xavier_uniform, seed, fan_in, fan_out, gain, what=what, shape=(fan_in, fan_out))
    return got, what


def _bound_hint(largest, n, fan_in, fan_out, gain):
    """The mistake whose bound `largest` (the largest |w| of n draws) fits: below it, within the fill margin."""
    for bound, words in _wrong_bounds(fan_in, fan_out, gain):
        if bound * (1 - math.log(1 / FALSE_FAILURE) / n) <= largest <= bound and \
                abs(bound - _bound(fan_in, fan_out, gain)) > 1e-9:
            return f" ({words})"
    return ""


def test_shape_and_dtype(xavier_uniform):
    """Returns a flat float64 array of fan_in * fan_out entries"""
    _weights(xavier_uniform, 0, 3, 4, 1.0)
    _weights(xavier_uniform, 0, 1, 1, 1.0)


def test_within_the_bound(xavier_uniform):
    """Every entry lies in [-a, a], a = gain * sqrt(6 / (fan_in + fan_out)) (gain 1 and 1.7)"""
    for seed, gain in ((1, 1.0), (2, 1.7)):
        got, what = _weights(xavier_uniform, seed, FAN_IN, FAN_OUT, gain)
        a = _bound(FAN_IN, FAN_OUT, gain)
        largest = float(np.abs(got).max())
        if largest > a * (1 + 1e-12):
            fail(f"{what}: an entry of {num(largest)} lies outside [-a, a] for a = {num(a)}"
                 f"{_bound_hint(largest, got.size, FAN_IN, FAN_OUT, gain)}")


def test_fills_the_range(xavier_uniform):
    """The draws reach close to the bound a (gain 1 and 1.7)"""
    n = FAN_IN * FAN_OUT
    # All n draws stay below a * (1 - d) with probability (1 - d)^n <= exp(-n d) = 1e-11 for d = ln(1e11) / n.
    margin = math.log(1 / FALSE_FAILURE) / n
    for seed, gain in ((3, 1.0), (4, 1.7)):
        got, what = _weights(xavier_uniform, seed, FAN_IN, FAN_OUT, gain)
        a = _bound(FAN_IN, FAN_OUT, gain)
        largest = float(np.abs(got).max())
        if largest < a * (1 - margin):
            fail(f"{what}: the largest |entry| of {n} draws is {num(largest)}, but with a = {num(a)} a correct "
                 f"solution exceeds {num(a * (1 - margin))} with probability above 1 - {FALSE_FAILURE:g}"
                 f"{_bound_hint(largest, n, FAN_IN, FAN_OUT, gain)}")


def test_uniform_distribution(xavier_uniform):
    """The draws follow U(-a, a) (Kolmogorov-Smirnov against the exact CDF, gain 1 and 1.7)"""
    for seed, gain in ((5, 1.0), (6, 1.7)):
        got, what = _weights(xavier_uniform, seed, FAN_IN, FAN_OUT, gain)
        a = _bound(FAN_IN, FAN_OUT, gain)
        mistakes = [(lambda x, b=b: uniform_cdf(x, -b, b), words) for b, words in _wrong_bounds(FAN_IN, FAN_OUT, gain)
                    if abs(b - a) > 1e-9]
        mistakes.append((lambda x: normal_cdf(x, 0.0, a / math.sqrt(3)),
                         "looks like the draws are normal with the right variance (Xavier normal), not uniform"))
        # DKW: a correct solution's KS distance exceeds the threshold with probability below 1e-11.
        expect_distribution(got, lambda x: uniform_cdf(x, -a, a), law=f"U(-{num(a)}, {num(a)})",
                            false_failure=FALSE_FAILURE, what=f"the entries of {what}", mistakes=mistakes)


def test_moments(xavier_uniform):
    """Mean 0 and variance gain² * 2 / (fan_in + fan_out)"""
    gain = 1.7
    got, what = _weights(xavier_uniform, 7, FAN_IN, FAN_OUT, gain)
    a = _bound(FAN_IN, FAN_OUT, gain)
    variance = a * a / 3
    # Hoeffding on the mean and on the square deviation: below 1e-11 in all.
    ranges = bounded_moments_range(got.size, 0.0, variance, -a, a, FALSE_FAILURE)
    expect_moments(got, ranges, law=f"U(-{num(a)}, {num(a)})", mean=0.0, variance=variance,
                   false_failure=FALSE_FAILURE, what=f"the entries of {what}",
                   mistakes=[(b * b / 3, words) for b, words in _wrong_bounds(FAN_IN, FAN_OUT, gain)])


def test_seed_decides(xavier_uniform):
    """The same seed gives the same matrix, 20 seeds give 20 different ones"""
    expect_seeded(xavier_uniform, 3, 4, 1.0, what="xavier_uniform(seed, 3, 4, 1.0)")


def test_sizes_cast_with_int(xavier_uniform):
    """fan_in and fan_out may be floats or numpy integers: they are cast with int()"""
    got, _, what = call(xavier_uniform, 0, 3.0, np.int64(5), what="xavier_uniform(0, 3.0, np.int64(5))", shape=(15,))
    if np.abs(got).max() > math.sqrt(6 / 8):
        fail(f"{what}: an entry lies outside [-a, a] for a = {num(math.sqrt(6 / 8))}")
