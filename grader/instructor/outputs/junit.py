"""JUnit XML, as CI systems and LMS plug-ins read it: one testsuite per student and exercise.

A failed test is a <failure>, an error or a timeout an <error>; what the code printed is the
testcase's <system-out>.  Control and format characters (grader/text.py) and the others XML 1.0
cannot hold are written as escapes; ElementTree escapes the rest.
"""

import re
import xml.etree.ElementTree as ElementTree

from grader.instructor.outputs.feedback import first_line
from grader.text import printable

NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def render(students, plan):
    root = ElementTree.Element("testsuites", name=_text(plan.title))
    for student in students:
        for exercise_id in plan.weights:
            record = student.records.get(exercise_id)
            if record is not None:
                root.append(_suite(student.name, exercise_id, record))
    _count(root, root.findall("testsuite"))
    ElementTree.indent(root)
    return ElementTree.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def _suite(student, exercise_id, record):
    suite = ElementTree.Element("testsuite", name=_text(f"{student} / {exercise_id}"))
    properties = ElementTree.SubElement(suite, "properties")
    for key in ("submission", "exercise", "score", "max_score", "submission_sha256", "graded_at",
                "grader_version", "missing"):
        if record.get(key) is not None:
            ElementTree.SubElement(properties, "property", name=key, value=_text(str(record[key])))
    for test in record["tests"]:
        case = ElementTree.SubElement(suite, "testcase", name=_text(test["name"]), classname=_text(exercise_id),
                                      time=f"{test['duration_ms'] / 1000:.3f}")
        if test.get("exercise_bug"):  # not graded: the exercise's bug, not the submission's
            ElementTree.SubElement(case, "skipped", message=_text(first_line(test["message"], 500)))
        elif test["status"] != "passed":
            kind = "failure" if test["status"] == "failed" else "error"
            problem = ElementTree.SubElement(case, kind, message=_text(first_line(test["message"], 500)),
                                             type=test["status"])
            problem.text = _text(test["message"])
        if test.get("stdout"):
            ElementTree.SubElement(case, "system-out").text = _text(test["stdout"])
    _count(suite, suite.findall("testcase"))
    return suite


def _count(element, children):
    """The totals JUnit readers expect on a testsuite or testsuites element."""
    cases = [case for child in children for case in (child.iter("testcase"))]
    element.set("tests", str(len(cases)))
    element.set("failures", str(sum(case.find("failure") is not None for case in cases)))
    element.set("errors", str(sum(case.find("error") is not None for case in cases)))
    element.set("skipped", str(sum(case.find("skipped") is not None for case in cases)))
    element.set("time", f"{sum(float(case.get('time')) for case in cases):.3f}")


def _text(text):
    return NOT_XML.sub(lambda match: match.group().encode("unicode_escape").decode("ascii"), printable(text))
