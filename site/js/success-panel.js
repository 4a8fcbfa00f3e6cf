// The panel next to a passing verdict: how many runs it took, the next step of the track
// (or the end of the track), and the learner's code compared with the reference solution.
import { highlightedLines } from "./python-highlight.js";

/**
 * attempts: runs of the tests so far; next: {href, title} of the track's next exercise, or null;
 * yourCode: the code that passed; loadReference: null (the solution is never shown) or an async
 * function giving its text.
 */
export function successPanel({ attempts, next, yourCode, loadReference }) {
  const panel = element("section", { className: "success-panel" });
  panel.setAttribute("aria-label", "Solved");
  panel.append(element("p", { className: "success-attempts" },
    `Solved after ${attempts} run${attempts === 1 ? "" : "s"} of the tests.`));

  const actions = element("div", { className: "success-actions" });
  if (next) {
    actions.append(element("a", { className: "next-step", href: next.href }, `Next step → ${next.title}`));
  } else {
    actions.append(element("p", { className: "track-complete" }, "Track complete: this was its last step."));
  }
  panel.append(actions);
  if (!loadReference) return panel;

  const open = element("button", { type: "button", className: "compare-button" }, "Compare with the reference");
  open.setAttribute("aria-haspopup", "dialog");
  open.addEventListener("click", () => {
    const dialog = comparisonDialog(yourCode, loadReference);
    open.closest("main").append(dialog); // outside the results, which a run replaces; gone with the page
    dialog.showModal();
  });
  actions.append(open);
  return panel;
}

// A full-width dialog with the line diff (reference-diff.js, loaded on first use, as the reference), removed
// once closed.
function comparisonDialog(yourCode, loadReference) {
  const close = element("button", { type: "button", className: "diff-close" }, "Close");
  const loading = element("p", {}, "Loading the reference…");
  const content = element("div", { className: "diff-content", tabIndex: 0 }, loading);
  content.setAttribute("role", "region"); // it scrolls: the keyboard can reach it
  content.setAttribute("aria-label", "Line diff");
  const dialog = element("dialog", { className: "diff-dialog" },
    element("div", { className: "diff-header" },
      element("h2", { id: "diff-title" }, "Your code and the reference"),
      element("p", { className: "diff-legend" },
        element("span", { className: "diff-legend-yours" }, "− only in yours"), " ",
        element("span", { className: "diff-legend-reference" }, "+ only in the reference")),
      close),
    content);
  dialog.setAttribute("aria-labelledby", "diff-title");
  close.addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => dialog.remove());
  Promise.all([loadReference(), import("./reference-diff.js")]).then(([reference, { compareWithReference }]) => {
    const { verdict, view } = compareWithReference(yourCode, reference, highlightedLines);
    content.replaceChildren(element("p", { className: "diff-verdict" }, verdict), view);
  }, (err) => content.replaceChildren(element("p", { className: "run-error" }, err.message)));
  return dialog;
}

function element(tag, properties, ...children) {
  const node = Object.assign(document.createElement(tag), properties);
  node.append(...children);
  return node;
}
