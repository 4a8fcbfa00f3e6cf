// The script of every page of the site. It starts the grading runtime (Python in a
// worker) once per document, as soon as any page opens, so that Python is warm by
// the time the learner reaches an exercise; in-page navigation then keeps this
// document, and the runtime, while the learner moves between pages.
import { addCopyButtons } from "./copy-buttons.js";
import { mountIndex } from "./index-view.js";
import { mountPaneSplit } from "./pane-split.js";
import { mountPaneTabs } from "./pane-tabs.js";
import { watchScrollBoxes } from "./scroll-boxes.js";
import { startNavigation } from "./navigation.js";
import { Runner } from "./runner.js";
import { mountThemeSwitch, startTheme } from "./theme.js";

const SERVICE_WORKER = "sw.js";

startTheme();
const body = document.body;
// The editor is most of the code: only exercise pages wait for it; the index fetches it once Python is up.
let exerciseView = null;
const loadExerciseView = () => (exerciseView ??= import("./exercise-view.js"));
const siteRoot = new URL(body.dataset.root, location.href).href;
let runtimeText = "";
let offlineReady = false;

const runner = new Runner({
  worker: new URL(body.dataset.workerUrl, location.href).href,
  pyodide: new URL(body.dataset.pyodideUrl, location.href).href,
  graderFiles: new URL(body.dataset.graderFilesUrl, location.href).href,
}, body.dataset.pyodideVersion, (text) => {
  runtimeText = text;
  const status = document.getElementById("runtime-status");
  if (status) status.textContent = text;
  // Precaching waits until Python is up and the runs asked for meanwhile are over, so it never
  // competes with loading Python or with the first verdict.
  if (text === "Python ready" && !offlineReady) {
    offlineReady = true;
    runner.idle().then(() => {
      registerServiceWorker();
      loadExerciseView();
    });
  }
});
window.runner = runner; // tests and benchmarks wait on its spare worker

let unmount = mount();
startNavigation(siteRoot, {
  leave: () => unmount(),
  enter: () => { unmount = mount(); },
});

function mount() {
  mountThemeSwitch();
  const unwatchScrollBoxes = watchScrollBoxes(document.getElementById("main"));
  if (body.dataset.exerciseId === undefined) {
    const unmountIndex = mountIndex();
    return () => {
      unmountIndex();
      unwatchScrollBoxes();
    };
  }
  document.getElementById("runtime-status").textContent = runtimeText;
  const unmountTabs = mountPaneTabs();
  mountPaneSplit();
  addCopyButtons(document.getElementById("main"));
  let unmountExercise = null;
  let left = false;
  loadExerciseView().then(({ mountExercise }) => {
    if (!left) unmountExercise = mountExercise(runner);
  });
  return () => {
    left = true;
    unmountExercise?.();
    unmountTabs();
    unwatchScrollBoxes();
  };
}

function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register(new URL(SERVICE_WORKER, siteRoot).href).catch((err) => {
    console.warn("Offline use is unavailable:", err.message);
  });
}
