"""`python -m grader`: grade submissions and list exercises from the command line."""

import argparse
import functools
import json
import os
import signal
import sys
import tempfile
from pathlib import Path

from grader.instructor.assignment import AssignmentError, from_exercises, load_assignment
from grader.instructor.batch import BatchError, Progress, find_learners, read_records, run_batch, summarize
from grader.instructor.classfolder import describe as describe_layout
from grader.instructor.classfolder.times import read_times, records_with_times
from grader.pyodide.modules import BrowserModulesError, importable_modules
from grader.instructor.roster import read_roster
from grader.checker.executors import ExecutorError, executor_address, make_executor
from grader.checker.remote import DEFAULT_MEMORY_MB, Limits
from grader.checker.sandbox import MODES, Sandbox, SandboxError
from grader.checker.supervisor import Grader
from grader.core.engine import TestsError
from grader.exercise import EXERCISES_DIR, ExerciseError, exercise_folders, find_exercise, load_all, load_exercise
from grader.exercise_rules import InvalidExercise, ensure_valid
from grader.instructor.gradescope_package import PackageError, build_autograder
from grader.instructor.outputs import Plan, class_results, gradescope, similarity_file, similarity_view, write_outputs
from grader.instructor.outputs.atomic import write_atomically
from grader.instructor.overrides import OverrideError, load_overrides
from grader.instructor.overrides import check as check_overrides
from grader.authoring.scaffold import DEFAULT_TRACK, ScaffoldError, create_exercise
from grader.instructor.similarity import DEFAULT_THRESHOLD, boilerplate_of, document, similar_code, standing_for
from grader.submission import NOTEBOOK_SUFFIX, SubmissionError, accepted_names, display, read_source
from grader.instructor.tables import TableError
from grader.text import printable
from grader.track import reference_steps, used_steps

EXIT_PASSED, EXIT_FAILED, EXIT_UNUSABLE = 0, 1, 2
MAX_TIMEOUT_SECONDS = 3600
MEMORY_RANGE_MB = (64, 1_048_576)


def _interrupt(signum, frame):
    raise KeyboardInterrupt  # SIGTERM stops like Ctrl+C: children killed, finished results kept


class UsageError(Exception):
    """An argument or input file the tool cannot use; the message names it and says why."""


def main(argv=None):
    signal.signal(signal.SIGTERM, _interrupt)
    for stream in (sys.stdout, sys.stderr):
        stream.reconfigure(errors="backslashreplace")  # any text prints, whatever the terminal's encoding
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return args.command(args)
    except (ExerciseError, InvalidExercise, TestsError, UsageError, BatchError, SandboxError, ExecutorError,
            AssignmentError, OverrideError, TableError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_UNUSABLE
    except KeyboardInterrupt:
        print("\ninterrupted: what was graded is saved; run the same command again to resume", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`); stop quietly like other command-line tools.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_FAILED


def _parser():
    parser = argparse.ArgumentParser(prog="python -m grader", description=__doc__)
    commands = parser.add_subparsers(required=True, metavar="COMMAND")

    check = commands.add_parser("check", help="grade one submission file against an exercise's hidden tests")
    check.add_argument("exercise", help="exercise id (folder under exercises/) or path to an exercise folder")
    check.add_argument("submission", type=Path, help="the learner's Python file")
    check.add_argument("--json", action="store_true", help="print exactly one JSON report on stdout")
    _add_limit_options(check)
    check.set_defaults(command=run_check)

    batch = commands.add_parser("batch", help="grade a folder of submissions: one learner per .py file, "
                                              "or per folder holding one; or an assignment of several exercises",
                                usage="python -m grader batch [options] EXERCISE FOLDER\n"
                                      "       python -m grader batch [options] FOLDER "
                                      "(--exercise EXERCISE ... | --assignment FILE)")
    batch.add_argument("targets", nargs="+", metavar="[EXERCISE] FOLDER",
                       help="an exercise id (or path to an exercise folder) and a folder of submissions: NAME.py "
                            "files, NAME/ folders holding one .py file (or the --entry-file); with --exercise or "
                            "--assignment, only the class folder: one folder per student")
    _add_assignment_options(batch)
    batch.add_argument("--out", type=Path, help="results file: JSON Lines, or CSV when it ends in .csv "
                                                 "(default: <exercise or assignment>-results.jsonl)")
    batch.add_argument("--reports", type=Path, metavar="DIR",
                       help="also write the gradebook, feedback, Gradescope, JUnit and HTML reports and the "
                            "summary into DIR (JSON Lines results only)")
    batch.add_argument("--jobs", type=_positive_int, default=os.cpu_count() or 1,
                       help="submissions graded at once with --executor local (default: the number of cores)")
    batch.add_argument("--executor", type=_executor, default="local", metavar="WHERE",
                       help="where to grade: local (this machine, the default) or dask://HOST:PORT "
                            "(the workers of a Dask scheduler; see README.md)")
    _add_overrides_option(batch)
    batch.add_argument("--force", action="store_true", help="grade everything again, replacing the results file")
    batch.add_argument("--roster", type=Path, metavar="FILE",
                       help="the class roster, a CSV with columns id, name and optionally email, login, sis_id, "
                            "section: joins the students, gives 0 to those with no submission, lists the others")
    _add_times_option(batch, "they replace the times the export has")
    batch.add_argument("--entry-file", type=_file_name, metavar="FILE",
                       help="in a learner's folder, the file to grade when it holds several .py files "
                            "(e.g. submission.py)")
    _add_limit_options(batch)
    batch.set_defaults(command=run_batch_command)

    report = commands.add_parser("report", help="write the reports of a results file (JSON Lines) again")
    report.add_argument("results", type=Path, help="a results file written by `batch`")
    report.add_argument("--reports", type=Path, metavar="DIR", required=True, help="where to write them")
    report.add_argument("--similarity", type=Path, metavar="FILE",
                        help="a similarity.json written by `similar`: its groups and pairs get a section in "
                             "report.html")
    _add_assignment_options(report)
    _add_overrides_option(report)
    _add_times_option(report, "with the assignment's due date, they decide the late penalties again; the results "
                              "keep the times they were graded with")
    report.set_defaults(command=run_report)

    scope = commands.add_parser("gradescope", help="build Gradescope's autograder zip (build), or grade inside it "
                                                   "(run, the default): the submission folder into results.json",
                                usage="python -m grader gradescope build (--assignment FILE | --exercise EXERCISE ...) "
                                      "-o autograder.zip [limits]\n"
                                      "       python -m grader gradescope [run] (--assignment FILE | --exercise "
                                      "EXERCISE ...) [--submission DIR] [--results FILE] [limits]")
    scope.add_argument("action", nargs="?", choices=("run", "build"), default="run",
                       help="run (the default): grade the student's files inside Gradescope; build: write the "
                            "autograder zip to upload to Gradescope")
    _add_assignment_options(scope)
    scope.add_argument("-o", "--output", type=Path, metavar="ZIP", help="build: where to write the autograder zip")
    scope.add_argument("--submission", type=Path, metavar="DIR",
                       help="run: the student's files (default: /autograder/submission)")
    scope.add_argument("--results", type=Path, metavar="FILE",
                       help="run: where to write results.json (default: /autograder/results/results.json)")
    _add_limit_options(scope)
    scope.set_defaults(command=run_gradescope)

    similar = commands.add_parser("similar", help="flag the students whose code for an exercise is the same (as "
                                                  "groups) or shares much (as pairs); grades are not changed",
                                  usage="python -m grader similar [options] EXERCISE FOLDER\n"
                                        "       python -m grader similar [options] FOLDER "
                                        "(--exercise EXERCISE ... | --assignment FILE)")
    similar.add_argument("targets", nargs="+", metavar="[EXERCISE] FOLDER",
                         help="as for batch: an exercise and a folder of submissions, or a class folder with "
                              "--exercise or --assignment")
    _add_assignment_options(similar)
    similar.add_argument("--threshold", type=_share, default=DEFAULT_THRESHOLD, metavar="SHARE",
                         help="flag a pair when this share (0 to 1) of either one's code fingerprints is found in "
                              f"the other (default: {DEFAULT_THRESHOLD})")
    similar.add_argument("--reports", type=Path, metavar="DIR", default=Path("similarity"),
                         help="where to write similarity.html (the pairs side by side) and similarity.json "
                              "(for `report --similarity`) (default: similarity/)")
    similar.add_argument("--entry-file", type=_file_name, metavar="FILE",
                         help="in a learner's folder, the file to compare when it holds several .py files")
    similar.set_defaults(command=run_similar)

    listing = commands.add_parser("list", help="list the exercises")
    listing.set_defaults(command=run_list)

    new = commands.add_parser("new", help="create an exercise folder holding a small working example to edit; "
                                          "or, with --notebook, learners' starter notebooks")
    new.add_argument("id", help="the new exercise's id: lowercase letters, digits and _, starting with a letter "
                                "(e.g. layer_norm); it names the folder. With --notebook: an exercise (id or "
                                "folder) or an assignment file (.toml)")
    new.add_argument("--notebook", action="store_true",
                     help="write a starter notebook (the statement, then the starter code) for an existing "
                          "exercise, or one per exercise of an assignment, instead of a new exercise")
    new.add_argument("-o", "--output", type=Path, metavar="PATH",
                     help="with --notebook: the notebook (default: ID.ipynb), or for an assignment the folder "
                          "(default: the assignment file's name)")
    new.add_argument("--title", help="the title shown on the page (default: from the id)")
    new.add_argument("--track", default=DEFAULT_TRACK, help=f"track slug (default: {DEFAULT_TRACK})")
    new.add_argument("--step", type=_positive_int, help="position in the track (default: the next free step)")
    new.add_argument("--entry", help="name of the function learners write (default: the id)")
    new.add_argument("--uses", type=_ids, default=(), metavar="ID,ID",
                     help="earlier steps of the track it builds on (their entry functions are in the learner's "
                          "scope), e.g. softmax,causal_attention")
    new.add_argument("--from", dest="statement", type=Path, metavar="PROBLEM.md",
                     help="start from this problem statement: it becomes statement.md, its '# Title' the title, "
                          "the first `name(args)` it shows the function learners write; the rest are skeletons "
                          "of that function to fill in")
    _add_root_option(new)
    new.set_defaults(command=run_new)

    validate = commands.add_parser("validate", help="check that exercises are ready to publish "
                                                    "(all of them when none is named)")
    validate.add_argument("exercises", nargs="*", metavar="EXERCISE",
                          help="exercise id (folder under the root) or path to an exercise folder")
    validate.add_argument("--pyodide", action="store_true",
                          help="also grade the reference and the mutants in real Pyodide under Node")
    _add_root_option(validate)
    _add_sandbox_option(validate)
    validate.set_defaults(command=run_validate)
    return parser


def _add_root_option(parser):
    parser.add_argument("--root", type=Path, default=EXERCISES_DIR, metavar="DIR",
                        help="the folder holding the exercises (default: exercises/)")


def _add_assignment_options(parser):
    parser.add_argument("--exercise", action="append", default=[], metavar="EXERCISE", dest="exercises",
                        help="an exercise of the assignment (repeat for several); each student's folder holds "
                             "a file for each")
    parser.add_argument("--assignment", type=Path, metavar="FILE",
                        help="a TOML file listing the exercises, with optional weights and file names")
    parser.add_argument("--file-pattern", default="{id}.py", metavar="PATTERN",
                        help="with --exercise, each exercise's file in a student's folder (default: {id}.py)")


def _add_overrides_option(parser):
    parser.add_argument("--overrides", type=Path, metavar="FILE",
                        help="a CSV file of points changed by hand (student,exercise,test,points,reason), applied "
                             "to the reports and shown there as overrides; the results keep the graded points")


def _add_times_option(parser, what):
    parser.add_argument("--times", type=Path, metavar="FILE",
                        help="submission times, a CSV with columns id and submitted_at (ISO 8601 with an "
                             f"offset); {what}")


def _add_limit_options(parser):
    parser.add_argument("--timeout", type=_timeout, metavar="SECONDS",
                        help="time the submission's code may run, loading and all tests together "
                             f"(default: the exercise's time_limit; at most {MAX_TIMEOUT_SECONDS})")
    parser.add_argument("--test-timeout", type=_timeout, metavar="SECONDS",
                        help="time the submission's code may run during any one test "
                             "(default: the exercise's test_time_limit, if it has one)")
    parser.add_argument("--memory", type=_memory, metavar="MB", default=DEFAULT_MEMORY_MB,
                        help=f"memory the submission may use, in MB (default: {DEFAULT_MEMORY_MB}; "
                             f"{MEMORY_RANGE_MB[0]} to {MEMORY_RANGE_MB[1]})")
    _add_sandbox_option(parser)


def _add_sandbox_option(parser):
    parser.add_argument("--sandbox", choices=MODES, default="auto",
                        help="run learner code under bubblewrap (bwrap), without a sandbox (none: rlimits only), "
                             "or bubblewrap when it works (auto, the default; warns when it does not)")


def _timeout(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value <= MAX_TIMEOUT_SECONDS:
        raise argparse.ArgumentTypeError(f"{text!r} should be a positive number of seconds, "
                                         f"at most {MAX_TIMEOUT_SECONDS}")
    return value


def _memory(text):
    low, high = MEMORY_RANGE_MB
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of megabytes") from None
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"{text!r} should be between {low} and {high} (megabytes)")
    return value


def _positive_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} should be 1 or more")
    return value


def _executor(text):
    try:
        return executor_address(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _share(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"{text!r} should be a share above 0 and at most 1 (e.g. 0.5)")
    return value


def _ids(text):
    """A comma-separated list of exercise ids (checked when the exercise is created)."""
    return tuple(name.strip() for name in text.split(",") if name.strip())


def _file_name(text):
    if not text or "/" in text or text in (".", ".."):
        raise argparse.ArgumentTypeError(f"{text!r} should be a file name, without a folder")
    return text


def limits_from(args, exercise):
    return Limits(time_limit=args.timeout or exercise.time_limit, memory_mb=args.memory,
                  test_limit=args.test_timeout or exercise.test_time_limit, importable=importable_as_in_the_browser())


@functools.cache  # one warning per command, not one per exercise
def importable_as_in_the_browser():
    """The modules the page's Pyodide has, which are all a submission may import; None (any) when the
    Pyodide distribution cannot be read, with one warning line."""
    try:
        return importable_modules()
    except BrowserModulesError as exc:
        print(f"warning: grading without the browser's import rule: {exc}; a submission importing a module "
              "that the page's Pyodide lacks (e.g. scipy) is not refused here as it is in the browser",
              file=sys.stderr)
        return None


def assignment_from(args, required=True):
    """The assignment of --assignment or --exercise; None when neither is given and not `required`."""
    if args.assignment and args.exercises:
        raise UsageError("give --assignment or --exercise, not both")
    if args.assignment:
        return load_assignment(args.assignment)
    if args.exercises:
        return from_exercises(args.exercises, args.file_pattern)
    if required:
        raise UsageError("name the exercises with --exercise (once or more) or --assignment FILE")
    return None


def read_submission(path):
    """(the submission's source text, [notes: a notebook's IPython lines dropped]), or UsageError naming the
    file and the problem."""
    try:
        return read_source(path)
    except SubmissionError as exc:
        raise UsageError(str(exc)) from None


def run_check(args):
    exercise = load_exercise(args.exercise)
    earlier = reference_steps(exercise)  # offline the steps it uses are the references: a mark is about this step
    test_names = [test.name for test in ensure_valid(exercise)]  # the rules `validate` and the build apply
    source, notes = read_submission(args.submission)
    sandbox = Sandbox(args.sandbox, hide=[exercise.path], warn=lambda text: print(text, file=sys.stderr))
    try:
        grader = Grader(exercise.grading_spec(), limits_from(args, exercise), sandbox, test_names, earlier)
        report = grader.grade(source)
    finally:
        sandbox.close()
    if notes:
        report["notes"] = notes
    if args.json:
        print(json.dumps(report, ensure_ascii=True, allow_nan=False))
    else:
        print(format_report(report, exercise.title))
    return EXIT_PASSED if report["passed"] else EXIT_FAILED


def class_targets(args):
    """(assignment, class folder, by_student) of `batch` and `similar`'s targets: EXERCISE FOLDER, or FOLDER
    with --exercise or --assignment (one folder per student)."""
    assignment = assignment_from(args, required=False)
    by_student = assignment is not None
    if len(args.targets) != (1 if by_student else 2):
        raise UsageError("give an exercise and a folder of submissions, or a class folder with --exercise or "
                         "--assignment")
    if assignment is None:
        assignment = from_exercises(args.targets[:1])
    return assignment, Path(args.targets[-1]), by_student


def ensure_parts_valid(assignment):
    """InvalidExercise when an exercise of `assignment` breaks a rule (the rules `check`, `validate` and the build
    apply, grader/exercise_rules.py): found before anything is graded or written."""
    for part in assignment.parts:
        ensure_valid(part.exercise)


def run_batch_command(args):
    assignment, folder, by_student = class_targets(args)
    ensure_parts_valid(assignment)
    named = args.assignment.stem if args.assignment else "_".join(part.exercise.id for part in assignment.parts)
    out = args.out or Path(f"{named}-results.jsonl")
    if args.reports and out.suffix.lower() == ".csv":
        raise UsageError("--reports needs a JSON Lines results file (--out ending in .jsonl): a CSV keeps no messages")
    if args.overrides and not args.reports:
        raise UsageError("--overrides changes the reports: give --reports DIR too")
    overrides = load_overrides(args.overrides) if args.overrides else []  # its mistakes are found before grading

    roster = read_roster(args.roster) if args.roster else None
    times = read_times(args.times) if args.times else None
    hidden = [part.exercise.path for part in assignment.parts] + [folder, out] + [
        path for path in (args.reports, args.roster, args.times, args.overrides) if path]  # learner code sees none
    executor = make_executor(args.executor, args.jobs, args.sandbox, hide=hidden,
                             warn=lambda text: print(text, file=sys.stderr))
    records, test_names, not_graded = run_batch(
        assignment, folder, out, lambda exercise: limits_from(args, exercise), executor, args.force,
        Progress(show_exercise=by_student), entry_file=args.entry_file, by_student=by_student, roster=roster,
        times=times)
    summary = summarize(records, test_names, not_graded)
    print(summary)
    print(f"\nResults: {out}")
    if args.reports:
        check_overrides(overrides, records, args.overrides)
        write_outputs(records, Plan.of(assignment, overrides), args.reports, summary)
        print(f"Reports: {args.reports}/ (gradebook.csv, canvas_import.csv, moodle_import.csv, not_imported.csv, "
              "report.html, junit.xml, summary.txt, feedback/, feedback_moodle.zip, gradescope/)")
    return EXIT_PASSED


def run_report(args):
    records = read_records(args.results)
    assignment = assignment_from(args, required=False)
    overrides = load_overrides(args.overrides) if args.overrides else []
    check_overrides(overrides, records, args.overrides)
    plan = Plan.of(assignment, overrides) if assignment else Plan.from_records(records, args.results.stem, overrides)
    unknown = sorted({r["exercise"] for r in records} - set(plan.weights))
    if unknown:
        raise UsageError(f"{args.results}: holds results of {', '.join(map(repr, unknown))}, "
                         "which the assignment does not list")
    if args.times:
        times = read_times(args.times)
        if plan.late is None:
            raise UsageError(f"{display(args.times)}: submission times decide late penalties, and no due date is "
                             "given: add the --assignment whose file sets `due`")
        records, unknown = records_with_times(records, times)
        for student_id in unknown:
            print(f"warning: --times: no student has the id {printable(student_id)}", file=sys.stderr)
    similarity = similarity_of(args.similarity, records, plan) if args.similarity else None
    test_names = {}
    for record in records:
        test_names.setdefault(record["exercise"], [t["name"] for t in record["tests"]])
    write_outputs(records, plan, args.reports, summarize(records, test_names), similarity)
    print(f"Reports: {args.reports}/ from {len(records)} record(s)")
    return EXIT_PASSED


def run_similar(args):
    assignment, folder, by_student = class_targets(args)
    layout, learners, not_read = find_learners(folder, assignment, args.entry_file, by_student)
    print(f"Layout: {describe_layout(layout)}")
    results = {}
    for part in assignment.parts:
        documents, boilerplate = [], boilerplate_of(part.exercise.starter)
        for learner in learners:
            if learner.exercise_id == part.exercise.id:
                try:
                    _, source, _ = learner.submission.read()
                except SubmissionError as exc:
                    if not exc.reason.endswith("no such file"):
                        not_read.append((learner.submission.name, learner.submission.reason(exc)))
                    continue
                documents.append(document(learner.submission.name, source, boilerplate))
        results[part.exercise.id] = (len(documents), *similar_code(documents, args.threshold))
    if all(compared < 2 for compared, _, _ in results.values()):
        found = ", ".join(f"{compared} {exercise_id} file(s)" for exercise_id, (compared, _, _) in results.items())
        raise UsageError(f"{display(folder)}: nothing to compare: {found}; two submissions of an exercise are needed")
    write_atomically(args.reports / "similarity.json", similarity_file.render(results, args.threshold))
    write_atomically(args.reports / "similarity.html",
                     similarity_view.render(results, args.threshold, assignment.title))
    for exercise_id, (compared, groups, pairs) in results.items():
        print(f"{exercise_id}: {compared} submission(s) compared: {len(groups)} group(s) of the same code, "
              f"{len(pairs)} pair(s) at or above {100 * args.threshold:.0f}%")
        for group in groups:
            print(f"  100%  the same code ({len(group)}): " + ", ".join(printable(doc.name) for doc in group))
        for pair in pairs:
            print(f"  {100 * pair.highest:3.0f}%  {printable(standing_for(pair.first, groups))} and "
                  f"{printable(standing_for(pair.second, groups))}")
    if not_read:
        print(f"\nNot compared ({len(not_read)}):\n" + "\n".join(f"  {printable(name)}: {printable(reason)}"
                                                               for name, reason in sorted(not_read)))
    print(f"\nReports: {args.reports}/ (similarity.html, similarity.json); grades are not changed")
    return EXIT_PASSED


def similarity_of(path, records, plan):
    """The data of the similarity file `path`, if it is about these exercises and students; else UsageError."""
    try:
        similarity = similarity_file.read(path)
    except similarity_file.SimilarityFileError as exc:
        raise UsageError(str(exc)) from None
    unknown = sorted(set(similarity["exercises"]) - set(plan.weights))
    if unknown:
        raise UsageError(f"{display(path)}: about {', '.join(map(repr, unknown))}, which the results do not hold")
    graded = {record["submission"] for record in records}
    named = {name for found in similarity["exercises"].values() for group in found["groups"] for name in group}
    named |= {pair[side] for found in similarity["exercises"].values() for pair in found["pairs"]
              for side in ("first", "second")}
    strangers = sorted(named - graded)
    if strangers:
        raise UsageError(f"{display(path)}: names {len(strangers)} submission(s) not in the results, e.g. "
                         f"{printable(strangers[0])!r}: was it made from another class folder?")
    return similarity


def run_gradescope(args):
    options = (("-o/--output", args.output, "build"), ("--submission", args.submission, "run"),
               ("--results", args.results, "run"))
    wrong = [option for option, value, action in options if value and action != args.action]
    if wrong:
        raise UsageError(f"gradescope {args.action} does not take {', '.join(wrong)}")
    return (build_gradescope if args.action == "build" else grade_for_gradescope)(args)


def build_gradescope(args):
    """Write the autograder zip: setup.sh, run_autograder, the grader, the exercises (grader/instructor/gradescope_package.py)."""
    if args.output is None:
        raise UsageError("gradescope build needs -o FILE.zip, where to write the autograder")
    assignment = assignment_from(args)
    ensure_parts_valid(assignment)  # a broken exercise is found here, not on Gradescope
    options = [f"--{name.replace('_', '-')}={value}" for name, value in
               (("timeout", args.timeout), ("test_timeout", args.test_timeout), ("memory", args.memory),
                ("sandbox", args.sandbox)) if value is not None]
    try:
        names = build_autograder(assignment, args.output, options, importable_as_in_the_browser())
    except PackageError as exc:
        raise UsageError(str(exc)) from None
    print(f"Wrote {args.output} ({len(names)} files): upload it as the autograder of a Gradescope "
          "programming assignment (Ubuntu base image)")
    return EXIT_PASSED


def grade_for_gradescope(args):
    """Grade one student's folder as a class of one, then write Gradescope's results.json from the record."""
    submission = args.submission or Path("/autograder/submission")
    results = args.results or Path("/autograder/results/results.json")
    assignment = assignment_from(args)
    if not submission.is_dir():
        raise UsageError(f"{submission}: not a folder (Gradescope puts the student's files in "
                         "/autograder/submission)")
    # The exercises' folders (hidden tests, references, those of the steps used too) are never readable by
    # learner code: under bubblewrap they are not in its view, else it runs as nobody, who must not read them.
    secret = [step.path for part in assignment.parts for step in [part.exercise, *used_steps(part.exercise)]]
    with tempfile.TemporaryDirectory() as work:
        out = Path(work) / "results.jsonl"
        executor = make_executor("local", os.cpu_count() or 1, args.sandbox, hide=[*secret, work, submission],
                                 warn=lambda text: print(text, file=sys.stderr), secret=secret)
        try:
            records, _, _ = run_batch(assignment, submission, out, lambda exercise: limits_from(args, exercise),
                                      executor, False, Progress(show_exercise=True), student="submission")
        except SandboxError as exc:
            write_atomically(results, gradescope.render_not_graded(
                "The autograder could not grade your submission safely here and graded nothing: "
                f"{exc}. Tell your instructor."))
            raise
    how = f"Your code ran {executor.sandbox.learner_runs()}; it could not read the autograder's tests."
    print(how)
    student, = class_results(records, Plan.of(assignment))
    write_atomically(results, gradescope.render(student, Plan.of(assignment), note=how))
    print(f"{student.total:g}/{student.max_total:g} points; results: {results}")
    # A file that is there but refused (a link, a FIFO, not UTF-8, ...) is a problem to see: exit 2, after
    # results.json (0 points for it, with the reason) is written for the student.
    refused = [r for r in records if r.get("missing") and not r["missing"].endswith(": no such file")]
    for record in refused:
        print(f"error: {printable(record['missing'])}", file=sys.stderr)
    return EXIT_UNUSABLE if refused else EXIT_PASSED


def run_list(args):
    for exercise in load_all():
        tags = ", ".join(exercise.tags)
        print(f"{exercise.id:<24} {exercise.track} #{exercise.step:<3} {exercise.difficulty:<7} {exercise.title}"
              + (f"  [{tags}]" if tags else ""))
    return EXIT_PASSED


def run_new(args):
    if args.notebook:
        return write_starter_notebooks(args)
    if args.output:
        raise UsageError("-o/--output is for --notebook")
    statement = None
    if args.statement is not None:
        try:
            statement = (args.statement.read_text(encoding="utf-8"), str(args.statement))
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"--from {args.statement}: cannot read it ({exc})") from None
    try:
        folder = create_exercise(args.id, args.root, title=args.title, track=args.track, step=args.step,
                                 entry=args.entry, uses=args.uses, placeholders=True, statement=statement)
    except ScaffoldError as exc:
        raise UsageError(str(exc)) from None
    shown = os.path.relpath(folder) if folder.resolve().is_relative_to(Path.cwd()) else str(folder)
    if statement is None:
        print(f"Created {shown}/ with a small working example (a row-wise softmax):")
    else:
        print(f"Created {shown}/ from {args.statement}, with skeletons of {load_exercise(folder).entry}() to fill in:")
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        print(f"  {path.relative_to(folder).as_posix()}")
    target = args.id if args.root == EXERCISES_DIR else shown
    what = "the example with your exercise" if statement is None else "each TODO(author)"
    print(f"Replace {what} (AUTHORING.md explains each file; validate names every TODO(author) left), then run:\n"
          f"  python -m grader validate {target}")
    return EXIT_PASSED


def write_starter_notebooks(args):
    """Write a starter notebook for an exercise, or one per exercise of an assignment, named like the file the
    assignment expects (softmax.py: softmax.ipynb, which is graded in its place)."""
    from grader.notebook import starter_notebook  # imported here: nbformat takes 0.2 s to load
    defaults = {"title": None, "track": DEFAULT_TRACK, "step": None, "entry": None, "uses": ()}
    given = [name for name, default in defaults.items() if getattr(args, name) != default]
    if given:
        raise UsageError(f"--notebook writes a notebook for an existing exercise: --{given[0]} is not for it")
    if args.id.endswith(".toml"):
        assignment = load_assignment(args.id)
        folder = args.output or Path(Path(args.id).stem)
        targets = [(part.exercise, folder / accepted_names(part.file_name)[-1]) for part in assignment.parts]
        wrong = [path.name for _, path in targets if path.suffix != NOTEBOOK_SUFFIX]
        if wrong:
            raise UsageError(f"{args.id}: no notebook can stand for {wrong[0]} (only for a .py file)")
    else:
        exercise = load_exercise(args.id, args.root)
        targets = [(exercise, args.output or Path(f"{exercise.id}.ipynb"))]
    for exercise, path in targets:
        write_atomically(path, starter_notebook(exercise, used_steps(exercise)))
        print(f"Wrote {path}")
    return EXIT_PASSED


def run_validate(args):
    # Imported here: validation renders Markdown and math (markup, KaTeX), which `check` does not need.
    from grader.authoring.validate import PyodideError, pyodide_dist, validate_exercise
    from markup.katex import MathUnavailable
    folders = [find_exercise(name, args.root) for name in args.exercises] or exercise_folders(args.root)
    if not folders:
        raise UsageError(f"{args.root}: no exercises (folders holding an exercise.toml)")
    try:
        dist = pyodide_dist() if args.pyodide else None
    except PyodideError as exc:
        raise UsageError(str(exc)) from None
    valid = 0
    for folder in folders:
        try:
            result = validate_exercise(folder, pyodide_dist=dist, sandbox_mode=args.sandbox)
        except MathUnavailable as exc:
            raise UsageError(str(exc)) from None
        print(_with_marks("\n".join(result.lines)) + "\n", flush=True)
        valid += result.ok
    print(f"{valid} of {len(folders)} exercise(s) valid")
    return EXIT_PASSED if valid == len(folders) else EXIT_FAILED


def _with_marks(text):
    """`text` with ✓/✗ spelled out when the terminal cannot show them."""
    if _marks()["passed"] == "✓":
        return text
    return text.replace("✓", "ok").replace("✗", "FAIL")


def format_report(report, title):
    """The report as text; what came from the learner's code cannot pass for the grader's own lines."""
    marks = _marks()
    lines = [f"{title} ({report['exercise']})"]
    lines += [_indent(f"Note: {printable(note)}", "  ") for note in report.get("notes", ())]
    if report["error"]:
        lines.append(_indent(f"Error: {printable(report['error'])}", "  "))
    for test in report["tests"]:
        mark = marks["not graded"] if test.get("exercise_bug") else marks[test["status"]]
        lines.append(f"  {mark} {test['name']}  ({test['duration_ms']:.0f} ms)")
        message = printable(test["message"])
        if message and not message.startswith("Not run"):
            lines.append(_indent(message, "      "))
        elif message:
            lines[-1] += f" - {message}"
    passed = sum(t["status"] == "passed" for t in report["tests"])
    not_graded = sum(bool(t.get("exercise_bug")) for t in report["tests"])
    lines.append(f"{passed}/{len(report['tests']) - not_graded} tests passed"
                 + (f" ({not_graded} not graded: the exercise has a bug)" if not_graded else "")
                 + (" - all good!" if report["passed"] else ""))
    if report["stdout"]:
        lines.append("Your code printed:")
        lines.append(_indent(printable(report["stdout"].rstrip("\n")), "  | "))
    return "\n".join(lines)


def _marks():
    fancy = {"passed": "✓", "failed": "✗", "error": "!", "timeout": "⏱", "not graded": "–"}
    try:
        "".join(fancy.values()).encode(sys.stdout.encoding or "ascii")
        return fancy
    except (UnicodeEncodeError, LookupError):
        return {"passed": "PASS", "failed": "FAIL", "error": "ERROR", "timeout": "TIMEOUT", "not graded": "NOT GRADED"}


def _indent(text, prefix):
    return "\n".join(prefix + line for line in text.splitlines())
