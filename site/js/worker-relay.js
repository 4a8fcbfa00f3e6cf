// The worker the page starts for each Python worker: it starts the grading worker itself and
// stands between the two, so that what the learner's code posts (js.postMessage: millions of
// messages, or one of hundreds of megabytes) lands on this thread, never on the page's. Every
// message from the page goes through as it is. From the grading worker, the boot messages go
// through as they are; once it is ready (learner code may run from then on), messages are taken
// within a budget (message-budget.js: every byte it forwards is counted, an Error's fields and a
// BigInt's digits included, binary data apart) and handed on in batches, at most one every BATCH_MS, so the
// page receives few messages whatever the code does. Past the budget the grading worker is
// terminated and the page gets {type: "flooded"}. The grading worker's uncaught errors reach the
// page as {type: "worker-error", message}. The page terminates this worker, and with it the other.
// A session (the capstone page) lasts as long as the learner trains: its budget is per call, renewed by
// each "session-call" from the page, which makes one short call at a time.
import { MessageBudget } from "./message-budget.js";

export const RELAY_NAME = "relay";
const BATCH_MS = 20;

/** Relays between the page and a grading worker started from `graderUrl`. */
export function relay(graderUrl) {
  const grader = new Worker(graderUrl);
  let budget = new MessageBudget();
  let ready = false;
  let batch = [];
  let flushTimer = null;

  const flush = () => {
    clearTimeout(flushTimer);
    flushTimer = null;
    if (batch.length > 0) self.postMessage({ type: "batch", messages: batch });
    batch = [];
  };

  self.onmessage = ({ data }) => {
    if (data?.type === "session-call") budget = new MessageBudget();
    grader.postMessage(data);
  };
  grader.onmessage = ({ data }) => {
    if (!ready) {
      ready = data?.type === "ready";
      const bytes = data?.type === "snapshot" ? data.bytes?.buffer : undefined;
      self.postMessage(data, bytes instanceof ArrayBuffer ? [bytes] : []);
    } else if (!budget.take(data)) {
      grader.onmessage = null;
      grader.terminate();
      flush();
      self.postMessage({ type: "flooded" });
    } else {
      batch.push(data);
      flushTimer ??= setTimeout(flush, BATCH_MS);
    }
  };
  grader.onerror = (event) => {
    event.preventDefault();
    flush();
    self.postMessage({ type: "worker-error", message: event.message || "the worker failed" });
  };
}
