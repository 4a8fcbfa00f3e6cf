"""Failed array comparisons carry both arrays to the report (grader/core/comparison.py), in the engine and the CLI."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from grader.core.comparison import encode_array, encode_comparison
from grader.core.engine import GradingSpec, grade
from grader.exercise import load_exercise
from grader.track import reference_steps

ROOT = Path(__file__).resolve().parents[1]
TESTS = '''
import numpy as np
from grader.core.checks import as_array, expect_close, fail, precision_of

def test_close(double):
    """expect_close passes its arrays"""
    x = np.arange(6.0).reshape(2, 3)
    expect_close(as_array(double(x), precision_of(x)), x * 2)

def test_own_message(double):
    """fail() with arrays"""
    got = as_array(double(np.arange(3.0)), precision_of(np.arange(3.0)))
    fail("wrong", got=got, expected=np.arange(3.0) * 2)

def test_no_arrays(double):
    """a plain failure"""
    fail("plain")
'''


def test_large_arrays_are_downsampled_and_non_finite_values_spelled_out():
    big = np.arange(130 * 3, dtype=np.float64).reshape(130, 3)
    big[0, 1], big[0, 2] = np.nan, -np.inf
    encoded = encode_array(big)
    assert encoded["shape"] == [130, 3] and encoded["step"] == [3, 1]
    assert len(encoded["values"]) == 44 and encoded["values"][0] == [0.0, "nan", "-inf"]
    assert encoded["values"][1] == [9.0, 10.0, 11.0]  # row 3: every third row
    assert encode_array(np.linspace(0, 1, 2000))["step"] == [4]
    assert encode_array(np.float32(1 / 3) * np.ones(2))["values"] == [0.333333, 0.333333]  # 6 significant digits
    # Nothing to draw: not an array, empty, 3-D, complex.
    for value in ([1.0, 2.0], np.zeros(0), np.zeros((2, 2, 2)), np.ones(2, dtype=complex)):
        assert encode_array(value) is None
    assert encode_comparison([1.0], None) is None


def test_failed_checks_carry_their_arrays_in_the_report():
    spec = GradingSpec("ex", "double", TESTS)
    report = grade(spec, "def double(x):\n    return x + 1.0\n")
    close, own, plain = report["tests"]
    assert close["status"] == own["status"] == plain["status"] == "failed"
    assert close["comparison"]["got"] == {"shape": [2, 3], "step": [1, 1], "values": [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]}
    assert close["comparison"]["expected"]["values"] == [[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]]
    assert own["comparison"]["got"]["values"] == [1.0, 2.0, 3.0]
    assert "comparison" not in plain
    passing = grade(spec, "def double(x):\n    return 2 * x\n")["tests"][0]
    assert passing["status"] == "passed" and "comparison" not in passing
    json.dumps(report, allow_nan=False)


def test_cli_json_includes_the_pictures_data_as_ascii_without_nan(tmp_path):
    path = tmp_path / "nan_table.py"
    path.write_text((ROOT / "exercises/sinusoidal_pe/mutants/positions_from_one.py").read_text()
                    .replace("    return pe", "    pe[0, 0] = float('nan') if T == 8 else pe[0, 0]\n    return pe"))
    process = subprocess.run([sys.executable, "-m", "grader", "check", "sinusoidal_pe", str(path), "--json"],
                             cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert process.returncode == 1, process.stderr
    assert process.stdout.isascii()

    def no_constants(name):
        raise AssertionError(f"{name} in the JSON")
    report = json.loads(process.stdout, parse_constant=no_constants)
    by_name = {test["name"]: test for test in report["tests"]}
    hand_checked = by_name["Matches the explicit formula at a hand-checked entry"]["comparison"]
    assert hand_checked["got"]["shape"] == hand_checked["expected"]["shape"] == [8, 8]
    assert hand_checked["got"]["values"][0][:2] == ["nan", 0.540302]  # cos(1): positions started at 1
    assert hand_checked["expected"]["values"][0][:2] == [0.0, 1.0]
    long_table = by_name["Larger sequence length still produces a valid table (extrapolation)"]["comparison"]
    assert long_table["got"]["shape"] == [2048, 32] and long_table["got"]["step"] == [32, 1]


# Exercises whose results are real 1-D or 2-D arrays: a mutant's failure there comes with pictures.
# (alibi_bias returns heads x T x T, cross_entropy a number, generate and sample_token token ids;
# token_embedding's mutants all fail on the shape or an exception, before any values are compared.)
PICTURED = ["attention", "causal_attention", "gelu", "gpt_logits", "layer_norm", "mlp", "multi_head_attention",
            "relative_shift", "rope", "sinusoidal_pe", "softmax", "transformer_block"]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # the mutants' overflows, graded in this process
def test_each_array_exercise_draws_some_of_its_mutants_failures():
    without = []
    for exercise in (load_exercise(ROOT / "exercises" / name) for name in PICTURED):
        spec = exercise.grading_spec()
        earlier = reference_steps(exercise)          # the mutants call the earlier steps they use
        pictured = [name for name, source in exercise.mutants.items()
                    if any("comparison" in test for test in grade(spec, source, earlier=earlier)["tests"])]
        if not pictured:
            without.append(exercise.id)
    assert without == []
