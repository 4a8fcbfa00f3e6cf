"""Run Python in the site's Pyodide under Node (node_runner.mjs), from a folder made by grader.pyodide.dist."""

import dataclasses
import json
import subprocess
from pathlib import Path

from toolchain.node import NodeError, node_command

NODE_RUNNER = Path(__file__).resolve().parent / "node_runner.mjs"
PROJECT_ROOT = Path(__file__).resolve().parents[2]


def grader_core_files():
    """{"grader/__init__.py": source, "grader/core/<name>.py": source, ...}: the part of the grader that
    runs in Pyodide (the site's workers, `validate --pyodide`, the build's bytecode)."""
    paths = [PROJECT_ROOT / "grader" / "__init__.py", *sorted((PROJECT_ROOT / "grader" / "core").glob("*.py"))]
    return {path.relative_to(PROJECT_ROOT).as_posix(): path.read_text(encoding="utf-8") for path in paths}


class PyodideError(Exception):
    """Node or Pyodide could not run the code at all."""


def run_in_pyodide(dist, files, code, timeout):
    """The str that `code` ends with, run with `files` ({path under /home/pyodide/: source}) written first."""
    try:
        command = [node_command(), str(NODE_RUNNER), str(dist)]
    except NodeError as exc:
        raise PyodideError(f"running Pyodide needs Node.js: {exc}") from None
    try:
        process = subprocess.run(command, input=json.dumps({"files": files, "code": code}),
                                 capture_output=True, text=True, timeout=timeout)
    except OSError as exc:
        raise PyodideError(f"cannot start Node.js: {exc}") from None
    except subprocess.TimeoutExpired:
        raise PyodideError(f"Node did not finish within {timeout:g} s") from None
    if process.returncode != 0 or not process.stdout.strip():
        raise PyodideError(f"Node exited with code {process.returncode}: {process.stderr.strip()[-2000:]}")
    return process.stdout.splitlines()[-1]


GRADE = """
import json
from grader.core.engine import EarlierStep, GradingSpec, grade
reports = []
for job in json.loads(REQUEST):
    spec = GradingSpec(**job["spec"])
    earlier = [EarlierStep.from_dict(fields) for fields in job["earlier"]]
    reports.append({label: grade(spec, source, earlier=earlier, authoring=job["authoring"])
                    for label, source in job["sources"].items()})
json.dumps(reports)
"""


def grade_in_pyodide(dist, jobs, timeout):
    """[{label: report}] for each job (spec: GradingSpec, sources: {label: source}, earlier: [EarlierStep], authoring),
    all graded in one Node process by the engine the page's worker runs (grader.core.engine.grade, the used steps
    in scope)."""
    request = json.dumps([{"spec": dataclasses.asdict(job["spec"]), "sources": job["sources"],
                           "earlier": [step.to_dict() for step in job.get("earlier", ())],
                           "authoring": job.get("authoring", False)} for job in jobs])
    return json.loads(run_in_pyodide(dist, grader_core_files(), f"REQUEST = {request!r}\n" + GRADE, timeout))
