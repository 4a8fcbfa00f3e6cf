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

  // --- Grading ---

  let runsInFlight = 0;

  async function gradeSubmission(source) {
    runsInFlight += 1;
    const runHadFocus = document.activeElement === runButton;
    runButton.disabled = true;
    stopButton.hidden = false;
    if (runHadFocus) stopButton.focus();
    resultsPanel.setAttribute("aria-busy", "true");
    try {
      const spec = await loadSpec();
      const timeLimit = Number(body.dataset.timeLimit) || spec.time_limit;
      const total = spec.test_names.length;
      const { report, interruption } = await runner.grade(spec, source, timeLimit, (event) => {
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
      runsInFlight -= 1;
      if (runsInFlight === 0) {
        runButton.disabled = false;
        if (document.activeElement === stopButton) runButton.focus();
        stopButton.hidden = true;
        resultsPanel.removeAttribute("aria-busy");
      }
    }
  }
  window.gradeSubmission = gradeSubmission;

  function runEditorCode() {
    if (runsInFlight > 0) return;
    saveCode();
    gradeSubmission(view.state.doc.toString()).catch(() => {}); // already shown in #results
  }

  runButton.addEventListener("click", runEditorCode);
  stopButton.addEventListener("click", () => runner.stop());
  // Capture phase, so the editor does not also treat Mod-Enter as "insert blank line".
  const runOnModEnter = (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      event.stopPropagation();
      runEditorCode();
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
