// The capstone page: loads its data (capstone.json: the steps and the session's config; the text; the pretrained
// weights), lists the steps in scope with their switches (in-scope.js), and mounts the Talk and Learn panels, whose
// sessions (capstone-session.js) are built from those steps. A step that fails shows here, naming the step (the
// session's error carries its id). Switching a step ends the sessions being started, as the panels end theirs.
import { SessionClient } from "./capstone-session.js";
import { earlierSteps, mountInScope, passedCode } from "./in-scope.js";
import { keptEvery, mountLearn } from "./learn-panel.js";
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
  let trained = null; // the learner's latest trained weights (.npz bytes), kept after `trainedAt` steps
  let trainedAt = null;
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
      trainedStep: () => trainedAt,
      keptEvery: keptEvery(),
      keepWeights: (bytes, step) => {
        trained = bytes;
        trainedAt = step;
        talk.trainedChanged();
      },
      storeKey: `training:${body.dataset.capstone}`,
      showStepTimes,
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
    showStepTimes({}); // the next session times the steps as now chosen
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

  // Beside each step: the milliseconds of its own code per call (the steps it calls left out) and its share of
  // all the steps' time, from the Learn panel's session; in the list's summary, the slowest.
  function showStepTimes(times) {
    const total = Object.values(times).reduce((sum, time) => sum + time.ms, 0);
    let slowest = null;
    for (const item of scope.querySelectorAll("li[data-exercise-id]")) {
      const time = times[item.dataset.exerciseId];
      let span = item.querySelector(".scope-time");
      if (span === null) {
        span = Object.assign(document.createElement("span"), { className: "scope-time" });
        item.querySelector(".scope-source").after(span);
      }
      span.textContent = time === undefined ? "" : `${perCall(time)} ms a call, ${share(time.ms, total)} % of the time`;
      if (time !== undefined && (slowest === null || time.ms > slowest.time.ms)) slowest = { time, item };
    }
    const summary = document.getElementById("scope-slowest");
    summary.textContent = slowest === null || total === 0 ? "" : `; slowest: ${slowest.item.dataset.entry} `
      + `(${slowest.item.classList.contains("is-reference") ? "reference" : "yours"}), `
      + `${share(slowest.time.ms, total)} % of the time`;
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

function perCall({ calls, ms }) {
  const value = ms / Math.max(calls, 1);
  return value.toFixed(value >= 10 ? 0 : value >= 1 ? 1 : 2);
}

function share(ms, total) {
  return total > 0 ? Math.round((100 * ms) / total) : 0;
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
