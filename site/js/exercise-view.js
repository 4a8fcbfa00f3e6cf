// The exercise page's widgets: editor, Run/Reset, results, progress, hints and the
// solution. mountExercise() sets them up on the exercise now in <main> and returns
// a function that takes them down again (the site swaps pages without reloading).
// DOM ids and data attributes: see the site contract.
import { createEditor, setText } from "./editor.js";
import { renderProblem, renderResults } from "./results.js";
import { storageGet, storageSet } from "./storage.js";

const SAVE_DELAY_MS = 400;

/** runner: the document's Runner (shared by every page); returns unmount(). */
export function mountExercise(runner) {
  const body = document.body;
  const exerciseId = body.dataset.exerciseId;
  const codeKey = `mlex:code:${exerciseId}`;
  const progressKey = `mlex:progress:${exerciseId}`;
  const callsKey = `mlex:try:${exerciseId}`; // the "Try your code" box
  // Absolute now: a run may end after the learner has moved on to another page.
  const specUrl = new URL("grading.json", location.href).href;
  const solutionUrl = new URL("solution.py", location.href).href;
  const starter = JSON.parse(document.getElementById("starter-code").textContent);

  const runButton = document.getElementById("run-button");
  const stopButton = document.getElementById("stop-button");
  const resultsPanel = document.getElementById("results");
  const runtimeStatus = document.getElementById("runtime-status");
  const solution = document.getElementById("solution");
  const solutionCode = document.getElementById("solution-code");
  const tryInput = document.getElementById("try-input");
  const tryButton = document.getElementById("try-button");
  const tryOutput = document.getElementById("try-output");

  let specRequest = null;
  loadSpec().catch(() => {}); // fetched early; a failure shows when Run is pressed

  // --- Editor and saved code ---

  let saveTimer = null;
  const editor = createEditor(document.getElementById("editor"), storageGet(codeKey) ?? starter, () => {
    clearTimeout(saveTimer);
    saveTimer = setTimeout(saveCode, SAVE_DELAY_MS);
  });
  const view = editor.view;
  window.editorView = view;

  // Saves only edits, so an untouched editor keeps following the site's starter code.
  function saveCode() {
    if (saveTimer === null) return;
    clearTimeout(saveTimer);
    saveTimer = null;
    storageSet(codeKey, view.state.doc.toString());
  }

  document.getElementById("reset-button").addEventListener("click", () => {
    if (!confirm("Replace your code with the starter code? (Ctrl/⌘+Z undoes this.)")) return;
    setText(view, starter);
    saveCode();
  });

  // --- Grading, and trying the code ---

  let runsInFlight = 0;

  // A run (a grading or a try) begins: Run tests and Run are disabled and Stop shown; when
  // `startedFrom` (the button pressed) had the focus, Stop gets it.
  function beginRun(startedFrom) {
    runsInFlight += 1;
    const hadFocus = document.activeElement === startedFrom;
    runButton.disabled = tryButton.disabled = true;
    stopButton.hidden = false;
    if (hadFocus) stopButton.focus();
  }

  // A run ended; true when it was the last in flight (the buttons are back, Stop gives the focus back).
  function endRun(startedFrom) {
    runsInFlight -= 1;
    if (runsInFlight > 0) return false;
    runButton.disabled = tryButton.disabled = false;
    if (document.activeElement === stopButton) startedFrom.focus();
    stopButton.hidden = true;
    return true;
  }

  async function gradeSubmission(source) {
    beginRun(runButton);
    resultsPanel.setAttribute("aria-busy", "true");
    try {
      const spec = await loadSpec();
      const limits = { total: timeLimit(spec), perTest: spec.test_time_limit ?? null };
      const total = spec.test_names.length;
      const { report, interruption } = await runner.grade(spec, source, limits, (event) => {
        if (event.event === "start") runtimeStatus.textContent = "Running your code…";
        if (event.event === "test_start") runtimeStatus.textContent = `Running test ${event.index + 1} of ${total}…`;
        if (event.event === "done") runtimeStatus.textContent = "Python ready";
      });
      recordProgress(report.passed);
      renderResults(resultsPanel, report, interruption);
      if (report.passed) revealSolution();
      return report;
    } catch (err) {
      renderProblem(resultsPanel, `${err.message} Press Run to try again.`);
      throw err;
    } finally {
      if (endRun(runButton)) resultsPanel.removeAttribute("aria-busy");
    }
  }
  window.gradeSubmission = gradeSubmission;

  // data-time-limit can be lowered by tests and benchmarks.
  function timeLimit(spec) {
    return Number(body.dataset.timeLimit) || spec.time_limit;
  }

  function runEditorCode() {
    if (runsInFlight > 0) return;
    saveCode();
    gradeSubmission(view.state.doc.toString()).catch(() => {}); // already shown in #results
  }

  // "Try your code": the learner's calls, run against the editor's code on a fresh interpreter
  // like a grading (same time limit, Stop), but never an attempt: nothing is recorded.
  async function tryCalls() {
    if (runsInFlight > 0) return;
    saveCode();
    beginRun(tryButton);
    tryOutput.hidden = false;
    tryOutput.classList.add("stale");
    try {
      const spec = await loadSpec();
      const { output, error } = await runner.tryCode(view.state.doc.toString(), tryInput.value, timeLimit(spec));
      showTried(output, error);
    } catch (err) {
      showTried("", err.message);
    } finally {
      endRun(tryButton);
    }
  }

  function showTried(output, error) {
    tryOutput.classList.remove("stale");
    tryOutput.replaceChildren();
    if (output) tryOutput.append(output.endsWith("\n") || !error ? output : `${output}\n`);
    if (error) {
      const problem = document.createElement("span");
      problem.className = "try-error";
      problem.textContent = error;
      tryOutput.append(problem);
    }
    if (!output && !error) tryOutput.append("Done: your calls printed nothing. Use print() to see values.");
  }

  const savedCalls = storageGet(callsKey);
  if (savedCalls !== null) {
    tryInput.value = savedCalls;
    document.getElementById("try-code").open = true;
  }
  tryInput.addEventListener("input", () => storageSet(callsKey, tryInput.value));
  tryButton.addEventListener("click", tryCalls);

  runButton.addEventListener("click", runEditorCode);
  stopButton.addEventListener("click", () => runner.stop());
  // Capture phase, so the editor does not also treat Mod-Enter as "insert blank line".
  const runOnModEnter = (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      event.stopPropagation();
      if (event.target === tryInput) tryCalls();
      else runEditorCode();
    }
  };
  window.addEventListener("keydown", runOnModEnter, true);
  window.addEventListener("pagehide", saveCode);

  function recordProgress(passed) {
    if (passed) storageSet(progressKey, "solved");
    else if (storageGet(progressKey) !== "solved") storageSet(progressKey, "attempted");
  }

  // --- Hints and solution ---

  const hintButton = document.getElementById("hint-button");
  hintButton?.addEventListener("click", () => {
    const hidden = document.querySelectorAll("#hints ol li[hidden]");
    if (hidden.length === 0) return;
    hidden[0].hidden = false;
    if (hidden.length === 1) {
      // The button disappears: keep keyboard focus nearby, on the hint just shown.
      hidden[0].tabIndex = -1;
      hidden[0].focus();
      hintButton.hidden = true;
    } else {
      hintButton.textContent = "Show another hint";
    }
  });

  let solutionShown = false;
  async function revealSolution() {
    if (solutionShown || body.dataset.revealSolution !== "after-pass") return;
    solutionShown = true;
    try {
      const response = await fetchOk(solutionUrl);
      solutionCode.textContent = await response.text();
      solution.hidden = false;
    } catch (err) {
      solutionShown = false;
      console.error(err);
    }
  }

  function loadSpec() {
    specRequest ??= fetchOk(specUrl).then((response) => response.json()).catch((err) => {
      specRequest = null; // let the next run try again
      throw err;
    });
    return specRequest;
  }

  return function unmount() {
    if (runsInFlight > 0) runner.stop(); // a run of the page being left: its verdict has nowhere to go
    saveCode();
    window.removeEventListener("keydown", runOnModEnter, true);
    window.removeEventListener("pagehide", saveCode);
    editor.destroy();
    if (window.editorView === view) delete window.editorView;
    if (window.gradeSubmission === gradeSubmission) delete window.gradeSubmission;
  };
}

async function fetchOk(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`Could not load ${url.split("/").pop()} (HTTP ${response.status}).`);
  return response;
}
