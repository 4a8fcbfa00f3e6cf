"""Hidden tests for lecun_normal(seed, fan_in, fan_out).

No test assumes a particular sequence of draws.  Statistical checks fail a correct solution with
probability below 1e-11 each (each states its bound); there are 3 of them, so below 1e-10 in all.  The
bound check is exact.
"""

import math

import numpy as np

from grader.core.checks import fail
from grader.core.testkit import (bounded_moments_range, call, call_flat, expect_distribution, expect_moments,
                                 expect_seeded, normal_cdf, num, truncated_normal_cdf, uniform_cdf)

FALSE_FAILURE = 1e-11
TRUNCATED_STD = 0.87962566103423978     # std of N(0, 1) truncated to [-2, 2]
FAN_IN, FAN_OUT = 120, 500              # 60000 draws: KS threshold 0.0147


def _truncated(variance, correction=TRUNCATED_STD):
    s = math.sqrt(variance) / correction
    return lambda x: truncated_normal_cdf(x, -2.0, 2.0, s)


def _mistakes(fan_in, fan_out):
    variance = 1.0 / fan_in
    return [(_truncated(1.0 / fan_out), "looks like n is fan_out; LeCun's mode is fan_in"),
            (_truncated(2.0 / (fan_in + fan_out)), "looks like n is (fan_in + fan_out) / 2; LeCun's mode is fan_in"),
            (_truncated(2.0 * variance), "looks like the scale is 2 (He's); LeCun's is 1"),
            (_truncated(variance, 1.0), "looks like the 0.8796 correction was forgotten: the truncated draws then "
                                        "have only 0.7737 times the variance 1 / fan_in"),
            (lambda x: normal_cdf(x, 0.0, math.sqrt(variance)),
             "looks like the draws are a plain normal; flax's lecun_normal draws a truncated normal"),
            (lambda x: uniform_cdf(x, -math.sqrt(3 * variance), math.sqrt(3 * variance)),
             "looks like the draws are uniform; flax's lecun_normal draws a truncated normal")]


def _weights(lecun_normal, seed, fan_in, fan_out):
    what = f"lecun_normal({seed}, {fan_in}, {fan_out})"
    got, _, _ = call_flat(lecun_normal, seed, fan_in, fan_out, what=what, shape=(fan_in, fan_out))
    return got, what


def test_shape_and_dtype(lecun_normal):
    """Returns a flat float64 array of fan_in * fan_out entries"""
    _weights(lecun_normal, 0, 3, 4)
    _weights(lecun_normal, 0, 1, 1)


def test_within_the_bounds(lecun_normal):
    """Every entry lies within ± 2 sqrt(1 / fan_in) / 0.8796"""
    got, what = _weights(lecun_normal, 1, FAN_IN, FAN_OUT)
    bound = 2 * math.sqrt(1.0 / FAN_IN) / TRUNCATED_STD
    largest = float(np.abs(got).max())
    if largest > bound * (1 + 1e-12):
        fail(f"{what}: an entry of {num(largest)} lies outside ± {num(bound)} (looks like the draws were not "
             f"truncated, or the scale is too large)")


def test_distribution(lecun_normal):
    """The draws follow the truncated normal of variance 1 / fan_in (Kolmogorov-Smirnov against the exact CDF)"""
    got, what = _weights(lecun_normal, 2, FAN_IN, FAN_OUT)
    s = math.sqrt(1.0 / FAN_IN) / TRUNCATED_STD
    # DKW: a correct solution's KS distance exceeds the threshold with probability below 1e-11.
    expect_distribution(got, _truncated(1.0 / FAN_IN), law=f"{num(s)} * N(0, 1) truncated to [-2, 2]",
                        false_failure=FALSE_FAILURE, what=f"the entries of {what}", mistakes=_mistakes(FAN_IN, FAN_OUT))


def test_wide_layer_distribution(lecun_normal):
    """A layer with more inputs than outputs (500 by 120): the variance follows fan_in"""
    got, what = _weights(lecun_normal, 3, FAN_OUT, FAN_IN)
    s = math.sqrt(1.0 / FAN_OUT) / TRUNCATED_STD
    expect_distribution(got, _truncated(1.0 / FAN_OUT), law=f"{num(s)} * N(0, 1) truncated to [-2, 2]",
                        false_failure=FALSE_FAILURE, what=f"the entries of {what}", mistakes=_mistakes(FAN_OUT, FAN_IN))


def test_moments(lecun_normal):
    """Mean 0 and variance 1 / fan_in"""
    got, what = _weights(lecun_normal, 4, FAN_IN, FAN_OUT)
    variance = 1.0 / FAN_IN
    bound = 2 * math.sqrt(variance) / TRUNCATED_STD
    # Hoeffding on the mean and on the square deviation (draws within ± bound): below 1e-11 in all.
    expect_moments(got, bounded_moments_range(got.size, 0.0, variance, -bound, bound, FALSE_FAILURE),
                   law="LeCun's variance 1 / fan_in", mean=0.0, variance=variance, false_failure=FALSE_FAILURE,
                   what=f"the entries of {what}",
                   mistakes=[(1.0 / FAN_OUT, "looks like n is fan_out; LeCun's mode is fan_in"),
                             (variance * TRUNCATED_STD ** 2, "looks like the 0.8796 correction was forgotten")])


def test_seed_decides(lecun_normal):
    """The same seed gives the same matrix, 20 seeds give 20 different ones"""
    expect_seeded(lecun_normal, 3, 4, what="lecun_normal(seed, 3, 4)")


def test_sizes_cast_with_int(lecun_normal):
    """fan_in and fan_out may be floats or numpy integers: they are cast with int()"""
    call(lecun_normal, 0, 3.0, np.int64(5), what="lecun_normal(0, 3.0, np.int64(5))", shape=(15,))
