"""What an instructor gets from a batch's records, each written atomically into one folder:

    gradebook.csv          one row per student: name, id, email, login, total, per-exercise scores, feedback
    canvas_import.csv      the totals as Canvas's gradebook import reads them (grader/instructor/outputs/lms.py)
    moodle_import.csv      the totals as Moodle's CSV grade import reads them
    not_imported.csv       the hand-ins those two leave out (not on the roster), and why
    feedback/<student>.md  each test's name, verdict and message, for the student
    feedback/<student>.html     the same as one self-contained web page
    feedback_moodle.zip    those pages as Moodle's feedback-files upload takes them
    gradescope/<student>.json   Gradescope's autograder results.json for that student
    junit.xml              one testsuite per student and exercise
    report.html            the class at a glance: who handed in nothing, distribution, per-exercise and per-test
                           pass rates over the gradable hand-ins, failures by mistake, students by score and
                           where each is stuck, late work per student, overrides, similar groups and pairs
    summary.txt            the end-of-run summary the command line prints

Every file is made from the results records alone (see grader/instructor/batch.py), so
`python -m grader report` can make them again at any time.
"""

from grader.instructor.outputs import feedback, feedback_html, feedback_zip, gradebook, gradescope, html_report, junit, lms
from grader.instructor.outputs.atomic import write_atomically
from grader.instructor.outputs.classbook import Plan, class_results

__all__ = ["Plan", "class_results", "write_outputs"]


def write_outputs(records, plan, folder, summary, similarity=None):
    """Write every output for `records` (graded against `plan`) into `folder`; return the paths written.
    `similarity`: the data of a similarity.json (grader/instructor/outputs/similarity_file.py) for report.html, or None."""
    students = class_results(records, plan)
    written = [
        write_atomically(folder / "gradebook.csv", gradebook.render(students, plan)),
        write_atomically(folder / "canvas_import.csv", lms.canvas(students, plan)),
        write_atomically(folder / "moodle_import.csv", lms.moodle(students, plan)),
        write_atomically(folder / "not_imported.csv", lms.not_imported(students, plan)),
        write_atomically(folder / "feedback_moodle.zip", feedback_zip.moodle(students, plan)),
        write_atomically(folder / "junit.xml", junit.render(students, plan)),
        write_atomically(folder / "report.html", html_report.render(students, plan, similarity)),
        write_atomically(folder / "summary.txt", summary + "\n"),
    ]
    for student in students:
        name = student.file_stem
        written.append(write_atomically(folder / "feedback" / f"{name}.md", feedback.render(student, plan)))
        written.append(write_atomically(folder / "feedback" / f"{name}.html", feedback_html.render(student, plan)))
        written.append(write_atomically(folder / "gradescope" / f"{name}.json",
                                        gradescope.render(student, plan)))
    return written
