"""Runs on fresh interpreters in the page, against the boot of one interpreter measured in the same run.

Every run in the page gets a Pyodide worker that never ran anything, booted ahead of time; a spare
takes over when a run is cut short.  Floor: booting one such worker (Pyodide, numpy and the grader)
in the idle page; for comparison, a second run on that same interpreter (how
re-runs went before every run got a fresh one).  Measured, on a plain page and on a cross-origin isolated one (where Python is
interrupted instead of killed), in Chromium:

- re-run: the verdict of a correct submission once the interpreters are booted (target <= 100 ms);
- back to back: five runs, each 0.5 s after the previous verdict (the spare is still booting);
- after a runaway loop: the next verdict, counted from the moment the time limit fired (target <= 1 s);
- Stop: from pressing Stop to the report, and from there to the next verdict.

    python benchmarks/fresh_runs.py [--repeat 5]
"""

import argparse
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # made_once, which the browser conftest imports
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from page_helpers import INFINITE_LOOP, SOLUTION  # noqa: E402
from sitebuild.serve import make_server  # noqa: E402

LOOP_LIMIT_S = 2
WARM = "window.runner.isWarm()"

# A standalone grading worker in the page, as the runner starts one: [its boot, then the second of two
# runs on it (how re-runs went when one interpreter served every run)] in ms.
BOOT_AND_REUSE = """async (source) => {
  const url = (name) => new URL(document.body.dataset[name], document.baseURI).href;
  const spec = await (await fetch("grading.json")).json();
  const started = performance.now();
  const worker = new Worker(url("workerUrl"));
  const next = (type) => new Promise((resolve) => {
    worker.onmessage = ({ data }) => data.type === type && resolve();
  });
  const ready = next("ready");
  worker.postMessage({ type: "init", pyodideUrl: url("pyodideUrl"), graderFilesUrl: url("graderFilesUrl") });
  await ready;
  const booted = performance.now();
  let rerun = 0;
  for (const runId of [1, 2]) {
    const reported = next("graded");
    const posted = performance.now();
    worker.postMessage({ type: "grade", runId, spec, source });
    await reported;
    rerun = performance.now() - posted;
  }
  worker.terminate();
  return [booted - started, rerun];
}"""
GRADE = """async (source) => {
  const started = performance.now();
  const report = await window.gradeSubmission(source);
  if (!report.passed) throw new Error("the correct submission did not pass");
  return performance.now() - started;
}"""
AFTER_LOOP = """async ([loop, solution, limitMs]) => {
  const posted = performance.now();
  await window.gradeSubmission(loop);
  await window.gradeSubmission(solution);
  return performance.now() - (posted + limitMs);
}"""
STOP = """async ([loop, solution]) => {
  const run = window.gradeSubmission(loop);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const pressed = performance.now();
  window.runner.stop();
  await run;
  const stopped = performance.now();
  await window.gradeSubmission(solution);
  return [stopped - pressed, performance.now() - stopped];
}"""


def serve(site, isolated):
    server = make_server(site, "127.0.0.1", 0, isolate=isolated)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/exercises/sinusoidal_pe/"


def measure(browser, url, repeat):
    page = browser.new_page()
    page.goto(url)
    page.wait_for_function(WARM, timeout=180_000)
    boots, reuses = zip(*(page.evaluate(BOOT_AND_REUSE, SOLUTION) for _ in range(3)))
    figures = {"floor: one interpreter boot": statistics.median(boots),
               "baseline: re-run on a used interpreter": statistics.median(reuses)}
    reruns = []
    for _ in range(repeat):
        page.wait_for_function(WARM, timeout=180_000)
        reruns.append(page.evaluate(GRADE, SOLUTION))
    figures["re-run (median)"] = statistics.median(reruns)
    page.wait_for_function(WARM, timeout=180_000)
    back_to_back = []
    for _ in range(5):
        back_to_back.append(page.evaluate(GRADE, SOLUTION))
        page.wait_for_timeout(500)
    figures["back to back, 0.5 s apart (worst of 5)"] = max(back_to_back)
    figures["back to back, each"] = back_to_back
    page.wait_for_function(WARM, timeout=180_000)
    page.evaluate(f"document.body.dataset.timeLimit = '{LOOP_LIMIT_S}'")
    figures["after a runaway loop: limit -> next verdict"] = page.evaluate(
        AFTER_LOOP, [INFINITE_LOOP, SOLUTION, LOOP_LIMIT_S * 1000])
    page.wait_for_function(WARM, timeout=180_000)
    page.evaluate("document.body.dataset.timeLimit = '60'")
    figures["Stop -> report"], figures["Stop: report -> next verdict"] = page.evaluate(STOP, [INFINITE_LOOP, SOLUTION])
    isolated = page.evaluate("self.crossOriginIsolated")
    page.close()
    return isolated, figures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5, help="re-runs to take the median of (default 5)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "_site"
        build = subprocess.run([sys.executable, "build.py", "--out", str(site)], cwd=ROOT,
                               capture_output=True, text=True)
        if build.returncode != 0:
            sys.exit(f"python build.py failed:\n{build.stdout}{build.stderr}")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for isolated in (False, True):
                server, url = serve(site, isolated)
                really_isolated, figures = measure(browser, url, args.repeat)
                server.shutdown()
                server.server_close()
                floor = figures["floor: one interpreter boot"]
                print(f"\n{'cross-origin isolated' if really_isolated else 'plain'} page:")
                for name, value in figures.items():
                    if isinstance(value, list):
                        print(f"  {name:45} " + ", ".join(f"{ms:.0f}" for ms in value) + " ms")
                    else:
                        print(f"  {name:45} {value:8.0f} ms   {value / floor:6.3f} x floor")
            browser.close()


if __name__ == "__main__":
    main()
