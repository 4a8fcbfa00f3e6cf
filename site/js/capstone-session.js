// The capstone's model in a Python worker: a grader.core.capstone_session.Session built from the steps in
// scope (the learner's passing code, or the references), driven through worker.js's session mode. The
// worker is a grading worker like any run's (same script, relay, withheld globals and boot), lent by the
// Runner and owned by this client until end(). The page makes one short call at a time (a few training
// steps, a few characters), so stopping between calls is immediate; a call over its time limit ends the
// worker, and the error says where Python was (the interrupt buffer, as for a run).
import { INTERRUPT_GRACE_MS, withPlace } from "./runner.js";

// Far above what one call of the page takes (well under a second on a laptop), low enough that a step stuck
// in a loop does not leave the learner waiting long.
const START_LIMIT_S = 60; // loading every step and tokenizing the text
const CALL_LIMIT_S = 30; // unless the page's data-call-limit says otherwise (tests shorten it)

/** A call that failed: `label` names the step at fault ("your adamw_step (step 28)") or is null; `ended`: the
 * worker is gone (time limit, crash), so a new session must be started. */
export class SessionError extends Error {
  constructor(message, label = null, ended = false) {
    super(message);
    this.label = label;
    this.ended = ended;
  }
}

let sessions = 0;

export class SessionClient {
  /**
   * Resolves to a client whose Session holds `text` (and `weights`, .npz bytes, when given), with `info`
   * (set_text's figures, and load_weights' as info.weights); rejects with a SessionError.
   * setup: {earlier (in-scope.js's earlierSteps), config, text, weights: ArrayBuffer | null}.
   */
  static async start(runner, setup) {
    const client = new SessionClient(await runner.lendWorker());
    const { earlier, config, text, weights } = setup;
    client.info = await client.send({ type: "session-start", earlier, config, text, weights: weights ?? null },
      START_LIMIT_S, "Loading the steps");
    return client;
  }

  constructor(worker) {
    this.worker = worker;
    this.runId = `session-${++sessions}`;
    this.calls = 0;
    this.pending = null; // {callId, resolve, reject, timer, stuck} of the call in flight
    this.ended = false;
    this.info = null;
    worker.onRunMessage = (data) => data?.runId === this.runId && this.receive(data);
    worker.onCrash = (text) => this.fail(new SessionError(`The Python runtime stopped unexpectedly (${text}).`,
      null, true));
    worker.onFlood = () => this.fail(new SessionError("Stopped: the steps sent the page too many messages.",
      null, true));
  }

  /** Calls the Session's `method` with `args` (JSON values; load_weights' bytes first): resolves to its result. */
  call(method, ...args) {
    const limit = Number(document.body.dataset.callLimit) || CALL_LIMIT_S;
    return this.send({ type: "session-call", method, args }, limit, describeCall(method));
  }

  /** Terminates the worker; calls in flight reject. */
  end() {
    const error = new SessionError("The session was ended.", null, true);
    error.endedByPage = true;
    this.fail(error);
  }

  send(message, limitSeconds, what) {
    if (this.ended) return Promise.reject(new SessionError("The session has ended: start it again.", null, true));
    if (this.pending) return Promise.reject(new Error("one session call at a time"));
    const callId = ++this.calls;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.timeOut(what, limitSeconds), limitSeconds * 1000);
      this.pending = { callId, resolve, reject, timer, stuck: null };
      this.worker.post({ ...message, runId: this.runId, callId });
    });
  }

  receive(data) {
    const pending = this.pending;
    if (data.type === "stuck") {
      pending?.stuck?.(data.where);
      return;
    }
    if (!pending || pending.stuck || (data.callId !== undefined && data.callId !== pending.callId)) return;
    clearTimeout(pending.timer);
    this.pending = null;
    if (data.type === "session-ready") pending.resolve(data.info);
    else if (data.type === "session-result") pending.resolve(data.value);
    else if (data.type === "session-error") {
      const label = typeof data.label === "string" ? data.label : null;
      pending.reject(new SessionError(String(data.error), label));
    }
  }

  // Over the limit: Python is interrupted so that it says where it was, then the worker is terminated.
  timeOut(what, limitSeconds) {
    const pending = this.pending;
    if (!pending) return;
    const stop = (where) => {
      if (this.ended) return;
      const message = `${what} took more than ${limitSeconds} s, so the page stopped Python.`;
      this.fail(new SessionError(withPlace(message, where), where?.earlier ?? null, true));
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

function describeCall(method) {
  if (method === "train") return "Training";
  if (method === "next_text" || method === "start_generation") return "Generating";
  if (method === "held_out_loss") return "Measuring the held-out loss";
  return `The session's ${method}`;
}
