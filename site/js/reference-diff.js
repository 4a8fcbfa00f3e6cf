// "Compare with the reference" (success-panel.js loads this module when the comparison first
// opens): a line diff of the learner's code against the reference solution (jsdiff), both
// sides highlighted by `highlight` (python-highlight.js: passed in, as it is in the editor's chunk already).
// When the two share few lines (another approach: a loop where the reference uses einsum) a diff
// would be all red and green: the two are shown side by side instead.
import { diffLines } from "diff";

const SIDE_BY_SIDE_BELOW = 0.5; // shared lines, as a share of the longer side's lines

/**
 * {node, shared, mine, theirs, sideBySide}: how `yours` and `reference` compare (lines shared, only in yours,
 * only in the reference) and the node that shows it: the line diff (referenceDiff), or both side by side
 * when they share fewer than half the lines of the longer one.
 * highlight(source): the lines of `source`, each an array of nodes.
 */
export function compareWithReference(yours, reference, highlight) {
  const changes = diffLines(yours, reference, { ignoreNewlineAtEof: true });
  const count = (kind) => changes.filter((change) => changeKind(change) === kind)
    .reduce((sum, change) => sum + change.count, 0);
  const [shared, mine, theirs] = [count("both"), count("yours"), count("reference")];
  const sideBySide = shared < SIDE_BY_SIDE_BELOW * Math.max(shared + mine, shared + theirs);
  const node = sideBySide ? sideBySideView(yours, reference, highlight) : referenceDiff(changes, yours, reference,
    highlight);
  return { node, shared, mine, theirs, sideBySide };
}

// Both sources in columns of their own, each with its line numbers.
function sideBySideView(yours, reference, highlight) {
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

function changeKind(change) {
  return change.added ? "reference" : change.removed ? "yours" : "both";
}

/**
 * A table of the lines of `yours` and `reference`: the lines they share, the lines only yours has
 * (marked −) and the lines only the reference has (marked +), each with its line numbers.
 * changes: jsdiff's diffLines(yours, reference).
 */
function referenceDiff(changes, yours, reference, highlight) {
  const lines = { yours: highlight(yours), reference: highlight(reference) };
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
