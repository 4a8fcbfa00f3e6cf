// JavaScript twin of grader/core/report.py's ReportBuilder, for the runs the page
// has to cut short (time limit, crashed worker): it builds the report from the
// events received so far. Keep it in step with report.py; a browser test
// compares the two on the same event sequences.

const STATUSES = ["passed", "failed", "error", "timeout"];
export const STDOUT_LIMIT = 32_000;
const TRUNCATED = `\n[output truncated: more than ${STDOUT_LIMIT} characters]\n`;

export class ReportBuilder {
  constructor(exerciseId, testNames) {
    this.exerciseId = exerciseId;
    this.testNames = [...testNames];
    this.results = new Map();
    this.running = null;
    this.loaded = false;
    this.error = null;
    this.aborted = null;
    this.done = false;
    this.stdout = [];
    this.stdoutSize = 0;
  }

  add(event) {
    switch (event.event) {
      case "stdout":
        this.addStdout(String(event.text ?? ""));
        break;
      case "loaded":
        this.loaded = true;
        this.error = event.error ?? null;
        break;
      case "test_start":
        this.running = event.index;
        break;
      case "test":
        this.results.set(event.index, testResult(this.testNames[event.index], event));
        this.running = null;
        break;
      case "aborted":
        this.aborted = String(event.error);
        break;
      case "done":
        this.done = true;
        break;
    }
  }

  addStdout(text) {
    const room = STDOUT_LIMIT - this.stdoutSize;
    if (room <= 0) return;
    // Python counts code points, not UTF-16 units.
    const chars = Array.from(text);
    let size = chars.length;
    if (size > room) {
      text = chars.slice(0, room).join("") + TRUNCATED;
      size = room + Array.from(TRUNCATED).length;
    }
    this.stdout.push(text);
    this.stdoutSize += size;
  }

  // `interruption` is [status, message] when the run did not reach its end.
  finish(interruption = null) {
    let error = this.error;
    let notRun;
    if (!this.loaded) {
      const [status, message] = interruption ?? ["error", "Grading stopped before your code was loaded."];
      error = `${message} (while loading your code)`;
      notRun = [status, `Not run: ${message}`];
    } else if (error !== null) {
      notRun = ["error", "Not run: your code could not be loaded."];
    } else if (this.aborted !== null) {
      error = this.aborted;
      notRun = ["error", `Not run: ${this.aborted}`];
    } else if (interruption !== null) {
      notRun = [interruption[0], `Not run: ${interruption[1]}`];
    } else {
      notRun = ["error", "Not run: grading ended early."];
    }
    const tests = this.testNames.map((name, index) => {
      if (this.results.has(index)) return this.results.get(index);
      if (index === this.running && interruption !== null) return result(name, ...interruption);
      return result(name, ...notRun);
    });
    const passed = error === null && tests.every((t) => t.status === "passed");
    return { exercise: this.exerciseId, passed, error, tests, stdout: this.stdout.join("") };
  }
}

function testResult(name, event) {
  const status = event.status;
  if (!STATUSES.includes(status)) {
    return result(name, "error", `Invalid status ${pythonRepr(status)} reported by the grader.`);
  }
  return result(name, status, String(event.message ?? ""), Number(event.duration_ms ?? 0));
}

function result(name, status, message, durationMs = 0) {
  return { name, status, message, duration_ms: Math.round(durationMs * 1000) / 1000 };
}

function pythonRepr(value) {
  if (value === undefined || value === null) return "None";
  return typeof value === "string" ? `'${value}'` : String(value);
}
