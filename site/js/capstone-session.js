// The capstone's model in a Python worker: a grader.core.capstone_session.Session built from the steps in
// scope (the learner's passing code, or the references), driven through worker.js's session mode. The
// worker is a grading worker like any run's (same script, relay, withheld globals and boot), lent by the
// Runner and owned by this client until end(). The page makes one short call at a time (a few training
// steps, a few characters), so stopping between calls is immediate; a call over its time limit ends the
// worker, and the error says where Python was (the interrupt buffer, as for a run).
//
// The learner's code runs in that worker, so nothing it sends is taken on trust: an answer must carry the call's
// id and be of the kind, size and finiteness its method gives (ANSWERS), or the session ends saying so. The
// worker itself keeps the steps from posting (worker.js): a step that tries fails its call, named.
import { MAX_SESSION_BYTES } from "./message-budget.js";
import { INTERRUPT_GRACE_MS, withPlace } from "./runner.js";

// Far above what one call of the page takes (well under a second on a laptop), low enough that a step stuck
// in a loop does not leave the learner waiting long.
const START_LIMIT_S = 60; // loading every step and tokenizing the text
const CALL_LIMIT_S = 30; // unless the page's data-call-limit says otherwise (tests shorten it)

const MAX_ERROR_CHARS = 20_000; // of an error message shown (a step's traceback is trimmed to the learner's lines)
const MAX_LABEL_CHARS = 200;
const MAX_STEP_TIMES = 200; // steps timed: far more than any track has

/** A call that failed: `label` names the step at fault ("your adamw_step (step 28)") and `exerciseId` is its id,
 * or both are null; `ended`: the worker is gone (time limit, crash), so a new session must be started. */
export class SessionError extends Error {
  constructor(message, label = null, ended = false, exerciseId = null) {
    super(message);
    this.label = label;
    this.exerciseId = exerciseId;
    this.ended = ended;
  }
}

let sessions = 0;

export class SessionClient {
  /**
   * Resolves to a client whose Session holds `text` (and `weights`, .npz bytes, when given), with `info`
   * (set_text's figures, and load_weights' as info.weights); rejects with a SessionError.
   * setup: {earlier (in-scope.js's earlierSteps), config, text, weights: ArrayBuffer | null}. `signal` (an
   * AbortSignal) ends the session being started: the steps changed meanwhile.
   */
  static async start(runner, setup, signal) {
    const worker = await runner.lendWorker();
    const { earlier, config, text, weights } = setup;
    const client = new SessionClient(worker, earlier);
    const abort = () => client.end();
    if (signal.aborted) abort(); // while the worker was lent: send rejects at once
    signal.addEventListener("abort", abort);
    try {
      client.info = await client.send({ type: "session-start", earlier, config, text, weights: weights ?? null },
        START_LIMIT_S, "Loading the steps", "session-start");
    } finally {
      signal.removeEventListener("abort", abort);
    }
    return client;
  }

  constructor(worker, earlier) {
    this.worker = worker;
    this.steps = new Map(earlier.map((step) => [step.exercise_id, step])); // the ids a failure may name
    this.runId = `session-${++sessions}`;
    this.calls = 0;
    this.pending = null; // {callId, resolve, reject, timer, stuck, what, method, args} of the call in flight
    this.ended = false;
    this.endedByPage = false;
    this.info = null;
    worker.onRunMessage = (data) => data?.runId === this.runId && this.receive(data);
    worker.onCrash = (text) => this.fail(new SessionError(`The Python runtime stopped unexpectedly (${text}).`,
      null, true));
    worker.onFlood = () => this.fail(new SessionError("Stopped: the model's Python sent the page more than it "
      + "takes in one call.", null, true));
  }

  /** Calls the Session's `method` with `args` (JSON values; load_weights' bytes first): resolves to its result. */
  call(method, ...args) {
    const limit = Number(document.body.dataset.callLimit) || CALL_LIMIT_S;
    return this.send({ type: "session-call", method, args }, limit, describeCall(method), method, args);
  }

  /** Terminates the worker; calls in flight, and any made later, reject with an error whose endedByPage is true. */
  end() {
    this.endedByPage = true;
    this.fail(pageEnded());
  }

  // `method` and `args`: what ANSWERS checks the answer against.
  send(message, limitSeconds, what, method, args = []) {
    if (this.endedByPage) return Promise.reject(pageEnded());
    if (this.ended) return Promise.reject(new SessionError("The session has ended: start it again.", null, true));
    if (this.pending) return Promise.reject(new Error("one session call at a time"));
    const callId = ++this.calls;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.timeOut(what, limitSeconds), limitSeconds * 1000);
      this.pending = { callId, resolve, reject, timer, stuck: null, what, method, args };
      this.worker.post({ ...message, runId: this.runId, callId });
    });
  }

  receive(data) {
    const pending = this.pending;
    if (this.ended) return;
    if (data?.type === "stuck") {
      pending?.stuck?.(data.where);
      return;
    }
    if (pending?.stuck) return; // over its time limit: the call ends with where Python was
    const refuse = (problem) => {
      const suspects = this.yoursRunBy(pending?.method);
      const named = suspects.length === 1 ? suspects[0] : null;
      const who = named ? `${named.label} ran during the call`
        : suspects.length > 0 ? `Your steps ${suspects.map((step) => step.label.slice(5)).join(", ")} ran during it`
        : "No code of yours ran during it";
      this.fail(new SessionError(`${pending?.what ?? "Between two calls"}: the page refused a message from the `
        + `model's Python (${problem}), so it stopped the model. ${capitalized(who)}: code there may have changed `
        + "what the worker sends.", named?.label ?? null, true, named?.step.exercise_id ?? null));
    };
    if (!pending) return refuse("a message while no call was in progress");
    if (data.callId !== pending.callId) {
      return refuse(`an answer ${data.callId === undefined ? "without a call id" : "to another call"}`);
    }
    const expected = pending.method === "session-start" ? "session-ready" : "session-result";
    if (data.type !== expected && data.type !== "session-error") {
      return refuse(`a message of type ${JSON.stringify(String(data.type).slice(0, 40))}`);
    }
    let problem;
    if (data.type === "session-error") problem = this.errorProblem(data);
    else problem = ANSWERS[pending.method](data.type === "session-ready" ? data.info : data.value, ...pending.args);
    if (problem) return refuse(`its answer is ${problem}`);
    clearTimeout(pending.timer);
    this.pending = null;
    if (data.type === "session-ready") pending.resolve(data.info);
    else if (data.type === "session-result") pending.resolve(data.value);
    else pending.reject(new SessionError(cut(data.error), data.label, false, data.exerciseId));
  }

  // The learner's steps that a call of `method` runs, with the steps they use ({label, step}); every step when
  // the method is not known (loading runs each step's module).
  yoursRunBy(method) {
    const pending = [...(CALL_STEPS[method] ?? this.steps.keys())];
    const seen = new Set();
    while (pending.length > 0) {
      const id = pending.pop();
      const step = this.steps.get(id);
      if (seen.has(id) || step === undefined) continue;
      seen.add(id);
      pending.push(...(step.uses ?? []));
    }
    return [...seen].map((id) => this.steps.get(id)).filter((step) => step.yours)
      .map((step) => ({ label: `your ${step.entry} (step ${step.step})`, step }));
  }

  // What is wrong with a "session-error": a message, and a step named by its label and id (or neither).
  errorProblem({ error, label, exerciseId }) {
    if (typeof error !== "string") return `an error that is ${kindOf(error)}`;
    if (label === null && exerciseId === null) return null;
    const step = this.steps.get(exerciseId);
    if (typeof label !== "string" || label.length > MAX_LABEL_CHARS || step === undefined
        || !label.endsWith(` ${step.entry} (step ${step.step})`)) return "an error naming no step in scope";
    return null;
  }

  // Over the limit: Python is interrupted so that it says where it was, then the worker is terminated.
  timeOut(what, limitSeconds) {
    const pending = this.pending;
    if (!pending) return;
    const stop = (where) => {
      if (this.ended) return;
      const message = `${what} took more than ${limitSeconds} s, so the page stopped Python.`;
      const step = this.steps.get(where?.exercise_id);
      const named = step !== undefined && typeof where.earlier === "string"
        && where.earlier.endsWith(` ${step.entry} (step ${step.step})`);
      this.fail(new SessionError(withPlace(message, where), named ? where.earlier : null, true,
        named ? step.exercise_id : null));
    };
    if (this.worker.interrupt()) {
      pending.stuck = stop;
      setTimeout(() => stop(null), INTERRUPT_GRACE_MS);
    } else {
      stop(null);
    }
  }

  fail(error) {
    if (this.ended) return;
    this.ended = true;
    this.worker.terminate();
    const pending = this.pending;
    this.pending = null;
    if (pending) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
  }
}

// The steps each method calls itself (grader/core/capstone_session.py); loading ("session-start") runs them all.
const CALL_STEPS = {
  init_weights: [], load_weights: [], weights_bytes: [], step_times: [], train: ["lr_at", "get_batch", "train_step"],
  held_out_loss: ["gpt_logits", "cross_entropy"], start_generation: ["gpt_step"],
  next_text: ["gpt_step", "top_p_filter", "sample_token"],
};

function cut(text) {
  return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS)}… [cut]` : text;
}

function capitalized(text) {
  return text[0].toUpperCase() + text.slice(1);
}

// What each call's answer must be ("session-start": its figures), given the call's arguments: null, or what is
// wrong with it. The page loops on these (n characters, n steps), so a count that does not match would loop.
const ANSWERS = {
  "session-start": (info) => isObject(info) && Array.isArray(info.vocab) && isFinite(info.unigram)
      && [info.train_tokens, info.held_out_tokens].every(isCount)
      && (info.weights === undefined || isObject(info.weights) && isCount(info.weights.steps))
    ? null : `${kindOf(info)}, not the text's figures`,
  init_weights: (value) => value === null ? null : `${kindOf(value)}, not nothing`,
  load_weights: (value) => isObject(value) && isCount(value.steps) ? null : `${kindOf(value)}, not the steps done`,
  weights_bytes: (value) => !(value instanceof Uint8Array) ? `${kindOf(value)}, not bytes`
    : value.byteLength > MAX_SESSION_BYTES ? `${value.byteLength} bytes, more than ${MAX_SESSION_BYTES}` : null,
  train: (records, n) => Array.isArray(records) && records.length === n && records.every((record) =>
    isObject(record) && isCount(record.step) && isFinite(record.loss) && isFinite(record.lr))
    ? null : `${kindOf(records)}, not ${n} steps each with a finite loss and rate`,
  held_out_loss: (loss) => isFinite(loss) ? null : `${kindOf(loss)}, not a finite loss`,
  step_times: (times) => isObject(times) && Object.keys(times).length <= MAX_STEP_TIMES
      && Object.values(times).every((time) => isObject(time) && isCount(time.calls) && isFinite(time.ms)
        && time.ms >= 0)
    ? null : `${kindOf(times)}, not each step's calls and milliseconds`,
  start_generation: (value) => value === null ? null : `${kindOf(value)}, not nothing`,
  next_text: (text, n) => typeof text === "string" && text.length <= 2 * n && [...text].length === n
    ? null : `${kindOf(text)}, not ${n} characters`,
};

function pageEnded() {
  const error = new SessionError("The session was ended.", null, true);
  error.endedByPage = true;
  return error;
}

function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isFinite(value) {
  return typeof value === "number" && Number.isFinite(value);
}

function isCount(value) {
  return Number.isSafeInteger(value) && value >= 0;
}

// "a string of 3 characters", "an array of 2 items", "the number NaN": what a refused value was, briefly.
function kindOf(value) {
  if (typeof value === "string") return `a string of ${value.length} characters`;
  if (Array.isArray(value)) return `an array of ${value.length} items`;
  if (typeof value === "number") return `the number ${value}`;
  if (value === null || value === undefined) return String(value);
  if (value instanceof Uint8Array) return `${value.byteLength} bytes`;
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function describeCall(method) {
  if (method === "train") return "Training";
  if (method === "next_text" || method === "start_generation") return "Generating";
  if (method === "held_out_loss") return "Measuring the held-out loss";
  return `The session's ${method}`;
}
