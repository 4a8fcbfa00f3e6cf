"""In the page, the learner's code and the hidden tests share one Pyodide interpreter, unprotected.

Browser verdicts are practice feedback (offline, tests and learner code run in separate processes), but
honest code must get the offline verdict:

1. Hidden tests may draw from numpy's seeded generators: the page and the CLI draw the same values.
2. Each run gets a fresh interpreter in a fresh worker, so nothing one run does (patched functions,
   numpy's global state, warning filters, a gc callback, a hijacked worker) reaches the next one.
"""

import shutil

import numpy as np

from page_helpers import (EXERCISES, HONEST_SUBMISSIONS, ROOT, SOLUTION, TEST_NAMES, grade_in_page, grade_with_cli,
                          set_time_limit, verdict)

CORPUS = ROOT / "tests" / "corpus" / "sinusoidal_pe"
MUTANTS = EXERCISES / "sinusoidal_pe" / "mutants"

# --- 1. numpy.random in the hidden tests ---

RANDOM_SIZES_NAME = "Matches the formula at sizes drawn from a seeded generator"
RANDOM_SIZES_TEST = f'''


def test_random_sizes(sinusoidal_pe):
    """{RANDOM_SIZES_NAME}"""
    rng = np.random.default_rng(0)
    for _ in range(5):
        T, C = int(rng.integers(1, 40)), 2 * int(rng.integers(1, 12))
        table, tol = _pe_table(sinusoidal_pe, T, C)
        _compare(table, _table(T, C), tol, T, C)
'''


def test_hidden_tests_may_draw_from_a_seeded_generator(page, open_exercise, tmp_path):
    def with_random_sizes_test(route):
        response = route.fetch()
        spec = response.json()
        spec["tests_source"] += RANDOM_SIZES_TEST
        spec["test_names"].append(RANDOM_SIZES_NAME)
        route.fulfill(response=response, json=spec)

    page.route("**/grading.json", with_random_sizes_test)
    open_exercise()
    folder = tmp_path / "sinusoidal_pe"
    shutil.copytree(EXERCISES / "sinusoidal_pe", folder)
    with (folder / "tests.py").open("a", encoding="utf-8") as tests:
        tests.write(RANDOM_SIZES_TEST)

    expected = {"reference": "passed", "swapped sin and cos": "failed",
                "default_rng at import": "passed", "np.random.seed and rand": "passed"}
    sources = {"reference": SOLUTION, "swapped sin and cos": (MUTANTS / "swapped_sin_cos.py").read_text(),
               **{name: HONEST_SUBMISSIONS[name] for name in ("default_rng at import", "np.random.seed and rand")}}
    for name, source in sources.items():
        in_page = grade_in_page(page, source)
        offline = grade_with_cli(source, tmp_path, name, exercise=folder)
        assert [t["name"] for t in in_page["tests"]] == TEST_NAMES + [RANDOM_SIZES_NAME]
        assert in_page["tests"][-1]["status"] == expected[name], in_page["tests"][-1]
        assert verdict(in_page) == verdict(offline), name
        # A failure names the sizes drawn: the same in both.
        assert [t["message"] for t in in_page["tests"]] == [t["message"] for t in offline["tests"]], name


# --- 2. What one run leaves for the next ---

PATCHES_THAT_ONLY_HELP = {
    "numpy's comparisons": (CORPUS / "patch_numpy_comparisons.py").read_text(),
    # This one also breaks the grader's own json.dumps, so the page replaces its worker after the run.
    "builtins": (CORPUS / "patch_builtins.py").read_text(),
    "builtins, leaving the grader working": """import builtins

import numpy as np

builtins.abs = lambda x: 0
builtins.AssertionError = type("Ignored", (Exception,), {})


def sinusoidal_pe(T, C):
    return np.zeros((T, C))
""",
}


# Each group of cases below runs on one page, one case after another: no run may affect the next, whichever
# case it belongs to (and each page costs a Python boot).

def test_the_reference_passes_after_a_run_that_patched_the_checks(open_exercise):
    page = open_exercise()
    for patched, source in PATCHES_THAT_ONLY_HELP.items():
        assert not grade_in_page(page, source)["passed"], patched
        report = grade_in_page(page, SOLUTION)
        assert report["passed"], (patched, report)


def _sixth_draw_after_seed_1():
    state = np.random.RandomState(1)
    state.rand(5)
    return repr(state.rand())


# Numpy state a run could leave behind: (the run, a later run that prints the state, what it prints if it is left).
NUMPY_STATE = {
    "np.seterr(all='raise')": (SOLUTION + '\nnp.seterr(all="raise")\n',
                               'import numpy as np\nprint(np.geterr()["over"])\n', "raise\n"),
    "np.random.seed(1)": (SOLUTION + "\nnp.random.seed(1)\nnp.random.rand(5)\n",
                          "import numpy as np\nprint(repr(np.random.rand()))\n", _sixth_draw_after_seed_1() + "\n"),
}


def test_numpy_state_left_by_a_run_does_not_reach_the_next(open_exercise, tmp_path):
    page = open_exercise()
    honest = HONEST_SUBMISSIONS["np.random.seed and rand"]
    offline = verdict(grade_with_cli(honest, tmp_path, "seeded"))
    for state, (leave_state, print_state, printed_when_left) in NUMPY_STATE.items():
        grade_in_page(page, leave_state)
        # Every run gets a fresh interpreter, so the next run does not see the state...
        assert grade_in_page(page, print_state)["stdout"] != printed_when_left, state
        # ...and a submission that uses numpy's random and error state itself gets the CLI's verdict after it.
        grade_in_page(page, leave_state)
        assert verdict(grade_in_page(page, honest)) == offline, state


LEFT_BEHIND = {
    "rebinds np.sin": SOLUTION + "\nnp.sin = lambda x: np.zeros_like(x)\n",
    "rebinds builtins.max": SOLUTION + "\nimport builtins\nbuiltins.max = lambda *args, **kwargs: 0\n",
    "silences warnings": "import warnings\nwarnings.simplefilter('ignore')\n" + SOLUTION,
}


def test_nothing_a_run_leaves_changes_the_next_verdict(open_exercise, tmp_path):
    honest = HONEST_SUBMISSIONS["warnings.warn"]  # the reference, printing warnings
    offline = verdict(grade_with_cli(honest, tmp_path, "warnings"))
    page = open_exercise()
    for left, source in LEFT_BEHIND.items():
        grade_in_page(page, source)
        assert verdict(grade_in_page(page, honest)) == offline, left


# Runs that would decide the verdicts of later runs on the page if they shared its interpreter or worker.
POISONING = {
    "gc callback and other hooks re-patching numpy's comparisons": (CORPUS / "tamper_repatch_hooks.py").read_text(),
    "js.self.postMessage replaced": "import js\n\njs.self.postMessage = lambda *args: None\n",
    "worker's onmessage answering every run with a pass": """import json

import js
from pyodide.ffi import create_proxy


def pass_everything(message):
    data = message.data
    tests = [{"name": name, "status": "passed", "message": "", "duration_ms": 1, "stdout": ""}
             for name in data.spec.test_names]
    report = {"exercise": data.spec.exercise_id, "passed": True, "error": None, "tests": tests, "stdout": ""}
    js.postMessage(js.JSON.parse(json.dumps({"type": "report", "runId": data.runId, "report": report})))


js.self.onmessage = create_proxy(pass_everything)
""",
    "js.close()": "import js\n\njs.close()\n",
}


def test_no_run_decides_the_verdict_of_a_later_one(open_exercise):
    page = open_exercise()
    set_time_limit(page, 3)  # a run whose worker went silent ends at the limit
    for poison, source in POISONING.items():
        grade_in_page(page, source)
        wrong = grade_in_page(page, (MUTANTS / "swapped_sin_cos.py").read_text())
        assert not wrong["passed"] and "failed" in [t["status"] for t in wrong["tests"]], (poison, wrong)
        correct = grade_in_page(page, SOLUTION)
        assert correct["passed"], (poison, correct)
