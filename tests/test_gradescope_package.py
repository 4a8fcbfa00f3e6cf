"""`gradescope build` writes Gradescope's autograder zip; unpacked into a Gradescope-like tree, its run_autograder
grades a submission (found in a nested upload folder) into a results.json that follows Gradescope's schema, with
each test's visibility from the exercise and the assignment."""

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from pathlib import Path

import jsonschema
import pytest

from grader.exercise import EXERCISES_DIR

ROOT = Path(__file__).resolve().parent.parent
SOFTMAX = EXERCISES_DIR / "softmax"
PE = EXERCISES_DIR / "sinusoidal_pe"
SHAPE_TEST = "Output has the same shape as x"
VISIBILITIES = ["visible", "hidden", "after_due_date", "after_published"]
FORMATS = ["text", "html", "simple_format", "md", "ansi"]
# Gradescope's results.json, as its "Autograder Specifications" page documents it.
RESULTS_SCHEMA = {
    "type": "object", "additionalProperties": False, "required": ["score", "tests"],
    "properties": {
        "score": {"type": "number"}, "execution_time": {"type": "number"}, "output": {"type": "string"},
        "output_format": {"enum": FORMATS}, "test_output_format": {"enum": FORMATS},
        "test_name_format": {"enum": FORMATS}, "visibility": {"enum": VISIBILITIES},
        "stdout_visibility": {"enum": VISIBILITIES}, "extra_data": {"type": "object"},
        "leaderboard": {"type": "array"},
        "tests": {"type": "array", "items": {
            "type": "object", "additionalProperties": False, "required": ["name", "score", "max_score", "status"],
            "properties": {
                "score": {"type": "number"}, "max_score": {"type": "number"}, "status": {"enum": ["passed", "failed"]},
                "name": {"type": "string"}, "name_format": {"enum": FORMATS}, "number": {"type": "string"},
                "output": {"type": "string"}, "output_format": {"enum": FORMATS},
                "tags": {"type": "array", "items": {"type": "string"}}, "visibility": {"enum": VISIBILITIES},
                "extra_data": {"type": "object"}}}},
    },
}


def grader(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "grader", *map(str, args)], capture_output=True, text=True,
                          timeout=300, cwd=cwd, env={**os.environ, "PYTHONPATH": str(ROOT)})


# Appended to the hidden tests and references of the course's copies: none may reach a results.json.
SECRET = "# hidden line 7f3a9c: never shown to a student"


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """An assignment: softmax (weight 2, one test 'hidden' in its exercise.toml) and sinusoidal_pe (every test
    'after_published' in the assignment); the assignment's default is 'after_due_date'.  Both exercises'
    tests.py and solution.py end with the SECRET line."""
    root = tmp_path_factory.mktemp("course")
    for exercise in (SOFTMAX, PE):
        copy = shutil.copytree(exercise, root / exercise.name)
        for name in ("tests.py", "solution.py"):
            with (copy / name).open("a") as file:
                file.write(f"\n{SECRET}\n")
    with (root / "softmax" / "exercise.toml").open("a") as toml:
        toml.write(f'\n[visibility]\n"{SHAPE_TEST}" = "hidden"\n')
    (root / "week3.toml").write_text(
        'title = "Week 3"\nvisibility = "after_due_date"\n\n[[exercise]]\nid = "softmax"\nweight = 2\n\n'
        '[[exercise]]\nid = "sinusoidal_pe"\nfile = "pe.py"\nvisibility = "after_published"\n')
    return root / "week3.toml"


def build(assignment, output, *options):
    built = grader("gradescope", "build", "--assignment", assignment, "-o", output, "--timeout", "5", *options)
    assert built.returncode == 0, built.stderr
    return output


@pytest.fixture(scope="module")
def package(course):
    """The course's zip, with the default --sandbox auto."""
    return build(course, course.parent / "autograder.zip")


@pytest.fixture(scope="module")
def package_without_sandbox(course):
    """The course's zip built with --sandbox none: learner code runs as nobody (the tests run as root)."""
    return build(course, course.parent / "autograder-none.zip", "--sandbox", "none")


@pytest.fixture(scope="module")
def trees():
    """A folder for /autograder-like trees that user nobody can enter (pytest's own are root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="autograder-trees-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder)


@pytest.fixture(scope="module")
def venv(package, trees):
    """The Python of a venv made as setup.sh makes it, from the zip's own requirements.txt alone (no
    --system-site-packages; pip takes the pinned packages from PyPI or its cache)."""
    with zipfile.ZipFile(package) as archive:
        (trees / "requirements.txt").write_bytes(archive.read("requirements.txt"))
    subprocess.run([setup_python(), "-m", "venv", trees / "venv"], check=True, timeout=300)
    python = trees / "venv" / "bin" / "python"
    installed = subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                                "-r", trees / "requirements.txt"], capture_output=True, text=True, timeout=600)
    assert installed.returncode == 0, installed.stderr
    return python


def setup_python():
    """The Python setup.sh would take: the system's python3 (apt's, which user nobody can read), when it is
    3.11 or later; else this one."""
    system = shutil.which("python3", path="/usr/bin:/bin")
    recent = system and subprocess.run([system, "-c", "import sys; sys.exit(sys.version_info < (3, 11))"]).returncode == 0
    return system if recent else sys.executable


def run_autograder(package, tree, files, python):
    """Unpack `package` as Gradescope does (source/, run_autograder copied to the root) into the new folder
    `tree`, put `files` in submission/ and run it with `python` (setup.sh's apt-get and venv steps are not run)."""
    root = tree / "autograder"
    with zipfile.ZipFile(package) as archive:
        archive.extractall(root / "source")
    shutil.copy(root / "source" / "run_autograder", root / "run_autograder")
    (root / "run_autograder").chmod(0o755)
    (root / "results").mkdir()
    for name, source in files.items():
        (root / "submission" / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source, root / "submission" / name)
    environment = {"PATH": os.environ["PATH"], "LANG": "C.UTF-8", "HOME": str(tree),
                   "AUTOGRADER_ROOT": str(root), "AUTOGRADER_PYTHON": str(python)}
    process = subprocess.run([root / "run_autograder"], capture_output=True, text=True, timeout=300, cwd=tree,
                             env=environment)
    results = root / "results" / "results.json"
    return process, json.loads(results.read_text()) if results.exists() else None


@pytest.fixture(scope="module")
def graded(package, trees, venv):
    """A student who uploaded a folder: softmax.py two folders down, a wrong pe.py at the top."""
    return run_autograder(package, trees / "graded", {"hw3/sub/softmax.py": SOFTMAX / "solution.py",
                                                      "pe.py": PE / "mutants" / "angles_in_degrees.py"}, venv)


def test_the_zip_holds_what_gradescope_runs(package):
    with zipfile.ZipFile(package) as archive:
        names = set(archive.namelist())
        modes = {info.filename: info.external_attr >> 16 for info in archive.infolist()}
        setup = archive.read("setup.sh").decode()
        requirements = archive.read("requirements.txt").decode().split()
        assignment = tomllib.loads(archive.read("assignment.toml").decode())
        importable = archive.read("grader/pyodide/browser_modules.txt").decode().split()
    assert {"setup.sh", "run_autograder", "grader/__main__.py", "grader/core/engine.py"} <= names
    for exercise in ("softmax", "sinusoidal_pe"):
        assert {f"exercises/{exercise}/{name}" for name in ("exercise.toml", "tests.py", "solution.py")} <= names
    assert not any("mutants" in name or "__pycache__" in name for name in names)
    assert all(modes[name] & stat.S_IXUSR for name in ("setup.sh", "run_autograder"))
    assert "apt-get install -y --no-install-recommends bubblewrap" in setup
    assert "pip install --no-cache-dir -r requirements.txt" in setup
    assert subprocess.run(["bash", "-n", "-c", setup]).returncode == 0
    pinned = (ROOT / "requirements.txt").read_text()
    assert requirements and all("==" in line and line in pinned for line in requirements)
    assert [part["id"] for part in assignment["exercise"]] == ["softmax", "sinusoidal_pe"]
    assert assignment["exercise"][1] == {"id": "sinusoidal_pe", "weight": 1, "file": "pe.py",
                                         "visibility": "after_published"}
    assert "numpy" in importable and "math" in importable and "scipy" not in importable


def test_the_same_assignment_gives_the_same_zip(course, package, tmp_path):
    assert build(course, tmp_path / "a.zip").read_bytes() == package.read_bytes()


def test_run_autograder_grades_a_nested_upload_into_results_json(graded):
    process, results = graded
    assert process.returncode == 0, process.stderr
    jsonschema.validate(results, RESULTS_SCHEMA)
    softmax = [t for t in results["tests"] if t["name"].startswith("softmax: ")]
    pe = [t for t in results["tests"] if t["name"].startswith("sinusoidal_pe: ")]
    assert len(softmax) == 7 and len(pe) == 6
    assert all(t["status"] == "passed" and t["score"] == t["max_score"] == 2 for t in softmax)  # weight 2
    assert {t["status"] for t in pe} == {"passed", "failed"}
    assert results["score"] == pytest.approx(sum(t["score"] for t in results["tests"]))
    visibility = {t["name"]: t["visibility"] for t in results["tests"]}
    assert visibility.pop(f"softmax: {SHAPE_TEST}") == "hidden"  # its exercise.toml
    assert {v for n, v in visibility.items() if n.startswith("softmax")} == {"after_due_date"}  # the assignment's
    assert {t["visibility"] for t in pe} == {"after_published"}  # its [[exercise]]
    # The top-level output, always shown, gives away nothing of the tests not shown yet.
    assert results["output"] == ("softmax: its 7 test(s) are not shown yet\n"
                                 "sinusoidal_pe: its 6 test(s) are not shown yet\n"
                                 "Your code ran in a bubblewrap sandbox; it could not read the autograder's tests.")


def test_two_files_of_the_same_name_in_an_upload_are_not_guessed(package, trees, venv):
    process, results = run_autograder(package, trees / "two", {"a/softmax.py": SOFTMAX / "solution.py",
                                                               "b/softmax.py": SOFTMAX / "solution.py",
                                                               "pe.py": PE / "solution.py"}, venv)
    assert process.returncode == 2
    message = "2 files could be softmax.py (a/softmax.py, b/softmax.py): hand in one"
    assert f"error: {message}" in process.stderr
    jsonschema.validate(results, RESULTS_SCHEMA)
    assert f"softmax: its 7 test(s) are not shown yet ({message})" in results["output"]
    assert results["score"] == 6  # sinusoidal_pe's points only


@pytest.mark.parametrize("where, text, expected", [
    ("assignment", 'visibility = "later"\n[[exercise]]\nid = "softmax"\n',
     "week.toml:1: visibility should be one of visible, hidden, after_due_date, after_published, not 'later'"),
    ("assignment", '[[exercise]]\nid = "softmax"\nvisibility = 1\n',
     "week.toml:1: visibility of 'softmax' should be one of visible, hidden, after_due_date, after_published, not 1"),
    ("exercise", '[visibility]\n"Output has the same shape as x" = "never"\n',
     "exercise.toml:LINE: visibility of 'Output has the same shape as x' should be one of visible, hidden, "
     "after_due_date, after_published, not 'never'"),
    ("exercise", '[visibility]\n"No such test" = "hidden"\n',
     "exercise.toml:LINE: visibility: no hidden test is named 'No such test'"),
])
def test_a_bad_visibility_is_one_line_naming_the_line(tmp_path, where, text, expected):
    softmax = shutil.copytree(SOFTMAX, tmp_path / "softmax")
    assignment = tmp_path / "week.toml"
    assignment.write_text(text if where == "assignment" else '[[exercise]]\nid = "softmax"\n')
    if where == "exercise":
        toml = (softmax / "exercise.toml").read_text() + "\n" + text
        (softmax / "exercise.toml").write_text(toml)
        expected = expected.replace("LINE", str(len(toml.splitlines())))
    process = grader("gradescope", "build", "--assignment", assignment, "-o", tmp_path / "a.zip")
    assert process.returncode == 2
    assert expected in process.stderr and len(process.stderr.strip().splitlines()) == 1, process.stderr
    assert not (tmp_path / "a.zip").exists()


@pytest.mark.parametrize("args, expected", [
    (["build", "--exercise", "softmax"], "gradescope build needs -o FILE.zip"),
    (["build", "--exercise", "softmax", "-o", "a.zip", "--results", "r.json"], "gradescope build does not take "
                                                                                "--results"),
    (["--exercise", "softmax", "-o", "a.zip"], "gradescope run does not take -o/--output"),
])
def test_the_options_of_the_other_action_are_refused(tmp_path, args, expected):
    process = grader("gradescope", *args, cwd=tmp_path)
    assert process.returncode == 2 and f"error: {expected}" in process.stderr
    assert list(tmp_path.iterdir()) == []


def test_pyproject_states_the_python_the_grader_needs():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["requires-python"] == ">=3.11"


def test_the_top_level_output_counts_only_the_tests_shown():
    from grader.instructor.outputs import Plan, class_results, gradescope
    tests = [{"name": name, "status": status, "message": "", "duration_ms": 1.0, "stdout": "", "score": score,
              "max_score": 1} for name, status, score in (("a", "passed", 1), ("b", "failed", 0), ("c", "passed", 1))]
    record = {"submission": "ada", "exercise": "softmax", "error": None, "score": 2, "max_score": 3, "tests": tests}
    plan = Plan("Week 3", {"softmax": 2}, lambda exercise, test: "hidden" if test == "c" else "visible")
    student, = class_results([record], plan)
    results = gradescope.results(student, plan)
    assert results["output"] == "softmax: 1/2 in the 2 test(s) shown; 1 more not shown yet"
    assert results["score"] == 4 and [t["visibility"] for t in results["tests"]] == ["visible", "visible", "hidden"]


# A softmax.py that hunts for the autograder's hidden tests and references, prints what it finds and fails
# every test, so that whatever it read reaches results.json.  The project's own checkout (on this machine,
# not in Gradescope's container) is left out of its walk, which looks into folders named like the exercises.
ATTACK = '''
import os

NAMES = ("tests.py", "solution.py", "exercise.toml")
SKIP = ("/proc", "/sys", "/dev", "/usr", {checkout!r})


def _places():
    roots = {{"/autograder", "/autograder/source", os.getcwd()}}
    for pid in os.listdir("/proc"):  # the grader's command lines name its folders
        if pid.isdigit():
            for link in ("cwd", "root"):
                roots.add(f"/proc/{{pid}}/{{link}}")
            try:
                with open(f"/proc/{{pid}}/cmdline", "rb") as cmdline:
                    arguments = cmdline.read().split(b"\\0")
            except OSError:
                continue
            for argument in map(os.fsdecode, arguments):
                while argument.startswith("/") and argument != "/":
                    roots.add(argument)
                    argument = os.path.dirname(argument)
    for root in sorted(roots):
        for exercise in ("softmax", "sinusoidal_pe"):
            for folder in (root, f"{{root}}/source", f"{{root}}/exercises/{{exercise}}",
                           f"{{root}}/source/exercises/{{exercise}}", f"{{root}}/{{exercise}}"):
                yield from (f"{{folder}}/{{name}}" for name in NAMES)
    for top, folders, files in os.walk("/"):
        folders[:] = [f for f in folders if os.path.join(top, f) not in SKIP]
        if os.path.basename(top) in ("softmax", "sinusoidal_pe"):
            yield from (os.path.join(top, name) for name in files if name in NAMES)


def _loot():
    tried, read, refused = 0, [], []
    for path in dict.fromkeys(_places()):
        if path.startswith(SKIP[-1] + "/"):
            continue
        tried += 1
        try:
            with open(path, encoding="utf-8", errors="replace") as file:
                read.append(f"READ {{path}}:\\n{{file.read()}}")
        except PermissionError:
            if not path.startswith("/proc/"):  # other users' processes' cwd and root: always refused
                refused.append(f"PermissionError {{path}}")
        except OSError:
            pass
    likely = [line for line in read + refused if "autograder/source/" in line.partition("\\n")[0]]
    return "\\n".join([f"attack tried {{tried}} paths", *likely, *read])


LOOT = _loot()


def softmax(x, axis=-1):
    print(LOOT)
    raise RuntimeError(LOOT[-3000:])
'''


@pytest.mark.parametrize("zip_of, how", [
    ("package", "in a bubblewrap sandbox"),
    ("package_without_sandbox", "without a sandbox (--sandbox none), as user nobody"),
])
def test_a_submission_cannot_read_the_hidden_tests_or_references(request, trees, venv, tmp_path, zip_of, how):
    attack = tmp_path / "softmax.py"
    attack.write_text(ATTACK.format(checkout=str(ROOT.parent.parent)))
    process, results = run_autograder(request.getfixturevalue(zip_of), trees / f"attack-{zip_of}",
                                      {"softmax.py": attack, "pe.py": PE / "solution.py"}, venv)
    assert process.returncode == 0, process.stderr
    jsonschema.validate(results, RESULTS_SCHEMA)
    shown = json.dumps(results)
    assert "attack tried" in shown  # it ran, and what it printed reached results.json
    # Of what it read, nothing is the zip's (this machine's /tmp may hold other copies, such as a built site's
    # published references: those are not the autograder's, and carry no SECRET line).
    assert SECRET[2:] not in shown and f"READ {trees / f'attack-{zip_of}'}" not in shown
    if "nobody" in how:  # it found where the autograder's files are (the grader's command lines), and was refused
        tests_py = trees / f"attack-{zip_of}" / "autograder" / "source" / "exercises" / "softmax" / "tests.py"
        assert f"PermissionError {tests_py}" in shown, shown
    note = f"Your code ran {how}; it could not read the autograder's tests."
    assert results["output"].endswith(note) and note in process.stdout
    assert results["score"] == 6  # sinusoidal_pe's points only


def test_without_a_sandbox_nothing_is_graded_where_learner_code_could_read_the_tests(package_without_sandbox,
                                                                                       trees, venv):
    """`gradescope run` by hand, without run_autograder making exercises/ root's alone: refused."""
    root = trees / "readable"
    with zipfile.ZipFile(package_without_sandbox) as archive:
        archive.extractall(root / "source")
    shutil.copy(SOFTMAX / "solution.py", (root / "submission").mkdir(parents=True) or root / "submission")
    results = root / "results.json"
    process = subprocess.run([venv, "-m", "grader", "gradescope", "run", "--assignment", "assignment.toml",
                              "--submission", root / "submission", "--results", results, "--sandbox", "none"],
                             capture_output=True, text=True, timeout=300, cwd=root / "source")
    assert process.returncode == 2
    reason = (f"learner code would run without a sandbox (--sandbox none), as user nobody and could read "
              f"{root}/source/exercises/")
    assert f"error: {reason}" in process.stderr and "Traceback" not in process.stderr, process.stderr
    written = json.loads(results.read_text())
    jsonschema.validate(written, RESULTS_SCHEMA)
    assert written["score"] == 0 and written["tests"] == []
    assert written["output"].startswith("The autograder could not grade your submission safely here and graded "
                                        f"nothing: {reason}")
