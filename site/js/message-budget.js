// What is taken from one grading worker once the learner's code runs there: that code can post
// messages of its own (js.postMessage), as many and as large as it likes. A run's worker may send
// at most MAX_MESSAGES messages of MAX_SIZE in all (many times what the engine's own events can
// reach); the relay (worker-relay.js) terminates the worker at the first message past that, and
// the page ends the run.

export const MAX_MESSAGES = 100_000; // a grading's events: at most ~32,000 of printed text, a few per test
export const MAX_SIZE = 4_000_000; // characters of text, plus one per value and entry

export class MessageBudget {
  constructor() {
    this.messages = 0;
    this.size = 0;
  }

  /** Counts `data`; false once this worker has sent more than allowed (then always false). */
  take(data) {
    this.messages += 1;
    this.size += sizeOf(data, MAX_SIZE - this.size + 1);
    return this.messages <= MAX_MESSAGES && this.size <= MAX_SIZE;
  }
}

// The size of a structured-cloned value (text length, one per value and entry, bytes of binary
// data), counted until it passes `limit`: the walk costs at most about `limit` steps, whatever the
// value (a cycle included).
export function sizeOf(value, limit) {
  let size = 0;
  const pending = [value];
  while (pending.length > 0 && size <= limit) {
    const item = pending.pop();
    size += 1;
    if (typeof item === "string") {
      size += item.length;
    } else if (ArrayBuffer.isView(item) || item instanceof ArrayBuffer) {
      size += item.byteLength;
    } else if (Array.isArray(item)) {
      for (let i = 0; i < item.length && pending.length <= limit - size; i += 1) pending.push(item[i]);
    } else if (item instanceof Map || item instanceof Set) {
      for (const entry of item) {
        pending.push(entry);
        if (pending.length > limit - size) break;
      }
    } else if (typeof item === "object" && item !== null) {
      for (const key in item) { // structured clones have no inherited enumerable keys
        pending.push(key, item[key]);
        if (pending.length > limit - size) break;
      }
    }
  }
  return size + pending.length;
}
