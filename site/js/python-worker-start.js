// Starting a grading worker: the relay (worker-relay.js), told at once where Pyodide and the grader are so
// that it starts fetching and compiling them. An exercise page's first one is started by early-runtime.js,
// inlined in the page's head, a few hundred ms before the page's own script runs; the runner takes it
// over (takeEarlyWorker). What the worker says meanwhile is kept for the PythonWorker that takes it.
import { RELAY_NAME } from "./worker-relay.js";

const EARLY_WORKER = "mlexEarlyPythonWorker"; // where early-runtime.js leaves its worker, on the page's global

// Where the runtime's files are (absolute URLs), from an element's data attributes: the body's, or the early
// script's (runtime_urls in macros.html).
export function runtimeUrls(element) {
  const absolute = (path) => new URL(path, location.href).href;
  const { dataset } = element;
  return {
    worker: absolute(dataset.workerUrl),
    pyodide: absolute(dataset.pyodideUrl),
    graderFiles: absolute(dataset.graderFilesUrl),
    bytecode: dataset.bytecodeUrl ? absolute(dataset.bytecodeUrl) : null,
  };
}

/**
 * A started worker: {urls, worker, interruptBuffer, messages, errors}; messages and errors hold what it sent
 * until a PythonWorker takes it. wasmModule: Pyodide's compiled module (null: the worker compiles it).
 */
export function startPythonWorker(urls, wasmModule) {
  // With cross-origin isolation Python can be interrupted (a KeyboardInterrupt) instead of killed.
  const interruptBuffer = self.crossOriginIsolated ? new Uint8Array(new SharedArrayBuffer(1)) : null;
  const worker = new Worker(urls.worker, { name: RELAY_NAME });
  const started = { urls, worker, interruptBuffer, messages: [], errors: [] };
  worker.onmessage = ({ data }) => started.messages.push(data);
  worker.onerror = (event) => {
    event.preventDefault();
    started.errors.push(event.message || "the relay worker failed");
  };
  worker.postMessage({
    type: "init", pyodideUrl: urls.pyodide, graderFilesUrl: urls.graderFiles, bytecodeUrl: urls.bytecode,
    interruptBuffer, wasmModule,
  });
  return started;
}

export function startEarlyWorker(script) {
  self[EARLY_WORKER] = startPythonWorker(runtimeUrls(script), null);
}

/** The worker early-runtime.js started for these urls, once; null when there is none (or it is for others). */
export function takeEarlyWorker(urls) {
  const early = self[EARLY_WORKER];
  delete self[EARLY_WORKER];
  if (!early) return null;
  if (JSON.stringify(early.urls) === JSON.stringify(urls)) return early;
  early.worker.terminate();
  return null;
}
