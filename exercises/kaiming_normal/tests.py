"""Hidden tests for kaiming_normal(seed, fan_in, fan_out, nonlinearity="relu").

No test assumes a particular sequence of draws.  Statistical checks fail a correct solution with
probability below 1e-11 each (each states its bound); there are 4 of them, so below 1e-10 in all.
"""

import math

import numpy as np

from grader.core.checks import fail
from grader.core.testkit import (call, call_flat, expect_distribution, expect_moments, expect_seeded,
                                 expect_value_error, normal_cdf, normal_moments_range, num, uniform_cdf)

FALSE_FAILURE = 1e-11
FAN_IN, FAN_OUT = 120, 500          # 60000 draws: KS threshold 0.0147
GAINS = {"relu": math.sqrt(2.0), "linear": 1.0, "tanh": 5.0 / 3.0}


def _wrong_stds(fan_in, fan_out, nonlinearity):
    """(std, hint) for each classic mistake."""
    gain = GAINS[nonlinearity]
    wrong = []
    if nonlinearity == "tanh":
        wrong.append((1.0 / math.sqrt(fan_in), "looks like the gain for 'tanh' is 1; calculate_gain gives 5/3"))
    return wrong + [
        (gain / math.sqrt(fan_out), "looks like the standard deviation used fan_out; He et al.'s uses fan_in"),
        (1.0 / math.sqrt(fan_in), "looks like the gain was left out"),
        (gain ** 2 / math.sqrt(fan_in), "looks like the standard deviation was multiplied by gain squared; "
                                        "gain squared multiplies the variance"),
        (gain ** 2 / fan_in, "looks like the variance gain² / fan_in was passed as the standard deviation "
                             "(rng.normal takes the standard deviation)"),
        (math.sqrt(gain / math.sqrt(fan_in)), "looks like gain / sqrt(fan_in) was used as the variance; it is the "
                                              "standard deviation"),
    ]


def _weights(kaiming_normal, seed, fan_in, fan_out, nonlinearity):
    what = f"kaiming_normal({seed}, {fan_in}, {fan_out}, {nonlinearity!r})"
    got, _, _ = call_flat(kaiming_normal, seed, fan_in, fan_out, nonlinearity, what=what, shape=(fan_in, fan_out))
    return got, what


def _expect_normal(kaiming_normal, seed, nonlinearity):
    got, what = _weights(kaiming_normal, seed, FAN_IN, FAN_OUT, nonlinearity)
    std = GAINS[nonlinearity] / math.sqrt(FAN_IN)
    mistakes = [(lambda x, s=s: normal_cdf(x, 0.0, s), words) for s, words in _wrong_stds(FAN_IN, FAN_OUT, nonlinearity)
                if abs(s - std) > 1e-9]
    mistakes.append((lambda x: uniform_cdf(x, -std * math.sqrt(3), std * math.sqrt(3)),
                     "looks like the draws are uniform with the right variance (Kaiming uniform), not normal"))
    # DKW: a correct solution's KS distance exceeds the threshold with probability below 1e-11.
    expect_distribution(got, lambda x: normal_cdf(x, 0.0, std), law=f"N(0, {num(std)}²)", false_failure=FALSE_FAILURE,
                        what=f"the entries of {what}", mistakes=mistakes)


def test_shape_and_dtype(kaiming_normal):
    """Returns a flat float64 array of fan_in * fan_out entries"""
    _weights(kaiming_normal, 0, 3, 4, "relu")
    _weights(kaiming_normal, 0, 1, 1, "linear")


def test_unknown_nonlinearity(kaiming_normal):
    """An unknown nonlinearity raises ValueError naming it"""
    expect_value_error(kaiming_normal, 0, 3, 4, "sigmoid", naming="sigmoid",
                       what="kaiming_normal(0, 3, 4, 'sigmoid')")


def test_relu_distribution(kaiming_normal):
    """ReLU: the draws follow N(0, 2 / fan_in) (Kolmogorov-Smirnov against the exact CDF)"""
    _expect_normal(kaiming_normal, 1, "relu")


def test_linear_and_tanh_distribution(kaiming_normal):
    """linear and tanh: the draws follow N(0, gain² / fan_in) with gains 1 and 5/3"""
    _expect_normal(kaiming_normal, 2, "linear")
    _expect_normal(kaiming_normal, 3, "tanh")


def test_moments(kaiming_normal):
    """ReLU: mean 0 and variance 2 / fan_in"""
    got, what = _weights(kaiming_normal, 4, FAN_IN, FAN_OUT, "relu")
    std = math.sqrt(2.0 / FAN_IN)
    # Chernoff for the mean, Laurent-Massart for the variance: below 1e-11 in all.
    expect_moments(got, normal_moments_range(got.size, 0.0, std, FALSE_FAILURE), law=f"N(0, {num(std)}²)", mean=0.0,
                   variance=std * std, false_failure=FALSE_FAILURE, what=f"the entries of {what}",
                   mistakes=[(s * s, words) for s, words in _wrong_stds(FAN_IN, FAN_OUT, "relu")])


def test_default_is_relu(kaiming_normal):
    """nonlinearity defaults to "relu": the same draws as passing it"""
    what = "kaiming_normal(5, 6, 7)"
    got, _, _ = call(kaiming_normal, 5, 6, 7, what=what, shape=(42,))
    relu, _ = _weights(kaiming_normal, 5, 6, 7, "relu")
    if not np.array_equal(got, relu):
        fail(f"{what} should equal kaiming_normal(5, 6, 7, 'relu'): the default nonlinearity is 'relu'")


def test_seed_decides(kaiming_normal):
    """The same seed gives the same matrix, 20 seeds give 20 different ones"""
    expect_seeded(kaiming_normal, 3, 4, "relu", what="kaiming_normal(seed, 3, 4, 'relu')")


def test_sizes_cast_with_int(kaiming_normal):
    """fan_in and fan_out may be floats or numpy integers: they are cast with int()"""
    call(kaiming_normal, 0, 3.0, np.int64(5), "tanh", what="kaiming_normal(0, 3.0, np.int64(5), 'tanh')", shape=(15,))
