// "Compare with the reference" (success-panel.js loads this module when the comparison first
// opens): a line diff of the learner's code against the reference solution (jsdiff), both
// sides highlighted by `highlight` (python-highlight.js: passed in, as it is in the editor's chunk already).
// Its time is bounded: past DIFF_MAX_LINES on a side, or when jsdiff gives up after DIFF_TIMEOUT_MS (its time
// grows with the product of the two lengths), the two are shown side by side as plain text.
import { diffLines } from "diff";

const DIFF_MAX_LINES = 2_000;
const DIFF_TIMEOUT_MS = 500;

/**
 * {verdict, view}: a sentence on how `yours` and `reference` differ, and a table of their lines: the lines they
 * share, the lines only yours has (marked −) and the lines only the reference has (marked +), each with its line
 * numbers; or, when they are too long to compare in bounded time, the two side by side.
 * highlight(source): the lines of `source`, each an array of nodes.
 */
export function compareWithReference(yours, reference, highlight) {
  const counts = { yours: lineCount(yours), reference: lineCount(reference) };
  const changes = Math.max(counts.yours, counts.reference) > DIFF_MAX_LINES ? undefined
    : diffLines(yours, reference, { ignoreNewlineAtEof: true, timeout: DIFF_TIMEOUT_MS });
  if (changes === undefined) {
    return {
      verdict: `Too long to compare line by line (${lines(counts.yours)} in yours, `
        + `${lines(counts.reference)} in the reference): here are both in full.`,
      view: sideBySide({ yours, reference }, counts),
    };
  }
  const table = diffTable(changes, { yours: highlight(yours), reference: highlight(reference) });
  const [mine, theirs] = [".diff-yours", ".diff-reference"].map((rows) => table.querySelectorAll(rows).length);
  return {
    verdict: mine + theirs === 0 ? "Your code is the same as the reference."
      : `${lines(mine)} only in yours, ${lines(theirs)} only in the reference.`,
    view: table,
  };
}

function diffTable(changes, lines) {
  const at = { yours: 0, reference: 0 };
  const body = element("tbody", {});
  for (const change of changes) {
    const kind = change.added ? "reference" : change.removed ? "yours" : "both";
    for (let i = 0; i < change.count; i += 1) body.append(row(kind, lines, at));
  }
  const head = element("thead", {}, element("tr", {},
    element("th", { scope: "col", className: "diff-number" }, "Yours"),
    element("th", { scope: "col", className: "diff-number" }, "Reference"),
    element("th", { scope: "col" }, element("span", { className: "visually-hidden" }, "Change")),
    element("th", { scope: "col" }, "Code")));
  return element("table", { className: "diff" }, head, body);
}

// The two sources as plain text, each under its name.
function sideBySide(sources, counts) {
  const side = (name, source, count) => element("section", { className: "diff-side" },
    element("h3", {}, `${name} (${lines(count)})`),
    element("pre", {}, element("code", {}, source)));
  return element("div", { className: "diff-sides" },
    side("Yours", sources.yours, counts.yours), side("Reference", sources.reference, counts.reference));
}

function lineCount(text) {
  let count = 1;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count += 1;
  return text.endsWith("\n") ? count - 1 : count;
}

const lines = (count) => `${count.toLocaleString("en")} line${count === 1 ? "" : "s"}`;

// One line of the table; `at` holds the next line number of each side and moves on.
function row(kind, lines, at) {
  const numbers = { yours: "", reference: "" };
  let code = null;
  for (const side of ["yours", "reference"]) {
    if (kind !== "both" && kind !== side) continue;
    code = lines[side][at[side]];
    at[side] += 1;
    numbers[side] = String(at[side]);
  }
  const sign = { yours: ["−", "only in yours"], reference: ["+", "only in the reference"], both: ["", ""] }[kind];
  const mark = element("span", {}, sign[0]);
  mark.setAttribute("aria-hidden", "true"); // said by the hidden words beside it
  return element("tr", { className: `diff-${kind}` },
    element("td", { className: "diff-number" }, numbers.yours),
    element("td", { className: "diff-number" }, numbers.reference),
    element("td", { className: "diff-sign" },
      mark, element("span", { className: "visually-hidden" }, sign[1])),
    element("td", { className: "diff-code" }, element("code", {}, ...code)));
}

function element(tag, properties, ...children) {
  const node = Object.assign(document.createElement(tag), properties);
  node.append(...children);
  return node;
}
