"""Failures grouped by mistake, each student once per mistake whatever the tests that found it.

A failure whose message names a classic mistake (grader.core.testkit.diagnose's "(looks like ...)") is that
mistake, word for word: "the new ids start at 255" and "... at 257" are two mistakes, and a student whose
Shape and Values tests both say "looks like the softmax ran over the wrong axis" is one row, of both tests.
Any other failure is its message, and messages that differ only in their numbers are one group:

"output[0, 1]: expected 0.5, got 0.7 (3 of 12 entries differ)" and "output[2, 0]: expected 0.2, got 0.9
(1 of 12 entries differ)" are one diagnosis, shown as "output[‹index›]: expected ‹n›, got ‹n› (‹n› of ‹n›
entries differ)"; shapes become ‹shape›, an input's dtype "(float32)" (‹dtype›), and runs of numbers
(an array printed) ‹numbers›.
"""

import dataclasses
import re

# A number; "1." (numpy's float) only inside an array, so that a sentence's full stop stays.
NUMBER = r"[-+]?(?:\d+\.(?=[\s,]*[-+]?\d|\])|(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?)"
ALONE_BEFORE, ALONE_AFTER = r"(?<![\w.])", r"(?!\w|\.\d)"  # not part of a word (float32) or of a longer number
# Each pattern, in order, on the text the previous ones left.
PLACEHOLDERS = (
    (re.compile(r"\((?:float|u?int|complex)\d+\)"), "(‹dtype›)"),                # (float32): the input's dtype
    (re.compile(r"\((?:\s*\d+\s*,)+\s*(?:\d+\s*)?\)|\(\s*\)"), "‹shape›"),    # (4, 8), (4,), ()
    (re.compile(r"\[\s*\d+(?:\s*,\s*\d+)*\s*\]"), "[‹index›]"),                 # [0, 1]
    (re.compile(rf"{ALONE_BEFORE}{NUMBER}(?:[\s,]+{NUMBER})+{ALONE_AFTER}"), "‹numbers›"),
    (re.compile(rf"{ALONE_BEFORE}{NUMBER}{ALONE_AFTER}"), "‹n›"),
)


# How grader.core.testkit.diagnose names a mistake in a message
HINTS = ("(looks like ", "(these inputs match more than one classic mistake: ")


@dataclasses.dataclass
class Diagnosis:
    text: str          # the mistake named (hint), else the message with its numbers as placeholders, in full
    hint: bool         # whether `text` is a mistake a test named, which every student of the group got
    example: str       # one student's message, in full
    tests: list        # the tests it was given for, in order
    students: list     # who got it, in order, each once


def hint_of(message):
    """The classic mistake `message` names, without its brackets ("looks like ..."), or None."""
    for start in HINTS:
        at = message.find(start)
        if at < 0:
            continue
        depth = 0
        for index in range(at, len(message)):
            depth += {"(": 1, ")": -1}.get(message[index], 0)
            if depth == 0:
                return message[at + 1:index]
        return message[at + 1:]  # cut short (a message has a size limit)
    return None


def normalised(message):
    for pattern, placeholder in PLACEHOLDERS:
        message = pattern.sub(placeholder, message)
    return message.strip()


def diagnoses(exercise_id, students):
    """[Diagnosis] of the failures of `exercise_id` in the students' records, the most frequent first.
    A record that could not be loaded is one failure (its error), not one per test; a missing file none."""
    groups = {}

    def add(message, test, student):
        hint = hint_of(message)
        text = hint if hint is not None else normalised(message)
        group = groups.setdefault((hint is not None, text), Diagnosis(text, hint is not None, message.strip(), [], []))
        if test not in group.tests:
            group.tests.append(test)
        if student not in group.students:
            group.students.append(student)

    for student in students:
        record = student.records[exercise_id]
        if "missing" in record:
            continue
        if record["error"]:
            add(f"Could not be loaded: {record['error']}", None, student.shown_name)
            continue
        for test in record["tests"]:
            if test["status"] != "passed":
                add(test["message"] or test["status"], test["name"], student.shown_name)
    return sorted(groups.values(), key=lambda group: (-len(group.students), not group.hint, group.text))
