"""The feedback pages in the zip Moodle's "Upload multiple feedback files in a zip" takes: a folder per
participant named as its download names it (`Full Name_id_assignsubmission_file_/feedback.html`).

A Moodle export's hand-in already has that name; any other student gets it from their name and id.
The zip is the same bytes for the same feedback (fixed entry times), so a rerun changes nothing.
"""

import io
import re
import zipfile

from grader.instructor.outputs import feedback_html

FOLDER_SUFFIX = "_assignsubmission_file_"
FILE_NAME = "feedback.html"
ENTRY_TIME = (1980, 1, 1, 0, 0, 0)


def moodle(students, plan):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for student in students:
            entry = zipfile.ZipInfo(f"{_folder(student)}/{FILE_NAME}", ENTRY_TIME)
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, feedback_html.render(student, plan))
    return buffer.getvalue()


def _folder(student):
    if student.name.endswith(FOLDER_SUFFIX):
        folder = student.name
    else:
        who = student.identity
        folder = f"{who['name']}_{who['id']}{FOLDER_SUFFIX}"
    return re.sub(r"[/\\\x00-\x1f]", "_", folder)  # one folder level, whatever a name holds
