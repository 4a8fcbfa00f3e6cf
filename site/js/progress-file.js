// A learner's progress file: everything the site keeps in this browser's storage
// (keys starting with "mlex:": code, the latest passing code, solved/attempted marks, and
// whatever else an exercise page saves), as JSON, so it can move to another browser or machine.
//
//   {"format": "ml-exercises-progress", "version": 1, "exported_at": "<ISO time>",
//    "entries": {"mlex:code:softmax": "import numpy as np\n...", "mlex:progress:softmax": "solved", ...}}
//
// Importing merges: each entry in the file replaces the same entry here, entries the
// file does not have are kept, and a "solved" mark is never lowered to "attempted".
// Saved results are checked as the exercise page checks its own, and code (the latest, the latest passing, a
// result's source) within the limits of what the page opens (saved-results.js): nothing imported can stall it.
import { checkCode, parseSavedResults, PASSED_PREFIX, RESULTS_PREFIX, SCOPE_PREFIX } from "./saved-results.js";

export const FORMAT = "ml-exercises-progress";
export const VERSION = 1;
export const MAX_FILE_BYTES = 5 * 1024 * 1024; // about what a browser lets a site store
const PREFIX = "mlex:";
const PROGRESS_PREFIX = "mlex:progress:";
const CODE_PREFIX = "mlex:code:";
const PROGRESS_STATES = ["solved", "attempted"];
const MAX_KEY_LENGTH = 200;

/** The progress file's object for what `storage` (localStorage) holds. */
export function collectProgress(storage) {
  const entries = {};
  for (const key of storageKeys(storage).sort()) entries[key] = storage.getItem(key);
  return { format: FORMAT, version: VERSION, exported_at: new Date().toISOString(), entries };
}

/**
 * The entries of a progress file, given its text and size in bytes.
 * Throws an Error whose message says what is wrong (to show as is) when the file is not a valid progress file.
 */
export function readProgressFile(text, size) {
  if (size > MAX_FILE_BYTES) {
    throw new Error(`The file is ${megabytes(size)}; a progress file is at most ${megabytes(MAX_FILE_BYTES)}.`);
  }
  let data;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`The file is not JSON (${err.message}).`);
  }
  if (typeof data !== "object" || data === null || Array.isArray(data) || data.format !== FORMAT) {
    throw new Error(`The file is JSON but not a progress file of this site (it needs "format": "${FORMAT}").`);
  }
  if (data.version !== VERSION) {
    const newer = typeof data.version === "number" && data.version > VERSION;
    throw new Error(`The file has "version": ${JSON.stringify(data.version) ?? "missing"}; this site reads version `
      + `${VERSION}${newer ? " (the file was made by a newer version of the site)" : ""}.`);
  }
  const entries = data.entries;
  if (entries === undefined) throw new Error(`The file has no "entries" (the saved values).`);
  if (typeof entries !== "object" || entries === null || Array.isArray(entries)) {
    throw new Error(`The file's "entries" should be an object of saved values, not ${describe(entries)}.`);
  }
  for (const [key, value] of Object.entries(entries)) {
    if (!key.startsWith(PREFIX) || key.length > MAX_KEY_LENGTH) {
      throw new Error(`The file's entry "${key.slice(0, 60)}" is not one this site saves `
        + `(names start with "${PREFIX}" and are at most ${MAX_KEY_LENGTH} characters).`);
    }
    if (typeof value !== "string") {
      throw new Error(`The file's entry "${key}" should be text, not ${describe(value)}.`);
    }
    if (key.startsWith(PROGRESS_PREFIX) && !PROGRESS_STATES.includes(value)) {
      throw new Error(`The file's entry "${key}" is ${JSON.stringify(value.slice(0, 40))}; `
        + `it should be "solved" or "attempted".`);
    }
    if (key.startsWith(PASSED_PREFIX) || key.startsWith(CODE_PREFIX)) {
      try {
        checkCode(value);
      } catch (err) {
        throw new Error(`The file's entry "${key}" is not valid code (${err.message}).`);
      }
    }
    if (key.startsWith(SCOPE_PREFIX) && !["reference", "mine"].includes(value)) {
      throw new Error(`The file's entry "${key}" should be "reference" or "mine".`);
    }
    if (key.startsWith(RESULTS_PREFIX)) {
      try {
        parseSavedResults(value);
      } catch (err) {
        throw new Error(`The file's entry "${key}" is not valid test results (${err.message}).`);
      }
    }
  }
  return entries;
}

/**
 * Merge `entries` into `storage`: all of them or, if the browser refuses one (storage full), none.
 * Returns the ids of the exercises the entries are about.
 */
export function mergeProgress(storage, entries) {
  const previous = new Map();
  try {
    for (const [key, value] of Object.entries(entries)) {
      const current = storage.getItem(key);
      if (key.startsWith(PROGRESS_PREFIX) && current === "solved") continue; // never un-solve
      previous.set(key, current);
      storage.setItem(key, value);
    }
  } catch (err) {
    for (const [key, value] of previous) {
      if (value === null) storage.removeItem(key);
      else storage.setItem(key, value);
    }
    throw new Error(`This browser would not store the progress (${err.message}); nothing was changed.`);
  }
  return new Set(Object.keys(entries).map((key) => key.split(":").slice(2).join(":")).filter(Boolean));
}

function storageKeys(storage) {
  const keys = [];
  for (let i = 0; i < storage.length; i += 1) {
    const key = storage.key(i);
    if (key.startsWith(PREFIX)) keys.push(key);
  }
  return keys;
}

function describe(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return { number: "a number", boolean: "true/false", object: "an object" }[typeof value]
    ?? typeof value;
}

function megabytes(bytes) {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
