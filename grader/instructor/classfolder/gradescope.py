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
import re

import yaml

from grader.instructor.classfolder.handin import HandIn, student
from grader.instructor.classfolder.walk import files_under
from grader.instructor.records import NAME_LIMIT
from grader.submission import SubmissionError, display, read_bytes

METADATA = "submission_metadata.yml"
MAX_METADATA_BYTES = 50_000_000
MAX_DEPTH = 10  # Gradescope's file nests 4 deep (folder, :submitters:, a submitter, its fields)
DESCRIPTION = f"Gradescope export (a folder per submission, {METADATA})"
# Gradescope's :created_at: "2026-11-20 23:59:00.000000000 -08:00": ISO 8601 with an offset (any digits of a second).
TIME = re.compile(r"(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d)(?:\.(\d+))? ?(Z|[+-]\d\d:?\d\d)", re.ASCII)


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
    """{folder: ([student], submitted_at or None)} from Gradescope's submission_metadata.yml.

    Read as text: every scalar is a string as written (YAML's "base" schema: `:sid: 012345` is "012345", not
    an octal number; no timestamps, the time is parsed here), no aliases, at most MAX_DEPTH levels deep."""
    shown = display(path)
    try:
        text = read_bytes(path, MAX_METADATA_BYTES, "not Gradescope's metadata").decode("utf-8")
    except SubmissionError as exc:
        raise MetadataError(str(exc)) from None
    except UnicodeDecodeError as exc:
        raise MetadataError(f"{shown}: not UTF-8 (byte {exc.start + 1})") from None
    root = _compose(shown, text)
    if not isinstance(root, yaml.MappingNode):
        raise MetadataError(f"{_at(shown, root)}: should map each submission's folder to its submitters")
    metadata = {}
    for key, entry in root.value:
        folder = _scalar(shown, key, "a submission's folder")
        if folder in metadata:
            raise MetadataError(f"{_at(shown, key)}: {display(folder)} is listed twice")
        metadata[folder] = _submission(shown, folder, entry)
    return metadata


def _compose(shown, text):
    """The YAML node tree of `text` (None when empty); one MetadataError line for anything the parser refuses.
    The events are read first, without recursion, so that the composer never meets deep nesting."""
    try:
        depth = 0
        for event in yaml.parse(text, Loader=yaml.BaseLoader):
            if isinstance(event, yaml.AliasEvent):
                raise MetadataError(f"{_at(shown, event)}: an alias (*{display(event.anchor)[:40]}): Gradescope's "
                                    "file has none")
            depth += isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent))
            depth -= isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent))
            if depth > MAX_DEPTH:
                raise MetadataError(f"{_at(shown, event)}: nested more than {MAX_DEPTH} levels deep")
        return yaml.compose(text, Loader=yaml.BaseLoader)
    except yaml.MarkedYAMLError as exc:
        where = f"{shown}:{exc.problem_mark.line + 1}" if exc.problem_mark else shown
        raise MetadataError(f"{where}: not YAML ({exc.problem or exc.context or type(exc).__name__})") from None
    except (yaml.YAMLError, RecursionError, ValueError) as exc:  # any other parser failure: one line
        raise MetadataError(f"{shown}: not YAML ({type(exc).__name__}: {str(exc)[:200]})") from None


def _submission(shown, folder, entry):
    fields = _fields(shown, entry, f"{display(folder)}: should have a list of :submitters:")
    submitters = fields.get("submitters")
    if not isinstance(submitters, yaml.SequenceNode) or not submitters.value:
        raise MetadataError(f"{_at(shown, submitters or entry)}: {display(folder)}: should have a list of "
                            ":submitters:")
    people = []
    for node in submitters.value:
        submitter = _fields(shown, node, f"{display(folder)}: each submitter should have a :name: and a :sid:")
        text = {key: display(_scalar(shown, submitter[key], f":{key}:")) if key in submitter else ""
                for key in ("name", "sid", "email")}
        student_id = text["sid"] or text["email"] or display(folder)
        handed_in = display(folder) if len(submitters.value) == 1 else display(f"{folder} ({student_id})")
        for what, value in ((":name:", text["name"]), (":sid:", student_id), (":email:", text["email"]),
                            ("the folder's name", handed_in)):
            if len(value) > NAME_LIMIT:
                raise MetadataError(f"{_at(shown, node)}: {display(folder)}: {what} is longer than {NAME_LIMIT} "
                                    f"characters (it has {len(value)})")
        people.append(student(student_id, text["name"] or student_id, text["email"] or None))
    created_at = fields.get("created_at")
    return people, created_at and _time(shown, folder, created_at)


def _fields(shown, node, problem):
    """{key without Ruby's leading colon: value node} of a mapping node; MetadataError(`problem`) otherwise."""
    if not isinstance(node, yaml.MappingNode):
        raise MetadataError(f"{_at(shown, node)}: {problem}")
    return {_scalar(shown, key, "a key").lstrip(":"): value for key, value in node.value}


def _scalar(shown, node, what):
    if not isinstance(node, yaml.ScalarNode):
        raise MetadataError(f"{_at(shown, node)}: {what} should be text, not a list or a mapping")
    return node.value


def _time(shown, folder, node):
    """The ISO 8601 time (with its offset) of :created_at:, None when it is empty."""
    value = _scalar(shown, node, ":created_at:").strip()
    if not value or value in ("~", "null"):
        return None
    match = TIME.fullmatch(value)
    try:
        if match is None:
            raise ValueError("not ISO 8601 with an offset, such as 2026-11-20 23:59:00 -08:00")
        year, month, day, hour, minute, second, fraction, offset = match.groups()
        zone = datetime.timezone.utc if offset == "Z" else datetime.timezone(
            (-1 if offset[0] == "-" else 1) * datetime.timedelta(hours=int(offset[1:3]), minutes=int(offset[-2:])))
        microsecond = int((fraction or "0")[:6].ljust(6, "0"))
        time = datetime.datetime(int(year), int(month), int(day), int(hour), int(minute), int(second), microsecond,
                                 zone)
    except ValueError as exc:
        raise MetadataError(f"{_at(shown, node)}: {display(folder)}: :created_at: {display(value)[:60]!r}: "
                            f"{exc}") from None
    return time.isoformat()


def _at(shown, node):
    """`file:line` of a node or event (`file` alone for an empty document)."""
    mark = getattr(node, "start_mark", None)
    return f"{shown}:{mark.line + 1}" if mark else shown
