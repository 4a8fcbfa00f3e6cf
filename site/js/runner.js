// Owns the grading worker: starts it, sends one run at a time, enforces the time
// limit and replaces the worker after a run it had to stop or that crashed it.
import { ReportBuilder } from "./report.js";

export class Runner {
  /**
   * urls: {worker, pyodide, graderFiles} (absolute). onStatus(text) receives the
   * runtime's loading state ("Loading Python…", "Python ready", ...).
   */
  constructor(urls, onStatus) {
    this.urls = urls;
    this.onStatus = onStatus;
    this.queue = Promise.resolve();
    this.run = null; // handlers of the run in flight
    this.runCount = 0;
    this.startWorker();
  }

  startWorker() {
    const worker = new Worker(this.urls.worker);
    this.worker = worker;
    this.ready = new Promise((resolve, reject) => {
      let loaded = false;
      const failToLoad = (text) => {
        this.onStatus(`Python failed to load: ${text}`);
        reject(new Error(`Python failed to load: ${text}`));
      };
      worker.onmessage = ({ data }) => {
        if (data.type === "status") {
          this.onStatus(data.text);
        } else if (data.type === "ready") {
          loaded = true;
          this.onStatus("Python ready");
          resolve();
        } else if (data.type === "init-error") {
          failToLoad(data.error);
        } else if (this.run && data.runId === this.run.id) {
          this.run.onMessage(data);
        }
      };
      worker.onerror = (event) => {
        event.preventDefault();
        const text = event.message || "the worker failed";
        if (this.run) this.run.interrupt(["error", `The Python runtime stopped unexpectedly (${text}).`]);
        else if (!loaded) failToLoad(text);
        // Otherwise e.g. a JS callback scheduled by the learner's code threw; Python itself still works.
        else console.warn("Grading worker:", text);
      };
    });
    // Awaited by grade(); this only keeps an early failure from being reported as unhandled.
    this.ready.catch(() => {});
    worker.postMessage({ type: "init", pyodideUrl: this.urls.pyodide, graderFilesUrl: this.urls.graderFiles });
  }

  /**
   * Grade `source` once the worker is ready and earlier runs are over.
   * spec: grading.json. onEvent(event) sees every engine event.
   * Resolves to {report, interruption}: interruption is null, or the
   * [status, message] that ended the run early (as report.py's finish() takes).
   */
  grade(spec, source, timeLimit, onEvent) {
    const result = this.queue.then(() => this.gradeNow(spec, source, timeLimit, onEvent));
    this.queue = result.catch(() => {});
    return result;
  }

  async gradeNow(spec, source, timeLimit, onEvent) {
    try {
      await this.ready;
    } catch (err) {
      // Let the next run try a fresh worker (e.g. after a network hiccup).
      this.restart();
      throw err;
    }
    const builder = new ReportBuilder(spec.exercise_id, spec.test_names, spec.points);
    const id = ++this.runCount;
    let timer = null;
    const outcome = await new Promise((resolve) => {
      this.run = {
        id,
        onMessage: (data) => {
          if (data.type === "event") {
            try {
              builder.add(data.event);
            } catch (err) {
              // Like the offline supervisor: a malformed event ends the run; the report keeps what came before.
              const why = `the grading worker sent an invalid event (${err.message})`;
              this.run.interrupt(["error", `Grading failed: ${why}.`]);
              return;
            }
            onEvent(data.event);
            // Like the CLI, the clock starts once the tests are loaded.
            if (data.event.event === "start") {
              const seconds = Number(timeLimit);
              timer = setTimeout(() => this.run.interrupt(
                ["timeout", `Time limit exceeded: the tests did not finish within ${seconds} s.`]),
              seconds * 1000);
            }
          } else if (data.type === "report") {
            resolve({ report: data.report, interruption: null });
          } else if (data.type === "run-error") {
            this.run.interrupt(["error", data.error]);
          }
        },
        interrupt: (interruption) => {
          this.restart();
          resolve({ report: builder.finish(interruption), interruption });
        },
      };
      this.worker.postMessage({ type: "grade", runId: id, spec, source });
    });
    clearTimeout(timer);
    this.run = null;
    return outcome;
  }

  restart() {
    this.worker.terminate();
    this.onStatus("Restarting Python…");
    this.startWorker();
  }
}
