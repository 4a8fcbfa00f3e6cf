"""Where a batch's submissions are graded: on this machine, or on the workers of a Dask cluster.

An executor is opened once per batch (`with executor:`), which starts what it
needs (the sandbox here; the connection to the scheduler for Dask), then
`grade(spec, limits, test_names, items, earlier)` yields (key, report) for each
(key, source) of `items` as each finishes (`earlier`: the EarlierStep of each
step the exercise uses, in the submission's scope).  Closing that generator stops the
grading; what is still running is killed (here) or cancelled (Dask).

A Dask worker grades with the same code as a local run, in the same sandbox:
each worker process starts one sandbox on its first task and keeps it
(`shared_sandbox`: closed at exit; it dies with the worker anyway).  The tasks
carry everything as data: the exercise's grading spec (its id, entry function
and the hidden tests' source, never a path: workers need not see the
client's files), the earlier steps it uses (their sources as data too), the
limits (the import rule included), the hidden tests' names and the
submission's source.  The grading code is this client's `grader` package,
which the client ships to every worker when it connects (grader/checker/shipping.py),
so workers need no checkout of this project: only the same Python, numpy
and Dask (and bubblewrap for the sandbox), which it checks first from the
versions Dask reports.  Then it compares each worker's fingerprint (a hash of
the grader's source, numpy's and Python's versions) with its own, and each
task does so again: a worker that had already loaded another grader is
refused, naming it.

A task that fails for another reason (an error in the worker, a worker that
died) is one submission's problem, not the batch's: it is sent once more, and
if it fails again, its record says that grading failed and why (the exception
and where it was raised), with every test an error.
"""

import dataclasses
import functools
import hashlib
import itertools
import platform
import re
import threading
import traceback
from pathlib import Path

import numpy

from grader.checker.remote import Limits
from grader.checker.sandbox import Sandbox, SandboxError
from grader.checker.shipping import deferred_call, install_plugin, package_archive
from grader.checker.supervisor import Grader, shared_sandbox
from grader.core.engine import EarlierStep, GradingSpec
from grader.core.report import ReportBuilder

DASK_ADDRESS = re.compile(r"dask://(?P<host>[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):(?P<port>[0-9]{1,5})")
GRADER_PACKAGE = Path(__file__).resolve().parents[1]
IN_FLIGHT_PER_THREAD = 2  # submissions sent ahead per worker thread, so that none waits for the next one
MAX_ATTEMPTS = 2          # a task that fails (not the submission: the worker) is sent once more


class ExecutorError(Exception):
    """The executor cannot grade: the message says what and where."""


def executor_address(text):
    """`text` checked as an --executor value: "local", or "dask://HOST:PORT"; ValueError saying why not."""
    if text == "local":
        return text
    match = DASK_ADDRESS.fullmatch(text)
    if not match:
        raise ValueError(f"{text!r} is not an executor: use local or dask://HOST:PORT (a Dask scheduler)")
    if not 1 <= int(match["port"]) <= 65535:
        raise ValueError(f"{text!r}: the port should be between 1 and 65535")
    return text


def make_executor(address, jobs, sandbox_mode, hide=(), warn=None, secret=()):
    """The executor for an `executor_address`; `jobs`, `hide` and `secret` only apply to local grading."""
    if address == "local":
        return LocalExecutor(jobs, sandbox_mode, hide, warn, secret)
    return DaskExecutor(address, sandbox_mode, warn)


class LocalExecutor:
    """Forked checker processes on this machine, `jobs` at a time, with one sandbox for the batch."""

    def __init__(self, jobs, sandbox_mode="auto", hide=(), warn=None, secret=()):
        """`secret`: folders whose files learner code must not be able to read (SandboxError if it can)."""
        self.jobs, self.sandbox_mode, self.hide, self.warn, self.secret = jobs, sandbox_mode, hide, warn, secret
        self.sandbox = None

    def __enter__(self):
        self.sandbox = Sandbox(self.sandbox_mode, hide=self.hide, warn=self.warn)
        readable = self.sandbox.learner_can_read(self.secret)
        if readable is not None:
            self.sandbox.close()
            raise SandboxError(f"learner code would run {self.sandbox.learner_runs()} and could read {readable}; "
                               "make bubblewrap work, or make the exercises' files readable by root only")
        return self

    def __exit__(self, *exc_info):
        self.sandbox.close()

    def grade(self, spec, limits, test_names, items, earlier=()):
        yield from Grader(spec, limits, self.sandbox, test_names, earlier).grade_all(items, self.jobs)


class DaskExecutor:
    """The workers of the Dask scheduler at dask://HOST:PORT, one task per submission."""

    def __init__(self, address, sandbox_mode="auto", warn=None):
        self.address, self.sandbox_mode, self.warn = address, sandbox_mode, warn
        self.scheduler = "tcp://" + address.removeprefix("dask://")
        self.client = None

    def __enter__(self):
        import dask.config
        from distributed import Client
        timeout = dask.config.get("distributed.comm.timeouts.connect")
        try:
            self.client = Client(self.scheduler, timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError) as exc:
            raise ExecutorError(f"{self.address}: cannot reach the Dask scheduler within {timeout} "
                                f"({_one_line(exc)})") from None
        try:
            self.client.wait_for_workers(1, timeout=timeout)
        except TimeoutError:
            self.client.close()
            raise ExecutorError(f"{self.address}: no Dask worker joined the scheduler within {timeout}; "
                                "start some with `dask worker`") from None
        try:
            self._ship_grader()
        except BaseException:
            self.client.close()
            raise
        return self

    def _ship_grader(self):
        """Install this grader on every worker (and on those that join later); ExecutorError naming the workers
        that cannot run it."""
        mine = fingerprint()
        unfit = workers_that_cannot_run(self.client.get_versions(check=False), mine)
        if unfit:
            raise ExecutorError(f"{self.address}: " + "; ".join(unfit))
        try:
            self.client.register_plugin(install_plugin(package_archive(GRADER_PACKAGE, _grader_files()),
                                                       mine["grader code"]))
        except Exception as exc:
            raise ExecutorError(f"{self.address}: a worker cannot install the grader ({_one_line(exc)})") from None
        theirs = self.client.run(*deferred_call(worker_grader))
        wrong = [f"worker {worker} already runs another grader, loaded from {where} before this batch "
                 f"({_differences(found, mine)}); restart it to load this one"
                 for worker, (found, where) in sorted(theirs.items()) if found != mine]
        if wrong:
            raise ExecutorError(f"{self.address}: " + "; ".join(wrong))

    def __exit__(self, *exc_info):
        self.client.close()

    def grade(self, spec, limits, test_names, items, earlier=()):
        from distributed import as_completed
        task = functools.partial(grade_on_worker, dataclasses.asdict(spec), dataclasses.asdict(limits),
                                 list(test_names), self.sandbox_mode, fingerprint(),
                                 earlier=[step.to_dict() for step in earlier])
        window = IN_FLIGHT_PER_THREAD * max(1, sum(self.client.nthreads().values()))
        pending = iter(items)
        sent = {}  # future -> (key, source, attempt)
        running = as_completed(loop=self.client.loop)
        warned = set()

        def send(key, source, attempt=1):
            future = self.client.submit(*deferred_call(task, source), pure=False)
            sent[future] = (key, source, attempt)
            running.add(future)

        try:
            for item in itertools.islice(pending, window):
                send(*item)
            for future in running:
                key, source, attempt = sent.pop(future)
                try:
                    report, worker, mode = future.result()
                except ExecutorError:
                    raise
                except Exception as exc:
                    cause = _cause(exc)
                    if attempt < MAX_ATTEMPTS:
                        self._say(f"warning: {self.address}: grading a submission failed ({cause}); "
                                  "sending it once more")
                        send(key, source, attempt + 1)
                        continue
                    self._say(f"warning: {self.address}: grading a submission failed {attempt} times ({cause}); "
                              "its record says so")
                    report, worker, mode = _failed_report(spec, test_names, cause), None, self.sandbox_mode
                if mode == "none" != self.sandbox_mode and worker not in warned:
                    warned.add(worker)
                    self._say(f"warning: Dask worker {worker} grades WITHOUT a sandbox (bubblewrap does not work "
                              "there); learner code runs with rlimits only and could tamper with the grading")
                for item in itertools.islice(pending, 1):
                    send(*item)
                yield key, report
        finally:
            if sent:
                self.client.cancel(list(sent))

    def _say(self, text):
        if self.warn is not None:
            self.warn(text)


def workers_that_cannot_run(versions, mine):
    """What is wrong with each worker whose Python or numpy differs from this machine's (`mine`: its fingerprint),
    from the `versions` Dask reports (Client.get_versions)."""
    problems = []
    for worker, found in sorted(versions["workers"].items()):
        packages = found["packages"]
        theirs = {"Python": ".".join(packages["python"].split(".")[:2]), "numpy": packages.get("numpy") or "missing"}
        differences = _differences(theirs, {part: mine[part] for part in theirs})
        if differences:
            problems.append(f"worker {worker} cannot run this grader ({differences}); give it the same Python "
                            "and the packages of requirements.txt")
    return problems


def worker_grader():
    """Run on a Dask worker: the fingerprint of the grader it runs, and where that grader was loaded from."""
    return fingerprint(), str(GRADER_PACKAGE)


def grade_on_worker(spec, limits, test_names, sandbox_mode, client_fingerprint, source, earlier=()):
    """Run on a Dask worker: (the report of `source`, this worker's address, the sandbox mode it used)."""
    from distributed import get_worker
    address = get_worker().address
    mine = fingerprint()
    if mine != client_fingerprint:
        raise ExecutorError(f"worker {address} runs another grader ({_differences(mine, client_fingerprint)}); "
                            "restart it to load this one")
    with _worker_grading:  # tasks of one worker process take turns on its sandbox
        try:
            sandbox = shared_sandbox(sandbox_mode)
        except SandboxError as exc:
            raise ExecutorError(f"worker {address}: {exc}") from None
        earlier = [EarlierStep.from_dict(fields) for fields in earlier]
        report = Grader(GradingSpec(**spec), Limits(**limits), sandbox, test_names, earlier).grade(source)
        return report, address, sandbox.mode


_worker_grading = threading.Lock()


@functools.cache
def fingerprint():
    """What must match between the client and a worker for both to grade alike."""
    digest = hashlib.sha256()
    for path in _grader_files():
        digest.update(path.relative_to(GRADER_PACKAGE).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return {"grader code": digest.hexdigest()[:16], "numpy": numpy.__version__,
            "Python": ".".join(platform.python_version_tuple()[:2])}


def _differences(there, here):
    return ", ".join(f"{part} {there[part]} there, {here[part]} here" for part in here if there[part] != here[part])


def _grader_files():
    """The grader's source files: what its fingerprint covers and what workers are sent."""
    return sorted(GRADER_PACKAGE.rglob("*.py"))


def _failed_report(spec, test_names, cause):
    """The report of a submission the cluster failed to grade: every test an error saying why."""
    builder = ReportBuilder(spec.exercise_id, test_names, spec.points)
    builder.add({"event": "loaded", "error": None})
    builder.add({"event": "aborted", "error": f"Grading failed on the Dask cluster, not because of your code "
                                              f"({cause}); ask for it to be graded again."})
    return builder.finish()


def _cause(exc):
    """The exception, and where in the grader it was raised (the worker's traceback travels with it)."""
    ours = [frame for frame in traceback.extract_tb(exc.__traceback__) if "/grader/" in frame.filename]
    place = ""
    if ours:
        file = "grader/" + ours[-1].filename.rsplit("/grader/", 1)[1]  # the same on every machine
        place = f" in {file}:{ours[-1].lineno} ({ours[-1].name})"
    return f"{type(exc).__name__}: {_one_line(exc)}{place}"


def _one_line(exc):
    return " ".join(str(exc).split())[:400] or type(exc).__name__
