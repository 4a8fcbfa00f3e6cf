// "Compare with the reference" (success-panel.js loads this module when the comparison first
// opens): a line diff of the learner's code against the reference solution (jsdiff), both
// sides highlighted by `highlight` (python-highlight.js: passed in, as it is in the editor's chunk already).
import { diffLines } from "diff";

/**
 * A table of the lines of `yours` and `reference`: the lines they share, the lines only yours has
 * (marked −) and the lines only the reference has (marked +), each with its line numbers.
 * highlight(source): the lines of `source`, each an array of nodes.
 */
export function referenceDiff(yours, reference, highlight) {
  const lines = { yours: highlight(yours), reference: highlight(reference) };
  const at = { yours: 0, reference: 0 };
  const body = element("tbody", {});
  for (const change of diffLines(yours, reference, { ignoreNewlineAtEof: true })) {
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
