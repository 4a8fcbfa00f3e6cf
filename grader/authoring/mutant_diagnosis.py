"""The diagnosis a mutant expects: `# expect: <words>` in its leading comment, checked by `validate`.

A mutant models one mistake; when the tests name that mistake ("looks like the unbiased variance"),
the mutant may say so:

    # Divides by C - 1 (the unbiased variance).
    # expect: looks like the unbiased variance

and `validate` fails unless the first test that catches the mutant says these words (case and spacing
aside), so a diagnosis that goes wrong, or silent, is noticed.
"""

import re

EXPECT = re.compile(r"#[ \t]*expect:[ \t]*(.*?)[ \t]*$", re.IGNORECASE)
SHOWN_MESSAGE = 400  # characters of the test's message quoted in a problem


def declared_diagnosis(source):
    """(line number, words) of the `# expect:` line among the mutant's leading comment lines, or None."""
    for number, line in enumerate(source.splitlines(), start=1):
        stripped = line.strip()
        if not stripped.startswith("#"):
            return None
        match = EXPECT.fullmatch(stripped)
        if match:
            return number, match.group(1)
    return None


def diagnosis_problem(words, tests):
    """What is wrong when no test that fails in `tests` ([(name, status, message), ...]) says `words`, or None
    when one does. Any of them, not only the first: which test catches a mutant first may depend on chance
    (e.g. a mutant drawing from numpy's global random state), and the learner sees every failing test."""
    if not words:
        return "'# expect:' names no words: write the words of the diagnosis the tests should give"
    caught = [(name, status, message) for name, status, message in tests if status != "passed"]
    if not caught:
        return None  # a survivor is reported as such
    if any(_plain(words) in _plain(message) for _, _, message in caught):
        return None
    name, status, message = caught[0]
    shown = message if len(message) <= SHOWN_MESSAGE else message[:SHOWN_MESSAGE] + "..."
    return (f"expects the diagnosis {words!r}, but no test that catches it says so; the first, {name!r} "
            f"({status}), says: {shown}")


def _plain(text):
    return " ".join(text.lower().split())
