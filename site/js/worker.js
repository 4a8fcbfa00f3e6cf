// Grading worker: runs Pyodide and the pure grader (grader/core) off the page's thread.
//
// Build note: this is a CLASSIC worker (started without {type: "module"}): bundle it with
// esbuild as format "iife"; Pyodide is not bundled: importScripts() loads `pyodide.js` at
// runtime from the `pyodideUrl` the page sends.
//
// The page starts this script as the relay (named RELAY_NAME, see worker-relay.js), which starts
// it again as the grading worker and passes messages between the two; "page" below means the
// page through the relay.
//
// Protocol (see the site contract): page -> worker {type:"init"} (where Pyodide and the grader are: the worker
// starts loading pyodide.asm.js), {type:"boot"} (how to start Python: a snapshot to restore or to make, which
// the page looks up meanwhile, and Pyodide's WebAssembly module, which the page compiles; null: the worker
// compiles it), then one {type:"grade"} (from test number firstTest on) or {type:"try"}, each with `earlier`
// (the code of the steps it uses); worker -> page "status", "wasm-module" (when it
// compiled Pyodide itself), "snapshot" {bytes, version} (when asked to make one) or
// "snapshot-rejected" (when the one it got did not boot), "ready" {boot: how Python started:
// "restored" | "made-snapshot" | "plain"} | "init-error", then "event"s and "graded" (the page
// builds the report from the events it checked) | "run-error", or "output" {text}s then "tried"
// {output: the rest, error}, and "stuck" {where} when a KeyboardInterrupt sent through the
// interrupt buffer reaches Python. The page owns the time limits and gives each run a new worker:
// it terminates this one. The learner's code can post messages too: the page bounds what it takes.
//
// Session mode (the capstone page, see capstone-session.js): instead of one run, a worker can hold a
// grader.core.capstone_session.Session built from the steps in `earlier`: page -> worker
// {type:"session-start", runId, callId, earlier, config, text, weights (ArrayBuffer|null)} -> "session-ready"
// {callId, info} | "session-error" {callId, ...}; then any number of {type:"session-call", runId, callId, method, args}
// -> "session-result" {callId, value} | "session-error" {callId, error, label, exerciseId}. `label` names the
// step that failed ("your adamw_step (step 28)") and `exerciseId` is its id, or both are null. "stuck" {where}
// works as in a run. In session mode the steps' code cannot post to the page (js.postMessage): the worker's
// postMessage is withheld, and a step that tries fails its call naming it. Binary answers (weights_bytes) are
// refused past MAX_SESSION_BYTES, naming the vocabulary's size.

import { MAX_SESSION_BYTES } from "./message-budget.js";
import { relay, RELAY_NAME } from "./worker-relay.js";

const GRADER_DIR = "/home/pyodide/grader-core";
const RAW_OUTPUT_LIMIT = 64_000; // like the CLI's cap on what a child writes to fds 1/2

// The engine's events, plus what the code wrote around the engine's capture (e.g.
// os.write(1, ...)) as an event attributed to no test.
const GLUE = `
import dataclasses, json, linecache, signal, sys, traceback
import numpy  # imported while booting, not in the first run: hidden tests and most submissions use it
from grader.core.engine import (
    SUBMISSION_FILENAME, EarlierStep, GradingSpec, InProcessLearner, load_tests, run_tests, try_code,
)

earlier_files = {}  # filename of an earlier step's code -> its EarlierStep, for where_stopped
tests_file = [None]  # the hidden tests' filename during a run, for where_stopped

def load_earlier_steps(earlier_json):
    """[EarlierStep] from the page's list (dependencies first): the code of the steps this one uses."""
    earlier = [EarlierStep.from_dict(fields) for fields in json.loads(earlier_json)]
    earlier_files.clear()
    earlier_files.update((step.filename, step) for step in earlier)
    return earlier

def where_stopped(frame):
    """Where the run was, from the innermost frame out, or None. In the learner's code (or an earlier
    step's): {line, function, code}, with "earlier" (its label) in an earlier step; a reference's line is
    not shown. In the hidden tests' own code, outside any call into the learner's (a slow or looping test is
    the exercise's bug, not the learner's): {tests: its filename, line, function}."""
    while frame is not None and frame.f_code.co_filename not in (SUBMISSION_FILENAME, *earlier_files):
        if frame.f_code.co_filename == tests_file[0]:
            return {"tests": tests_file[0], "line": frame.f_lineno, "function": frame.f_code.co_name}
        frame = frame.f_back
    if frame is None:
        return None
    filename = frame.f_code.co_filename
    earlier = earlier_files.get(filename)
    if earlier is not None and not earlier.yours:
        return {"earlier": earlier.label, "exercise_id": earlier.exercise_id}
    where = {"line": frame.f_lineno, "function": frame.f_code.co_name,
             "code": linecache.getline(filename, frame.f_lineno).strip()}
    return where if earlier is None else {**where, "earlier": earlier.label, "exercise_id": earlier.exercise_id}

def numbered_from(first, event):
    """The event of a run that starts at test number first, numbered as in the whole list."""
    if first and event["event"] in ("test_start", "test"):
        return {**event, "index": event["index"] + first}
    if first and event["event"] == "stdout" and event["test"] is not None:
        return {**event, "test": event["test"] + first}
    return event

def report_where_stopped(post_stuck):
    def on_interrupt(signum, frame):
        post_stuck(json.dumps(where_stopped(frame)))
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, on_interrupt)

def try_calls(source, calls, earlier_json, post_stuck):
    earlier = load_earlier_steps(earlier_json)
    report_where_stopped(post_stuck)
    return try_code(source, calls, earlier)

def run(spec_json, source, earlier_json, post, take_raw_output, post_stuck, first_test):
    earlier = load_earlier_steps(earlier_json)
    report_where_stopped(post_stuck)
    fields = json.loads(spec_json)
    spec = GradingSpec(**{f.name: fields[f.name] for f in dataclasses.fields(GradingSpec)})
    tests_file[0] = spec.tests_filename
    tests = load_tests(spec)

    def emit(event):
        post(json.dumps(numbered_from(first_test, event)))

    # From test number first_test on: the page continues a run this way after a test over its own time limit.
    run_tests(spec, InProcessLearner(spec.entry, source, earlier), emit, tests[first_test:])
    for stream in (sys.__stdout__, sys.__stderr__):
        try:
            stream.flush()
        except Exception:
            pass
    raw_output = take_raw_output()
    if raw_output:
        emit({"event": "stdout", "text": raw_output, "test": None})

session = None
SESSION_METHODS = {"set_text", "init_weights", "load_weights", "weights_bytes", "step_times", "train", "held_out_loss",
                   "start_generation", "next_text"}

def session_outcome(call, max_bytes):
    """The result of call(): bytes as they are (at most max_bytes), anything else as JSON {"value"} or
    {"error", "label", "exercise_id"}."""
    from grader.core.capstone_session import StepFailed
    try:
        value = call()
    except StepFailed as exc:
        return json.dumps({"error": str(exc), "label": exc.label, "exercise_id": exc.exercise_id})
    except ValueError as exc:  # bad input, e.g. a prompt character outside the vocabulary
        return json.dumps({"error": str(exc), "label": None})
    except Exception:  # a failure of the session itself: its traceback says where
        return json.dumps({"error": "The session failed:\\n" + traceback.format_exc(), "label": None})
    if isinstance(value, bytes) and len(value) > max_bytes:
        return json.dumps({"error": f"The model's weights take {len(value) / 1e6:.1f} MB, more than the "
                           f"{max_bytes / 1e6:.0f} MB the page passes between its threads: its vocabulary has "
                           f"{len(session.vocab):,} characters.", "label": None})
    return value if isinstance(value, bytes) else json.dumps({"value": value})

def posting_step():
    """JSON {label, exercise_id} of the step whose code is running (it tried to post a message), or null."""
    from grader.core.capstone_session import running_step
    step = running_step()
    return json.dumps(step and {"label": step.label, "exercise_id": step.exercise_id})

def session_start(earlier_json, config_json, text, weights, post_stuck, max_bytes):
    def start():
        global session
        from grader.core.capstone_session import Session
        report_where_stopped(post_stuck)
        session = Session(load_earlier_steps(earlier_json), json.loads(config_json))
        info = session.set_text(text)
        if weights is not None:
            info["weights"] = session.load_weights(weights.to_bytes())
        return info
    return session_outcome(start, max_bytes)

def session_call(method, args_json, data, max_bytes):
    if method not in SESSION_METHODS:
        return json.dumps({"error": f"the session has no method {method!r}", "label": None})
    args = json.loads(args_json)
    if data is not None:
        args = [data.to_bytes(), *args]
    return session_outcome(lambda: getattr(session, method)(*args), max_bytes)
`;

let runGrade = null;
let runTry = null;
let startSession = null;
let callSession = null;
let postingStep = null;
let rawOutput = "";
let sendOutput = null; // during "try": posts what was printed since it last did
const decoder = new TextDecoder();
// Kept from the start: the learner's code can rebind self.postMessage, but not this.
const postToPage = self.postMessage.bind(self);
const parseJson = JSON.parse; // nor this, which reads the session's answers

if (self.name === RELAY_NAME) relay(self.location.href);
else self.onmessage = serve;

// Settles with the page's {snapshot, makeSnapshot, wasmModule} ("boot" message).
let resolveBootOrder = () => {};
const bootOrder = new Promise((resolve) => { resolveBootOrder = resolve; });

// The page sends "grade" only after "ready", once.
function serve({ data }) {
  if (data.type === "boot") {
    resolveBootOrder(data);
  } else if (data.type === "init") {
    init(data).then(
      (boot) => postToPage({ type: "ready", boot }),
      (err) => postToPage({ type: "init-error", error: String(err?.message ?? err) }),
    );
  } else if (data.type === "grade") {
    gradeRun(data);
  } else if (data.type === "try") {
    tryRun(data);
  } else if (data.type === "session-start") {
    sessionStart(data);
  } else if (data.type === "session-call") {
    sessionCall(data);
  }
}

async function init({ pyodideUrl, graderFilesUrl, bytecodeUrl, stdlibUrl, interruptBuffer }) {
  status("Loading Python…");
  // The page compiles the WebAssembly module while this worker starts and evaluates pyodide.asm.js.
  const compiled = bootOrder.then(({ wasmModule }) => wasmModule ?? compileWasm(pyodideUrl));
  importScripts(new URL("pyodide.js", pyodideUrl).href, new URL("pyodide.asm.js", pyodideUrl).href);
  instantiateWasmHere(pyodideUrl, compiled);
  const filesRequest = fetch(graderFilesUrl);
  // The bytecode is needed once Python has started, seconds after the WebAssembly has arrived: on a slow
  // link, downloading it alongside would delay the files Python starts from.
  const bytecode = bytecodeUrl ? compiled.catch(() => {}).then(() => downloadBytecode(bytecodeUrl)) : null;
  const { snapshot, makeSnapshot } = await bootOrder;
  // The site's standard library carries its modules' bytecode: Python does not compile them as it starts.
  const where = stdlibUrl ? { indexURL: pyodideUrl, stdLibURL: stdlibUrl } : { indexURL: pyodideUrl };
  const { pyodide, boot } = await bootPython(where, snapshot, makeSnapshot);
  if (interruptBuffer) pyodide.setInterruptBuffer(interruptBuffer);
  const keepRawOutput = {
    write(bytes) {
      if (rawOutput.length < RAW_OUTPUT_LIMIT) {
        rawOutput = (rawOutput + decoder.decode(bytes, { stream: true })).slice(0, RAW_OUTPUT_LIMIT);
      }
      sendOutput?.();
      return bytes.length;
    },
  };
  pyodide.setStdout(keepRawOutput);
  pyodide.setStderr(keepRawOutput);
  status("Loading the grader…");
  const response = await filesRequest;
  if (!response.ok) throw new Error(`${graderFilesUrl}: HTTP ${response.status}`);
  for (const [path, source] of Object.entries(await response.json())) {
    const file = `${GRADER_DIR}/${path}`;
    pyodide.FS.mkdirTree(file.slice(0, file.lastIndexOf("/")));
    pyodide.FS.writeFile(file, source);
  }
  pyodide.runPython(`import sys; sys.path.insert(0, "${GRADER_DIR}")`);
  const bytecodeZip = await bytecode;
  if (bytecodeZip) pyodide.unpackArchive(bytecodeZip, "zip", { extractDir: "/" });
  const namespace = pyodide.globals.get("dict")();
  pyodide.runPython(GLUE, { globals: namespace });
  runGrade = namespace.get("run");
  runTry = namespace.get("try_calls");
  startSession = namespace.get("session_start");
  callSession = namespace.get("session_call");
  postingStep = namespace.get("posting_step");
  withholdPersistence();
  withholdEvaluation(pyodide);
  return boot;
}

// The bytecode of numpy's and the grader's modules, compiled by the build (sitebuild/python_bytecode.py):
// without it Python compiles them on every boot, about a third of a restored one. The .pyc files are
// checked against their sources' hashes, so one that does not match is compiled again, never run; a
// failed download costs that time only. Resolves to the zip's bytes, or null.
async function downloadBytecode(url) {
  try {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return await response.arrayBuffer();
  } catch (err) {
    console.warn(`No bytecode from ${url}:`, err);
    return null;
  }
}

// {pyodide, boot}: a booted interpreter with numpy loaded, and how it started. `where`: loadPyodide's
// {indexURL, stdLibURL} options. `snapshot`
// ({bytes, version}, or null) is the memory of an interpreter that had just booted, made by an
// earlier worker: restoring it skips Python's own start-up (most of a boot). With `makeSnapshot`,
// this worker boots the ordinary way and sends the page such a snapshot, taken before anything
// else runs in it. The snapshot API is private in Pyodide 0.27 (checked against this version); a
// snapshot that does not boot is reported and this worker boots the ordinary way.
async function bootPython(where, snapshot, makeSnapshot) {
  if (snapshot) {
    try {
      const pyodide = await loadPython({
        ...where, _loadSnapshot: snapshot.bytes, packages: ["numpy"],
      });
      if (pyodide.version !== snapshot.version) throw new Error(`made by Pyodide ${snapshot.version}`);
      reseedRandom(pyodide);
      return { pyodide, boot: "restored" };
    } catch (err) {
      postToPage({ type: "snapshot-rejected", error: String(err?.message ?? err) });
    }
  }
  if (makeSnapshot) {
    const pyodide = await loadPython({ ...where, _makeSnapshot: true });
    try {
      const bytes = pyodide.makeMemorySnapshot();
      postToPage({ type: "snapshot", bytes, version: pyodide.version }, [bytes.buffer]);
    } catch (err) {
      console.warn("No Python snapshot:", err);
    }
    await pyodide.loadPackage("numpy");
    return { pyodide, boot: "made-snapshot" };
  }
  // `packages` starts numpy's download with the runtime's, instead of after it.
  return { pyodide: await loadPython({ ...where, packages: ["numpy"] }), boot: "plain" };
}

// Python's start-up imports `random`, seeded then: interpreters restored from one snapshot would
// all draw the same numbers. Each draws its own, as a freshly started Python does.
function reseedRandom(pyodide) {
  pyodide.runPython("import random; random.seed()");
}

// The learner's code runs in this worker and can reach its globals (through the `js` module).
// Without these it cannot leave anything for a later run, a reload or another page: the origin's
// storage (Cache Storage, IndexedDB, the sandboxed and origin-private file systems, storage buckets;
// the offline copy of the site and the Python snapshot live there, in one quota), other contexts
// (nested workers, broadcast channels, locks) and the network, whose HTTP cache would keep an entry
// for each URL it asks for. Each name is deleted from the global or navigator and from every
// prototype above it, where the browser defines it: the getters and functions are then referenced
// by nothing (a worker has no fresh realm to take them from, nested workers being gone). Nothing
// the grading needs uses them once Python is up; the check makes a browser that adds one of these
// another way fail the boot, not a run.
const WITHHELD_GLOBALS = [
  "caches", "indexedDB", "webkitRequestFileSystem", "webkitRequestFileSystemSync",
  "webkitResolveLocalFileSystemURL", "webkitResolveLocalFileSystemSyncURL",
  "Worker", "SharedWorker", "BroadcastChannel",
  "fetch", "XMLHttpRequest", "importScripts", "EventSource", "WebSocket", "WebSocketStream", "WebTransport",
  "FontFace", "fonts",
];
const WITHHELD_NAVIGATOR = ["storage", "storageBuckets", "locks"];

function withholdPersistence() {
  withhold(self.navigator, WITHHELD_NAVIGATOR);
  withhold(self, WITHHELD_GLOBALS);
}

// Each name deleted from `object` and every prototype above it.
function withhold(object, names) {
  for (const name of names) {
    for (let target = object; target !== null; target = Object.getPrototypeOf(target)) {
      if (Object.prototype.hasOwnProperty.call(target, name)) delete target[name];
    }
    if (name in object) throw new Error(`the grading worker cannot withhold ${name} in this browser`);
  }
}

// import() is syntax, not a global: the learner's code reaches it by evaluating a string of JavaScript. The
// worker's Content-Security-Policy (sent with its script by the site's server, or by the service worker: see
// sitebuild/offline.py) forbids that, and any script or request but what the boot loads. A worker that has no
// policy (a host that cannot send headers, before the service worker serves the site) withholds what evaluates
// a string: eval, the Function constructors (also reachable as any function's `constructor`, and kept by Pyodide
// as pyodide._api.tests.Function), and timers given a string. Pyodide uses the global Function (its prototype,
// instanceof), so that name stays, for a stand-in that evaluates nothing. Once they are gone, nothing in the
// worker calls import() or importScripts with a URL the code chooses.
function withholdEvaluation(pyodide) {
  const functions = [function () {}, async function () {}, function* () {}, async function* () {}];
  const standIn = function Function() {
    throw new TypeError("the grading worker evaluates no JavaScript from a string");
  };
  standIn.prototype = Function.prototype;
  withhold(self, ["eval"]);
  self.Function = standIn;
  if (pyodide._api?.tests?.Function) pyodide._api.tests.Function = standIn;
  for (const prototype of functions.map(Object.getPrototypeOf)) {
    delete prototype.constructor;
    if (prototype.constructor !== Object) throw new Error("the grading worker cannot withhold Function");
  }
  for (const name of ["setTimeout", "setInterval"]) {
    const schedule = self[name].bind(self);
    withhold(self, [name]);
    self[name] = (handler, ...rest) => {
      if (typeof handler !== "function") throw new TypeError(`${name} takes a function here, not code`);
      return schedule(handler, ...rest);
    };
  }
}

// Pyodide 0.27's loadPyodide() compiles pyodide.asm.wasm in every worker and has no option to
// pass a compiled module; when instantiating fails (e.g. a snapshot whose memory is too small) it
// logs a warning and never settles. Its Emscripten settings take an instantiateWasm hook, so the
// factory pyodide.asm.js defines is wrapped, and this worker instantiates the module itself (`compiled`):
// the one the page compiled (or an earlier worker of the page did), which skips the compilation here, or one it
// compiles (again, if that failed) and sends to the page for the next workers. A failure rejects the boot in progress
// (see loadPython). Checked against this version (see runner.js).
let failBoot = () => {};

function instantiateWasmHere(pyodideUrl, compiled) {
  const createModule = self._createPyodideModule;
  if (typeof createModule !== "function") return; // another Pyodide: boot as it does by default
  self._createPyodideModule = (settings) => {
    if (typeof settings.instantiateWasm !== "function") return createModule(settings);
    settings.instantiateWasm = (imports, receive) => {
      const instantiate = (module) => WebAssembly.instantiate(module, imports)
        .then((created) => receive(created, module));
      compiled.then(instantiate, () => compileWasm(pyodideUrl).then(instantiate)).catch((err) => failBoot(err));
      return {};
    };
    return createModule(settings);
  };
}

// Pyodide's WebAssembly module, compiled here and handed to the page for its next workers.
function compileWasm(pyodideUrl) {
  const compiled = WebAssembly.compileStreaming(fetch(new URL("pyodide.asm.wasm", pyodideUrl)));
  compiled.then((module) => postToPage({ type: "wasm-module", module }), () => {});
  return compiled;
}

// loadPyodide(options), rejected also when instantiating the WebAssembly module fails.
function loadPython(options) {
  return new Promise((resolve, reject) => {
    failBoot = reject;
    self.loadPyodide(options).then(resolve, reject);
  });
}

// `earlier`: the steps this one uses, dependencies first, as EarlierStep.to_dict() gives them.
function gradeRun({ runId, spec, source, earlier = [], firstTest = 0 }) {
  const post = (json) => postToPage({ type: "event", runId, event: JSON.parse(json) });
  const postStuck = (json) => postToPage({ type: "stuck", runId, where: JSON.parse(json) });
  rawOutput = "";
  try {
    runGrade(JSON.stringify(spec), source, JSON.stringify(earlier), post, takeRawOutput, postStuck, firstTest);
    postToPage({ type: "graded", runId });
  } catch (err) {
    const text = takeRawOutput();
    // On a fatal error Pyodide dumps its own diagnostics to stderr: that is not the learner's output.
    const fatal = err?.name !== "Exit" && err?.name !== "PythonError";
    if (text && !fatal) post(JSON.stringify({ event: "stdout", text, test: null }));
    postToPage({ type: "run-error", runId, error: describeFailure(err) });
  }
}

// "Try your code": what the learner's code and calls print, and the error they end with, if any.
function tryRun({ runId, source, calls, earlier = [] }) {
  const postStuck = (json) => postToPage({ type: "stuck", runId, where: JSON.parse(json) });
  rawOutput = "";
  // What the code prints goes to the page as it is written (at most RAW_OUTPUT_LIMIT in all), so a
  // run that is then stopped or times out still shows it.
  let sent = 0;
  sendOutput = () => {
    if (rawOutput.length === sent) return;
    postToPage({ type: "output", runId, text: rawOutput.slice(sent) });
    sent = rawOutput.length;
  };
  let error;
  try {
    error = runTry(source, calls, JSON.stringify(earlier), postStuck) ?? null;
  } catch (err) {
    error = describeFailure(err);
  }
  sendOutput = null;
  postToPage({ type: "tried", runId, output: takeRawOutput().slice(sent), error });
}

function sessionStart({ runId, callId, earlier, config, text, weights }) {
  withholdPosting();
  const postStuck = (json) => postToPage({ type: "stuck", runId, where: JSON.parse(json) });
  const bytes = weights ? new Uint8Array(weights) : null;
  const answer = sessionAnswer(() => startSession(JSON.stringify(earlier), JSON.stringify(config), text, bytes,
    postStuck, MAX_SESSION_BYTES));
  postToPage(answer.type === "session-result"
    ? { type: "session-ready", runId, callId, info: answer.value }
    : { ...answer, runId, callId });
}

// The step that posted a message during the call in progress ({label, exerciseId}, both null when no step was
// running, e.g. while they loaded), or null.
let posted = null;

// From the session's start, what the steps post cannot reach the page: postMessage is withheld from the worker
// (postToPage keeps its own binding) and stands in as a function that notes the running step, so that the call
// fails naming it.
function withholdPosting() {
  withhold(self, ["postMessage"]);
  self.postMessage = () => {
    if (posted === null) {
      const { label = null, exercise_id: exerciseId = null } = parseJson(postingStep()) ?? {};
      posted = { label, exerciseId };
    }
    throw new Error("the capstone's steps cannot post messages to the page: they return their results");
  };
}

// `args`: JSON values, except that the first may be binary (an ArrayBuffer or a typed array: load_weights' data).
function sessionCall({ runId, callId, method, args = [] }) {
  const [first, ...rest] = args;
  const binary = first instanceof ArrayBuffer || ArrayBuffer.isView(first);
  const data = !binary ? null
    : ArrayBuffer.isView(first) ? new Uint8Array(first.buffer, first.byteOffset, first.byteLength)
    : new Uint8Array(first);
  const answer = sessionAnswer(() => callSession(String(method), JSON.stringify(binary ? rest : args), data,
    MAX_SESSION_BYTES));
  postToPage({ ...answer, runId, callId });
}

// {type: "session-result", value} or {type: "session-error", error, label} from what the glue returned (bytes
// arrive as a proxy: they go to the page as a Uint8Array). What the session's steps printed is dropped.
function sessionAnswer(call) {
  rawOutput = "";
  posted = null;
  let outcome;
  try {
    outcome = call();
  } catch (err) {
    return { type: "session-error", error: describeFailure(err), label: null, exerciseId: null };
  } finally {
    takeRawOutput();
  }
  if (posted !== null) {
    outcome?.destroy?.();
    const { label, exerciseId } = posted;
    const who = label ? label[0].toUpperCase() + label.slice(1) : "Code in the steps, while they loaded,";
    return { type: "session-error", label, exerciseId, error: `${who} posted a message to the page itself `
      + "(js.postMessage): the capstone's steps may only return their results, so the page refused it." };
  }
  if (typeof outcome !== "string") {
    const bytes = outcome.toJs();
    outcome.destroy();
    return { type: "session-result", value: bytes };
  }
  const { value, error, label = null, exercise_id: exerciseId = null } = parseJson(outcome);
  return error === undefined ? { type: "session-result", value }
    : { type: "session-error", error, label, exerciseId };
}

function takeRawOutput() {
  const text = rawOutput + decoder.decode();
  rawOutput = "";
  return text;
}

// A learner-facing sentence for a Python call that did not return.
function describeFailure(err) {
  if (err?.name === "Exit") {
    return `Your code ended the Python runtime early (exit code ${err.status}), e.g. with os._exit().`;
  }
  if (err?.name === "PythonError") {
    // Only the grader's own errors get here (the engine catches the learner's), e.g. broken hidden tests.
    const lines = String(err.message).trim().split("\n");
    return `The grader failed: ${lines[lines.length - 1]}`;
  }
  return "Your code crashed the Python runtime, for example by recursing too deeply or using too much "
    + `memory (${err?.message ?? err}).`;
}

function status(text) {
  postToPage({ type: "status", text });
}
