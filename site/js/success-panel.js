// The panel next to a passing verdict: how many runs and hints the first pass took, the next step of
// the track (or the end of the track), the capstone (on the steps of the track's last part), and the
// learner's code compared with the reference solution.
import { highlightedLines } from "./python-highlight.js";
import { solvedAfterPhrase } from "./solved-after.js";

/**
 * solvedAfter: {runs, hints} of the first pass (hints null when not known); next: {href, title} of the
 * track's next exercise, or null; capstone: {href, title} of the track's capstone, or null;
 * yourCode: the code that passed; loadReference: null (the solution is never shown) or an async
 * function giving its text.
 */
export function successPanel({ solvedAfter, next, capstone, yourCode, loadReference }) {
  const panel = element("section", { className: "success-panel" });
  panel.setAttribute("aria-label", "Solved");
  panel.append(element("p", { className: "success-attempts" }, `${solvedAfterPhrase(solvedAfter)}.`));

  const actions = element("div", { className: "success-actions" });
  const nextIsCapstone = Boolean(next && capstone && next.href === capstone.href); // on the track's last step
  if (next) {
    const label = nextIsCapstone ? "Capstone" : "Next step";
    actions.append(element("a", { className: "next-step", href: next.href }, `${label} → ${next.title}`));
  } else {
    actions.append(element("p", { className: "track-complete" }, "Track complete: this was its last step."));
  }
  if (capstone && !nextIsCapstone) {
    actions.append(element("a", { className: "to-capstone-link", href: capstone.href }, `Capstone: ${capstone.title}`));
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

// A full-width dialog with the line diff, or both side by side when they differ in most lines
// (reference-diff.js, loaded on first use, as the reference), removed once closed.
function comparisonDialog(yourCode, loadReference) {
  const close = element("button", { type: "button", className: "diff-close" }, "Close");
  const loading = element("p", {}, "Loading the reference…");
  const content = element("div", { className: "diff-content", tabIndex: 0 }, loading);
  content.setAttribute("role", "region"); // it scrolls: the keyboard can reach it
  content.setAttribute("aria-label", "Your code and the reference");
  const legend = element("p", { className: "diff-legend" },
    element("span", { className: "diff-legend-yours" }, "− only in yours"), " ",
    element("span", { className: "diff-legend-reference" }, "+ only in the reference"));
  const dialog = element("dialog", { className: "diff-dialog" },
    element("div", { className: "diff-header" },
      element("h2", { id: "diff-title" }, "Your code and the reference"), legend, close),
    content);
  dialog.setAttribute("aria-labelledby", "diff-title");
  close.addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => dialog.remove());
  Promise.all([loadReference(), import("./reference-diff.js")]).then(([reference, { compareWithReference }]) => {
    const { verdict, view, sideBySide } = compareWithReference(yourCode, reference, highlightedLines);
    legend.hidden = sideBySide;
    content.replaceChildren(element("p", { className: "diff-verdict" }, verdict), view);
  }, (err) => content.replaceChildren(element("p", { className: "run-error" }, err.message)));
  return dialog;
}

function element(tag, properties, ...children) {
  const node = Object.assign(document.createElement(tag), properties);
  node.append(...children);
  return node;
}
