"""Gradescope's "Export Submissions": a folder per submission (`submission_90000/`) and
`submission_metadata.yml` naming who handed each in, and when:

    submission_90000:
      :submitters:
      - :name: Ada Lovelace
        :sid: '10000'
        :email: ada@example.com
      :created_at: 2026-11-20 23:59:00.000000000 -08:00

A group submission gives each submitter a hand-in of the same files.  The student id is the
submitter's sid (else the email, else the folder's name).
"""

import datetime
import os

import yaml

from grader.instructor.classfolder.handin import HandIn, student
from grader.instructor.classfolder.walk import files_under
from grader.submission import SubmissionError, display, read_bytes

METADATA = "submission_metadata.yml"
MAX_METADATA_BYTES = 50_000_000
DESCRIPTION = f"Gradescope export (a folder per submission, {METADATA})"


class MetadataError(Exception):
    """submission_metadata.yml cannot be used; the message names it (and the line) and says why."""


def hand_ins(folder, entries):
    """([HandIn], [(entry, why not graded)]) of the top-level `entries` of `folder`."""
    metadata = read_metadata(os.path.join(folder, METADATA))
    found, not_graded = [], []
    for entry in entries:
        path = os.path.join(folder, entry)
        if entry == METADATA:
            continue
        if entry not in metadata:
            not_graded.append((display(entry), f"not listed in {METADATA}"))
            continue
        if not os.path.isdir(path) or os.path.islink(path):
            not_graded.append((display(entry), "not a submission's folder"))
            continue
        submitters, submitted_at = metadata[entry]
        files = files_under(path)
        for submitter in submitters:
            name = display(entry) if len(submitters) == 1 else display(f"{entry} ({submitter['id']})")
            found.append(HandIn(name, submitter, files, submitted_at))
    return found, not_graded


def read_metadata(path):
    """{folder: ([student], submitted_at or None)} from Gradescope's submission_metadata.yml."""
    shown = display(path)
    try:
        data = yaml.safe_load(read_bytes(path, MAX_METADATA_BYTES, "not Gradescope's metadata"))
    except SubmissionError as exc:
        raise MetadataError(str(exc)) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}" if mark else ""
        raise MetadataError(f"{shown}{where}: not YAML ({getattr(exc, 'problem', None) or exc})") from None
    if not isinstance(data, dict):
        raise MetadataError(f"{shown}: should map each submission's folder to its submitters")
    return {str(folder): _submission(shown, str(folder), entry) for folder, entry in data.items()}


def _submission(shown, folder, entry):
    entry = _plain_keys(entry)
    submitters = entry.get("submitters") if isinstance(entry, dict) else None
    if not isinstance(submitters, list) or not submitters:
        raise MetadataError(f"{shown}: {display(folder)}: should have a list of :submitters:")
    people = []
    for submitter in map(_plain_keys, submitters):
        if not isinstance(submitter, dict):
            raise MetadataError(f"{shown}: {display(folder)}: each submitter should have a :name: and a :sid:")
        text = {key: str(submitter[key]) if submitter.get(key) not in (None, "") else None
                for key in ("name", "sid", "email")}
        student_id = text["sid"] or text["email"] or folder
        people.append(student(display(student_id), display(text["name"] or student_id),
                              text["email"] and display(text["email"])))
    return people, _time(entry.get("created_at"))


def _plain_keys(mapping):
    """Gradescope writes Ruby symbols: the key `:sid` is "sid" here."""
    if not isinstance(mapping, dict):
        return mapping
    return {str(key).lstrip(":"): value for key, value in mapping.items()}


def _time(value):
    """The ISO 8601 time (with its offset) of :created_at:, or None when it has none."""
    if isinstance(value, str):
        try:
            value = datetime.datetime.fromisoformat(value.strip())
        except ValueError:
            return None
    if not isinstance(value, datetime.datetime) or value.tzinfo is None:
        return None
    return value.isoformat()
