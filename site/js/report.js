// JavaScript twin of grader/core/report.py's ReportBuilder, for the runs the page
// has to cut short (time limit, crashed worker, an event it rejects): it builds
// the report from the events received so far. Keep it in step with report.py;
// a browser test compares the two on the same event sequences, malformed ones
// included. Lengths count code points, as Python does, not UTF-16 units.

const STATUSES = ["passed", "failed", "error", "timeout"];
const LOAD_STATUSES = ["error", "timeout"];
export const STDOUT_LIMIT = 32_000;
export const MESSAGE_LIMIT = 20_000;
// Limits of a compared array (a failed check's pictures), as in report.py.
export const COMPARISON_MAX_SIDE = 64;
export const COMPARISON_MAX_LENGTH = 512;
const NON_FINITE = ["nan", "inf", "-inf"];
const TRUNCATED = `\n[output truncated: more than ${STDOUT_LIMIT} characters]\n`;

// An event that does not follow report.py's schema; the builder is left as it was.
export class InvalidEvent extends Error {
  constructor(message) {
    super(message.slice(0, 200));
    this.name = "InvalidEvent";
  }
}

export class ReportBuilder {
  // `points`: what each test is worth, by name (1 when not named), as in report.py.
  constructor(exerciseId, testNames, points = null) {
    this.exerciseId = exerciseId;
    this.testNames = [...testNames];
    this.points = this.testNames.map((name) => (points && Object.hasOwn(points, name) ? points[name] : 1));
    this.results = new Map();
    this.running = null;
    this.loaded = false;
    this.error = null;
    this.loadStatus = "error";
    this.aborted = null;
    this.done = false;
    this.stdout = new Output();
    this.testStdout = new Map();
  }

  // Missing keys are `undefined` here where report.py's event.get() gives None or its default.
  add(event) {
    if (typeof event !== "object" || event === null || Array.isArray(event)) {
      throw new InvalidEvent("an event must be an object");
    }
    const kind = event.event;
    if (kind === "stdout") {
      const test = event.test ?? null;
      if (test !== null) this.index(test);
      const text = textField(event, "text");
      this.stdout.add(text);
      if (test !== null) {
        if (!this.testStdout.has(test)) this.testStdout.set(test, new Output());
        this.testStdout.get(test).add(text);
      }
    } else if (kind === "loaded") {
      let error = event.error ?? null;
      if (error !== null) {
        error = textField(event, "error", MESSAGE_LIMIT);
        const status = event.status === undefined ? "error" : event.status;
        if (!LOAD_STATUSES.includes(status)) throw new InvalidEvent(`invalid load status ${repr(status)}`);
        this.loadStatus = status;
      }
      this.loaded = true;
      this.error = error;
    } else if (kind === "test_start") {
      this.running = this.index(event.index);
    } else if (kind === "test") {
      const index = this.index(event.index);
      const { status, duration_ms: duration } = event;
      if (!STATUSES.includes(status)) throw new InvalidEvent(`invalid status ${repr(status)}`);
      if (typeof duration !== "number" || !Number.isFinite(duration) || duration < 0) {
        throw new InvalidEvent(`invalid duration ${repr(duration)}`);
      }
      const test = result(this.testNames[index], status, textField(event, "message"), duration);
      if (Object.hasOwn(event, "comparison")) test.comparison = checkComparison(event.comparison);
      // The engine's mark of a test whose own code failed: the exercise's bug, not graded (as report.py).
      if (event.test_code_error !== undefined && event.test_code_error !== null) {
        checkTestCodeError(event.test_code_error);
        if (status !== "error") throw new InvalidEvent("a test whose own code failed is an error");
        test.exercise_bug = true;
      }
      this.results.set(index, test);
      this.running = null;
    } else if (kind === "aborted") {
      this.aborted = textField(event, "error", MESSAGE_LIMIT);
    } else if (kind === "done") {
      this.done = true;
    } else if (kind !== "start") {
      throw new InvalidEvent(`unknown event ${repr(kind)}`);
    }
  }

  index(index) {
    if (!Number.isInteger(index) || index < 0 || index >= this.testNames.length) {
      throw new InvalidEvent(`test index ${repr(index)} out of range`);
    }
    return index;
  }

  // `interruption` is [status, message] when the run did not reach its end; `exerciseBug` when what ended it
  // is the exercise's (the tests' own code ran out of time): the running test and those not run are not graded.
  finish(interruption = null, exerciseBug = false) {
    let error = this.error;
    let notRun;
    if (!this.loaded) {
      const [status, message] = interruption ?? ["error", "Grading stopped before your code was loaded."];
      error = `${message} (while loading your code)`;
      notRun = [status, `Not run: ${message}`];
    } else if (error !== null) {
      notRun = [this.loadStatus, "Not run: your code could not be loaded."];
    } else if (this.aborted !== null) {
      error = this.aborted;
      notRun = ["error", `Not run: ${this.aborted}`];
    } else if (interruption !== null) {
      notRun = [interruption[0], `Not run: ${interruption[1]}`];
    } else {
      notRun = ["error", "Not run: grading ended early."];
    }
    const tests = this.testNames.map((name, index) => {
      let test;
      if (this.results.has(index)) test = this.results.get(index);
      else if (index === this.running && interruption !== null) test = result(name, ...interruption);
      else test = result(name, ...notRun);
      if (exerciseBug && this.loaded && this.error === null && !this.results.has(index)) test.exercise_bug = true;
      const worth = this.points[index];
      return { ...test, stdout: this.testStdout.get(index)?.text() ?? "",
        score: test.status === "passed" ? worth : 0, max_score: worth };
    });
    const graded = tests.filter((t) => !t.exercise_bug);
    return { exercise: this.exerciseId, passed: passes(error, tests), error, tests, stdout: this.stdout.text(),
      score: total(tests.map((t) => t.score)), max_score: total(graded.map((t) => t.max_score)) };
  }
}

// No error, every graded test (not the exercise's bug) passed, and one at least (as report.py).
function passes(error, tests) {
  const graded = tests.filter((t) => !t.exercise_bug);
  return error === null && graded.length > 0 && graded.every((t) => t.status === "passed");
}

function checkTestCodeError(error) {
  const valid = isPlainObject(error) && Object.keys(error).sort().join() === "kind,line,traceback"
    && (error.line === null || Number.isInteger(error.line)) && ["raised", "stopped", "not run"].includes(error.kind)
    && typeof error.traceback === "string";
  if (!valid) throw new InvalidEvent("test_code_error must be an object with line, kind and traceback");
}

// Printed text, capped at STDOUT_LIMIT characters with a note when cut.
class Output {
  constructor() {
    this.parts = [];
    this.size = 0;
  }

  add(text) {
    const room = STDOUT_LIMIT - this.size;
    if (room < 0 || text === "") return; // already cut, or nothing to add (a full buffer still gets the note)
    const chars = Array.from(text);
    let size = chars.length;
    if (size > room) {
      text = chars.slice(0, room).join("") + TRUNCATED;
      size = room + TRUNCATED.length; // TRUNCATED is ASCII
    }
    this.parts.push(text);
    this.size += size;
  }

  text() {
    return this.parts.join("");
  }
}

// Most tests an exercise has, and the longest test or exercise name, in a report checked by checkReport.
const MAX_TESTS = 1000;
const NAME_LIMIT = 1000;
const CUT = " [cut]"; // what cleanText adds to text it cut

/**
 * Throws InvalidEvent unless `report` has the shape and limits of one finish() makes: a report the
 * page kept (or a progress file brought) is checked by this before it is drawn or stored again.
 */
export function checkReport(report) {
  if (!isPlainObject(report)) throw new InvalidEvent("a report must be an object");
  checkText(report, "exercise", NAME_LIMIT);
  if (typeof report.passed !== "boolean") throw new InvalidEvent("a report's passed must be true or false");
  if (report.error !== null) checkText(report, "error", MESSAGE_LIMIT + CUT.length);
  checkText(report, "stdout", STDOUT_LIMIT + TRUNCATED.length);
  checkNumbers(report, "score", "max_score");
  const { tests } = report;
  if (!Array.isArray(tests) || tests.length > MAX_TESTS) {
    throw new InvalidEvent(`a report's tests must be a list of at most ${MAX_TESTS}`);
  }
  for (const test of tests) {
    if (!isPlainObject(test)) throw new InvalidEvent("a test must be an object");
    checkText(test, "name", NAME_LIMIT);
    if (!STATUSES.includes(test.status)) throw new InvalidEvent(`invalid status ${repr(test.status)}`);
    checkText(test, "message", MESSAGE_LIMIT + CUT.length);
    checkText(test, "stdout", STDOUT_LIMIT + TRUNCATED.length);
    checkNumbers(test, "duration_ms", "score", "max_score");
    if (test.duration_ms < 0) throw new InvalidEvent(`invalid duration ${repr(test.duration_ms)}`);
    if (Object.hasOwn(test, "comparison")) checkComparison(test.comparison);
    if (Object.hasOwn(test, "exercise_bug") && (test.exercise_bug !== true || test.status !== "error")) {
      throw new InvalidEvent("exercise_bug must be true, on an error");
    }
  }
}

// Lengths in code points, as the builder counts them; UTF-16 units are at least as many, so most
// texts pass on their length alone.
function checkText(object, key, limit) {
  const value = object[key];
  if (typeof value !== "string" || (value.length > limit && Array.from(value).length > limit)) {
    throw new InvalidEvent(`${key} must be text of at most ${limit} characters`);
  }
}

function checkNumbers(object, ...keys) {
  for (const key of keys) {
    if (typeof object[key] !== "number" || !Number.isFinite(object[key])) {
      throw new InvalidEvent(`${key} must be a finite number`);
    }
  }
}

// `value` if it is a valid comparison (see grader/core/comparison.py), else InvalidEvent.
function checkComparison(value) {
  if (!isPlainObject(value) || Object.keys(value).sort().join() !== "expected,got") {
    throw new InvalidEvent("comparison must be an object with got and expected");
  }
  for (const array of [value.got, value.expected]) {
    if (array !== null) checkArray(array);
  }
  return value;
}

function checkArray(array) {
  if (!isPlainObject(array) || Object.keys(array).sort().join() !== "shape,step,values") {
    throw new InvalidEvent("a compared array must have shape, step and values");
  }
  const { shape, step, values } = array;
  const positive = (n) => Number.isInteger(n) && n >= 1;
  if (!Array.isArray(shape) || !Array.isArray(step) || ![1, 2].includes(shape.length)
      || step.length !== shape.length || !shape.every(positive) || !step.every(positive)) {
    throw new InvalidEvent("a compared array's shape and step must be 1 or 2 positive integers");
  }
  const sizes = shape.map((n, axis) => Math.ceil(n / step[axis])); // entries kept along each axis
  if (Math.max(...sizes) > (shape.length === 1 ? COMPARISON_MAX_LENGTH : COMPARISON_MAX_SIDE)) {
    throw new InvalidEvent("a compared array is larger than allowed");
  }
  const rows = shape.length === 1 ? [values] : values;
  const entry = (x) => (typeof x === "number" && Number.isFinite(x)) || NON_FINITE.includes(x);
  if (!Array.isArray(rows) || rows.length !== (shape.length === 1 ? 1 : sizes[0])
      || !rows.every((row) => Array.isArray(row) && row.length === sizes.at(-1) && row.every(entry))) {
    throw new InvalidEvent("a compared array's values do not match its shape");
  }
}

function isPlainObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function textField(event, key, limit = null) {
  const value = event[key] === undefined ? "" : event[key];
  if (typeof value !== "string") throw new InvalidEvent(`${key} must be a string`);
  return cleanText(value, limit);
}

// `text` as valid Unicode (lone surrogates replaced by "?", as Python's encode(errors="replace")
// does), cut to `limit` characters.
function cleanText(text, limit = null) {
  if (limit !== null && text.length > limit) { // UTF-16 length >= code points: a cheap first test
    const chars = Array.from(text);
    if (chars.length > limit) text = `${chars.slice(0, limit).join("")} [cut]`;
  }
  return text.replace(/\p{Surrogate}/gu, "?");
}

// Added in order, as report.py does, so both get the same float.
function total(numbers) {
  let sum = 0;
  for (const number of numbers) sum += number;
  return sum;
}

function result(name, status, message, durationMs = 0) {
  return { name, status, message: cleanText(message, MESSAGE_LIMIT),
    duration_ms: Math.round(durationMs * 1000) / 1000 };
}

// Close enough to Python's repr() for the messages of InvalidEvent.
function repr(value) {
  if (value === undefined || value === null) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "string") return `'${value}'`;
  if (typeof value === "number") return String(value);
  return JSON.stringify(value);
}
