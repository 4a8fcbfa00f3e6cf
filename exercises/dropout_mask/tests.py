"""Hidden tests for dropout_mask(seed, n, p).

No test assumes a particular sequence of draws: they check the values, the counts (exact binomial tails,
each check failing a correct solution with probability below 1e-11, so below 1e-10 for all of them) and
that the seed, and only the seed, decides the mask.
"""

import math

import numpy as np

from grader.core.checks import fail
from grader.core.testkit import binomial_range, call, expect_frequencies, expect_seeded, num

FALSE_FAILURE = 1e-11  # per statistical check; this file has 3 of them


def _mask(dropout_mask, seed, n, p):
    def hint(shape):
        return "return one entry per activation, a 1-D array of shape (n,)" if len(shape) != 1 else ""
    return call(dropout_mask, seed, n, p, shape=(int(n),), shape_hint=hint,
                what=f"dropout_mask({seed}, {n}, {p})")


def _value_hint(value, p):
    for wrong, words in [(1.0, "looks like the kept entries were not divided by 1 - p: inverted dropout keeps "
                               "them as 1 / (1 - p), so that the mask has mean 1"),
                         (1.0 - p, "looks like the kept entries were multiplied by 1 - p instead of divided"),
                         (1.0 / p, "looks like the kept entries were divided by p instead of 1 - p")]:
        if abs(value - wrong) <= 1e-12 * abs(wrong):
            return f" ({words})"
    return ""


def test_shape_and_dtype(dropout_mask):
    """Returns a float64 array of shape (n,)"""
    _mask(dropout_mask, 0, 10, 0.5)
    _mask(dropout_mask, 1, 1, 0.5)


def test_values(dropout_mask):
    """Every entry is 0 or 1 / (1 - p)"""
    for p in (0.25, 0.6):
        got, _, what = _mask(dropout_mask, 4, 1000, p)
        kept = got[got != 0.0]
        scale = 1.0 / (1.0 - p)
        wrong = kept[np.abs(kept - scale) > 1e-12 * scale]
        if wrong.size:
            fail(f"{what}: a kept entry should be 1 / (1 - p) = {num(scale)}, got {num(float(wrong[0]))}"
                 f"{_value_hint(float(wrong[0]), p)}")


def test_p_zero_keeps_everything(dropout_mask):
    """p = 0 keeps every entry, as 1.0"""
    got, _, what = _mask(dropout_mask, 7, 50, 0.0)
    if not np.array_equal(got, np.ones(50)):
        fail(f"{what}: with p = 0 every entry should be 1.0, got {int((got != 1.0).sum())} other entries")


def test_kept_fraction(dropout_mask):
    """About a fraction 1 - p is kept, for p = 0.3 and p = 0.75 (4000 entries each)"""
    n = 4000
    for seed, p in ((11, 0.3), (12, 0.75)):
        got, _, what = _mask(dropout_mask, seed, n, p)
        kept = int((got != 0.0).sum())
        # Exact binomial tails: a correct solution lands outside with probability below 1e-11.
        low, high = binomial_range(n, 1 - p, FALSE_FAILURE)
        if not low <= kept <= high:
            swapped = binomial_range(n, p, FALSE_FAILURE)
            hint = (" (looks like p was used as the probability of keeping an entry; it is the probability of "
                    "dropping one)") if swapped[0] <= kept <= swapped[1] else ""
            fail(f"{what} kept {kept} of {n} entries ({kept / n:.3f}); for 1 - p = {1 - p:g} a correct solution "
                 f"keeps between {low} and {high} (it lands outside with probability below {FALSE_FAILURE:g}){hint}")


def test_entries_are_independent(dropout_mask):
    """Over 100 seeds, the number kept of n = 10 follows Binomial(10, 1 - p)"""
    n, p, seeds = 10, 0.5, range(100, 200)
    counts = [0] * (n + 1)
    for seed in seeds:
        got, _, _ = _mask(dropout_mask, seed, n, p)
        counts[int((got != 0.0).sum())] += 1
    pmf = [math.comb(n, k) * (1 - p) ** k * p ** (n - k) for k in range(n + 1)]
    if max(counts) == len(seeds):
        fail(f"dropout_mask(seed, {n}, {p}) kept {counts.index(len(seeds))} entries for every one of {len(seeds)} "
             f"seeds (looks like exactly round(p * n) entries were dropped: each entry should be dropped "
             f"independently, so the number kept varies from seed to seed)")
    # Each of the 11 counts within its exact binomial range at 1e-11 / 11: below 1e-11 in all.
    expect_frequencies(counts, pmf, false_failure=FALSE_FAILURE, label="the number kept",
                       what=f"dropout_mask(seed, {n}, {p}) over {len(seeds)} seeds")


def test_seed_decides(dropout_mask):
    """The same seed gives the same mask, 20 seeds give 20 different masks"""
    expect_seeded(dropout_mask, 64, 0.5, what="dropout_mask(seed, 64, 0.5)")


def test_sizes_cast_with_int(dropout_mask):
    """n may be a float or a numpy integer: it is cast with int()"""
    _mask(dropout_mask, 0, 12.0, 0.5)
    _mask(dropout_mask, 0, np.int64(9), 0.5)
