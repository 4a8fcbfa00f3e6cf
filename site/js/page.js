// Exercise page: editor, Run/Reset, grading in a Pyodide worker, results,
// progress, hints and the solution. DOM ids and data attributes: see the site contract.
import { createEditor, setText } from "./editor.js";
import { renderProblem, renderResults } from "./results.js";
import { Runner } from "./runner.js";

const SAVE_DELAY_MS = 400;

const body = document.body;
const exerciseId = body.dataset.exerciseId;
const codeKey = `mlex:code:${exerciseId}`;
const progressKey = `mlex:progress:${exerciseId}`;
const assetsUrl = new URL(body.dataset.assetsUrl, document.baseURI);
const starter = JSON.parse(document.getElementById("starter-code").textContent);

const runButton = document.getElementById("run-button");
const stopButton = document.getElementById("stop-button");
const resultsPanel = document.getElementById("results");
const runtimeStatus = document.getElementById("runtime-status");

// Start Python first: it is the slow part of opening the page.
const runner = new Runner({
  worker: new URL("worker.js", assetsUrl).href,
  pyodide: new URL(body.dataset.pyodideUrl, document.baseURI).href,
  graderFiles: new URL("grader-core.json", assetsUrl).href,
}, (text) => { runtimeStatus.textContent = text; });
window.runner = runner;
let specRequest = null;
loadSpec().catch(() => {}); // fetched early; a failure shows when Run is pressed

// --- Editor and saved code ---

let saveTimer = null;
const view = createEditor(document.getElementById("editor"), storageGet(codeKey) ?? starter, () => {
  clearTimeout(saveTimer);
  saveTimer = setTimeout(saveCode, SAVE_DELAY_MS);
});
window.editorView = view;

// Saves only edits, so an untouched editor keeps following the site's starter code.
function saveCode() {
  if (saveTimer === null) return;
  clearTimeout(saveTimer);
  saveTimer = null;
  storageSet(codeKey, view.state.doc.toString());
}
window.addEventListener("pagehide", saveCode);

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
window.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    event.stopPropagation();
    runEditorCode();
  }
}, true);

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
    const response = await fetchOk("solution.py");
    document.getElementById("solution-code").textContent = await response.text();
    document.getElementById("solution").hidden = false;
  } catch (err) {
    solutionShown = false;
    console.error(err);
  }
}

// --- Helpers ---

function loadSpec() {
  specRequest ??= fetchOk("grading.json").then((response) => response.json()).catch((err) => {
    specRequest = null; // let the next run try again
    throw err;
  });
  return specRequest;
}

async function fetchOk(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`Could not load ${url} (HTTP ${response.status}).`);
  return response;
}

// localStorage can be unavailable (privacy settings) or full; the page works without it.
function storageGet(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function storageSet(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch (err) {
    console.warn(`Could not save ${key}:`, err);
  }
}
