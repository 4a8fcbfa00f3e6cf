"""The autograder zip a Gradescope programming assignment takes (`python -m grader gradescope build`).

Gradescope unpacks the zip into /autograder/source, runs `setup.sh` there once when it builds the image
(Ubuntu, as root), then for each submission copies `run_autograder` to /autograder and runs it: the
student's files are in /autograder/submission, the results go to /autograder/results/results.json.
The zip holds:

    setup.sh            apt-get: bubblewrap and a Python >= 3.11; a venv (.venv) with requirements.txt
    run_autograder      makes exercises/ root's alone, then `python -m grader gradescope run` on the assignment
                        below, with the build's limits: learner code runs in a bubblewrap sandbox, or where
                        none can be made, as user nobody, who cannot read exercises/ (else nothing is graded)
    requirements.txt    the pinned packages grading needs (from the project's requirements.txt)
    assignment.toml     the assignment: its exercises by id, weights, file names and test visibility
    grader/             the grading package (and the list of modules the browser's Pyodide has)
    exercises/<id>/     each exercise's files, and those of the earlier steps it uses (their references)

`run_autograder` reads AUTOGRADER_ROOT (default /autograder) and AUTOGRADER_PYTHON (default: the venv's
python), so the zip can be tried in any folder.  The zip is the same bytes for the same inputs.
"""

import io
import json
import shlex
import stat
import zipfile
from pathlib import Path

from grader.exercise import REQUIRED_FILES, TRACK_HELPERS_FOLDER
from grader.instructor.outputs.atomic import write_atomically
from grader.pyodide.modules import PACKAGED_LIST
from grader.track import used_steps

PROJECT = Path(__file__).resolve().parents[2]
# Of requirements.txt: what the grader imports when it grades (no Dask, no site build); a test builds a venv
# from these alone and runs the zip in it.
GRADING_PACKAGES = ("numpy", "nbformat", "PyYAML")
FIXED_TIME = (2020, 1, 1, 0, 0, 0)  # every entry's date: the same inputs give the same zip

SETUP = """#!/usr/bin/env bash
# Gradescope runs this once, as root, in /autograder/source, when it builds the autograder's image.
set -euo pipefail
cd "$(dirname "$0")"
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends bubblewrap python3 python3-venv
python=python3
if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    # The grader needs Python 3.11 or later (Ubuntu 22.04's python3 is 3.10).
    apt-get install -y --no-install-recommends python3.11 python3.11-venv
    python=python3.11
fi
"$python" -m venv .venv
.venv/bin/python -m pip install --no-cache-dir -r requirements.txt
"""

RUN = """#!/usr/bin/env bash
# Gradescope runs this for each submission: the student's files in $root/submission are graded into
# $root/results/results.json.  AUTOGRADER_ROOT and AUTOGRADER_PYTHON change where (to try it elsewhere).
set -euo pipefail
root="${{AUTOGRADER_ROOT:-/autograder}}"
python="${{AUTOGRADER_PYTHON:-$root/source/.venv/bin/python}}"
cd "$root/source"
if [ "$(id -u)" = 0 ]; then
    # Where bubblewrap cannot make a sandbox, learner code runs as user nobody: the hidden tests and the
    # references are root's alone (`gradescope run` refuses to grade if learner code could read them).
    chown -R 0:0 exercises
    chmod -R go= exercises
fi
exec "$python" -m grader gradescope run --assignment assignment.toml \\
    --submission "$root/submission" --results "$root/results/results.json" {options}
"""


class PackageError(Exception):
    """The autograder cannot be packaged; the message says why."""


def build_autograder(assignment, output, options, importable):
    """Write the autograder zip of `assignment` to `output` (atomically); `options` are grading options
    passed on to `gradescope run` (limits, sandbox); `importable`: the modules a submission may import
    (None: no rule).  Returns the names of the files in the zip."""
    files = {"setup.sh": SETUP, "run_autograder": RUN.format(options=shlex.join(options)),
             "requirements.txt": _requirements(), "assignment.toml": _assignment_toml(assignment)}
    for path in sorted((PROJECT / "grader").rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path != PACKAGED_LIST:
            files[path.relative_to(PROJECT).as_posix()] = path.read_bytes()
    if importable is not None:
        files[PACKAGED_LIST.relative_to(PROJECT).as_posix()] = "\n".join(sorted(importable)) + "\n"
    for exercise in _exercises(assignment):
        for name in REQUIRED_FILES:
            files[f"exercises/{exercise.id}/{name}"] = (exercise.path / name).read_bytes()
        if exercise.track_helpers is not None:  # what its tests import as _track
            files[f"exercises/{TRACK_HELPERS_FOLDER}/{exercise.track}.py"] = exercise.track_helpers.encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            entry = zipfile.ZipInfo(name, FIXED_TIME)
            executable = name in ("setup.sh", "run_autograder")
            entry.external_attr = (stat.S_IFREG | (0o755 if executable else 0o644)) << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, content)
    write_atomically(Path(output), buffer.getvalue())
    return list(files)


def _exercises(assignment):
    """The assignment's exercises and the earlier steps they use, each once; they all go in one folder."""
    by_id = {}
    for part in assignment.parts:
        for exercise in [part.exercise, *used_steps(part.exercise)]:
            other = by_id.setdefault(exercise.id, exercise)
            if other.path.resolve() != exercise.path.resolve():
                raise PackageError(f"two exercises have the id {exercise.id!r} ({other.path} and {exercise.path}); "
                                   "the autograder holds one folder per id")
    return list(by_id.values())


def _requirements():
    lines = (PROJECT / "requirements.txt").read_text(encoding="utf-8").splitlines()
    pinned = [line.split("#")[0].strip() for line in lines if line.split("==")[0].strip() in GRADING_PACKAGES]
    return "\n".join(pinned) + "\n"


def _assignment_toml(assignment):
    """The assignment as TOML, its exercises by id (they are in exercises/ beside it)."""
    lines = [f"title = {_string(assignment.title)}", f"visibility = {_string(assignment.visibility)}"]
    for part in assignment.parts:
        lines += ["", "[[exercise]]", f"id = {_string(part.exercise.id)}", f"weight = {part.weight!r}",
                  f"file = {_string(part.file_name)}"]
        if part.visibility:
            lines.append(f"visibility = {_string(part.visibility)}")
    return "\n".join(lines) + "\n"


def _string(text):
    """A TOML basic string: JSON's escapes are TOML's, but for DEL, which TOML wants escaped too."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")
