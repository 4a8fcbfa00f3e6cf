// The panel next to a passing verdict: how many runs it took, the next step of the track
// (or the end of the track), and the learner's code beside the reference solution.

/**
 * attempts: runs of the tests so far; next: {href, title} of the track's next exercise, or null;
 * yourCode: the code that passed; loadReference: null (the solution is never shown) or an async
 * function giving its text; compareOpen and onCompareToggle(open): whether the side-by-side
 * view is shown, remembered by the caller.
 */
export function successPanel({ attempts, next, yourCode, loadReference, compareOpen, onCompareToggle }) {
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

  const toggle = element("button", { type: "button", className: "compare-button" }, "Compare with the reference");
  const reference = element("pre", { className: "code-block", tabIndex: 0 }, "Loading…");
  const yours = element("pre", { className: "code-block", tabIndex: 0 }, yourCode);
  const view = element("div", { className: "side-by-side", hidden: true },
    element("figure", {}, element("figcaption", {}, "Your code"), yours),
    element("figure", {}, element("figcaption", {}, "Reference"), reference));
  view.id = "side-by-side";
  toggle.setAttribute("aria-controls", view.id);
  let loaded = false;
  const show = (open) => {
    view.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    toggle.textContent = open ? "Hide the comparison" : "Compare with the reference";
    if (open && !loaded) {
      loaded = true;
      loadReference().then((text) => { reference.textContent = text; }, (err) => {
        loaded = false;
        reference.textContent = err.message;
      });
    }
  };
  toggle.addEventListener("click", () => {
    show(view.hidden);
    onCompareToggle(!view.hidden);
  });
  show(compareOpen);
  actions.append(toggle);
  panel.append(view);
  return panel;
}

function element(tag, properties, ...children) {
  const node = Object.assign(document.createElement(tag), properties);
  node.append(...children);
  return node;
}
