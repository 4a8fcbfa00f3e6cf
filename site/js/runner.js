// Runs the grading, one run at a time, each in a fresh Python interpreter: a worker
// that has never run anything, booted ahead of time and thrown away after its run,
// so nothing a submission does (patching numpy, builtins, the worker itself) can
// reach a later run. A spare is kept booted, so a run that has to be cut short
// (time limit, Stop, crash) is followed at once by one on a ready interpreter.
import { MAX_MESSAGES } from "./message-budget.js";
import { SnapshotStore } from "./python-snapshot.js";
import { RELAY_NAME } from "./worker-relay.js";
import { MESSAGE_LIMIT, ReportBuilder } from "./report.js";

// Fresh workers kept besides the one the next run gets, once the document has run code. Each costs a
// Pyodide boot (a few seconds of CPU) and its memory (about 50 MB, measured with
// measureUserAgentSpecificMemory). Two: a learner who presses Run again as soon as a verdict shows (or
// right after a runaway loop) gets a booted interpreter for three runs in a row; a run never reuses an
// interpreter, so that no run can affect the next. Before the first run there are none: a learner who
// reads (or goes from page to page) costs one boot, and the first run has the CPU to itself.
const SPARES = 2;
// While a run is in flight and no other worker exists, the next one boots this long after the
// run was posted (or when it ends, if sooner): a short run, the first verdict of a page above all,
// then has the CPU to itself, and the spare is still booted well before a runaway loop's limit.
const SPARE_DELAY_MS = 1000;
// How long Python may take to act on a KeyboardInterrupt before its worker is terminated. A loaded
// machine (a phone, or a spare worker booting beside the run) can take several hundred ms to answer.
export const INTERRUPT_GRACE_MS = 1000;
export const LOADING = "Loading Python…"; // until Python first starts (worker.js says it too)
export const READY = "Ready";
const STOPPED = ["error", "Stopped: you pressed Stop before the tests finished."];
// What "Try your code" shows of what the code prints, as the worker keeps (RAW_OUTPUT_LIMIT there).
export const TRY_OUTPUT_LIMIT = 64_000;
const TRY_TRUNCATED = `\n[output truncated: more than ${TRY_OUTPUT_LIMIT} characters]\n`;
const FLOODED = ["error", `Stopped: your code sent the page more than ${MAX_MESSAGES} messages, or too much `
  + "text, which the page does not take (e.g. through js.postMessage)."];

export class Runner {
  /**
   * urls: {worker, pyodide, graderFiles, bytecode, stdlib} (absolute; bytecode and stdlib: the site's own
   * bytecode and standard library, null: none); pyodideVersion: the version the site pins.
   * onStatus(text) receives what the learner needs to know of the runtime: "Loading Python…" (and what
   * the first worker does next) until Python first starts, then "Ready" (READY), or "Python failed to
   * load: …". A spare booting after a run is no news: a run started meanwhile simply waits for it.
   */
  constructor(urls, pyodideVersion, onStatus) {
    this.urls = urls;
    this.onStatus = onStatus;
    this.hasBeenReady = false; // a worker of this document has been ready once
    this.queue = Promise.resolve();
    this.fresh = []; // PythonWorkers that never ran anything, oldest first; the next run takes the first
    this.run = null; // the run in flight (waiting for its worker or posted)
    this.runCount = 0;
    this.spareTimer = null;
    // pyodide.asm.wasm, compiled once for all of this document's workers (they instantiate it, and share the
    // code V8 optimises meanwhile): on its own threads from now on, while the first worker starts (two
    // nested workers, see worker-relay.js) and evaluates pyodide.asm.js. If the page cannot compile it, the
    // first worker does and hands it on.
    this.wasmModule = null;
    this.wasmCompiled = compilePyodide(urls.pyodide).then((module) => { this.wasmModule ??= module; });
    // The memory of a Python that had just started ({bytes, version}), from an earlier visit or
    // made by this page's second worker (the first boots the ordinary way: making a snapshot costs
    // about a second more): workers restore it instead of starting Python again.
    this.snapshots = new SnapshotStore(urls.pyodide, pyodideVersion, urls.stdlib);
    this.snapshot = this.snapshots.load();
    this.snapshotAsked = false;
    this.hasSnapshot = null; // whether one is saved (null: not known yet)
    this.snapshot.then((snapshot) => {
      this.hasSnapshot = snapshot !== null;
      this.topUp(); // without one, a second worker boots to make it
    });
    this.hasRun = false; // a run was asked for in this document: from then on, spares are kept
    this.saving = false; // true while the snapshot is written to (or deleted from) Cache Storage
    this.boots = []; // how each worker's Python started, in boot order ("restored", ...; null: not yet)
    this.topUp();
  }

  /**
   * Grade `source` once earlier runs are over, on a fresh interpreter.
   * spec: grading.json. limits: {total, perTest} in seconds (perTest may be null).
   * onEvent(event) sees every engine event. earlier: the steps `source` uses, dependencies first
   * ({exercise_id, entry, step, source, uses, yours}, as the engine's EarlierStep). Resolves to
   * {report, interruption}: interruption is null, or the [status, message] that ended the run early
   * (as report.py's finish() takes).
   */
  grade(spec, source, limits, onEvent, earlier = []) {
    const builder = new ReportBuilder(spec.exercise_id, spec.test_names, spec.points);
    return this.enqueue(new GradingRun(++this.runCount, builder, onEvent, limits, spec, source, earlier));
  }

  /**
   * Runs `source`, then `calls` (code the learner wrote to try it), on a fresh interpreter
   * within `seconds`; grades nothing. onOutput(text) receives what the code prints as it runs;
   * earlier: as for grade(). Resolves to {output, error, interruption}: output is all it printed,
   * also when it was cut short.
   */
  tryCode(source, calls, seconds, onOutput = () => {}, earlier = []) {
    const limits = { total: seconds, perTest: null };
    return this.enqueue(new TryRun(++this.runCount, limits, source, calls, onOutput, earlier));
  }

  /** Ends the run in flight at once, its report saying so; false when no run is in flight. */
  stop() {
    if (this.run === null) return false;
    this.run.end(STOPPED);
    return true;
  }

  /**
   * A fresh worker for a use of its own (the capstone's session, capstone-session.js), once it is booted; the
   * caller terminates it. It leaves the spares at once, so that no run takes it.
   */
  lendWorker() {
    if (this.fresh.length === 0) this.boot();
    const worker = this.fresh.shift();
    this.topUp();
    return worker.ready.then(() => worker, (err) => {
      worker.terminate();
      throw err;
    });
  }

  /** Resolves once the runs asked for so far are over. */
  idle() {
    return this.queue;
  }

  /**
   * True once the next run's interpreter and the spares are booted and the snapshot, if one was
   * made, is saved (for tests and benchmarks).
   */
  isWarm() {
    return this.fresh.length >= this.workersWanted() && this.fresh.every((worker) => worker.isReady)
      && !this.saving;
  }

  // How many fresh workers to keep: the next run's, the spares once a run was asked for, and before
  // that a second one when no snapshot is saved and none was asked of a worker (it makes one).
  workersWanted() {
    if (this.hasRun) return SPARES + 1;
    return this.snapshotAsked || this.hasSnapshot !== false ? 1 : 2;
  }

  enqueue(run) {
    this.hasRun = true;
    const result = this.queue.then(() => this.runNow(run));
    this.queue = result.catch(() => {});
    return result;
  }

  async runNow(run) {
    this.run = run;
    run.takeWorker = () => this.takeWorker(run);
    try {
      const worker = await this.takeWorker(run);
      if (worker !== null) run.start(worker, 0);
    } catch (err) {
      this.run = null;
      throw err;
    }
    const outcome = await run.ended;
    run.worker?.terminate();
    this.run = null;
    this.topUp();
    this.showStatus();
    return outcome;
  }

  // The next fresh worker once it is ready, for `run`; null when the run ended meanwhile.
  async takeWorker(run) {
    if (this.fresh.length === 0) this.boot(); // e.g. a test over its limit right after the run began
    const worker = this.fresh[0];
    try {
      await Promise.race([worker.ready, run.ended]);
    } catch (err) {
      this.discard(worker); // the next run tries a new worker, e.g. after a network hiccup
      throw err;
    }
    if (run.isOver) return null;
    this.fresh.shift();
    this.topUp();
    return worker;
  }

  // Boots one worker at a time until the next run's worker and the spares exist; while a run is in
  // flight, only when nothing else is left, and then after SPARE_DELAY_MS. Before the first run, the
  // worker that makes the snapshot also waits SPARE_DELAY_MS: a learner who runs as soon as Python is
  // ready gets the first verdict with the CPU to itself.
  topUp() {
    if (this.fresh.length >= this.workersWanted() || this.fresh.some((worker) => worker.isBooting)) return;
    if (this.run === null && (this.hasRun || this.fresh.length === 0)) {
      this.boot();
    } else if ((this.fresh.length === 0 || !this.hasRun) && this.spareTimer === null) {
      this.spareTimer = setTimeout(() => this.boot(), SPARE_DELAY_MS);
    }
  }

  boot() {
    clearTimeout(this.spareTimer);
    this.spareTimer = null;
    const isFirst = this.boots.length === 0;
    const index = this.boots.push(null) - 1;
    const bootWith = Promise.all([this.snapshot, this.wasmCompiled]).then(([snapshot]) => {
      const makeSnapshot = snapshot === null && !isFirst && !this.snapshotAsked;
      this.snapshotAsked ||= makeSnapshot;
      return { snapshot, makeSnapshot, wasmModule: this.wasmModule };
    });
    const worker = new PythonWorker(this.urls, bootWith, {
      status: () => {
        if (worker === this.fresh[0] && !this.run?.worker) this.showStatus();
      },
      booted: (how) => { this.boots[index] = how; },
      wasmModule: (module) => { this.wasmModule ??= module; },
      snapshot: (snapshot) => {
        this.snapshot = Promise.resolve(snapshot);
        this.keepSaved(this.snapshots.save(snapshot));
      },
      snapshotRejected: (error) => {
        console.warn("The Python snapshot did not boot:", error);
        this.snapshot = Promise.resolve(null);
        this.snapshotAsked = true; // a new one would likely fail the same way
        this.keepSaved(this.snapshots.forget());
      },
    });
    worker.ready.then(() => this.topUp(), () => {});
    this.fresh.push(worker);
  }

  keepSaved(writing) {
    this.saving = true;
    writing.finally(() => { this.saving = false; });
  }

  discard(worker) {
    worker.terminate();
    this.fresh = this.fresh.filter((other) => other !== worker);
    this.topUp();
  }

  showStatus() {
    const next = this.fresh[0];
    if (next === undefined) return;
    this.hasBeenReady ||= next.isReady;
    this.onStatus(next.hasFailed || !this.hasBeenReady ? next.status : READY);
  }
}

// One run: posted to a fresh worker, timed from the post, ended by the worker's answer or
// cut short (time limit, Stop, crash, an invalid event). Subclasses say what is posted and
// what the outcome is.
class Run {
  constructor(id, limits) {
    this.id = id;
    this.limits = limits; // {total, perTest} in seconds
    this.worker = null;
    this.takeWorker = null; // set by the Runner: the next fresh worker, for a run that continues
    this.timer = null;
    this.usedMs = 0; // time the learner's code had on earlier workers of this run
    this.postedAt = 0;
    this.isOver = false;
    this.ended = new Promise((resolve) => { this.resolve = resolve; });
    this.stopping = null; // while Python is given a moment to say where it was: called with that place
    this.endRequested = null;
    this.endedAt = 0;
  }

  // Posts the run (from test number `first`) to `worker`; the limit covers the learner's code, not
  // the boot: the worker is ready when this is posted.
  start(worker, first) {
    this.worker = worker;
    worker.onRunMessage = (data) => data.runId === this.id && this.receive(data);
    worker.onCrash = (text) => this.end(["error", `The Python runtime stopped unexpectedly (${text}).`], false);
    worker.onFlood = () => this.end(FLOODED, false);
    worker.post(this.message(first));
    this.postedAt = performance.now();
    const seconds = Number(this.limits.total);
    this.timer = setTimeout(() => this.end(
      ["timeout", `Time limit exceeded: the tests did not finish within ${seconds} s.`]),
    seconds * 1000 - this.usedMs);
  }

  receive(data) {
    if (this.stopping) {
      if (data.type === "stuck") this.stopping(data.where);
      return; // anything else comes after the moment the run was cut
    }
    if (data.type === "run-error") this.end(["error", text(data.error, MESSAGE_LIMIT)], false);
    else this.answer(data);
  }

  /**
   * Cuts the run short with `interruption` ([status, message]). With `askWhere`, Python is
   * first interrupted (when the page can) so that the outcome says where the code was.
   */
  end(interruption, askWhere = true) {
    if (this.isOver) return;
    if (this.stopping) {
      this.endRequested ??= interruption; // a test over its own limit is being cut: end after that
      return;
    }
    if (this.worker === null) {
      this.endedAt = performance.now();
      this.finish(interruption, null); // waiting for a worker: nothing is running
    } else {
      this.cut(askWhere, (where) => this.finish(interruption, where));
    }
  }

  // Stops the worker's Python: calls then(where) once, with the learner's {line, function, code}
  // when the page could interrupt Python and it answered in time, otherwise with null.
  cut(askWhere, then) {
    this.endedAt = performance.now();
    clearTimeout(this.timer);
    this.usedMs += this.endedAt - this.postedAt;
    let called = false;
    const once = (where) => {
      if (called) return;
      called = true;
      if (this.stopping === once) this.stopping = null;
      this.worker?.terminate();
      then(where);
    };
    if (askWhere && this.worker.interrupt()) {
      this.stopping = once;
      setTimeout(() => once(null), INTERRUPT_GRACE_MS);
    } else {
      once(null);
    }
  }

  settle(outcome) {
    if (this.isOver) return;
    this.isOver = true;
    clearTimeout(this.timer);
    this.resolve(outcome);
  }
}

// Grading: the engine's events build the report; a test over its own time limit (test_time_limit,
// as offline) times out alone, and the tests after it continue on a fresh worker.
class GradingRun extends Run {
  constructor(id, builder, onEvent, limits, spec, source, earlier) {
    super(id, limits);
    this.builder = builder;
    this.onEvent = onEvent;
    this.spec = spec;
    this.source = source;
    this.earlier = earlier;
    this.testTimer = null;
    this.testStartedAt = 0;
  }

  message(first) {
    return { type: "grade", runId: this.id, spec: this.spec, source: this.source, earlier: this.earlier,
      firstTest: first };
  }

  answer(data) {
    if (data.type === "event") {
      try {
        this.builder.add(data.event);
      } catch (err) {
        // Like the offline supervisor: a malformed event ends the run; the report keeps what came before.
        this.end(["error", `Grading failed: the grading worker sent an invalid event (${err.message}).`], false);
        return;
      }
      this.onTestEvent(data.event);
      this.onEvent(data.event);
    } else if (data.type === "graded") {
      // The report is the page's own, from the events it checked (the learner's code could post any other).
      this.settle({ report: this.builder.finish(), interruption: null });
    }
  }

  onTestEvent(event) {
    if (event.event === "test_start") {
      this.testStartedAt = performance.now();
      const seconds = this.limits.perTest;
      if (seconds) this.testTimer = setTimeout(() => this.testOverLimit(event.index, seconds), seconds * 1000);
    } else if (event.event === "test") {
      clearTimeout(this.testTimer);
    }
  }

  testOverLimit(index, seconds) {
    if (this.isOver || this.stopping) return;
    this.cut(true, (where) => {
      const message = `Time limit exceeded: this test's calls to your function took more than ${seconds} s `
        + "(the limit for one test).";
      const atFault = inTestsCode(where);
      const [status, shown] = atFault
        ? ["error", testsCodeTimedOut(`${seconds} s, the limit for one test`, where)]
        : ["timeout", withPlace(message, where)];
      const event = { event: "test", index, status, message: shown, duration_ms: this.endedAt - this.testStartedAt };
      // As the engine marks it offline: the exercise's bug, left out of the score.
      if (atFault) event.test_code_error = { line: where.line, kind: "stopped", traceback: shown };
      this.builder.add(event);
      this.onEvent(event);
      this.worker = null;
      if (this.endRequested !== null) this.finish(this.endRequested, null);
      else if (index + 1 < this.spec.test_names.length) this.continueFrom(index + 1);
      else this.settle({ report: this.builder.finish(), interruption: null });
    });
  }

  async continueFrom(first) {
    try {
      const worker = await this.takeWorker();
      if (worker !== null) this.start(worker, first);
    } catch (err) {
      this.end(["error", err.message], false);
    }
  }

  // The report of a run cut short; `where` is where_stopped's place (worker.js), or null. A time limit
  // that ran out in the hidden tests' own code is the exercise's error, not the learner's timeout.
  finish(interruption, where) {
    if (this.isOver) return;
    clearTimeout(this.testTimer);
    const testsAtFault = interruption[0] === "timeout" && inTestsCode(where);
    if (testsAtFault) {
      interruption = ["error", testsCodeTimedOut(`${this.limits.total} s, the limit for all the tests`, where)];
    }
    const place = testsAtFault ? null : describePlace(where);
    const report = this.builder.finish(interruption, testsAtFault);
    const running = this.builder.running;
    if (running !== null && this.worker !== null) {
      const test = report.tests[running];
      test.duration_ms = Math.round((this.endedAt - this.testStartedAt) * 1000) / 1000;
      if (place) test.message += `\n${place}`;
    } else if (!this.builder.loaded && testsAtFault) {
      report.error = interruption[1]; // the tests were being loaded, not the learner's code
    } else if (!this.builder.loaded && place) {
      report.error += `\n${place}`;
    }
    this.settle({ report, interruption });
  }
}

// "Try your code": the learner's code, then their calls; the outcome is what they printed and
// the error, if any.
class TryRun extends Run {
  constructor(id, limits, source, calls, onOutput, earlier) {
    super(id, limits);
    this.source = source;
    this.calls = calls;
    this.earlier = earlier;
    this.onOutput = onOutput;
    this.output = ""; // printed so far, at most TRY_OUTPUT_LIMIT characters and the note that it was cut
  }

  // Keeps `printed` up to the limit and passes on what was kept.
  keep(printed) {
    const room = TRY_OUTPUT_LIMIT - this.output.length;
    if (room < 0 || printed === "") return;
    const kept = printed.length > room ? printed.slice(0, room) + TRY_TRUNCATED : printed;
    this.output += kept;
    this.onOutput(kept);
  }

  message() {
    return { type: "try", runId: this.id, source: this.source, calls: this.calls, earlier: this.earlier };
  }

  answer(data) {
    if (data.type === "output") {
      this.keep(text(data.text));
    } else if (data.type === "tried") {
      this.keep(text(data.output));
      this.settle({ output: this.output, error: data.error == null ? null : text(data.error, MESSAGE_LIMIT),
        interruption: null });
    }
  }

  finish(interruption, where) {
    let message = interruption[1];
    if (interruption === STOPPED) message = "Stopped: you pressed Stop.";
    else if (interruption[0] === "timeout") message = `Time limit exceeded: your code and calls did not finish within ${this.limits.total} s.`;
    this.settle({ output: this.output, error: withPlace(message, where), interruption });
  }
}

export function withPlace(message, where) {
  const place = describePlace(where);
  return place ? `${message}\n${place}` : message;
}

// Whether the worker's place `where` is in the hidden tests' own code ({tests, line, function}).
function inTestsCode(where) {
  return typeof where === "object" && where !== null && typeof where.tests === "string"
    && Number.isInteger(where.line);
}

// "tests.py:12 (in test_shape)" for a place in the hidden tests' own code.
function testsLine(where) {
  return `${text(where.tests, 200)}:${where.line} (in ${text(where.function, 200)})`;
}

// What a test stopped by a time limit (`limit`: "2 s, the limit for one test") while the tests' own code
// ran says: as offline (grader/core/engine.py), the exercise has a bug and the learner's code is not at fault.
function testsCodeTimedOut(limit, where) {
  return "Not graded: the exercise has a bug: this test could not finish: the exercise's own test code (not yours) "
    + `was still running when the time ran out (${limit}), at ${testsLine(where)}. Your code is not at fault.`;
}

// "Stopped at line 3 of your code (in f): x += 1" for the worker's {line, function, code}, "of your
// softmax (step 5), in f" when it has `earlier` (an earlier step's label), "Stopped in the reference softmax
// (step 5)" when it has only that, "Stopped in the exercise's own test code, at tests.py:12 (in test_x)" for
// {tests, line, function}; null when `where` is missing or not that shape (the learner's code can post
// messages of its own).
function describePlace(where) {
  if (typeof where !== "object" || where === null) return null;
  if (inTestsCode(where)) return `Stopped in the exercise's own test code (not yours), at ${testsLine(where)}.`;
  const earlier = typeof where.earlier === "string" ? text(where.earlier, 200) : null;
  if (!Number.isInteger(where.line)) return earlier && `Stopped in ${earlier}, which this step uses.`;
  const functionName = text(where.function, 200);
  // A label already ends in brackets: "of your softmax (step 5), in softmax", as tracebacks say it.
  const inFunction = where.function === "<module>" ? "" : earlier ? `, in ${functionName}` : ` (in ${functionName})`;
  return `Stopped at line ${where.line} of ${earlier ?? "your code"}${inFunction}: ${text(where.code, 200)}`;
}

// `value` from a worker's message as text of at most `limit` UTF-16 units (null: no limit); what is
// not text is not converted (the learner's code could post an object whose conversion throws).
function text(value, limit = null) {
  const string = typeof value === "string" ? value : value == null ? "" : "(not text)";
  return limit !== null && string.length > limit ? `${string.slice(0, limit)} [cut]` : string;
}

// A Pyodide worker: starts loading Pyodide at once, boots Python as soon as `bootWith` resolves, then does
// one run. bootWith: {snapshot, makeSnapshot, wasmModule}: a snapshot to restore (null: none), whether to
// make one (handed to on.snapshot), and Pyodide's compiled WebAssembly module (null: the worker compiles it
// and hands it to on.wasmModule); looking for a saved snapshot and compiling take a few hundred ms on a cold
// visit, which the worker spends starting and evaluating pyodide.asm.js.
// on: {status, booted, wasmModule, snapshot, snapshotRejected}.
class PythonWorker {
  constructor(urls, bootWith, on) {
    this.status = LOADING;
    this.isBooting = true;
    this.isReady = false;
    this.hasFailed = false;
    this.isTerminated = false;
    this.onRunMessage = () => {};
    this.onCrash = null;
    this.onFlood = () => {};
    // With cross-origin isolation Python can be interrupted (a KeyboardInterrupt) instead of killed.
    this.interruptBuffer = self.crossOriginIsolated ? new Uint8Array(new SharedArrayBuffer(1)) : null;
    // The relay (worker-relay.js) starts the grading worker and bounds and batches what it sends.
    this.worker = new Worker(urls.worker, { name: RELAY_NAME });
    const setStatus = (text) => {
      this.status = text;
      on.status(text);
    };
    this.ready = new Promise((resolve, reject) => {
      const failToLoad = (text) => {
        this.isBooting = false;
        this.hasFailed = true;
        setStatus(`Python failed to load: ${text}`);
        reject(new Error(`Python failed to load: ${text}`));
      };
      const failed = (text) => {
        if (this.isBooting) failToLoad(text);
        else if (this.onCrash) this.onCrash(text);
        // Otherwise e.g. a JS callback scheduled by the learner's code threw after its run.
        else console.warn("Grading worker:", text);
      };
      this.worker.onmessage = ({ data }) => {
        // Once ready, anything may come from the learner's code (in batches, within the relay's budget):
        // only a run takes it. Before that, messages come from the worker's own code only.
        if (data.type === "worker-error") {
          failed(String(data.message));
        } else if (this.isReady) {
          if (data.type === "batch") {
            for (const message of data.messages) {
              if (this.isTerminated) break; // e.g. the run was cut: what the worker sent after that is dropped
              this.onRunMessage(message);
            }
          }
          else if (data.type === "flooded") this.onFlood();
        } else if (data.type === "status") {
          setStatus(data.text);
        } else if (data.type === "ready") {
          if (this.isBooting) on.booted(String(data.boot));
          this.isBooting = false;
          this.isReady = true;
          setStatus(READY);
          resolve();
        } else if (data.type === "init-error") {
          failToLoad(data.error);
        } else if (data.type === "wasm-module") {
          if (data.module instanceof WebAssembly.Module) on.wasmModule(data.module);
        } else if (data.type === "snapshot") {
          if (data.bytes instanceof Uint8Array && typeof data.version === "string") {
            on.snapshot({ bytes: data.bytes, version: data.version });
          }
        } else if (data.type === "snapshot-rejected") {
          on.snapshotRejected(String(data.error));
        }
      };
      this.worker.onerror = (event) => {
        event.preventDefault();
        failed(event.message || "the relay worker failed");
      };
    });
    // Awaited by a run; this only keeps an early failure from being reported as unhandled.
    this.ready.catch(() => {});
    this.post({
      type: "init", pyodideUrl: urls.pyodide, graderFilesUrl: urls.graderFiles, bytecodeUrl: urls.bytecode,
      stdlibUrl: urls.stdlib,
      interruptBuffer: this.interruptBuffer,
    });
    bootWith.then(({ snapshot, makeSnapshot, wasmModule }) => this.post({
      type: "boot", snapshot, makeSnapshot, wasmModule,
    }));
  }

  post(message) {
    this.worker.postMessage(message);
  }

  /** Asks Python for a KeyboardInterrupt (SIGINT); false when this page cannot. */
  interrupt() {
    if (this.interruptBuffer === null) return false;
    this.interruptBuffer[0] = 2;
    return true;
  }

  terminate() {
    this.worker.terminate();
    this.isBooting = false;
    this.isTerminated = true;
  }
}

// Pyodide's WebAssembly module, or null when this browser cannot compile it here (a worker then does).
async function compilePyodide(pyodideUrl) {
  try {
    return await WebAssembly.compileStreaming(fetch(new URL("pyodide.asm.wasm", pyodideUrl)));
  } catch (err) {
    console.warn("Compiling Python's WebAssembly in the page failed; the worker compiles it:", err);
    return null;
  }
}
