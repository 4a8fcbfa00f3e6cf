// "Compare with the reference" (success-panel.js loads this module when the comparison first
// opens): a line diff of the learner's code against the reference solution (jsdiff), both
// sides highlighted by `highlight` (python-highlight.js: passed in, as it is in the editor's chunk already).
// When the two share few lines (another approach: a loop where the reference uses einsum) a diff would be all
// red and green: the two are shown side by side instead. Its time is bounded: past DIFF_MAX_LINES on a side, or
// when jsdiff gives up after DIFF_TIMEOUT_MS (its time grows with the product of the two lengths), the two are
// shown side by side as plain text.
import { diffLines } from "diff";

const DIFF_MAX_LINES = 2_000;
const DIFF_TIMEOUT_MS = 500;
const SIDE_BY_SIDE_BELOW = 0.5; // shared lines, as a share of the longer side's lines

/**
 * {verdict, view, sideBySide}: a sentence on how `yours` and `reference` differ, and what shows it: a table of
 * their lines (the lines they share, the lines only yours has, marked −, and the lines only the reference has,
 * marked +, each with its line numbers), or the two side by side when they share fewer than half the lines of
 * the longer one or are too long to compare in bounded time.
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
      view: plainSideBySide({ yours, reference }, counts),
      sideBySide: true,
    };
  }
  const count = (kind) => changes.filter((change) => changeKind(change) === kind)
    .reduce((sum, change) => sum + change.count, 0);
  const [shared, mine, theirs] = [count("both"), count("yours"), count("reference")];
  if (shared < SIDE_BY_SIDE_BELOW * Math.max(shared + mine, shared + theirs)) {
    return {
      verdict: `Your code takes another way than the reference (${lines(shared)} in common), `
        + "so the two are shown side by side rather than as a line diff.",
      view: highlightedSideBySide(yours, reference, highlight),
      sideBySide: true,
    };
  }
  return {
    verdict: mine + theirs === 0 ? "Your code is the same as the reference."
      : `${lines(mine)} only in yours, ${lines(theirs)} only in the reference.`,
    view: diffTable(changes, { yours: highlight(yours), reference: highlight(reference) }),
    sideBySide: false,
  };
}

function changeKind(change) {
  return change.added ? "reference" : change.removed ? "yours" : "both";
}

function diffTable(changes, lines) {
  const at = { yours: 0, reference: 0 };
  const body = element("tbody", {});
  for (const change of changes) {
    const kind = changeKind(change);
    for (let i = 0; i < change.count; i += 1) body.append(row(kind, lines, at));
  }
  const head = element("thead", {}, element("tr", {},
    element("th", { scope: "col", className: "diff-number" }, "Yours"),
    element("th", { scope: "col", className: "diff-number" }, "Reference"),
    element("th", { scope: "col" }, element("span", { className: "visually-hidden" }, "Change")),
    element("th", { scope: "col" }, "Code")));
  return element("table", { className: "diff" }, head, body);
}

// Both sources highlighted, in columns of their own, each with its line numbers.
function highlightedSideBySide(yours, reference, highlight) {
  const column = (title, source) => {
    const lines = highlight(source);
    if (source.endsWith("\n")) lines.pop(); // the empty line after the last newline
    const numbered = lines.map((nodes, index) => element("tr", {},
      element("td", { className: "diff-number" }, String(index + 1)),
      element("td", { className: "diff-code" }, element("code", {}, ...nodes))));
    return element("section", { className: "side-by-side-column" }, element("h3", {}, title),
      element("div", { className: "side-by-side-code" },
        element("table", { className: "diff" }, element("tbody", {}, ...numbered))));
  };
  return element("div", { className: "side-by-side" }, column("Yours", yours), column("Reference", reference));
}

// The two sources as plain text, each under its name (too long to highlight and number in bounded time).
function plainSideBySide(sources, counts) {
  const side = (name, source, count) => element("section", { className: "side-by-side-column" },
    element("h3", {}, `${name} (${lines(count)})`),
    element("pre", { className: "side-by-side-plain" }, element("code", {}, source)));
  return element("div", { className: "side-by-side" },
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
