// Runs the grading, one run at a time, each in a fresh Python interpreter: a worker
// that has never run anything, booted ahead of time and thrown away after its run,
// so nothing a submission does (patching numpy, builtins, the worker itself) can
// reach a later run. A spare is kept booted, so a run that has to be cut short
// (time limit, Stop, crash) is followed at once by one on a ready interpreter.
import { ReportBuilder } from "./report.js";

// Fresh workers kept besides the one the next run gets. Each costs a Pyodide boot
// (about 3 s of CPU) and its memory; one is enough for a run right after a runaway loop.
const SPARES = 1;
// How long Python may take to act on a KeyboardInterrupt before its worker is terminated.
const INTERRUPT_GRACE_MS = 300;
const STOPPED = ["error", "Stopped: you pressed Stop before the tests finished."];

export class Runner {
  /**
   * urls: {worker, pyodide, graderFiles} (absolute). onStatus(text) receives the
   * state of the interpreter the next run gets ("Loading Python…", "Python ready", ...).
   */
  constructor(urls, onStatus) {
    this.urls = urls;
    this.onStatus = onStatus;
    this.queue = Promise.resolve();
    this.fresh = []; // PythonWorkers that never ran anything, oldest first; the next run takes the first
    this.run = null; // the run in flight (waiting for its worker or posted)
    this.runCount = 0;
    this.topUp();
  }

  /**
   * Grade `source` once earlier runs are over, on a fresh interpreter.
   * spec: grading.json. onEvent(event) sees every engine event.
   * Resolves to {report, interruption}: interruption is null, or the
   * [status, message] that ended the run early (as report.py's finish() takes).
   */
  grade(spec, source, timeLimit, onEvent) {
    const result = this.queue.then(() => this.gradeNow(spec, source, timeLimit, onEvent));
    this.queue = result.catch(() => {});
    return result;
  }

  /** Ends the run in flight at once, its report saying so; false when no run is in flight. */
  stop() {
    if (this.run === null) return false;
    this.run.end(STOPPED);
    return true;
  }

  /** True once the next run's interpreter and the spares are booted (for tests and benchmarks). */
  isWarm() {
    return this.fresh.length > SPARES && this.fresh.every((worker) => worker.isReady);
  }

  async gradeNow(spec, source, timeLimit, onEvent) {
    const worker = this.fresh[0];
    const run = new Run(++this.runCount, new ReportBuilder(spec.exercise_id, spec.test_names, spec.points), onEvent);
    this.run = run;
    try {
      await Promise.race([worker.ready, run.ended]);
    } catch (err) {
      this.discard(worker); // the next run tries a new worker, e.g. after a network hiccup
      this.run = null;
      throw err;
    }
    if (!run.isOver) {
      this.fresh.shift();
      // The replacement boots after this run, so that it does not slow it down, unless
      // nothing would be left to recover with when this run has to be cut short.
      if (this.fresh.length === 0) this.topUp();
      run.start(worker, spec, source, timeLimit);
    }
    const outcome = await run.ended;
    run.worker?.terminate();
    this.run = null;
    this.topUp();
    this.showStatus();
    return outcome;
  }

  // Boots one worker at a time until the next run's worker and the spares exist.
  topUp() {
    if (this.fresh.length > SPARES || this.fresh.some((worker) => worker.isBooting)) return;
    const worker = new PythonWorker(this.urls, (text) => {
      if (worker === this.fresh[0] && !this.run?.worker) this.onStatus(text);
    });
    worker.ready.then(() => this.topUp(), () => {});
    this.fresh.push(worker);
  }

  discard(worker) {
    worker.terminate();
    this.fresh = this.fresh.filter((other) => other !== worker);
    this.topUp();
  }

  showStatus() {
    if (this.fresh.length > 0) this.onStatus(this.fresh[0].status);
  }
}

// One run: posted to a fresh worker, timed from the post, ended by the worker's
// report or cut short (time limit, Stop, crash, an invalid event).
class Run {
  constructor(id, builder, onEvent) {
    this.id = id;
    this.builder = builder;
    this.onEvent = onEvent;
    this.worker = null;
    this.timer = null;
    this.isOver = false;
    this.ended = new Promise((resolve) => { this.resolve = resolve; });
    this.stopping = null; // the interruption, while Python is given a moment to say where it was
    this.endedAt = 0;
    this.testStartedAt = 0;
  }

  start(worker, spec, source, timeLimit) {
    this.worker = worker;
    worker.onRunMessage = (data) => data.runId === this.id && this.receive(data);
    worker.onCrash = (text) => this.end(["error", `The Python runtime stopped unexpectedly (${text}).`], false);
    worker.post({ type: "grade", runId: this.id, spec, source });
    // The limit covers the learner's code, not the boot: the worker is ready when this is posted.
    const seconds = Number(timeLimit);
    this.timer = setTimeout(() => this.end(
      ["timeout", `Time limit exceeded: the tests did not finish within ${seconds} s.`]), seconds * 1000);
  }

  receive(data) {
    if (this.stopping) {
      if (data.type === "stuck") this.finish(this.stopping, data.where);
      return; // anything else comes after the moment the run was cut
    }
    if (data.type === "event") {
      try {
        this.builder.add(data.event);
      } catch (err) {
        // Like the offline supervisor: a malformed event ends the run; the report keeps what came before.
        this.end(["error", `Grading failed: the grading worker sent an invalid event (${err.message}).`], false);
        return;
      }
      if (data.event.event === "test_start") this.testStartedAt = performance.now();
      this.onEvent(data.event);
    } else if (data.type === "report") {
      this.settle({ report: data.report, interruption: null });
    } else if (data.type === "run-error") {
      this.end(["error", data.error], false);
    }
  }

  /**
   * Cuts the run short with `interruption` ([status, message]). With `askWhere`, Python is
   * first interrupted (when the page can) so that the report says where the code was.
   */
  end(interruption, askWhere = true) {
    if (this.isOver || this.stopping) return;
    this.endedAt = performance.now();
    if (this.worker === null) {
      this.finish(interruption, null); // still waiting for its worker: nothing ran
    } else if (askWhere && this.worker.interrupt()) {
      this.stopping = interruption;
      setTimeout(() => this.finish(interruption, null), INTERRUPT_GRACE_MS);
    } else {
      this.finish(interruption, null);
    }
  }

  // The report of a run cut short; `where` is {line, function, code} of the learner's code, or null.
  finish(interruption, where) {
    if (this.isOver) return;
    this.worker?.terminate();
    const report = this.builder.finish(interruption);
    const running = this.builder.running;
    const place = describePlace(where);
    if (running !== null && this.worker !== null) {
      const test = report.tests[running];
      test.duration_ms = Math.round((this.endedAt - this.testStartedAt) * 1000) / 1000;
      if (place) test.message += `\n${place}`;
    } else if (!this.builder.loaded && place) {
      report.error += `\n${place}`;
    }
    this.settle({ report, interruption });
  }

  settle(outcome) {
    if (this.isOver) return;
    this.isOver = true;
    clearTimeout(this.timer);
    this.resolve(outcome);
  }
}

// "Stopped at line 3 of your code (in f): x += 1" for the worker's {line, function, code}; null
// when `where` is missing or not that shape (the learner's code can post messages of its own).
function describePlace(where) {
  if (typeof where !== "object" || where === null || !Number.isInteger(where.line)) return null;
  const inFunction = where.function === "<module>" ? "" : ` (in ${String(where.function)})`;
  return `Stopped at line ${where.line} of your code${inFunction}: ${String(where.code)}`;
}

// A Pyodide worker: boots at once, then grades one run.
class PythonWorker {
  constructor(urls, onStatus) {
    this.status = "Loading Python…";
    this.isBooting = true;
    this.isReady = false;
    this.onRunMessage = () => {};
    this.onCrash = null;
    // With cross-origin isolation Python can be interrupted (a KeyboardInterrupt) instead of killed.
    this.interruptBuffer = self.crossOriginIsolated ? new Uint8Array(new SharedArrayBuffer(1)) : null;
    this.worker = new Worker(urls.worker);
    const setStatus = (text) => {
      this.status = text;
      onStatus(text);
    };
    this.ready = new Promise((resolve, reject) => {
      const failToLoad = (text) => {
        this.isBooting = false;
        setStatus(`Python failed to load: ${text}`);
        reject(new Error(`Python failed to load: ${text}`));
      };
      this.worker.onmessage = ({ data }) => {
        if (data.type === "status") {
          setStatus(data.text);
        } else if (data.type === "ready") {
          this.isBooting = false;
          this.isReady = true;
          setStatus("Python ready");
          resolve();
        } else if (data.type === "init-error") {
          failToLoad(data.error);
        } else {
          this.onRunMessage(data);
        }
      };
      this.worker.onerror = (event) => {
        event.preventDefault();
        const text = event.message || "the worker failed";
        if (this.isBooting) failToLoad(text);
        else if (this.onCrash) this.onCrash(text);
        // Otherwise e.g. a JS callback scheduled by the learner's code threw after its run.
        else console.warn("Grading worker:", text);
      };
    });
    // Awaited by a run; this only keeps an early failure from being reported as unhandled.
    this.ready.catch(() => {});
    this.post({ type: "init", pyodideUrl: urls.pyodide, graderFilesUrl: urls.graderFiles,
      interruptBuffer: this.interruptBuffer });
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
  }
}
