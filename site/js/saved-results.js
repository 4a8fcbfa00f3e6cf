// The last results of an exercise as the exercise page keeps them in storage
// (mlex:results:<id>): {report, interruption, source}, JSON. What is read back, from this
// browser or from an imported progress file, is checked as the page checks a run's events
// (report.js) before anything draws it: a damaged or forged entry cannot draw huge pictures or
// texts.
import { checkReport, MESSAGE_LIMIT } from "./report.js";

export const RESULTS_PREFIX = "mlex:results:";
// Also kept per exercise, for the steps that use it (in-scope.js): the source of the latest passing
// run, as text, and whether a learner switched that step to the reference ("reference" | "mine").
export const PASSED_PREFIX = "mlex:passed:";
export const SCOPE_PREFIX = "mlex:scope:";
const INTERRUPTION_STATUSES = ["error", "timeout"];
// What the page opens in the editor or compares with the reference: code past these is no one's honest work,
// and the editor lays out a long line of mixed-direction text in time that grows with its square (a line of
// 180,000 characters: 5 s). The comparison has its own bounds (reference-diff.js).
const MAX_SOURCE_LENGTH = 1_000_000;
const MAX_SOURCE_LINES = 10_000;
export const MAX_LINE_LENGTH = 5_000;

/** `text`, code kept by the page (the latest code, the latest passing code at PASSED_PREFIX + id, a result's
 * source); throws an Error saying what is wrong with it. */
export function checkCode(text) {
  if (typeof text !== "string") throw new Error("code must be text");
  if (text.length > MAX_SOURCE_LENGTH) {
    throw new Error(`the code has ${count(text.length)} characters; code is at most ${count(MAX_SOURCE_LENGTH)}`);
  }
  let lines = 0;
  for (let start = 0; start <= text.length; lines += 1) {
    const newline = text.indexOf("\n", start);
    const end = newline === -1 ? text.length : newline;
    if (end - start > MAX_LINE_LENGTH) {
      throw new Error(`line ${count(lines + 1)} of the code has ${count(end - start)} characters; `
        + `a line is at most ${count(MAX_LINE_LENGTH)}`);
    }
    start = end + 1;
  }
  if (text.endsWith("\n")) lines -= 1; // the empty line after the last newline
  if (lines > MAX_SOURCE_LINES) {
    throw new Error(`the code has ${count(lines)} lines; code is at most ${count(MAX_SOURCE_LINES)} lines`);
  }
  return text;
}

const count = (n) => n.toLocaleString("en");

/** The stored text for a run's outcome. */
export function savedResultsText(report, interruption, source) {
  return JSON.stringify({ report, interruption, source });
}

/** {report, interruption, source} from stored `text`; throws an Error saying what is wrong. */
export function parseSavedResults(text) {
  let saved;
  try {
    saved = JSON.parse(text);
  } catch (err) {
    throw new Error(`not JSON (${err.message})`);
  }
  if (typeof saved !== "object" || saved === null || Array.isArray(saved)) {
    throw new Error("not an object with report, interruption and source");
  }
  const { report, interruption = null, source } = saved;
  try {
    checkReport(report);
  } catch (err) {
    throw new Error(`the report is not valid: ${err.message}`);
  }
  if (interruption !== null && !(Array.isArray(interruption) && interruption.length === 2
      && INTERRUPTION_STATUSES.includes(interruption[0]) && typeof interruption[1] === "string"
      && interruption[1].length <= MESSAGE_LIMIT)) {
    throw new Error("the interruption must be null or [status, message]");
  }
  try {
    checkCode(source);
  } catch (err) {
    throw new Error(`its source: ${err.message}`);
  }
  return { report, interruption, source };
}
