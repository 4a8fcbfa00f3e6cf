// The script of every page of the site. It starts the grading runtime (Python in a
// worker) once per document, as soon as any page opens, so that Python is warm by
// the time the learner reaches an exercise; in-page navigation then keeps this
// document, and the runtime, while the learner moves between pages. With Save-Data on,
// the index downloads no Python: the runtime starts with the first exercise page (or the capstone).
import { addCopyButtons } from "./copy-buttons.js";
import { mountIndex } from "./index-view.js";
import { mountPaneSplit } from "./pane-split.js";
import { mountPaneTabs } from "./pane-tabs.js";
import { watchPythonDownload } from "./python-download.js";
import { watchScrollBoxes } from "./scroll-boxes.js";
import { startNavigation } from "./navigation.js";
import { READY, Runner } from "./runner.js";
import { RuntimeStatus } from "./runtime-status.js";
import { mountThemeSwitch, startTheme } from "./theme.js";

const SERVICE_WORKER = "sw.js";

startTheme();
const body = document.body;
// The editor is most of the code: only exercise pages wait for it; the index fetches it once Python is up.
let exerciseView = null;
const loadExerciseView = () => (exerciseView ??= import("./exercise-view.js"));
const siteRoot = new URL(body.dataset.root, location.href).href;
const runtimeStatus = new RuntimeStatus();
let offlineReady = false;
let runner = null;

const needsPython = body.dataset.exerciseId !== undefined || body.dataset.capstone !== undefined;
if (needsPython || !navigator.connection?.saveData) startRuntime();

function startRuntime() {
  if (runner !== null) return runner;
  runner = new Runner({
    worker: new URL(body.dataset.workerUrl, location.href).href,
    pyodide: new URL(body.dataset.pyodideUrl, location.href).href,
    graderFiles: new URL(body.dataset.graderFilesUrl, location.href).href,
    bytecode: body.dataset.bytecodeUrl ? new URL(body.dataset.bytecodeUrl, location.href).href : null,
    stdlib: body.dataset.stdlibUrl ? new URL(body.dataset.stdlibUrl, location.href).href : null,
  }, body.dataset.pyodideVersion, (text) => {
    runtimeStatus.setText(text);
    // Precaching waits until Python is up and the runs asked for meanwhile are over, so it never
    // competes with loading Python or with the first verdict.
    if (text === READY && !offlineReady) {
      offlineReady = true;
      runner.idle().then(() => {
        registerServiceWorker();
        loadExerciseView();
      });
    }
  });
  window.runner = runner; // tests and benchmarks wait on its spare worker
  // Files the offline copy serves arrive at once: no progress to show.
  if (!navigator.serviceWorker?.controller) {
    const files = JSON.parse(body.dataset.pythonFiles ?? "[]")
      .map(([path, bytes]) => [new URL(path, siteRoot).href, bytes]);
    watchPythonDownload(files, (loaded, total) => runtimeStatus.setDownload(loaded, total));
  }
  return runner;
}

let unmount = mount();
startNavigation(siteRoot, {
  leave: () => unmount(),
  enter: () => { unmount = mount(); },
});

function mount() {
  mountThemeSwitch();
  const unwatchScrollBoxes = watchScrollBoxes(document.getElementById("main"));
  if (body.dataset.capstone !== undefined) return mountCapstonePage(unwatchScrollBoxes);
  if (body.dataset.exerciseId === undefined) {
    const unmountIndex = mountIndex();
    return () => {
      unmountIndex();
      unwatchScrollBoxes();
    };
  }
  startRuntime();
  runtimeStatus.show();
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

// The capstone's code (its panels and sessions) loads with its page only.
function mountCapstonePage(unwatchScrollBoxes) {
  startRuntime();
  runtimeStatus.show();
  let unmountCapstone = null;
  let left = false;
  import("./capstone-view.js").then(({ mountCapstone }) => {
    if (!left) unmountCapstone = mountCapstone(runner);
  });
  return () => {
    left = true;
    unmountCapstone?.();
    unwatchScrollBoxes();
  };
}

function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register(new URL(SERVICE_WORKER, siteRoot).href).catch((err) => {
    console.warn("Offline use is unavailable:", err.message);
  });
}
