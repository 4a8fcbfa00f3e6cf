"""Offline grading end to end: the checker and the learner's sandboxed process, with small exercises of our own.

These go through the real `Grader` (a forked checker, the bubblewrap sandbox,
a learner process per submission) and check what crosses the boundary, what
the learner's process can see and do, and how time limits, crashes and
output are reported.
"""

import json
import socket
import textwrap
import time

import pytest

from grader.checker.remote import Limits
from grader.checker.sandbox import PACKAGE_ROOT, Sandbox
from grader.checker.supervisor import Grader
from grader.core.engine import GradingSpec


@pytest.fixture(scope="module")
def sandbox():
    box = Sandbox("bwrap")
    yield box
    box.close()


def grade(sandbox, entry, tests, source, time_limit=5.0, **limits):
    spec = GradingSpec("example", entry, textwrap.dedent(tests))
    return Grader(spec, Limits(time_limit=time_limit, **limits), sandbox).grade(textwrap.dedent(source))


def statuses(report):
    return [t["status"] for t in report["tests"]]


RANDOM_TESTS = '''
    import numpy as np
    from grader.core.checks import as_array, expect_close, precision_of

    def test_same_draws(sample):
        """The learner's draws from a generator equal the checker's own"""
        rng = np.random.default_rng(0)
        p = np.ones(4) / 4
        got = as_array(sample(p, 6, rng), precision_of(p))
        expected = np.random.default_rng(0).choice(4, size=6, p=np.ones(4) / 4).astype(float)
        expect_close(got, expected)

    def test_generator_is_passed_by_value(sample):
        """The test's generator is not advanced by the learner's call"""
        rng = np.random.default_rng(1)
        before = rng.bit_generator.state
        sample(np.ones(2) / 2, 3, rng)
        assert rng.bit_generator.state == before
'''


def test_randomness_on_both_sides(sandbox):
    source = '''
        import numpy as np
        np.random.seed(3)
        noise = np.random.rand(3)

        def sample(p, n, rng):
            np.random.default_rng(5).normal(size=2)   # unrelated draws of its own
            return rng.choice(len(p), size=n, p=p).astype(float)
    '''
    report = grade(sandbox, "sample", RANDOM_TESTS, source)
    assert statuses(report) == ["passed", "passed"], report


def test_a_wrong_sampler_fails(sandbox):
    source = '''
        import numpy as np

        def sample(p, n, rng):
            return np.random.default_rng(99).choice(len(p), size=n, p=p).astype(float)
    '''
    assert statuses(grade(sandbox, "sample", RANDOM_TESTS, source))[0] == "failed"


EXCEPTION_TESTS = '''
    import numpy as np

    def test_raises_index_error(lookup):
        """An id out of range raises IndexError"""
        try:
            lookup(np.arange(3.0), 5)
        except IndexError:
            return
        raise AssertionError("expected an IndexError")

    def test_value(lookup):
        """Looks up a value"""
        assert lookup(np.arange(3.0), 1) == 1.0, "expected 1.0"
'''


def test_the_learners_exception_reaches_the_test_with_its_builtin_type(sandbox):
    source = '''
        def lookup(table, i):
            if i >= len(table):
                raise IndexError(f"id {i} out of range")
            return table[i]
    '''
    assert statuses(grade(sandbox, "lookup", EXCEPTION_TESTS, source)) == ["passed", "passed"]


def test_an_uncaught_learner_exception_is_an_error_with_its_traceback(sandbox):
    source = '''
        def lookup(table, i):
            return undefined_name + table[i]
    '''
    report = grade(sandbox, "lookup", EXCEPTION_TESTS, source)
    assert statuses(report) == ["error", "error"]  # the test's `except IndexError` does not catch it
    message = report["tests"][1]["message"]
    assert message.startswith("Your code raised NameError") and "line 3, in lookup" in message


PRINT_TESTS = '''
    def test_one(f):
        """One"""
        f(1)

    def test_two(f):
        """Two"""
        f(2)
        f(3)
'''


def test_prints_are_attributed_to_the_test_that_made_the_call(sandbox):
    source = '''
        import os
        print("loading")

        def f(x):
            print("call", x)
            os.write(1, f"raw {x}\\n".encode())
    '''
    report = grade(sandbox, "f", PRINT_TESTS, source)
    assert statuses(report) == ["passed", "passed"]
    assert report["tests"][0]["stdout"] == "call 1\nraw 1\n"
    assert report["tests"][1]["stdout"] == "call 2\nraw 2\ncall 3\nraw 3\n"
    assert report["stdout"] == "loading\n" + "".join(f"call {x}\nraw {x}\n" for x in (1, 2, 3))


def test_a_flood_of_output_is_capped_and_does_not_block(sandbox):
    source = '''
        def f(x):
            for _ in range(20000):
                print("x" * 100)
    '''
    report = grade(sandbox, "f", PRINT_TESTS, source)
    assert statuses(report) == ["passed", "passed"]
    assert "output truncated" in report["stdout"] and len(report["stdout"]) < 40_000


SLOW_TESTS = '''
    def test_slow(f):
        """Slow"""
        f(100)

    def test_fast(f):
        """Fast"""
        assert f(0) == 0
'''
SLOW_SOURCE = '''
    import time

    def f(seconds):
        end = time.process_time() + seconds  # the time limits count CPU time
        while time.process_time() < end:
            pass
        return 0
'''


def test_a_call_over_its_limit_times_out_and_the_next_test_gets_a_fresh_process(sandbox):
    started = time.monotonic()
    report = grade(sandbox, "f", SLOW_TESTS, SLOW_SOURCE, time_limit=10, call_limit=1)
    assert time.monotonic() - started < 6
    assert statuses(report) == ["timeout", "passed"]
    assert "within 1 s of CPU time" in report["tests"][0]["message"]
    assert report["tests"][0]["duration_ms"] >= 900  # a timed-out test shows how long it ran


STEADY_TESTS = '''
    def test_many_short_calls(f):
        """Many short calls"""
        for _ in range(8):
            f(0.4)

    def test_one_short_call(f):
        """One short call"""
        assert f(0.4) == 0

    def test_no_wait(f):
        """No wait"""
        assert f(0) == 0
'''


def test_a_slow_test_loses_only_itself_to_the_per_test_limit(sandbox):
    # Every call is within any per-call limit; the first test's calls add up past its 1.5 s.
    report = grade(sandbox, "f", STEADY_TESTS, SLOW_SOURCE, time_limit=20, test_limit=1.5)
    assert statuses(report) == ["timeout", "passed", "passed"]
    assert "more than 1.5 s of CPU time (the limit for one test)" in report["tests"][0]["message"]
    assert report["score"] == 2 and report["max_score"] == 3


def test_when_the_total_is_used_up_the_remaining_tests_are_not_run(sandbox):
    report = grade(sandbox, "f", SLOW_TESTS, SLOW_SOURCE, time_limit=1)
    assert statuses(report) == ["timeout", "timeout"]
    assert report["tests"][1]["message"].startswith("Not run")


def test_a_crash_in_one_test_does_not_cost_the_others(sandbox):
    source = '''
        import os

        def f(seconds):
            if seconds:
                os._exit(3)
            return 0
    '''
    report = grade(sandbox, "f", SLOW_TESTS, source)
    assert statuses(report) == ["error", "passed"]
    assert "exit code 3" in report["tests"][0]["message"]


def test_a_segfault_is_described(sandbox):
    source = '''
        import ctypes

        def f(seconds):
            if seconds:
                ctypes.string_at(0)
            return 0
    '''
    report = grade(sandbox, "f", SLOW_TESTS, source)
    assert statuses(report) == ["error", "passed"]
    assert "segmentation fault" in report["tests"][0]["message"]


@pytest.mark.parametrize("returned, named", [
    ("object()", "a object"),
    ("lambda: 1", "a function"),
    ("np.array([1.0], dtype=object)", "dtype object"),
    ("{1, 2}", "a set"),
])
def test_a_result_that_is_not_data_fails_clearly(sandbox, returned, named):
    source = f"import numpy as np\n\ndef f(x):\n    return {returned}\n"
    report = grade(sandbox, "f", PRINT_TESTS, source)
    assert statuses(report) == ["failed", "failed"]
    assert "cannot be graded" in report["tests"][0]["message"] and named in report["tests"][0]["message"]


PROBE_TESTS = '''
    import json
    from grader.core.checks import fail

    def test_probe(probe):
        """What the learner's process sees"""
        fail(json.dumps(probe()))
'''


def probe(sandbox, port):
    source = f'''
        import ctypes, os, signal, socket, tempfile

        def attempt(action):
            try:
                action()
                return True
            except Exception:
                return False

        def probe():
            scratch = tempfile.gettempdir()
            tmp = sorted(os.listdir(scratch))
            open(os.path.join(scratch, "left-behind"), "a").close()
            return {{
                "pid": os.getpid(),
                "proc": os.listdir("/proc"),
                "project_visible": os.path.exists({str(PACKAGE_ROOT / "exercises")!r}),
                "tests_visible": os.path.exists({str(PACKAGE_ROOT / "exercises" / "sinusoidal_pe" / "tests.py")!r}),
                "grader_visible": os.path.exists({str(PACKAGE_ROOT / "grader" / "core" / "checks.py")!r}),
                "root_entries": sorted(os.listdir("/")),
                "tmp": tmp,
                "scratch": scratch,
                "cwd": os.getcwd(),
                "write_usr": attempt(lambda: open("/usr/evil", "w")),
                "network": attempt(lambda: socket.create_connection(("127.0.0.1", {port}), timeout=1)),
                "setuid0": attempt(lambda: os.setuid(0)),
                "new_userns": ctypes.CDLL(None).unshare(0x10000000) == 0,
                "kill_all": attempt(lambda: os.kill(-1, signal.SIGKILL)),
            }}
    '''
    report = grade(sandbox, "probe", PROBE_TESTS, source)
    return json.loads(report["tests"][0]["message"])


def test_the_learners_process_is_confined(sandbox):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    try:
        seen = probe(sandbox, listener.getsockname()[1])
        again = probe(sandbox, listener.getsockname()[1])
    finally:
        listener.close()
    assert seen["pid"] == 1 and seen["proc"] == []           # alone in its PID namespace, /proc hidden
    assert not seen["project_visible"] and not seen["tests_visible"]
    assert seen["grader_visible"]                             # the grader package is open source and read-only
    assert seen["cwd"] == seen["scratch"] and seen["tmp"] == []   # a private, empty scratch folder (TMPDIR)
    assert again["tmp"] == []                                 # nothing left by the previous learner
    assert not seen["write_usr"] and not seen["network"] and not seen["setuid0"] and not seen["new_userns"]


THREAD_TESTS = '''
    def test_threads(f):
        """Works with threads"""
        assert f(8) == 36, "expected 36"
'''


def test_a_fork_bomb_does_not_touch_a_learner_graded_beside_it(sandbox):
    bomb = '''
        import os, time

        def f(n):
            children = 0
            while children < 5000:
                try:
                    if os.fork() == 0:
                        time.sleep(30)
                        os._exit(0)
                    children += 1
                except OSError:
                    break
            time.sleep(2)  # hold every process while the other learner runs
            return children
    '''
    honest = '''
        import threading

        def f(n):
            parts = [0] * n
            def work(i):
                parts[i] = i + 1
            threads = [threading.Thread(target=work, args=(i,)) for i in range(n)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            return sum(parts)
    '''
    spec = GradingSpec("example", "f", textwrap.dedent(THREAD_TESTS))
    grader = Grader(spec, Limits(time_limit=8), sandbox)
    delayed = textwrap.dedent(honest).replace("def f(n):", "def f(n):\n    __import__('time').sleep(1)")
    reports = dict(grader.grade_all([("bomb", textwrap.dedent(bomb)), ("honest", delayed)], jobs=2))
    assert statuses(reports["honest"]) == ["passed"], reports["honest"]
    assert statuses(reports["bomb"]) == ["failed"]  # it returned how many forks it got: fewer than 5000


def test_cpu_spinners_do_not_starve_a_learner_graded_beside_them(sandbox):
    spinners = '''
        import os

        def f(n):
            for _ in range(200):
                try:
                    if os.fork() == 0:
                        while True:
                            pass
                except OSError:
                    break
            while True:
                pass
    '''
    honest = '''
        import time

        def f(n):
            time.sleep(0.5)
            total = 0
            for i in range(1_500_000):  # about 150 ms of CPU
                total += i % 3
            return n * (n + 1) // 2
    '''
    spec = GradingSpec("example", "f", textwrap.dedent(THREAD_TESTS))
    grader = Grader(spec, Limits(time_limit=3), sandbox)
    reports = dict(grader.grade_all([("spinners", textwrap.dedent(spinners)), ("honest", textwrap.dedent(honest))],
                                    jobs=2))
    assert statuses(reports["honest"]) == ["passed"], reports["honest"]
    assert statuses(reports["spinners"]) == ["timeout"]


def test_a_sandbox_that_stops_is_started_again_and_nothing_is_lost():
    sandbox = Sandbox("bwrap")
    try:
        spec = GradingSpec("example", "f", textwrap.dedent(THREAD_TESTS))
        grader = Grader(spec, Limits(time_limit=5), sandbox)
        slow = "import time\n\ndef f(n):\n    time.sleep(1)\n    return n * (n + 1) // 2\n"
        graded = grader.grade_all([(i, slow) for i in range(3)], jobs=2)
        first = next(graded)
        sandbox._process.kill()  # as if the zygote died while the other submission was being graded
        reports = dict([first, *graded])
    finally:
        sandbox.close()
    assert sorted(reports) == [0, 1, 2]
    assert all(statuses(report) == ["passed"] for report in reports.values()), reports
