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
const MAX_SOURCE_LENGTH = 1_000_000;

/** `text`, stored at PASSED_PREFIX + id; throws an Error saying what is wrong with it. */
export function checkPassedCode(text) {
  if (typeof text !== "string" || text.length > MAX_SOURCE_LENGTH) {
    throw new Error(`passing code must be text of at most ${MAX_SOURCE_LENGTH} characters`);
  }
  return text;
}

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
  if (typeof source !== "string" || source.length > MAX_SOURCE_LENGTH) {
    throw new Error(`the source must be text of at most ${MAX_SOURCE_LENGTH} characters`);
  }
  return { report, interruption, source };
}
