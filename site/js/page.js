// The script of every page of the site. It starts the grading runtime (Python in a
// worker) once per document, as soon as any page opens, so that Python is warm by
// the time the learner reaches an exercise; in-page navigation then keeps this
// document, and the runtime, while the learner moves between pages.
import { mountExercise } from "./exercise-view.js";
import { showProgress } from "./index-view.js";
import { startNavigation } from "./navigation.js";
import { Runner } from "./runner.js";

const SERVICE_WORKER = "sw.js";

const body = document.body;
const siteRoot = new URL(body.dataset.root, location.href).href;
let runtimeText = "";
let offlineReady = false;

const runner = new Runner({
  worker: new URL(body.dataset.workerUrl, location.href).href,
  pyodide: new URL(body.dataset.pyodideUrl, location.href).href,
  graderFiles: new URL(body.dataset.graderFilesUrl, location.href).href,
}, (text) => {
  runtimeText = text;
  const status = document.getElementById("runtime-status");
  if (status) status.textContent = text;
  // Precaching waits until Python is up, so it never competes with loading it.
  if (text === "Python ready" && !offlineReady) {
    offlineReady = true;
    registerServiceWorker();
  }
});

let unmount = mount();
startNavigation(siteRoot, {
  leave: () => unmount(),
  enter: () => { unmount = mount(); },
});

function mount() {
  if (body.dataset.exerciseId === undefined) {
    showProgress();
    return () => {};
  }
  document.getElementById("runtime-status").textContent = runtimeText;
  return mountExercise(runner);
}

function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register(new URL(SERVICE_WORKER, siteRoot).href).catch((err) => {
    console.warn("Offline use is unavailable:", err.message);
  });
}
