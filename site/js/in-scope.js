// The earlier steps an exercise builds on (its `uses`, see grader/core/engine.py's EarlierStep): the
// learner's code finds their entry functions in scope. Each is the learner's own latest passing code
// for that step (mlex:passed:<id>), unless they have none or switched that step to the reference
// (mlex:scope:<id> = "reference", remembered for every page that uses the step); then it is the
// reference from grading.json, which is put in scope, never shown. The page lists them in #in-scope
// (rendered by the build, one <li data-exercise-id data-entry data-step> each) with a switch per step.
import { checkCode, parseSavedResults, PASSED_PREFIX, RESULTS_PREFIX, SCOPE_PREFIX } from "./saved-results.js";
import { storageGet, storageSet } from "./storage.js";

/**
 * The learner's latest passing code for exercise `id`, or null. Runs passed before the site kept it
 * are found in the saved results of the last run (mlex:results:<id>), when that run passed.
 */
export function passedCode(id) {
  try {
    const passed = storageGet(`${PASSED_PREFIX}${id}`);
    if (passed !== null) return checkCode(passed);
    const saved = storageGet(`${RESULTS_PREFIX}${id}`);
    if (saved === null) return null;
    const { report, source } = parseSavedResults(saved);
    return report.passed ? source : null;
  } catch (err) { // damaged or forged: as if there were none
    console.warn(`Ignoring the saved passing code of ${id}:`, err);
    return null;
  }
}

function usesReference(id) {
  return storageGet(`${SCOPE_PREFIX}${id}`) === "reference";
}

/**
 * The earlier steps to send with a run, dependencies first, as the engine's EarlierStep.from_dict
 * takes them: `uses` is grading.json's list ({exercise_id, entry, step, title, uses, reference}).
 */
export function earlierSteps(uses) {
  return uses.map((used) => {
    const mine = usesReference(used.exercise_id) ? null : passedCode(used.exercise_id);
    return {
      exercise_id: used.exercise_id, entry: used.entry, step: used.step, uses: used.uses,
      source: mine ?? used.reference, yours: mine !== null,
    };
  });
}

/**
 * Shows where each step in #in-scope comes from, with its switch; `save(what, saveFn)` saves as the
 * page's storage notice does. Returns {refresh, unmount}; without #in-scope, both do nothing.
 */
export function mountInScope(save) {
  const section = document.getElementById("in-scope");
  if (!section) return { refresh() {}, unmount() {} };
  const items = [...section.querySelectorAll("li[data-exercise-id]")];

  function refresh() {
    for (const item of items) show(item);
  }

  function show(item) {
    const { exerciseId: id, entry, step } = item.dataset;
    const mine = passedCode(id) !== null;
    const reference = !mine || usesReference(id);
    const source = item.querySelector(".scope-source");
    const code = Object.assign(document.createElement("code"), { textContent: entry });
    if (!reference) {
      source.replaceChildren(`your step ${step}: `, code);
    } else {
      // Solved before this browser kept passing code (or with its results since cleared): not "not solved".
      const solved = storageGet(`mlex:progress:${id}`) === "solved";
      const why = mine ? "chosen over yours" : solved ? "pass it again to use yours" : "not solved yet";
      source.replaceChildren(`reference: step ${step} `, code, ` (${why})`);
    }
    item.classList.toggle("is-reference", reference);
    const button = item.querySelector(".scope-switch");
    button.hidden = !mine;
    button.textContent = reference ? "Use mine" : "Use reference";
    button.setAttribute("aria-label", `${button.textContent} for ${entry} (step ${step})`);
  }

  function onClick(event) {
    const button = event.target.closest(".scope-switch");
    if (!button) return;
    const item = button.closest("li");
    const key = `${SCOPE_PREFIX}${item.dataset.exerciseId}`;
    const value = usesReference(item.dataset.exerciseId) ? "mine" : "reference";
    save(`your choice for step ${item.dataset.step}`, () => storageSet(key, value));
    show(item);
  }

  section.addEventListener("click", onClick);
  refresh();
  return {
    refresh,
    unmount() {
      section.removeEventListener("click", onClick);
    },
  };
}
