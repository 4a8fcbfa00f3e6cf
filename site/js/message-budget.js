// What is taken from one grading worker once the learner's code runs there: that code can post
// messages of its own (js.postMessage), as many and as large as it likes. A run's worker may send
// at most MAX_MESSAGES messages of MAX_SIZE in all (many times what the engine's own events can
// reach), and MAX_BYTES of binary data apart (the capstone's weights); the relay (worker-relay.js)
// terminates the worker at the first message past that, and the page ends the run.

export const MAX_MESSAGES = 100_000; // a grading's events: at most ~32,000 of printed text, a few per test
export const MAX_SIZE = 4_000_000; // characters of text, plus one per value and entry
export const MAX_BYTES = 32_000_000; // bytes of binary data (ArrayBuffers, typed arrays, blobs)
// The capstone's weights, as its worker sends them (worker.js refuses more, saying why): under MAX_BYTES.
export const MAX_SESSION_BYTES = 24_000_000;

export class MessageBudget {
  constructor() {
    this.messages = 0;
    this.size = 0;
    this.bytes = 0;
  }

  /** Counts `data`; false once this worker has sent more than allowed (then always false). */
  take(data) {
    this.messages += 1;
    const { size, bytes } = measure(data, MAX_SIZE - this.size + 1, MAX_BYTES - this.bytes + 1);
    this.size += size;
    this.bytes += bytes;
    return this.messages <= MAX_MESSAGES && this.size <= MAX_SIZE && this.bytes <= MAX_BYTES;
  }
}

// The size of a structured-cloned value: {size: text length (strings, keys, an Error's fields, a BigInt's
// digits) plus one per value and entry, bytes: binary data}, counted until either passes its limit. Every own
// key is counted, non-enumerable ones included: whatever the clone carries is counted. The walk costs at most
// about `limit` steps, plus one listing of each object's own keys (the clone has already made them), whatever
// the value (a cycle included).
function measure(value, limit, byteLimit = Infinity) {
  let size = 0;
  let bytes = 0;
  const pending = [value];
  const room = () => limit - size - pending.length;
  while (pending.length > 0 && size <= limit && bytes <= byteLimit) {
    const item = pending.pop();
    size += 1;
    if (typeof item === "string") {
      size += item.length;
    } else if (typeof item === "bigint") {
      size += Math.ceil((item < 0n ? -item : item).toString(16).length / 2); // one per byte
    } else if (typeof item !== "object" || item === null) {
      // a number, boolean, undefined or symbol: counted as one
    } else if (ArrayBuffer.isView(item) || item instanceof ArrayBuffer) {
      bytes += item.byteLength;
    } else if (item instanceof Blob) {
      bytes += item.size;
      if (item instanceof File) pending.push(item.name);
    } else if (item instanceof String || item instanceof RegExp) {
      pending.push(item instanceof String ? item.valueOf() : item.source); // a String's indexes are its text
    } else if (Array.isArray(item)) {
      for (let i = 0; i < item.length && room() > 0; i += 1) pending.push(item[i]);
      // Named properties, which the clone carries too (listed only when the elements fit: then so do the names).
      for (const key of room() > 0 ? Object.getOwnPropertyNames(item) : []) {
        if (room() <= 0) break;
        if (key !== "length" && !isIndex(key)) pending.push(key, item[key]);
      }
    } else if (item instanceof Map || item instanceof Set) {
      for (const entry of item) {
        pending.push(entry);
        if (room() <= 0) break;
      }
    } else {
      if (item instanceof Error) pending.push(item.name, item.message, item.stack, item.cause);
      for (const key of Object.getOwnPropertyNames(item)) { // a clone has no inherited or symbol keys
        pending.push(key, item[key]);
        if (room() <= 0) break;
      }
    }
  }
  return { size: size + pending.length, bytes };
}

function isIndex(key) {
  return String(key >>> 0) === key && key !== "4294967295";
}
