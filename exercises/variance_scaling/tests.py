"""Hidden tests for variance_scaling(seed, fan_in, fan_out, scale, mode, distribution).

No test assumes a particular sequence of draws.  Statistical checks fail a correct solution with
probability below 1e-11 each (each states its bound); there are 9 of them, so below 1e-10 in all.  The
bound checks are exact.
"""

import math

import numpy as np

from grader.core.checks import fail
from grader.core.testkit import (bounded_moments_range, call, call_flat, expect_distribution, expect_moments,
                                 expect_seeded, expect_value_error, normal_cdf, normal_moments_range, num,
                                 truncated_normal_cdf, uniform_cdf)

FALSE_FAILURE = 1e-11
TRUNCATED_STD = 0.87962566103423978     # std of N(0, 1) truncated to [-2, 2]


def _n(fan_in, fan_out, mode):
    return {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2}[mode]


def _law(distribution, variance, *, correction=TRUNCATED_STD, uniform_factor=3.0):
    """(cdf, name) of the draws for this distribution and variance; the keywords reproduce mistakes."""
    std = math.sqrt(variance)
    if distribution == "normal":
        return (lambda x: normal_cdf(x, 0.0, std)), f"N(0, {num(variance)})"
    if distribution == "uniform":
        a = math.sqrt(uniform_factor * variance)
        return (lambda x: uniform_cdf(x, -a, a)), f"U(-{num(a)}, {num(a)})"
    s = std / correction
    return (lambda x: truncated_normal_cdf(x, -2.0, 2.0, s)), f"{num(s)} * N(0, 1) truncated to [-2, 2]"


def _mistakes(fan_in, fan_out, scale, mode, distribution):
    """(cdf, hint) for each classic mistake that changes the draws here."""
    variance = scale / _n(fan_in, fan_out, mode)
    wrong = []
    for other, words in (("fan_in", "looks like n is fan_in"), ("fan_out", "looks like n is fan_out"),
                         ("fan_avg", "looks like n is (fan_in + fan_out) / 2")):
        if _n(fan_in, fan_out, other) != _n(fan_in, fan_out, mode):
            wrong.append((_law(distribution, scale / _n(fan_in, fan_out, other))[0],
                          f"{words}, but mode {mode!r} asks for {'the mean of both fans' if mode == 'fan_avg' else mode}"))
    wrong.append((_law(distribution, scale / (fan_in + fan_out))[0],
                   "looks like n is fan_in + fan_out: 'fan_avg' is their mean"))
    wrong.append((_law(distribution, variance ** 2)[0],
                   "looks like the variance was used as the standard deviation"))
    if distribution == "truncated_normal":
        wrong.append((_law(distribution, variance, correction=1.0)[0],
                      "looks like the 0.8796 correction was forgotten: the truncated draws then have only 0.7737 "
                      "times the variance asked for"))
        wrong.append((_law(distribution, variance, correction=1 / TRUNCATED_STD)[0],
                      "looks like the standard deviation was multiplied by 0.8796 instead of divided by it"))
        wrong.append((_law("normal", variance)[0],
                      "looks like the draws are a plain normal: 'truncated_normal' draws from step 8 on [-2, 2]"))
    if distribution == "uniform":
        wrong.append((_law(distribution, variance, uniform_factor=1.0)[0],
                      "looks like the uniform's bound is sqrt(variance); U(-a, a) has variance a² / 3"))
    return wrong


def _weights(variance_scaling, seed, fan_in, fan_out, scale, mode, distribution):
    what = f"variance_scaling({seed}, {fan_in}, {fan_out}, {scale}, {mode!r}, {distribution!r})"
    got, _, _ = call_flat(variance_scaling, seed, fan_in, fan_out, scale, mode, distribution, what=what,
                          shape=(fan_in, fan_out))
    return got, what


def _expect_law(variance_scaling, seed, fan_in, fan_out, scale, mode, distribution):
    got, what = _weights(variance_scaling, seed, fan_in, fan_out, scale, mode, distribution)
    if distribution == "truncated_normal":
        s = math.sqrt(scale / _n(fan_in, fan_out, mode)) / TRUNCATED_STD
        for bound in (-2 * s, 2 * s):
            if int((got == bound).sum()) >= 2:   # exact: continuous draws never repeat a given number
                fail(f"{what}: {int((got == bound).sum())} draws are exactly {num(bound)}, a bound (looks like "
                     f"out-of-range draws were clipped onto the bounds instead of drawn again)")
    cdf, law = _law(distribution, scale / _n(fan_in, fan_out, mode))
    # DKW: a correct solution's KS distance exceeds the threshold with probability below 1e-11.
    expect_distribution(got, cdf, law=law, false_failure=FALSE_FAILURE, what=f"the entries of {what}",
                        mistakes=_mistakes(fan_in, fan_out, scale, mode, distribution))
    return got, what


def test_shape_and_dtype(variance_scaling):
    """Returns a flat float64 array of fan_in * fan_out entries, for each distribution"""
    for distribution in ("normal", "uniform", "truncated_normal"):
        _weights(variance_scaling, 0, 3, 4, 1.0, "fan_in", distribution)


def test_unknown_mode(variance_scaling):
    """An unknown mode raises ValueError naming it"""
    expect_value_error(variance_scaling, 0, 3, 4, 1.0, "fan_sum", "normal", naming="fan_sum",
                       what="variance_scaling(0, 3, 4, 1.0, 'fan_sum', 'normal')")


def test_unknown_distribution(variance_scaling):
    """An unknown distribution raises ValueError naming it"""
    expect_value_error(variance_scaling, 0, 3, 4, 1.0, "fan_in", "gaussian", naming="gaussian",
                       what="variance_scaling(0, 3, 4, 1.0, 'fan_in', 'gaussian')")


def test_normal_fan_in(variance_scaling):
    """normal, fan_in: the draws follow N(0, scale / fan_in), with that mean and variance"""
    got, what = _expect_law(variance_scaling, 1, 120, 500, 2.0, "fan_in", "normal")
    std = math.sqrt(2.0 / 120)
    # Chernoff for the mean, Laurent-Massart for the variance: below 1e-11 in all.
    expect_moments(got, normal_moments_range(got.size, 0.0, std, FALSE_FAILURE), law=f"N(0, {num(std * std)})",
                   mean=0.0, variance=std * std, false_failure=FALSE_FAILURE, what=f"the entries of {what}")


def test_uniform_fan_out(variance_scaling):
    """uniform, fan_out: the draws follow U(-a, a), a = sqrt(3 * scale / fan_out), and reach close to a"""
    got, what = _expect_law(variance_scaling, 2, 500, 120, 3.0, "fan_out", "uniform")
    a = math.sqrt(3 * 3.0 / 120)
    largest = float(np.abs(got).max())
    # All n draws stay below a * (1 - d) with probability (1 - d)^n <= exp(-n d) = 1e-11 for d = ln(1e11) / n.
    margin = math.log(1 / FALSE_FAILURE) / got.size
    if not a * (1 - margin) <= largest <= a * (1 + 1e-12):
        hint = " (looks like the uniform's bound is sqrt(variance); U(-a, a) has variance a² / 3)" \
            if abs(largest - a / math.sqrt(3)) <= a / math.sqrt(3) * margin else ""
        fail(f"{what}: the largest |entry| is {num(largest)}, but a correct solution's lies between "
             f"{num(a * (1 - margin))} and a = {num(a)} (outside with probability below {FALSE_FAILURE:g}){hint}")


def test_truncated_normal_fan_avg(variance_scaling):
    """truncated_normal, fan_avg: truncated on [-2, 2] in standard units, variance exactly scale / n"""
    fan_in, fan_out, scale = 150, 450, 1.0
    got, what = _expect_law(variance_scaling, 3, fan_in, fan_out, scale, "fan_avg", "truncated_normal")
    variance = scale / 300
    s = math.sqrt(variance) / TRUNCATED_STD
    if float(np.abs(got).max()) > 2 * s * (1 + 1e-12):
        fail(f"{what}: an entry of {num(float(np.abs(got).max()))} lies outside [-2 s, 2 s] for "
             f"s = sqrt(scale / n) / 0.8796 = {num(s)}")
    # Hoeffding on the mean and on the square deviation (draws within [-2 s, 2 s]): below 1e-11 in all.
    expect_moments(got, bounded_moments_range(got.size, 0.0, variance, -2 * s, 2 * s, FALSE_FAILURE),
                   law=f"the variance scale / n = {num(variance)}", mean=0.0, variance=variance,
                   false_failure=FALSE_FAILURE, what=f"the entries of {what}",
                   mistakes=[(variance * TRUNCATED_STD ** 2, "looks like the 0.8796 correction was forgotten: the "
                                                            "truncated draws then have only 0.7737 times the variance"),
                             (variance * TRUNCATED_STD ** 4, "looks like the standard deviation was multiplied by "
                                                            "0.8796 instead of divided by it"),
                             (variance / 2, "looks like n is fan_in + fan_out: 'fan_avg' is their mean")])


def test_every_mode(variance_scaling):
    """normal with fan_out and fan_avg: n is fan_out, then (fan_in + fan_out) / 2"""
    _expect_law(variance_scaling, 4, 120, 500, 1.0, "fan_out", "normal")
    _expect_law(variance_scaling, 5, 120, 500, 1.0, "fan_avg", "normal")


def test_truncated_normal_fan_in(variance_scaling):
    """truncated_normal, fan_in (he_normal's setting, scale 2): the draws follow the law asked for"""
    _expect_law(variance_scaling, 6, 120, 500, 2.0, "fan_in", "truncated_normal")


def test_seed_decides(variance_scaling):
    """For each distribution, the same seed gives the same matrix, 20 seeds 20 different ones"""
    for distribution in ("normal", "uniform", "truncated_normal"):
        expect_seeded(variance_scaling, 3, 4, 1.0, "fan_avg", distribution,
                      what=f"variance_scaling(seed, 3, 4, 1.0, 'fan_avg', {distribution!r})")


def test_sizes_cast_with_int(variance_scaling):
    """fan_in and fan_out may be floats or numpy integers: they are cast with int()"""
    call(variance_scaling, 0, 3.0, np.int64(5), 1.0, "fan_in", "uniform", shape=(15,),
         what="variance_scaling(0, 3.0, np.int64(5), 1.0, 'fan_in', 'uniform')")
