"""What the learner's code can do to the page from its grading worker, and what the page does with it.

1. A run leaves nothing behind: the worker withholds every storage entry point (and other contexts and
   the network) before the learner's code runs, on the global and every prototype, so no later run, no
   reload and no other page finds anything; the origin's storage, looked at from the page, holds only
   the site's own caches.
2. Messages the code posts itself (floods with wrong run ids, one huge message, forged events and
   endings, Try output) end the run or are cut; the page's main thread never stalls for 2 s.
3. Results kept in storage or brought by a progress file are checked before they are drawn, and a
   full storage is said on the page, with a way out that keeps the learner's code.
"""

import json

from playwright.sync_api import expect

from page_helpers import (SOLUTION, grade_in_page, import_file, set_code, set_time_limit, wait_for_editor)

# --- 1. Storage ---

# Run in the worker by the learner's code: every way to a storage entry point it can think of (the
# global and its prototypes, navigator's, calling a storage prototype's method on an object that is not the
# browser's), writing wherever it gets in. Prints what it reached. In Python through Pyodide's `js`: the worker
# evaluates no JavaScript from a string (test_worker_network.py).
REACH_STORAGE = r"""
import js
import pyodide_js
from pyodide.ffi import create_proxy

def chain(obj):
    found = []
    while obj:
        found.append(obj)
        obj = js.Object.getPrototypeOf(obj)
    return found

def find(obj, name):
    for target in chain(obj):
        described = js.Object.getOwnPropertyDescriptor(target, name)
        if described:
            return described.get.call(obj) if described.get else described.value
    return None

def on_upgrade(request):
    request.onupgradeneeded = create_proxy(lambda event: request.result.createObjectStore("s"))

write = {
    "caches": lambda c: c.open("attack").then(lambda cache: cache.put("/attack", js.Response.new("left"))),
    "indexedDB": lambda db: on_upgrade(db.open("attack")),
    "webkitRequestFileSystemSync": lambda f: f(0, 1024).root.getFile("attack-sync.txt", js.JSON.parse('{"create": true}')),
    "webkitRequestFileSystem": lambda f: f(0, 1024, lambda fs: fs.root.getFile("attack.txt", js.JSON.parse('{"create": true}'))),
    "webkitResolveLocalFileSystemURL": lambda f: None,
    "webkitResolveLocalFileSystemSyncURL": lambda f: None,
    "Worker": lambda W: W.new("data:text/javascript,indexedDB.open('attack-nested')"),
    "SharedWorker": lambda W: None,
    "BroadcastChannel": lambda B: B.new("attack").postMessage("left"),
    "fetch": lambda f: f("../../index.html?attack"),
    "XMLHttpRequest": lambda X: None,
    "importScripts": lambda f: None,
    "FontFace": lambda F: None,
}
reached = []
for name, use in write.items():
    entry = find(js.globalThis, name)
    if entry is not None:
        reached.append(name)
        try:
            use(entry)
        except Exception:
            pass
on_navigator = {
    "storage": lambda s: s.getDirectory().then(lambda root: root.getFileHandle("attack.txt", js.JSON.parse('{"create": true}'))),
    "storageBuckets": lambda b: b.open("attack").then(lambda bucket: bucket.getDirectory()),
    "locks": lambda l: l.request("attack", lambda lock: js.Promise.new(lambda resolve, reject: None)),
}
for name, use in on_navigator.items():
    entry = find(js.navigator, name)
    if entry is not None:
        reached.append(f"navigator.{name}")
        try:
            use(entry)
        except Exception:
            pass
# A storage method called on an object that is not the browser's: the ones that answer with a promise are
# then used to write (the page's own look at the origin's storage tells whether anything got through).
methods = {
    "StorageManager": ("getDirectory", lambda root: root.getFileHandle("attack-2.txt", js.JSON.parse('{"create": true}'))),
    "IDBFactory": ("open", lambda db: None),
    "CacheStorage": ("open", lambda cache: cache.put("/attack-2", js.Response.new("left"))),
    "StorageBucketManager": ("open", lambda bucket: bucket.getDirectory()),
}
for type_name, (method, use) in methods.items():
    prototype = getattr(getattr(js, type_name, None), "prototype", None)
    if prototype is None:
        continue
    try:
        answer = getattr(prototype, method).call(js.Object.create(prototype), "attack-2")
    except Exception:
        continue
    if hasattr(answer, "then"):
        answer.then(use).catch(lambda error: None)
    elif answer is not None:
        reached.append(f"{type_name}.{method}")
print("reached:", ", ".join(reached) or "nothing")

# Emscripten's IndexedDB file system, through Pyodide.
pyodide_js.FS.mkdirTree("/persist")
pyodide_js.FS.mount(pyodide_js.FS.filesystems.IDBFS, js.Object.new(), "/persist")
pyodide_js.FS.writeFile("/persist/left.txt", "left")
pyodide_js.FS.syncfs(False, lambda error=None: None)
with open("/home/pyodide/left.txt", "w") as file:
    file.write("left")
"""

READ_BACK = """
import os
print("read back:", [path for path in ("/home/pyodide/left.txt", "/persist/left.txt") if os.path.exists(path)])
"""

# The origin's storage as the page sees it (with every API): anything that is not the site's own.
LEFTOVERS = """async () => {
  const found = [];
  const root = await navigator.storage.getDirectory();
  for await (const name of root.keys()) found.push(`origin-private file ${name}`);
  for (const db of await indexedDB.databases()) found.push(`IndexedDB ${db.name}`);
  for (const name of await caches.keys()) {
    if (!name.startsWith("mlex-")) found.push(`cache ${name}`);
  }
  for (const request of await (await caches.open("mlex-python")).keys()) {
    if (!/\\/python-snapshot-[^/?]+\\.bin\\?stdlib=[^/]+$/.test(request.url)) found.push(`snapshot cache ${request.url}`);
  }
  for (const name of await navigator.storageBuckets.keys()) found.push(`storage bucket ${name}`);
  for (const type of [TEMPORARY, PERSISTENT]) {
    const entries = await new Promise((resolve) => webkitRequestFileSystem(type, 1024,
      (fs) => fs.root.createReader().readEntries(resolve, () => resolve([])), () => resolve([])));
    for (const entry of entries) found.push(`file system ${entry.name}`);
  }
  return found;
}"""

# What LEFTOVERS must see when something is there: written from the page, then removed.
WRITE_FROM_THE_PAGE = """async () => {
  await (await navigator.storage.getDirectory()).getFileHandle("control.txt", {create: true});
  await new Promise((resolve) => { indexedDB.open("control").onsuccess = (event) => { event.target.result.close(); resolve(); }; });
  await (await caches.open("control")).put("/control", new Response("x"));
  await navigator.storageBuckets.open("control");
  await new Promise((resolve, reject) => webkitRequestFileSystem(TEMPORARY, 1024,
    (fs) => fs.root.getFile("control.txt", {create: true}, resolve, reject), reject));
}"""
REMOVE_FROM_THE_PAGE = """async () => {
  await (await navigator.storage.getDirectory()).removeEntry("control.txt");
  await new Promise((resolve) => { indexedDB.deleteDatabase("control").onsuccess = resolve; });
  await caches.delete("control");
  await navigator.storageBuckets.delete("control");
  // Gone already where (as in Chromium) the temporary file system is the origin-private one.
  await new Promise((resolve, reject) => webkitRequestFileSystem(TEMPORARY, 1024,
    (fs) => fs.root.getFile("control.txt", {}, (file) => file.remove(resolve, reject), resolve), reject));
}"""


def test_a_run_leaves_nothing_for_later_runs_reloads_or_the_origin(open_exercise):
    page = open_exercise()
    page.evaluate(WRITE_FROM_THE_PAGE)
    assert len(page.evaluate(LEFTOVERS)) == 5  # the check sees each kind of storage
    page.evaluate(REMOVE_FROM_THE_PAGE)
    assert page.evaluate(LEFTOVERS) == []

    attack = grade_in_page(page, SOLUTION + REACH_STORAGE)
    assert attack["passed"], attack  # withholding storage takes nothing the grading needs
    assert "reached: nothing\n" in attack["stdout"], attack["stdout"]
    assert "read back: []" in grade_in_page(page, SOLUTION + READ_BACK)["stdout"]
    page.wait_for_timeout(500)  # anything the attack started asynchronously has had time to land
    assert page.evaluate(LEFTOVERS) == []

    page.reload()
    open_exercise()
    assert page.evaluate(LEFTOVERS) == []
    assert "read back: []" in grade_in_page(page, SOLUTION + READ_BACK)["stdout"]


# --- 2. Messages ---

# Longest stretch (ms) the page's main thread did not get to run a timer since install, checked every 20 ms.
MEASURE_STALLS = """() => {
  window.longestStall = 0;
  let last = performance.now();
  const tick = () => {
    const now = performance.now();
    window.longestStall = Math.max(window.longestStall, now - last);
    last = now;
    setTimeout(tick, 20);
  };
  setTimeout(tick, 20);
}"""


def posting(code, then=SOLUTION):
    """A submission whose module posts messages to the page itself (`code`: Python, with post(message) for a
    message made of JSON), to run number RUN (the test fills it in), followed by `then`."""
    return ("import js, json\n\ndef post(message):\n    js.postMessage(js.JSON.parse(json.dumps(message)))\n\n"
            + code + "\n" + then)


FLOODED = "your code sent the page more than 100000 messages, or too much text"

GRADING_ATTACKS = {  # name: (submission, what the report's error or a test's message says)
    "three million messages with a wrong run id": (posting(
        "message = js.JSON.parse('{\"type\": \"event\", \"runId\": -1}')\n"
        "for i in range(3_000_000):\n    js.postMessage(message)"), FLOODED),
    "one message of 33 million characters": (posting(  # Pyodide takes seconds to hand JavaScript a longer str
        "message = js.JSON.parse('{\"type\": \"event\", \"runId\": -1}')\n"
        "message.junk = 'x' * 2 ** 25\njs.postMessage(message)"), FLOODED),
    "a comparison picture 16000 wide": (posting(
        "post({'type': 'event', 'runId': RUN, 'event': {'event': 'test', 'index': 0, 'status': 'failed', 'message': '',"
        " 'duration_ms': 1, 'comparison': {'got': {'shape': [4000, 16000], 'step': [1, 1], 'values': [{'length': 16000}]},"
        " 'expected': None}}})"), "invalid event"),
    # The relay counts what structured cloning carries beyond enumerable keys: an Error's message (30 million
    # characters) and a BigInt's digits (30 MB), both made in JavaScript, where Python never holds them.
    "an Error of 30 million characters": (posting(
        "join = js.Array.prototype.join\n"
        "js.postMessage(js.Array.of(js.Array.new(30_000_001)).map(join.call.bind(join)).map(js.Error))"), FLOODED),
    "a BigInt of 30 MB": (posting(
        "js.postMessage(js.Array.of(-(2 ** 60)).map(js.BigInt.asUintN.bind(None, 240_000_000)))"), FLOODED),
    "a forged report, then the run's end": (posting(
        "post({'type': 'report', 'runId': RUN, 'report': {'passed': True, 'tests': []}})\n"
        "post({'type': 'graded', 'runId': RUN})"), "Grading stopped before your code was loaded"),
}
# Try output posted by the code: 100,000 characters in 20,000 messages, then an ending with 2 million more
# and an error that is not text.
TRY_FLOOD = posting(
    "for i in range(20_000):\n    post({'type': 'output', 'runId': RUN, 'text': 'spam '})\n"
    "post({'type': 'tried', 'runId': RUN, 'output': 'x' * 2_000_000, 'error': {'toString': None}})", then="")


def next_run(page, submission):
    return submission.replace("RUN", str(page.evaluate("window.runner.runCount + 1")))


def test_floods_and_forged_messages_end_the_run_without_freezing_the_page(open_exercise):
    page = open_exercise()
    set_time_limit(page, 20)
    page.evaluate(MEASURE_STALLS)
    for name, (submission, said) in GRADING_ATTACKS.items():
        report = grade_in_page(page, next_run(page, submission))
        assert not report["passed"], name
        texts = [report["error"] or ""] + [test["message"] for test in report["tests"]]
        assert any(said in text for text in texts), (name, texts)
    assert page.locator("#results canvas").count() == 0
    assert grade_in_page(page, SOLUTION)["passed"]

    page.evaluate("document.getElementById('try-code').open = true")
    page.fill("#try-input", next_run(page, TRY_FLOOD))
    page.click("#try-button")
    page.wait_for_function("!document.getElementById('try-output').hasAttribute('aria-busy')")
    output = page.locator("#try-output").inner_text()
    assert output.startswith("spam spam ") and len(output) < 65_000, output[-200:]
    assert "[output truncated: more than 64000 characters]" in output
    assert page.evaluate("window.longestStall") < 2000


# --- 3. Kept results and a full storage ---

FORGED_RESULTS = json.dumps({
    "report": {"exercise": "sinusoidal_pe", "passed": False, "error": None, "stdout": "", "score": 0, "max_score": 1,
               "tests": [{"name": "t", "status": "failed", "message": "", "duration_ms": 1, "stdout": "", "score": 0,
                          "max_score": 1, "comparison": {"got": {"shape": [4000, 16000], "step": [1, 1],
                                                                 "values": [{"length": 16000}]}, "expected": None}}]},
    "interruption": None, "source": ""})


def fill_storage(page, prefix):
    """Fills localStorage with entries whose keys start with `prefix` until it takes no more."""
    page.evaluate("""prefix => {
        for (let size = 1 << 20, i = 0; size >= 16; size >>= 1) {
            try { for (;; i += 1) localStorage.setItem(prefix + i, "x".repeat(size)); } catch {}
        }
    }""", prefix)


def test_kept_results_are_checked_and_a_full_storage_is_said(page, base_url, open_exercise):
    page.goto(f"{base_url}/index.html")
    message, is_error = import_file(page, "forged.json", json.dumps({
        "format": "ml-exercises-progress", "version": 1, "entries": {"mlex:results:sinusoidal_pe": FORGED_RESULTS}}))
    assert is_error and 'entry "mlex:results:sinusoidal_pe" is not valid test results' in message, message
    page.evaluate("results => localStorage.setItem('mlex:results:sinusoidal_pe', results)", FORGED_RESULTS)
    open_exercise()
    assert page.locator("#results canvas").count() == 0  # the forged results are not drawn
    assert page.locator("#results .results-placeholder").is_visible()

    notice = page.locator("#storage-notice")
    fill_storage(page, "mlex:results:old-")
    set_code(page, SOLUTION + "# edited\n")
    expect(page.get_by_role("alert")).to_contain_text("storage for this site is full, so your latest code is not saved")
    page.get_by_role("button", name="Clear saved results").click()
    expect(notice).to_contain_text("your latest code is saved again")
    assert page.evaluate("localStorage.getItem('mlex:code:sinusoidal_pe')") == SOLUTION + "# edited\n"

    fill_storage(page, "mlex:code:other-")  # full of what clearing results does not free
    set_code(page, SOLUTION + "# edited again\n" * 50)  # longer: a slightly longer value may still fit
    page.get_by_role("button", name="Clear saved results").click()
    expect(notice).to_contain_text("still full, so your latest code is not saved")
    wait_for_editor(page)
