"""Hidden tests for truncated_normal(seed, n, std=1.0, lower=-2.0, upper=2.0).

No test assumes a particular sequence of draws.  Statistical checks fail a correct solution with
probability below 1e-11 each (each states its bound); there are 4 of them, so below 1e-10 in all.  The
bound checks are exact.
"""

import math

import numpy as np

from grader.core.checks import fail
from grader.core.testkit import (bounded_moments_range, call, expect_distribution, expect_moments, expect_seeded,
                                 normal_cdf, num, truncated_normal_cdf, truncated_normal_moments)

FALSE_FAILURE = 1e-11


def _draws(truncated_normal, seed, n, std, lower, upper):
    what = f"truncated_normal({seed}, {n}, std={std}, lower={lower}, upper={upper})"
    got, _, _ = call(truncated_normal, seed, n, std, lower, upper, what=what, shape=(int(n),))
    return got, what


def _mistakes(std, lower, upper):
    wrong = []
    for scale, words in ((math.sqrt(std), "looks like std was used as the variance: the result is std * Z"),
                         (std ** 2, "looks like the draws were scaled by std squared: the result is std * Z")):
        if abs(scale - std) > 1e-9:
            wrong.append((lambda x, s=scale: truncated_normal_cdf(x, lower, upper, s), words))
    wrong.append((lambda x: normal_cdf(x, 0.0, std), "looks like the draws were not truncated"))
    return wrong


def _expect_no_pile_up(got, what, std, lower, upper):
    """Exact: a continuous draw lands exactly on a given number with probability 0, so two draws on the same
    bound mean clipping."""
    for bound in (std * lower, std * upper):
        on_it = int((got == bound).sum())
        if on_it >= 2:
            fail(f"{what}: {on_it} of the {got.size} draws are exactly {num(bound)}, a bound (looks like out-of-range "
                 f"draws were clipped onto the bounds: draw them again instead, so no value piles up at a bound)")


def _expect_law(truncated_normal, seed, n, std, lower, upper):
    got, what = _draws(truncated_normal, seed, n, std, lower, upper)
    _expect_no_pile_up(got, what, std, lower, upper)
    # DKW: a correct solution's KS distance exceeds the threshold with probability below 1e-11.
    expect_distribution(got, lambda x: truncated_normal_cdf(x, lower, upper, std),
                        law=f"{num(std)} * N(0, 1) truncated to [{num(lower)}, {num(upper)}]",
                        false_failure=FALSE_FAILURE, what=f"the draws of {what}",
                        mistakes=_mistakes(std, lower, upper))


def test_shape_and_dtype(truncated_normal):
    """Returns a float64 array of shape (n,)"""
    _draws(truncated_normal, 0, 10, 1.0, -2.0, 2.0)
    _draws(truncated_normal, 0, 1, 1.0, -2.0, 2.0)


def test_within_the_bounds(truncated_normal):
    """Every draw lies in [std * lower, std * upper] (bounds in standard units)"""
    for seed, std, lower, upper in ((1, 0.5, -1.0, 1.5), (2, 3.0, -2.0, 2.0)):
        got, what = _draws(truncated_normal, seed, 5000, std, lower, upper)
        low, high = std * lower, std * upper
        outside = got[(got < low - 1e-12 * abs(low)) | (got > high + 1e-12 * abs(high))]
        if outside.size:
            if ((got >= lower) & (got <= upper)).all():
                hint = (" (looks like the bounds were applied to the output std * Z, as PyTorch's trunc_normal_ "
                        "does; here they bound Z, in standard units)")
            else:
                hint = " (looks like the draws were not truncated)"
            fail(f"{what}: {outside.size} draws lie outside [std * lower, std * upper] = [{num(low)}, {num(high)}], "
                 f"e.g. {num(float(outside[0]))}{hint}")


def test_default_distribution(truncated_normal):
    """Defaults: the draws follow N(0, 1) truncated to [-2, 2], with no pile-up at the bounds (50000 draws)"""
    got, what = _draws(truncated_normal, 3, 50000, 1.0, -2.0, 2.0)
    _expect_no_pile_up(got, what, 1.0, -2.0, 2.0)
    expect_distribution(got, lambda x: truncated_normal_cdf(x, -2.0, 2.0), law="N(0, 1) truncated to [-2, 2]",
                        false_failure=FALSE_FAILURE, what=f"the draws of {what}", mistakes=_mistakes(1.0, -2.0, 2.0))


def test_scaled_asymmetric_distribution(truncated_normal):
    """std = 2 on [-0.5, 1]: the draws follow 2 * N(0, 1) truncated to [-0.5, 1]"""
    _expect_law(truncated_normal, 4, 20000, 2.0, -0.5, 1.0)


def test_narrow_range_distribution(truncated_normal):
    """On [2, 3] (2 % of the mass): every draw comes from the range, none is clipped"""
    _expect_law(truncated_normal, 5, 2000, 1.0, 2.0, 3.0)


def test_moments(truncated_normal):
    """std = 0.5 on [-2, 2]: mean 0 and variance 0.25 * 0.7737 (the truncation shrinks it)"""
    std = 0.5
    got, what = _draws(truncated_normal, 6, 50000, std, -2.0, 2.0)
    mean, variance = truncated_normal_moments(-2.0, 2.0)
    # Hoeffding on the mean and on the square deviation: below 1e-11 in all.
    ranges = bounded_moments_range(got.size, std * mean, std * std * variance, -2 * std, 2 * std, FALSE_FAILURE)
    expect_moments(got, ranges, law="0.5 * N(0, 1) truncated to [-2, 2]", mean=std * mean,
                   variance=std * std * variance, false_failure=FALSE_FAILURE, what=f"the draws of {what}",
                   mistakes=[(std * variance, "looks like std was used as the variance: the result is std * Z"),
                             (std * std, "looks like the draws were not truncated")])


def test_seed_decides(truncated_normal):
    """The same seed gives the same draws, 20 seeds give 20 different ones"""
    expect_seeded(truncated_normal, 16, 1.0, -2.0, 2.0, what="truncated_normal(seed, 16, 1.0, -2.0, 2.0)")


def test_size_cast_with_int(truncated_normal):
    """n may be a float or a numpy integer: it is cast with int()"""
    call(truncated_normal, 0, 10.0, what="truncated_normal(0, 10.0)", shape=(10,))
    call(truncated_normal, 0, np.int64(7), what="truncated_normal(0, np.int64(7))", shape=(7,))
