// The exercise page's widgets: editor, Run/Reset, results, progress, hints, "How it works" and the
// solution. mountExercise() sets them up on the exercise now in <main> and returns
// a function that takes them down again (the site swaps pages without reloading).
// The last results, the attempt count and the hints shown are
// kept per exercise in storage, so a reload (or coming back) shows them again; so are the runs and
// hints the first pass took (solved-after.js), and which exercise was visited last (the index's "Continue").
// DOM ids and data attributes: see the site contract.
import { createEditor, goToLine, showProblems } from "./editor.js";
import { editorSettings, mountEditorSettings } from "./editor-settings.js";
import { earlierSteps, mountInScope } from "./in-scope.js";
import { codeProblems, renderProblem, renderResults, renderRunning } from "./results.js";
import { mountReset } from "./reset-control.js";
import { parseSavedResults, PASSED_PREFIX, RESULTS_PREFIX, savedResultsText } from "./saved-results.js";
import { storageGet, storageRemove, storageSet } from "./storage.js";
import { StorageNotice } from "./storage-notice.js";
import { parseSolvedAfter, SOLVED_AFTER_PREFIX, solvedAfterText } from "./solved-after.js";
import { successPanel } from "./success-panel.js";

const SAVE_DELAY_MS = 400;
const LAST_VISITED_KEY = "mlex:last-visited"; // the id of the exercise page opened last (read by index-view.js)

/** runner: the document's Runner (shared by every page); returns unmount(). */
export function mountExercise(runner) {
  const body = document.body;
  const exerciseId = body.dataset.exerciseId;
  const codeKey = `mlex:code:${exerciseId}`;
  const progressKey = `mlex:progress:${exerciseId}`;
  const resultsKey = `${RESULTS_PREFIX}${exerciseId}`; // {report, interruption, source} of the last run (saved-results.js)
  const attemptsKey = `mlex:attempts:${exerciseId}`; // runs of the tests that were not cut short, a number
  const interruptedKey = `mlex:interrupted:${exerciseId}`; // "grade" | "try": a run the page was left during
  const viewKey = `mlex:view:${exerciseId}`; // {hints: how many are shown}
  const callsKey = `mlex:try:${exerciseId}`; // the "Try your code" box
  const passedKey = `${PASSED_PREFIX}${exerciseId}`; // the latest code that passed: later steps use it (in-scope.js)
  const solvedAfterKey = `${SOLVED_AFTER_PREFIX}${exerciseId}`; // {runs, hints} of the first pass
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
  const storageNotice = new StorageNotice();
  storageSet(LAST_VISITED_KEY, exerciseId);
  const inScope = mountInScope((what, save) => storageNotice.save(what, save));

  // --- Editor and saved code ---

  let saveTimer = null;
  let resetCodeChanged = null;
  const editor = createEditor(document.getElementById("editor"), storageGet(codeKey) ?? starter, () => {
    clearTimeout(saveTimer);
    saveTimer = setTimeout(saveCode, SAVE_DELAY_MS);
    resetCodeChanged?.();
  }, editorSettings());
  const view = editor.view;
  window.editorView = view;
  const unmountEditorSettings = mountEditorSettings((settings) => editor.configure(settings));

  // Saves only edits, so an untouched editor keeps following the site's starter code.
  function saveCode() {
    if (saveTimer === null) return;
    clearTimeout(saveTimer);
    saveTimer = null;
    storageNotice.save("your latest code", () => storageSet(codeKey, view.state.doc.toString()));
  }

  resetCodeChanged = mountReset(view, starter, saveCode);

  // --- Grading, and trying the code ---

  let runsInFlight = 0;
  let runKind = null; // "grade" | "try" while a run is in flight

  // A run (a grading or a try) begins: Run tests and Run are disabled and Stop shown; when
  // `startedFrom` (the button pressed) had the focus, Stop gets it.
  function beginRun(startedFrom) {
    runsInFlight += 1;
    runKind = startedFrom === tryButton ? "try" : "grade";
    const hadFocus = document.activeElement === startedFrom;
    runButton.disabled = tryButton.disabled = true;
    stopButton.hidden = false;
    if (hadFocus) stopButton.focus();
  }

  // A run ended; true when it was the last in flight (the buttons are back, Stop gives the focus back).
  function endRun(startedFrom) {
    runsInFlight -= 1;
    if (runsInFlight > 0) return false;
    runKind = null;
    runButton.disabled = tryButton.disabled = false;
    if (document.activeElement === stopButton) startedFrom.focus();
    stopButton.hidden = true;
    return true;
  }

  async function gradeSubmission(source) {
    beginRun(runButton);
    resultsPanel.setAttribute("aria-busy", "true");
    renderRunning(resultsPanel);
    showProblems(view, []);
    inScope.refresh(); // another tab may have passed or switched a step meanwhile: show what this run uses
    try {
      const spec = await loadSpec();
      const limits = { total: timeLimit(spec), perTest: spec.test_time_limit ?? null };
      const total = spec.test_names.length;
      const { report, interruption } = await runner.grade(spec, source, limits, (event) => {
        if (event.event === "start") runtimeStatus.textContent = "Running your code…";
        if (event.event === "test_start") runtimeStatus.textContent = `Running test ${event.index + 1} of ${total}…`;
      }, earlierSteps(spec.uses ?? []));
      const firstPass = report.passed && storageGet(progressKey) !== "solved";
      recordProgress(report.passed);
      if (report.passed) storageNotice.save("your passing code", () => storageSet(passedKey, source));
      if (!wasCutShort(report, interruption)) storageSet(attemptsKey, String(attempts() + 1));
      if (firstPass) {
        storageSet(solvedAfterKey, solvedAfterText(Math.max(attempts(), 1), hintsShown()));
      }
      const results = savedResultsText(report, interruption, source);
      storageNotice.save("the results of this run", () => storageSet(resultsKey, results));
      showResults(report, interruption, source);
      bringVerdictIntoView();
      if (report.passed) revealAfterPass();
      return report;
    } catch (err) {
      renderProblem(resultsPanel, `${err.message} Press Run to try again.`);
      bringVerdictIntoView();
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
    tryOutput.setAttribute("aria-busy", "true");
    inScope.refresh();
    let printed = null; // one text node for what the code prints, as it runs (the runner caps it)
    const showPrinted = (text) => {
      if (printed === null) {
        printed = document.createTextNode("");
        tryOutput.classList.remove("stale");
        tryOutput.replaceChildren(printed);
      }
      printed.appendData(text);
    };
    try {
      const spec = await loadSpec();
      const { output, error } = await runner.tryCode(view.state.doc.toString(), tryInput.value, timeLimit(spec),
        showPrinted, earlierSteps(spec.uses ?? []));
      showTried(output, error);
    } catch (err) {
      showTried("", err.message);
    } finally {
      tryOutput.removeAttribute("aria-busy");
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
  window.addEventListener("pagehide", noteInterruptedRun);

  function showResults(report, interruption, source) {
    const next = document.querySelector("#track-nav a[rel=next], #track-nav a.to-capstone");
    const extra = report.passed ? successPanel({
      solvedAfter: solvedAfter() ?? { runs: Math.max(attempts(), 1), hints: null }, // null: solved before it was kept
      next: next && { href: next.href, title: next.querySelector(".nav-title")?.textContent ?? next.textContent },
      capstone: body.dataset.capstoneUrl
        ? { href: new URL(body.dataset.capstoneUrl, location.href).href, title: body.dataset.capstoneTitle } : null,
      yourCode: source,
      loadReference: body.dataset.revealSolution === "after-pass"
        ? () => fetchOk(solutionUrl).then((response) => response.text()) : null,
    }) : null;
    renderResults(resultsPanel, report, interruption, { onLine: (line) => goToLine(view, line), extra });
    // The marks belong to the code that was run: an edited editor would get them on the wrong lines.
    if (source === view.state.doc.toString()) showProblems(view, codeProblems(report));
  }

  // The verdict comes to the learner: the results box back at its top, then the page (phones) or the
  // workspace moved only as far as it takes to show the verdict, and on a pass the success panel
  // with "Next step" under it (#results is a live region: screen readers hear it; the focus stays).
  function bringVerdictIntoView() {
    resultsPanel.scrollTop = 0;
    const target = resultsPanel.querySelector(".success-panel") ?? resultsPanel.firstElementChild;
    const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
    target?.scrollIntoView({ block: "nearest", behavior: still ? "instant" : "smooth" });
  }

  // A run the learner stopped, or that ran out of time (as a whole or in one test), is no attempt:
  // "Solved after N runs" counts the runs that graded the code.
  function wasCutShort(report, interruption) {
    return interruption !== null || report.tests.some((test) => test.status === "timeout");
  }

  // The document is going away (reload, closed tab) while a run is in flight: the next load says so.
  // A page kept in the back/forward cache (persisted) keeps its run.
  function noteInterruptedRun(event) {
    if (runKind !== null && !event.persisted) storageSet(interruptedKey, runKind);
  }

  function attempts() {
    return Number.parseInt(storageGet(attemptsKey), 10) || 0;
  }

  // {runs, hints} of the first pass, or null (not passed yet, or passed before the site kept it).
  function solvedAfter() {
    const text = storageGet(solvedAfterKey);
    if (text === null) return null;
    try {
      return parseSolvedAfter(text);
    } catch {
      return null; // damaged: the next pass writes it again
    }
  }

  function viewState() {
    const state = parseStored(viewKey);
    return state !== null && typeof state === "object" ? state : {};
  }

  function saveViewState(changes) {
    storageSet(viewKey, JSON.stringify({ ...viewState(), ...changes }));
  }

  function recordProgress(passed) {
    if (passed) storageSet(progressKey, "solved");
    else if (storageGet(progressKey) !== "solved") storageSet(progressKey, "attempted");
  }

  // --- Hints and solution ---

  const hintButton = document.getElementById("hint-button");
  hintButton?.addEventListener("click", () => {
    const hint = showHint();
    if (!hint) return;
    saveViewState({ hints: hintsShown() });
    if (hintButton.hidden) {
      // The button disappeared: keep keyboard focus nearby, on the hint just shown.
      hint.tabIndex = -1;
      hint.focus();
    }
  });

  function hintsShown() {
    return document.querySelectorAll("#hints ol li:not([hidden])").length;
  }

  // Shows the next hidden hint and returns it (null when all are shown).
  function showHint() {
    const hidden = document.querySelectorAll("#hints ol li[hidden]");
    if (hidden.length === 0) return null;
    hidden[0].hidden = false;
    if (hidden.length === 1) hintButton.hidden = true;
    else hintButton.textContent = "Show another hint";
    return hidden[0];
  }

  // A pass shows "How it works" (whatever reveal_solution says) and the reference solution (when it is shown).
  function revealAfterPass() {
    const howItWorks = document.getElementById("how-it-works");
    if (howItWorks) howItWorks.hidden = false;
    revealSolution();
  }

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

  // --- What the learner saw last time ---

  const savedHints = Number(viewState().hints) || 0;
  for (let shown = 0; hintButton && shown < savedHints && showHint(); shown += 1);
  const savedResults = storageGet(resultsKey);
  if (savedResults !== null) {
    try {
      const { report, interruption, source } = parseSavedResults(savedResults);
      showResults(report, interruption, source);
    } catch (err) { // stored by another version of the site, damaged or forged: the next run replaces it
      console.warn("Could not show the saved results:", err);
    }
  }
  if (storageGet(progressKey) === "solved") revealAfterPass();
  showInterruptedRun();

  function showInterruptedRun() {
    const kind = storageGet(interruptedKey);
    if (kind === null) return;
    storageRemove(interruptedKey);
    const reloaded = performance.getEntriesByType("navigation")[0]?.type === "reload";
    const text = `Your last ${kind === "try" ? "try" : "run"} was interrupted by `
      + `${reloaded ? "a reload" : "leaving the page"}; run again.`;
    if (kind === "try") {
      document.getElementById("try-code").open = true;
      showTried("", text);
    } else {
      renderProblem(resultsPanel, text);
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
    window.removeEventListener("pagehide", noteInterruptedRun);
    storageNotice.unmount();
    inScope.unmount();
    unmountEditorSettings();
    editor.destroy();
    if (window.editorView === view) delete window.editorView;
    if (window.gradeSubmission === gradeSubmission) delete window.gradeSubmission;
  };
}

// The JSON stored at `key`, or null when there is none or it is not JSON.
function parseStored(key) {
  try {
    return JSON.parse(storageGet(key));
  } catch {
    return null;
  }
}

async function fetchOk(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`Could not load ${url.split("/").pop()} (HTTP ${response.status}).`);
  return response;
}
