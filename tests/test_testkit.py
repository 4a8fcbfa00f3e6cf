"""grader.core.testkit, the helpers hidden tests share: messages, diagnoses, gradients and statistics."""

import math

import numpy as np
import pytest

from grader.core import testkit
from grader.core.checks import Failed, expect_close, precision_of
from grader.core.testkit import (Diagnosis, align_rows, as_dict, as_float, as_int, as_int_list, binomial_range,
                                 bounded_moments_range, call, call_flat, call_many, compare, compare_up_to_order,
                                 compare_up_to_sign, diagnose, expect_count, expect_distribution, expect_frequencies,
                                 expect_gradient, expect_moments, expect_same_partition, expect_seeded,
                                 expect_value_error, expected_got, items, ks_distance, ks_threshold, normal_cdf,
                                 normal_moments_range, num, num_pair, numeric_gradient, python_ints,
                                 truncated_normal_cdf, truncated_normal_moments, uniform_cdf)


def failure(function, *args, **kwargs):
    with pytest.raises(Failed) as caught:
        function(*args, **kwargs)
    return str(caught.value)


# ---- numbers ----------------------------------------------------------------------------------------

def test_a_pair_shows_the_digits_that_differ():
    float32_half = float(np.float32(-0.49999994))
    assert num_pair(-0.5, float32_half) == ("-0.5", "-0.49999994")
    assert expected_got(-0.5, float32_half) == "expected -0.5, got -0.49999994"
    assert num_pair(0.25, 0.75) == ("0.25", "0.75")          # six digits tell them apart: kept short
    assert num_pair(2.0, 2.0) == ("2", "2")
    assert num_pair(float("nan"), 1.0) == ("nan", "1")
    assert num(3.0) == "3" and num(1 / 3) == "0.333333" and num(float("-inf")) == "-inf"


def test_expect_close_shows_the_digits_that_differ():
    message = failure(expect_close, np.array([1.0, float(np.float32(-0.49999994))]), [1.0, -0.5], atol=1e-9,
                      what="f(x)")
    assert message == "f(x)[1]: expected -0.5, got -0.49999994 (1 of 2 entries differ)"


# ---- calling the learner's function ----------------------------------------------------------------

def double(x):
    return 2 * x


def test_call_returns_a_checked_copy():
    x = np.arange(3.0)
    got, precision, what = call(double, x, shape=(3,))
    assert got.tolist() == [0.0, 2.0, 4.0] and got.dtype == np.float64
    assert precision.dtype == np.float64 and what == "double(...)"


@pytest.mark.parametrize("function, message", [
    (lambda x: None, "f(x): expected an array of shape (3,), got None (did you forget to return the result?)"),
    (lambda x: x.tolist(), "f(x) should be a numpy.ndarray, got list (wrap it with np.array(...))"),
    (lambda x: x.astype(np.float32), "f(x) is float32 but the inputs are float64: compute and return float64"),
    (lambda x: x[:, None], "f(x): expected shape (3,), got (3, 1) (a column: return a 1-D array)"),
    (lambda x: x[:2], "f(x): expected shape (3,), got (2,)"),
])
def test_call_names_what_is_wrong(function, message):
    hint = {(3, 1): "a column: return a 1-D array"}.get
    assert failure(call, function, np.arange(3.0), what="f(x)", shape=(3,), shape_hint=hint) == message


def test_call_many_checks_each_result_by_name():
    x = np.ones((2, 3))
    values, _, _ = call_many(lambda x: (x * 2, x.sum(axis=0)), x, names=("y", "s"), shapes=[(2, 3), (3,)])
    assert [v.shape for v in values] == [(2, 3), (3,)]
    assert failure(call_many, lambda x: x, x, names=("y", "s"), what="g(x)") == \
        "g(x): expected a tuple of 2 values (y, s), got ndarray"
    message = failure(call_many, lambda x: (x, x), x, names=("y", "s"), shapes=[(2, 3), (3,)], what="g(x)",
                      shape_hint=lambda name, shape: f"{name} was not summed" if shape == (2, 3) else "")
    assert message == "s of g(x): expected shape (3,), got (2, 3) (s was not summed)"


def test_other_results_are_type_checked_with_hints():
    assert items([1, 2], "r", names=("a", "b")) == (1, 2)
    assert failure(items, (1, 2, 3), "r", names=("a", "b")) == "r: expected a tuple of 2 values (a, b), got 3 value(s)"
    assert as_dict({"a": 1, "b": 2}, ("a", "b"), "grads") == {"a": 1, "b": 2}
    assert failure(as_dict, {"a": 1, "c": 3}, ("a", "b"), "grads") == \
        "grads should have exactly the keys 'a', 'b'; missing 'b'; unexpected 'c'"
    assert as_dict({"a": 1, "c": 3}, ("a",), "opt", others=True) == {"a": 1}
    precision = precision_of(np.ones(2))
    assert as_float(np.float64(0.5), precision, "loss") == 0.5 and as_float(np.array(0.25), precision, "loss") == 0.25
    assert failure(as_float, 2, precision, "loss") == \
        "loss should be a floating-point number, got int (return a float: float(...) converts it)"
    assert failure(as_float, np.ones(3), precision, "loss", shape_hint=lambda shape: "per position?") == \
        "loss should be a single number (a float or a 0-d array), got an array of shape (3,) (per position?)"
    assert as_int(np.int64(4), "token") == 4
    assert failure(as_int, True, "token") == "token should be an id (an int), got a bool"
    assert as_int_list([1, 2], "ids") == [1, 2]
    assert failure(as_int_list, np.array([1, 2]), "ids") == \
        "ids should be a Python list of ints, got ndarray (a numpy array: return a Python list, e.g. with .tolist())"
    assert failure(as_int_list, [1, np.int64(2)], "ids").startswith("ids[1] should be a Python int, got int64")
    assert failure(as_int_list, [1, "b"], "ids", item_hint=lambda item: "the character itself") == \
        "ids[1] should be a Python int, got str (the character itself)"


def test_numpy_integers_where_python_ints_are_asked_say_whether_the_values_are_right():
    merges = [(104, np.int64(101)), (np.int32(256), 108)]
    assert failure(python_ints, merges, "bpe_train('hello', 2)", expected=[(104, 101), (256, 108)]) == \
        ("bpe_train('hello', 2): the values are right, but they are numpy.int64, not int (the first at item "
         "[0][1]): convert with int(), or .tolist() for a whole array")
    assert failure(python_ints, merges, "bpe_train('hello', 2)", expected=lambda: [(104, 101), (256, 109)]) == \
        ("bpe_train('hello', 2): item [0][1] is a numpy.int64, not an int (convert with int(), or .tolist() for a "
         "whole array), and the values are not right either")
    assert "the values are right" in failure(python_ints, [[np.int64(1), 2]], "r", expected=[(1, 2)])
    assert python_ints([(1, 2)], "r", expected=[(3, 4)]) is None  # plain ints: the caller compares the values
    assert "the values are right" in failure(python_ints, {"ids": [np.uint8(7)]}, "r", expected={"ids": [7]})
    assert failure(as_int_list, [np.int64(5), np.int64(6)], "ids", expected=[5, 6]).startswith(
        "ids: the values are right, but they are numpy.int64")


def test_a_result_of_none_asks_whether_return_was_forgotten():
    precision = precision_of(np.ones(2))
    forgot = "got None (did you forget `return`?)"
    assert failure(as_float, None, precision, "loss") == f"loss should be a floating-point number, {forgot}"
    assert failure(as_int, None, "token") == f"token should be an id (an int), {forgot}"
    assert failure(as_int_list, None, "ids") == f"ids should be a Python list of ints, {forgot}"
    assert failure(items, None, "f(x)") == f"f(x): expected a tuple, {forgot}"


# ---- naming the mistake ----------------------------------------------------------------------------

def test_diagnose_names_the_mistake_the_result_matches():
    correct, got = np.array([1.0, 2.0]), np.array([2.0, 4.0])
    mistakes = [(np.array([1.0, 2.0]), "gives the right answer here"),
                (lambda: 1 / 0, "cannot be computed"),
                (np.zeros(3), "another shape"),
                (lambda: correct * 2, "doubled"),
                (correct * 2 + 1e-9, "doubled, nearly")]
    assert diagnose(got, mistakes, correct=correct) == " (doubled)"
    assert diagnose(got, mistakes, correct=correct, pick="closest") == " (doubled)"
    assert diagnose(got, mistakes, correct=correct, pick="unique") == ""     # two different hints match
    assert diagnose(got, mistakes, correct=correct, pick="all") == \
        " (these inputs match more than one classic mistake: doubled; or doubled, nearly)"
    assert diagnose(got + 1, mistakes, correct=correct) == ""
    assert diagnose(got, lambda: 1 / 0) == ""                           # a guess never breaks the test


def test_diagnose_compares_structured_results_with_agree():
    def agree(a, b):
        return a[0] == b[0] and np.allclose(a[1], b[1])
    mistakes = [((1.0, np.zeros(2)), "zero gradient"), ((2.0, np.ones(2)), "doubled loss")]
    assert diagnose((2.0, np.ones(2)), mistakes, agree=agree) == " (doubled loss)"


def test_a_diagnosis_binds_the_mistakes_of_an_exercise():
    calls = []

    def mistakes(x, scale):
        calls.append(scale)
        return [(x * scale, f"scaled by {scale}")]
    diagnosis = Diagnosis(mistakes, correct=lambda x, scale: x, atol=1e-3)
    assert calls == []                                                  # nothing computed before it is asked
    assert diagnosis(np.array([3.0]), np.array([1.0]), 3) == " (scaled by 3)"
    assert diagnosis(np.array([3.1]), np.array([1.0]), 3, atol=0.2) == " (scaled by 3)"
    assert diagnosis(np.array([1.0]), np.array([1.0]), 1) == ""          # the mistake is right here: not named


def test_compare_fails_at_the_worst_entry_with_the_diagnosis():
    expected = np.array([[1.0, 2.0], [3.0, 4.0]])
    compare(expected + 1e-10, expected, atol=1e-9)                      # within the tolerance
    with pytest.raises(Failed) as caught:
        compare(expected.T.copy(), expected, atol=1e-9, what="f(x)", mistakes=lambda: [(expected.T, "looks transposed")])
    assert str(caught.value) == "f(x), entry [0, 1]: expected 2, got 3 (2 of 4 entries differ) (looks transposed)"
    assert caught.value.got is not None and caught.value.expected is not None
    assert "entry [1, 1]: expected 4, got nan (1 of 4 entries differ)" in \
        failure(compare, np.array([[1.0, 2.0], [3.0, np.nan]]), expected, atol=1e-9)



def test_distinct_rows_name_the_two_closest():
    table = np.array([[0.0, 1.0], [0.5, 0.5], [0.0, 1.001], [1.0, 0.0]])
    testkit.expect_distinct_rows(table, min_distance=0.0005, what="PE")             # rows 0 and 2 are 0.001 apart
    with pytest.raises(Failed) as caught:
        testkit.expect_distinct_rows(table, min_distance=0.01, what="PE", row_name=lambda t: f"t={t}")
    assert str(caught.value) == ("PE: t=0 and t=2 are almost the same, expected rows at least 0.01 apart, "
                                 "got distance 0.001")
    same = failure(testkit.expect_distinct_rows, np.ones((3, 2)), min_distance=0.01, what="PE")
    assert same.endswith("got distance 0 (every row is the same)")


# ---- gradients ---------------------------------------------------------------------------------------

def test_central_differences():
    x = np.array([[1.0, -2.0], [0.5, 3.0]])
    assert np.allclose(numeric_gradient(lambda a: float((a ** 3).sum()), x), 3 * x ** 2, atol=1e-6)
    expect_gradient(3 * x ** 2, lambda a: float((a ** 3).sum()), x, atol=1e-6)
    message = failure(expect_gradient, x ** 2, lambda a: float((a ** 3).sum()), x, atol=1e-6, what="dx",
                      mistakes=[(x ** 2, "looks like the factor 3 is missing")])
    assert message.startswith("dx, entry [0, 0]: the loss changes at rate 3 when that entry moves "
                              "(central difference, h = 1e-05), but the gradient says 1")
    assert message.endswith("(looks like the factor 3 is missing)")


# ---- random results ----------------------------------------------------------------------------------

def test_binomial_range_holds_its_false_failure_probability():
    n, p, false_failure = 60, 0.3, 0.01
    low, high = binomial_range(n, p, false_failure)
    pmf = [math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)]
    assert sum(pmf[:low]) <= false_failure / 2 and sum(pmf[high + 1:]) <= false_failure / 2
    assert sum(pmf[:low + 1]) > false_failure / 2 and sum(pmf[high:]) > false_failure / 2   # as tight as can be
    assert binomial_range(10, 0.0) == (0, 0) and binomial_range(10, 1.0) == (10, 10)


def test_frequencies_that_do_not_fit_fail_with_the_counts():
    expect_frequencies([60, 60, 120], [0.25, 0.25, 0.5])
    message = failure(expect_frequencies, [100, 100, 40], [0.3, 0.3, 0.4], what="sample(x)", label="token")
    assert message.startswith("sample(x): token 2 came 40 times in 240 draws (0.167), expected between ")
    assert "p = [0.3, 0.3, 0.4], counts = [100, 100, 40]; a correct solution fails this check with probability " \
           "below 1e-06" in message
    assert "its probability is 0" in failure(expect_frequencies, [5, 1], [1.0, 0.0])
    expect_count(50, 100, 0.5)
    assert failure(expect_count, 90, 100, 0.5, what="kept entries").startswith(
        "kept entries: 90 of 100 (0.900), expected between ")


def test_exact_cdfs():
    assert normal_cdf(np.array([0.0, 1.959963984540054, -1.959963984540054])) == pytest.approx([0.5, 0.975, 0.025])
    assert float(normal_cdf(-10.0)) == pytest.approx(7.619853024160527e-24, rel=1e-12)   # erfc keeps the far tail
    assert normal_cdf(np.array([3.0]), mean=1.0, std=2.0) == pytest.approx(normal_cdf(np.array([1.0])))
    assert uniform_cdf(np.array([-2.0, 0.0, 0.5, 2.0]), -1.0, 1.0).tolist() == [0.0, 0.5, 0.75, 1.0]
    assert truncated_normal_cdf(np.array([-3.0, -2.0, 0.0, 2.0, 3.0]), -2.0, 2.0).tolist() == \
        pytest.approx([0.0, 0.0, 0.5, 1.0, 1.0])
    mean, variance = truncated_normal_moments(-2.0, 2.0)
    assert mean == pytest.approx(0.0, abs=1e-15) and math.sqrt(variance) == pytest.approx(0.87962566103423978)
    draws = np.random.default_rng(0).standard_normal(400_000)
    inside = draws[(draws >= 0.5) & (draws <= 2.5)]
    mean, variance = truncated_normal_moments(0.5, 2.5)
    assert inside.mean() == pytest.approx(mean, abs=0.005) and inside.var() == pytest.approx(variance, abs=0.005)


def test_ks_distance_is_the_largest_gap_of_the_empirical_cdf():
    samples = np.array([0.9, 0.1, 0.5, 0.45])
    grid = np.linspace(-0.5, 1.5, 20001)
    steps = (samples[None, :] <= grid[:, None]).mean(axis=1)
    below = (samples[None, :] < grid[:, None]).mean(axis=1)
    brute = max(np.abs(steps - uniform_cdf(grid, 0, 1)).max(), np.abs(below - uniform_cdf(grid, 0, 1)).max())
    distance, x, fraction, expected = ks_distance(samples, lambda v: uniform_cdf(v, 0, 1))
    assert distance == pytest.approx(brute, abs=1e-4) and (x, fraction, expected) == (0.5, 0.75, 0.5)


@pytest.mark.parametrize("law", ["normal", "uniform"])
def test_the_statistical_checks_fail_a_correct_sample_no_more_often_than_stated(law):
    # At a false-failure probability of 5 %, 2000 samples of 40 correct draws each fail at most about 5 % of the
    # time (the bounds are conservative: far fewer fail); at 1e-6, none does.
    rng = np.random.default_rng(1)
    n, trials = 40, 2000
    if law == "normal":
        cdf, ranges = (lambda x: normal_cdf(x, 0.0, 2.0)), (lambda a: normal_moments_range(n, 0.0, 2.0, a))
        samples = rng.normal(0.0, 2.0, (trials, n))
    else:
        cdf, ranges = (lambda x: uniform_cdf(x, -1.0, 1.0)), (lambda a: bounded_moments_range(n, 0.0, 1 / 3, -1, 1, a))
        samples = rng.uniform(-1.0, 1.0, (trials, n))
    for false_failure, most in ((0.05, 0.05 * trials + 3 * math.sqrt(0.05 * trials)), (1e-6, 0)):
        ks_failures = sum(ks_distance(sample, cdf)[0] > ks_threshold(n, false_failure) for sample in samples)
        (low_mean, high_mean), (low_var, high_var) = ranges(false_failure)
        moment_failures = sum(not (low_mean <= sample.mean() <= high_mean and low_var <= np.mean(sample ** 2) <= high_var)
                              for sample in samples)
        assert ks_failures <= most and moment_failures <= most


def test_a_wrong_distribution_fails_with_the_closest_mistake():
    draws = np.random.default_rng(2).normal(0.0, 1.3, 20000)
    expect_distribution(draws, lambda x: normal_cdf(x, 0.0, 1.3), law="N(0, 1.3²)", false_failure=1e-11)
    message = failure(expect_distribution, draws, lambda x: normal_cdf(x, 0.0, 1.0), law="N(0, 1)",
                      false_failure=1e-11, what="the draws of f(0)",
                      mistakes=[(lambda x: normal_cdf(x, 0.0, 1.25), "std 1.25"),
                                (lambda x: normal_cdf(x, 0.0, 1.3), "std 1.3"),
                                (lambda x: uniform_cdf(x, -2, 2), "uniform")])
    assert message.startswith("the draws of f(0) do not follow N(0, 1): a fraction ")
    assert "more than the 0.0255 a correct solution exceeds with probability below 1e-11) (std 1.3)" in message
    message = failure(expect_moments, draws, normal_moments_range(draws.size, 0.0, 1.0, 1e-11), law="N(0, 1)",
                      mean=0.0, variance=1.0, false_failure=1e-11, what="the draws",
                      mistakes=[(1.69, "std 1.3"), (4.0, "std 2")])
    assert message.startswith("the draws: their variance is 1.6") and message.endswith("(std 1.3)")
    shifted = failure(expect_moments, draws + 1.0, normal_moments_range(draws.size, 0.0, 1.3, 1e-11), law="N(0, 1.69)",
                      mean=0.0, variance=1.69)
    assert "their mean is 1.0" in shifted and "but N(0, 1.69) has mean 0" in shifted


def test_expect_seeded_wants_the_seed_and_only_the_seed():
    def seeded(seed, n):
        return np.random.default_rng(seed).random(int(n))

    def global_state(seed, n):
        return np.random.random(int(n))

    def seed_ignored(seed, n):
        return np.random.default_rng(0).random(int(n))

    expect_seeded(seeded, 5, what="f(seed, 5)")
    assert "gave two different results for the same seed 0" in failure(expect_seeded, global_state, 5, what="f(seed, 5)")
    assert failure(expect_seeded, seed_ignored, 5, what="f(seed, 5)") == \
        "f(seed, 5) gave the same result for seeds 0 and 1: the seed should change the draws (np.random.default_rng(seed))"


def test_expect_value_error_wants_the_value_named():
    def checked(mode):
        if mode != "fan_in":
            raise ValueError(f"unknown mode {mode!r}")

    def vague(mode):
        raise ValueError("bad mode")

    expect_value_error(checked, "fan_sum", naming="fan_sum", what="f('fan_sum')")
    assert "its message should name the invalid value 'fan_sum'" in failure(expect_value_error, vague, "fan_sum",
                                                                            naming="fan_sum", what="f('fan_sum')")
    assert failure(expect_value_error, lambda mode: None, "x", naming="x", what="f('x')") == \
        "f('x') should raise ValueError naming 'x', but it returned without an error"


def test_call_flat_wants_the_natural_shape_flattened():
    assert call_flat(lambda seed, r, c: np.zeros((r, c)).reshape(-1), 0, 2, 3, shape=(2, 3)).value.shape == (6,)
    for natural in ((2, 3), (3, 2)):
        assert failure(call_flat, lambda seed, r, c: np.zeros(natural), 0, 2, 3, shape=(2, 3), what="f(0, 2, 3)") == \
            (f"f(0, 2, 3): expected shape (6,), got {natural} (that is the {natural[0]} x {natural[1]} array itself: "
             f"return it flattened, .reshape(-1))")
    assert failure(call_flat, lambda seed, r, c: np.zeros(5), 0, 2, 3, shape=(2, 3), what="f(0, 2, 3)") == \
        "f(0, 2, 3): expected shape (6,), got (5,)"


# ---- up to a symmetry ---------------------------------------------------------------------------------

def _components():
    """Three orthonormal directions as columns (PCA's, say), and the same with two signs flipped."""
    q, _ = np.linalg.qr(np.random.default_rng(3).normal(size=(5, 3)))
    return q, q * np.array([1.0, -1.0, -1.0])


def test_columns_may_come_with_either_sign():
    expected, flipped = _components()
    compare_up_to_sign(flipped, expected, atol=1e-9)
    compare_up_to_sign(flipped.T, expected.T, atol=1e-9, along="rows")
    compare_up_to_sign(-expected[:, 0], expected[:, 0], atol=1e-9)  # one vector
    assert failure(compare_up_to_sign, flipped.T, expected.T, atol=1e-9).startswith(
        "your function's result (up to the sign of each column), entry [")


def test_a_mistake_is_named_whatever_its_signs():
    expected, flipped = _components()
    unnormalised = expected * np.array([2.0, 3.0, 4.0])
    got = unnormalised * np.array([-1.0, 1.0, -1.0])
    message = failure(compare_up_to_sign, got, expected, atol=1e-9, what="pca(x)",
                      mistakes=lambda: [(lambda: -unnormalised, "scaled by the singular values: divide by them")])
    assert message.startswith("pca(x) (up to the sign of each column), entry [")
    assert message.endswith("(15 of 15 entries differ) (scaled by the singular values: divide by them)")


def test_rows_may_come_in_any_order():
    centroids = np.array([[0.0, 0.0], [5.0, 5.0], [0.0, 5.0]])
    compare_up_to_order(centroids[[2, 0, 1]], centroids, atol=1e-9)
    assert align_rows(centroids[[1, 2, 0]], centroids).tolist() == centroids.tolist()
    message = failure(compare_up_to_order, centroids[[2, 0, 1]] + [[0.0, 0.0], [0.0, 0.0], [0.0, 0.5]], centroids,
                      atol=1e-6, what="kmeans(x)")
    assert message == "kmeans(x) (rows in any order), entry [1, 1]: expected 5, got 5.5 (1 of 6 entries differ)"


def test_cluster_labels_are_compared_up_to_renaming():
    assert expect_same_partition(np.array([2, 2, 0, 1]), [0, 0, 1, 2]) == {2: 0, 0: 1, 1: 2}
    assert failure(expect_same_partition, [1, 1, 1, 2], [0, 0, 2, 1], what="kmeans(x) labels") == (
        "kmeans(x) labels: points 0 and 2 are in one cluster in your labels (1), but in two in the expected ones "
        "(0 and 2); labels may be renamed, not merged")
    assert failure(expect_same_partition, [1, 0, 0, 2], [0, 0, 2, 1]) == (
        "the labels: points 0 and 1 are in one cluster in the expected labels (0), but in two in yours (1 and 0); "
        "labels may be renamed, not split")
    assert failure(expect_same_partition, [0, 1], [0, 1, 1]) == "the labels: expected 3 labels (one per point), got 2"
