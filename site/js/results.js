// Renders a grading report into the results panel (#results).

const STATUS_TEXT = {
  passed: ["✓", "Passed"],
  failed: ["✗", "Failed"],
  error: ["!", "Error"],
  timeout: ["◷", "Timed out"], // a clock face most system fonts have (⏱ needs an emoji font)
};

/** `interruption`: null, or the [status, message] that stopped the run early. */
export function renderResults(container, report, interruption) {
  const passed = report.tests.filter((test) => test.status === "passed").length;
  const parts = [];

  let summary = `${passed}/${report.tests.length} tests passed`;
  if (report.passed) summary += " — all good!";
  parts.push(element("p", { className: `summary ${report.passed ? "passed" : "not-passed"}` }, summary));

  if (interruption) {
    parts.push(element("p", { className: "run-notice" }, interruption[1]));
  }
  if (report.error) {
    parts.push(element("pre", { className: "run-error" }, report.error));
  }

  const list = element("ol", { className: "result-list" });
  for (const test of report.tests) {
    const [icon, label] = STATUS_TEXT[test.status];
    const iconNode = element("span", { className: "result-icon" }, icon);
    iconNode.setAttribute("aria-hidden", "true"); // the status word says it
    // The spaces keep the words apart for screen readers and unstyled text.
    const row = element("li", { className: `result-row ${test.status}` },
      iconNode, " ",
      element("span", { className: "result-status" }, label), " ",
      element("span", { className: "result-name" }, test.name));
    if (test.duration_ms > 0) {
      row.append(" ", element("span", { className: "result-duration" }, `(${formatDuration(test.duration_ms)})`));
    }
    if (test.message) row.append(element("pre", { className: "result-message" }, test.message));
    list.append(row);
  }
  parts.push(list);

  if (report.stdout) {
    parts.push(element("div", { className: "stdout-block" },
      element("p", {}, "Your code printed:"),
      element("pre", { className: "stdout" }, report.stdout)));
  }
  container.replaceChildren(...parts);
}

/** A message in place of results, e.g. when Python could not be loaded. */
export function renderProblem(container, text) {
  container.replaceChildren(element("p", { className: "run-error" }, text));
}

function formatDuration(ms) {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function element(tag, properties, ...children) {
  const node = Object.assign(document.createElement(tag), properties);
  node.append(...children);
  return node;
}
