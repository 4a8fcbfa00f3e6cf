// The capstone page: loads its data (capstone.json: the steps and the session's config; the text; the pretrained
// weights), lists the steps in scope with their switches (in-scope.js), and mounts the Talk and Learn panels, whose
// sessions (capstone-session.js) are built from those steps. A step that fails shows here, naming the step (the
// session's error carries its id). Switching a step ends the sessions being started, as the panels end theirs.
import { SessionClient } from "./capstone-session.js";
import { earlierSteps, mountInScope, passedCode } from "./in-scope.js";
import { mountLearn } from "./learn-panel.js";
import { storageGet } from "./storage.js";
import { SCOPE_PREFIX } from "./saved-results.js";
import { mountTalk } from "./talk-panel.js";

/** runner: the document's Runner, which lends the sessions their workers; returns unmount(). */
export function mountCapstone(runner) {
  const body = document.body;
  const siteRoot = new URL(body.dataset.root, location.href);
  const dataUrl = new URL(body.dataset.capstoneDataUrl, location.href);
  const errorBox = document.getElementById("capstone-error");
  const scope = document.getElementById("in-scope");
  let left = false;
  let panels = [];
  let trained = null; // the learner's latest trained weights (.npz bytes)
  let starting = new AbortController(); // aborted when the steps change: the sessions being started end
  const inScope = mountInScope((what, save) => {
    try {
      save();
    } catch (err) {
      showError(new Error(`This browser did not save ${what}: ${err.message}`));
    }
  });
  showCounts();

  load(siteRoot, dataUrl).then(({ data, text, pretrained }) => {
    if (left) return;
    let talk = null;
    const model = {
      config: data.config,
      pretrained,
      startSession: (weights) => SessionClient.start(runner,
        { earlier: earlierSteps(data.uses), config: data.config, text, weights }, starting.signal),
      trainedWeights: () => trained,
      keepWeights: (bytes) => {
        trained = bytes;
        talk.trainedChanged();
      },
      showError,
      clearError,
    };
    talk = mountTalk(model);
    panels = [talk, mountLearn(model)];
  }, (err) => showError(new Error(`The model's files did not load (${err.message}). Reload the page to try again.`)));

  // After in-scope.js's own handler (added first): the sessions are rebuilt with the steps as now chosen.
  const onSwitch = (event) => {
    if (!event.target.closest(".scope-switch")) return;
    showCounts();
    starting.abort();
    starting = new AbortController();
    for (const panel of panels) panel.restart();
  };
  scope.addEventListener("click", onSwitch);

  function showCounts() {
    const items = [...scope.querySelectorAll("li[data-exercise-id]")];
    const mine = items.filter(({ dataset }) => passedCode(dataset.exerciseId) !== null
      && storageGet(`${SCOPE_PREFIX}${dataset.exerciseId}`) !== "reference").length;
    document.getElementById("scope-counts").textContent =
      `${mine} your code, ${items.length - mine} the reference${items.length - mine === 1 ? "" : "s"}`;
  }

  function showError(err) {
    const label = typeof err.label === "string" ? err.label : null;
    const title = document.createElement("p");
    title.className = "capstone-error-title";
    title.textContent = label ? `Stopped by ${label}` : "Stopped";
    const message = Object.assign(document.createElement("pre"), { className: "capstone-error-message",
      textContent: err.message });
    errorBox.replaceChildren(title, message);
    if (err.ended) {
      errorBox.append(Object.assign(document.createElement("p"), {
        textContent: "The model's Python was stopped: Generate or Resume starts it again." }));
    }
    errorBox.hidden = false;
    const failing = typeof err.exerciseId === "string" ? err.exerciseId : null;
    for (const item of scope.querySelectorAll("li")) {
      item.classList.toggle("is-failing", failing !== null && item.dataset.exerciseId === failing);
    }
    if (failing) scope.open = true;
  }

  function clearError() {
    errorBox.hidden = true;
    errorBox.replaceChildren();
    for (const item of scope.querySelectorAll("li.is-failing")) item.classList.remove("is-failing");
  }

  return () => {
    left = true;
    starting.abort();
    scope.removeEventListener("click", onSwitch);
    inScope.unmount();
    for (const panel of panels) panel.unmount();
  };
}

// {data (capstone.json), text, pretrained (.npz bytes, or null when the build has no weights)}
async function load(siteRoot, dataUrl) {
  const data = await (await fetchOk(dataUrl)).json();
  const [text, pretrained] = await Promise.all([
    fetchOk(new URL(data.text, siteRoot)).then((response) => response.text()),
    data.weights ? fetchOk(new URL(data.weights, siteRoot)).then((response) => response.arrayBuffer()) : null,
  ]);
  return { data, text, pretrained };
}

async function fetchOk(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.pathname}: HTTP ${response.status}`);
  return response;
}
