// Renders a grading report into the results panel (#results): the verdict and score, one
// card per test (its message, its own output, pictures of a failed array comparison), with
// tests that failed the same way collapsed into one card, then what was printed outside
// the tests. Lines of the learner's code named in messages are buttons that jump there.
import { comparisonFigure } from "./pictures.js";

const STATUS_TEXT = {
  passed: ["✓", "Passed"],
  failed: ["✗", "Failed"],
  error: ["!", "Error"],
  timeout: ["◷", "Timed out"], // a clock face most system fonts have (⏱ needs an emoji font)
};
const NOT_RUN = "Not run: "; // how report.py and report.js start the message of a test that never ran
// "SyntaxError on line 3, column 24: ..." (loading) and "  line 12, in f: ..." (a traceback).
const SYNTAX_LINE = /^(.*\bon line )(\d+)(?:, column (\d+))?(.*)$/;
const TRACEBACK_LINE = /^(\s+line )(\d+)(, in .*)$/;

/**
 * `interruption`: null, or the [status, message] that stopped the run early.
 * `onLine(line)`: called when a line number of the learner's code is clicked.
 * `extra`: a node shown right after the verdict (the success panel), or null.
 */
export function renderResults(container, report, interruption, { onLine = () => {}, extra = null } = {}) {
  const passed = report.tests.filter((test) => test.status === "passed").length;
  // A test marked exercise_bug (its own code failed) is not graded: left out of the count and the score.
  const notGraded = report.tests.filter((test) => test.exercise_bug).length;
  const parts = [];

  let summary = `${passed}/${report.tests.length - notGraded} tests passed`;
  if (notGraded) summary += ` (${notGraded} not graded: the exercise has a bug)`;
  if (report.passed) summary += " — all good!";
  const verdict = element("div", { className: "verdict" },
    element("p", { className: `summary ${report.passed ? "passed" : "not-passed"}` }, summary));
  if (typeof report.score === "number" && typeof report.max_score === "number") {
    verdict.append(element("p", { className: "score" },
      `Score: ${points(report.score)} of ${points(report.max_score)} point${report.max_score === 1 ? "" : "s"}`));
  }
  parts.push(verdict);
  if (extra) parts.push(extra);

  if (interruption) {
    parts.push(element("p", { className: "run-notice" }, interruption[1]));
  }
  if (report.error) {
    parts.push(element("pre", { className: "run-error" }, ...withLineLinks(report.error, onLine)));
  }

  const list = element("ol", { className: "result-list" });
  for (const group of groupTests(report.tests)) list.append(card(group, onLine));
  parts.push(list);

  const outside = outputOutsideTests(report);
  if (outside) {
    const anyInTests = report.tests.some((test) => test.stdout);
    parts.push(element("div", { className: "stdout-block" },
      element("p", {}, anyInTests ? "Printed outside the tests:" : "Your code printed:"),
      element("pre", { className: "stdout" }, outside)));
  }
  container.replaceChildren(...parts);
}

/** While a run is in flight: old results stay (dimmed by CSS); an empty panel says it is running. */
export function renderRunning(container) {
  if (!container.querySelector(".summary")) {
    container.replaceChildren(element("p", { className: "results-placeholder" }, "Running the tests…"));
  }
}

/** A message in place of results, e.g. when Python could not be loaded. */
export function renderProblem(container, text) {
  container.replaceChildren(element("p", { className: "run-error" }, text));
}

/**
 * The places in the learner's code that the report blames: [{line, column, message}], one per
 * line, from a syntax error or the innermost line of each traceback.
 */
export function codeProblems(report) {
  const problems = new Map();
  for (const text of [report.error,
    ...report.tests.map((test) => test.status === "error" && !test.exercise_bug && test.message)]) {
    if (!text) continue;
    const lines = text.split("\n");
    const syntax = lines.map((line) => SYNTAX_LINE.exec(line)).find(Boolean);
    const traceback = lines.map((line) => TRACEBACK_LINE.exec(line)).filter(Boolean).at(-1);
    const headline = lines.find((line) => /^\w[\w.]*( \(a kind of \w+\))?: /.test(line)) ?? lines[0];
    const place = syntax ? { line: Number(syntax[2]), column: Number(syntax[3]) || 0, message: lines[0] }
      : traceback ? { line: Number(traceback[2]), column: 0, message: headline } : null;
    if (place && !problems.has(place.line)) problems.set(place.line, place);
  }
  return [...problems.values()];
}

// Tests that did not pass with the same status and message (and no pictures) share one card.
function groupTests(tests) {
  const groups = [];
  const byKey = new Map();
  for (const test of tests) {
    const key = test.status !== "passed" && test.message && !test.comparison
      ? `${test.status}\n${Boolean(test.exercise_bug)}\n${test.message}` : null;
    if (key !== null && byKey.has(key)) {
      byKey.get(key).push(test);
      continue;
    }
    const group = [test];
    if (key !== null) byKey.set(key, group);
    groups.push(group);
  }
  return groups;
}

function card(group, onLine) {
  const [first] = group;
  const notGraded = Boolean(first.exercise_bug);
  const notRun = !notGraded && first.message.startsWith(NOT_RUN);
  const [icon, label] = notGraded ? ["–", "Not graded"] : notRun ? ["–", "Not run"] : STATUS_TEXT[first.status];
  const iconNode = element("span", { className: "result-icon" }, icon);
  iconNode.setAttribute("aria-hidden", "true"); // the status word says it
  const name = group.length === 1 ? first.name
    : `${group.length} tests, ${notGraded ? "not graded" : notRun ? "not run" : "same message"}:`;
  // The spaces keep the words apart for screen readers and unstyled text.
  const kind = notGraded ? " not-graded" : notRun ? " not-run" : "";
  const row = element("li", { className: `result-row ${first.status}${kind}` },
    iconNode, " ",
    element("span", { className: "result-status" }, label), " ",
    element("span", { className: "result-name" }, ...withCode(name)));
  const duration = group.reduce((sum, test) => sum + test.duration_ms, 0);
  if (duration > 0) {
    row.append(" ", element("span", { className: "result-duration" }, `(${formatDuration(duration)})`));
  }
  if (group.length > 1) {
    row.append(element("ul", { className: "result-group" }, ...group.map((test) => element("li", {}, ...withCode(test.name)))));
  }
  if (first.message) row.append(element("pre", { className: "result-message" }, ...withLineLinks(first.message, onLine)));
  const figure = first.comparison ? comparisonFigure(first.comparison) : null;
  if (figure) row.append(figure);
  for (const test of group.filter((t) => t.stdout)) {
    const heading = group.length === 1 ? "Printed during this test:" : `Printed during “${test.name}”:`;
    row.append(element("div", { className: "test-output" },
      element("p", {}, heading), element("pre", { className: "test-stdout" }, test.stdout)));
  }
  return row;
}

// The report's output without the parts printed during a test (each test's output is one
// stretch of it, in test order). A part that cannot be found, because the whole output was
// cut at its limit, stays in: nothing printed is ever hidden.
function outputOutsideTests(report) {
  let outside = "";
  let cursor = 0;
  for (const test of report.tests) {
    if (!test.stdout) continue;
    const at = report.stdout.indexOf(test.stdout, cursor);
    if (at < 0) continue;
    outside += report.stdout.slice(cursor, at);
    cursor = at + test.stdout.length;
  }
  return outside + report.stdout.slice(cursor);
}

// `text` as nodes, the line numbers of the learner's code in it as buttons calling onLine(line).
function withLineLinks(text, onLine) {
  return text.split("\n").flatMap((line, index) => {
    const nodes = index > 0 ? ["\n"] : [];
    const match = TRACEBACK_LINE.exec(line) ?? SYNTAX_LINE.exec(line);
    if (!match) return [...nodes, line];
    const number = Number(match[2]);
    const link = element("button", { type: "button", className: "line-link" }, `line ${number}`);
    link.setAttribute("aria-label", `line ${number}: show it in the editor`);
    link.addEventListener("click", () => onLine(number));
    const before = match[1].slice(0, -"line ".length);
    const after = line.slice(match[1].length + match[2].length);
    return [...nodes, before, link, after];
  });
}

function points(value) {
  return String(Math.round(value * 100) / 100);
}

function formatDuration(ms) {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

// A test's name: `code` between backticks in <code>, as the statement and the page's test list show it
// (sitebuild/render.py inline_code); an unpaired backtick is shown as written.
function withCode(text) {
  const parts = text.split("`");
  if (parts.length % 2 === 0) return [text];
  return parts.map((part, index) => (index % 2 ? element("code", {}, part) : part));
}

function element(tag, properties, ...children) {
  const node = Object.assign(document.createElement(tag), properties);
  node.append(...children);
  return node;
}
