"""Numbers in learner-facing messages: short, yet never two different numbers shown alike.

`num(x)` writes one number with 6 significant digits (an integral value as an integer).
`num_pair(expected, got)` writes two numbers with as many digits as it takes to tell them apart, so a
message never reads "expected -0.5, got -0.5" when the value was -0.49999994.
"""

import math

SHORT_DIGITS = 6
MAX_DIGITS = 17  # enough to write any float64 exactly


def num(x, digits=SHORT_DIGITS):
    """`x` (a number) with `digits` significant digits; an integral value as an integer ("3", not "3.0")."""
    x = float(x)
    if math.isfinite(x) and x == round(x) and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.{digits}g}"


def num_pair(expected, got, digits=SHORT_DIGITS):
    """(expected, got) as text with `digits` significant digits, or when these show the same text for two
    different numbers, one digit more than the fewest that tell them apart ("-0.5", "-0.49999994")."""
    expected, got = float(expected), float(got)
    pair = num(expected, digits), num(got, digits)
    if pair[0] != pair[1] or expected == got or math.isnan(expected) or math.isnan(got):
        return pair
    for precision in range(digits + 1, MAX_DIGITS + 1):
        if num(expected, precision) != num(got, precision):
            return num(expected, min(precision + 1, MAX_DIGITS)), num(got, min(precision + 1, MAX_DIGITS))
    return num(expected, MAX_DIGITS), num(got, MAX_DIGITS)


def expected_got(expected, got, digits=SHORT_DIGITS):
    """"expected E, got G", the two numbers written by `num_pair`."""
    want, have = num_pair(expected, got, digits)
    return f"expected {want}, got {have}"
