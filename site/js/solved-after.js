// What the learner's first pass of an exercise took: how many runs of the tests and how many hints,
// kept per exercise in storage (mlex:solved-after:<id> = {"runs": 2, "hints": 1}, JSON) from that pass on,
// so that later runs do not change it. The exercise page's success panel and the index say it
// ("Solved after 2 runs, 1 hint"); a progress file carries it (progress-file.js checks it as below).

export const SOLVED_AFTER_PREFIX = "mlex:solved-after:";
const MAX_COUNT = 1_000_000;

/** The stored text for a first pass after `runs` runs with `hints` hints shown. */
export function solvedAfterText(runs, hints) {
  return JSON.stringify({ runs, hints });
}

/** {runs, hints} from stored `text`; throws an Error saying what is wrong. */
export function parseSolvedAfter(text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error("it is not JSON");
  }
  const count = (n) => Number.isInteger(n) && n >= 0 && n <= MAX_COUNT;
  if (typeof value !== "object" || value === null || !count(value.runs) || value.runs < 1 || !count(value.hints)) {
    throw new Error(`it should be {"runs": a number from 1, "hints": a number from 0}`);
  }
  return { runs: value.runs, hints: value.hints };
}

/** "Solved after 2 runs, 1 hint" (hints: null when not known: "Solved after 2 runs of the tests"). */
export function solvedAfterPhrase({ runs, hints }) {
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (hints === null) return `Solved after ${plural(runs, "run")} of the tests`;
  return `Solved after ${plural(runs, "run")}, ${hints === 0 ? "no hints" : plural(hints, "hint")}`;
}
