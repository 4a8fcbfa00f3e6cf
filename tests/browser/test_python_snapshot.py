"""The memory snapshot of a freshly started Python (site/js/python-snapshot.js, worker.js).

The page's second worker makes one; later workers, and the first worker of a later visit, restore it
instead of starting Python again. A restored interpreter must grade like one started the ordinary way,
draw its own random numbers, and a snapshot that does not boot must cost nothing but time.
"""

import json

import pytest

from conftest import PYTHON_READY_MS, SNAPSHOT_CACHE, SNAPSHOT_VERSION_HEADER, wait_until_ready
from page_helpers import EXERCISES, SOLUTION, grade_in_page

# Per Pyodide version and standard library (the site's, named by its content).
SNAPSHOT_KEY_JS = """(() => {
    const key = new URL('python-snapshot-' + document.body.dataset.pyodideVersion + '.bin',
                        new URL(document.body.dataset.pyodideUrl, location.href));
    const stdlib = new URL(document.body.dataset.stdlibUrl, location.href);
    key.searchParams.set('stdlib', stdlib.pathname + stdlib.search);
    return key.href;
})()"""
WRONG = (EXERCISES / "sinusoidal_pe" / "mutants" / "swapped_sin_cos.py").read_text()
PRINTS_A_RANDOM_NUMBER = SOLUTION + "\nimport random\nprint(random.random())\n"


def wait_until_warm(page):
    page.wait_for_function("window.runner.isWarm()", timeout=PYTHON_READY_MS)


def boots(page):
    return page.evaluate("window.runner.boots")


def saved_snapshot_size(page):
    return page.evaluate(f"""async () => {{
        const response = await (await caches.open('{SNAPSHOT_CACHE}')).match({SNAPSHOT_KEY_JS});
        return response ? (await response.arrayBuffer()).byteLength : null;
    }}""")


@pytest.mark.cold_start
def test_workers_after_the_second_restore_the_snapshot_and_grade_the_same(open_exercise):
    page = open_exercise()
    wrong_first = grade_in_page(page, WRONG)
    wait_until_warm(page)
    assert boots(page)[:2] == ["plain", "made-snapshot"]
    assert saved_snapshot_size(page) > 1_000_000
    reports = [grade_in_page(page, source) for source in (SOLUTION, WRONG, PRINTS_A_RANDOM_NUMBER,
                                                           PRINTS_A_RANDOM_NUMBER)]
    wait_until_warm(page)
    assert set(boots(page)[2:]) == {"restored"}
    assert reports[0]["passed"]
    assert [t["status"] for t in reports[1]["tests"]] == [t["status"] for t in wrong_first["tests"]]
    assert [t["message"] for t in reports[1]["tests"]] == [t["message"] for t in wrong_first["tests"]]
    # Two restored interpreters do not share the random state Python's start-up seeded.
    printed = [report["stdout"] for report in reports[2:]]
    assert all(report["passed"] for report in reports[2:]) and printed[0] != printed[1], printed


@pytest.mark.cold_start
def test_a_later_visit_starts_from_the_saved_snapshot(open_exercise, page):
    open_exercise()
    grade_in_page(page, SOLUTION)
    wait_until_warm(page)
    page.reload()
    wait_until_ready(page)
    assert boots(page)[0] == "restored"
    assert grade_in_page(page, SOLUTION)["passed"]


def test_a_snapshot_that_does_not_boot_is_deleted_and_costs_no_verdict(open_exercise, page):
    open_exercise()
    page.evaluate(f"""async () => {{
        const bytes = new Uint8Array(1 << 20).fill(7);
        const headers = {{'{SNAPSHOT_VERSION_HEADER}': document.body.dataset.pyodideVersion}};
        await (await caches.open('{SNAPSHOT_CACHE}')).put({SNAPSHOT_KEY_JS}, new Response(bytes, {{headers}}));
    }}""")
    page.reload()
    wait_until_ready(page)
    wait_until_warm(page)
    assert boots(page)[0] == "plain", "the worker that got the broken snapshot started Python the ordinary way"
    assert saved_snapshot_size(page) is None, "the broken snapshot is deleted"
    assert grade_in_page(page, SOLUTION)["passed"]
    assert not grade_in_page(page, WRONG)["passed"]


def test_a_page_that_cannot_compile_the_webassembly_leaves_it_to_the_worker(open_exercise, page):
    # The page compiles Pyodide's WebAssembly for its workers (runner.js); where it cannot, the first worker
    # compiles it and hands it on to the next.
    page.add_init_script("WebAssembly.compileStreaming = () => Promise.reject(new TypeError('not here'))")
    warnings = []
    page.on("console", lambda message: message.type == "warning" and warnings.append(message.text))
    open_exercise()
    assert grade_in_page(page, SOLUTION)["passed"]
    assert not grade_in_page(page, WRONG)["passed"]  # on a spare
    assert any("the worker compiles it" in text for text in warnings), warnings


def test_the_learners_code_cannot_reach_the_sites_storage(open_exercise, page):
    open_exercise()
    grade_in_page(page, SOLUTION)
    wait_until_warm(page)
    size = saved_snapshot_size(page)
    reaches = """import js


def sinusoidal_pe(T, C):
    found = [name for name in ("caches", "indexedDB", "Worker", "SharedWorker") if hasattr(js, name)]
    raise RuntimeError(f"reachable: {found}")
"""
    report = grade_in_page(page, reaches)
    assert "reachable: []" in report["tests"][0]["message"], report["tests"][0]
    assert saved_snapshot_size(page) == size


# What a run finds of the bytecode of the modules that are loaded: numpy's and the grader's, and those the zip
# importer loaded from the standard library (the site's zip, see sitebuild/python_bytecode.py; frozen ones are
# not), how many, and those without a .pyc, or whose .pyc is not a checked hash-based one (flags 3) holding
# their source's hash (Python ran the .pyc, not a compilation of its own, only when that hash matches).
CHECKS_BYTECODE = """import importlib.util, json, sys, zipimport
def checked(pyc, source):
    return int.from_bytes(pyc[4:8], "little") == 3 and pyc[8:16] == importlib.util.source_hash(source)
modules = list(sys.modules.values())
loaded = [name for name in (getattr(m, "__file__", None) or "" for m in modules)
          if name.endswith(".py") and ("/numpy/" in name or "/grader-core/" in name)]
zipped = [m for m in modules if isinstance(getattr(m, "__loader__", None), zipimport.zipimporter)]
wrong = []
for source in loaded:
    try:
        pyc = open(importlib.util.cache_from_source(source), "rb").read()
    except OSError:
        wrong.append(source)
        continue
    if not checked(pyc, open(source, "rb").read()):
        wrong.append(source)
for module in zipped:  # the zip importer names the file it ran: the module's .pyc, or its source
    path = module.__file__
    read = module.__loader__.get_data
    if not path.endswith(".pyc") or not checked(read(path), read(path[:-1])):
        wrong.append(path)
print(json.dumps({"numpy and grader": len(loaded), "standard library": len(zipped), "wrong": wrong}))
""" + SOLUTION
CORRUPTS_BYTECODE = """import importlib.util, numpy
open(importlib.util.cache_from_source(numpy.__file__), "wb").write(b"not bytecode")
""" + SOLUTION


def test_every_worker_runs_numpy_and_the_grader_from_the_sites_bytecode(open_exercise):
    page = open_exercise()
    first = grade_in_page(page, CHECKS_BYTECODE)  # the page's first worker
    assert first["passed"], first
    found = json.loads(first["stdout"])
    assert found["numpy and grader"] > 50 and found["standard library"] > 50 and found["wrong"] == [], found
    assert grade_in_page(page, CORRUPTS_BYTECODE)["passed"]  # in its own worker's files only
    assert grade_in_page(page, CHECKS_BYTECODE)["stdout"] == first["stdout"]
