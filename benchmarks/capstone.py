"""The capstone page training in Chromium, against the same training natively in this interpreter.

With the references saved as the learner's passing code, the page (capstone/) trains its model from scratch for
DURATION seconds of training (the page's own clock: "Elapsed", which leaves out starting the session), as a
learner pressing Start would; the figures are read from the page: steps/s, the training loss (the page's running
mean of the last 20 steps) at the first step, at 60 s and at 120 s, and the unigram baseline of the same text.
Training on the page includes its held-out measurements every 50 steps and its samples every 100.

Then, in a new page, it fine-tunes the pretrained weights (the page's other start, on its [fine_tuning]
schedule) for FINE_TUNE seconds of training and prints the held-out loss the page showed before training (the
pretrained weights') and its last measurement by then (every 50 steps):

    fine-tune: held_out_pretrained=<float> held_out_60s=<float> at_step=<int> steps/s=<float>

The native figure runs grader.core.capstone_session.Session here, with the same model, batch, text and steps
(the references), on one BLAS thread as Pyodide has, and the ratio of the two speeds is printed before the last
line, which is:

    capstone: steps/s=<float> loss_start=<float> loss_60s=<float> loss_120s=<float> unigram=<float>

    python benchmarks/capstone.py [--site DIR] [--seconds 120] [--fine-tune-seconds 60]

Without --site it builds the site into a temporary folder (validation comes from the build cache when warm).
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy loads: one thread, as in Pyodide

import argparse  # noqa: E402
import json  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

from playwright.sync_api import sync_playwright  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.capstone import corpus_text, load_capstone, reference_earlier  # noqa: E402
from grader.core.capstone_session import Session  # noqa: E402
from sitebuild.serve import make_server  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]
NATIVE_SECONDS = 30
LOAD_MS = 180_000

FIGURES = """() => {
    const error = document.getElementById('capstone-error');
    const heldOut = [...document.querySelectorAll('#loss-rows tr')].map((row) => [
        parseInt(row.cells[0].textContent), parseFloat(row.dataset.heldOut)]);
    return {
        step: parseInt(document.getElementById('stat-step').textContent) || 0,
        loss: parseFloat(document.getElementById('stat-loss').textContent),
        held_out: heldOut,
        unigram: parseFloat(document.getElementById('stat-unigram').textContent),
        elapsed: parseFloat(document.getElementById('stat-elapsed').dataset.seconds ?? '0'),
        error: error.hidden ? null : error.innerText,
    };
}"""


def native_steps_per_second(seconds):
    """Steps/s of the references' training in this interpreter, same model, batch and text as the page."""
    capstone = load_capstone(ROOT / "exercises")
    session = Session(reference_earlier(capstone, ROOT / "exercises"), capstone.session_config())
    session.set_text(corpus_text(capstone))
    session.init_weights(capstone.training["seed"])
    session.train(2)  # warm-up
    steps, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        steps += len(session.train(5))
    return steps / (time.perf_counter() - started)


def build_site(out):
    result = subprocess.run([sys.executable, "build.py", "--out", str(out)], cwd=ROOT, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"build failed:\n{result.stdout}{result.stderr}")


def open_page(browser, base):
    """A new page of the capstone, with the references saved as the learner's code, after its first text."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(f"{base}/capstone/capstone.json")
    for used in json.loads(page.inner_text("body"))["uses"]:
        source = (ROOT / "exercises" / used["exercise_id"] / "solution.py").read_text()
        page.evaluate("([id, code]) => localStorage.setItem(`mlex:passed:${id}`, code)", [used["exercise_id"], source])
    page.goto(f"{base}/capstone/")
    # The Talk panel's first text (the pretrained weights) is written first: it does not share the CPU with training.
    page.wait_for_function("/characters generated|Train the model/.test(document.getElementById('talk-status')"
                           ".textContent) || !document.getElementById('capstone-error').hidden", timeout=LOAD_MS)
    return context, page


def train_until(page, seconds, each):
    """Reads the page's figures until `seconds` of training, calling each(figures); returns the last figures."""
    while True:
        figures = page.evaluate(FIGURES)
        if figures["error"]:
            sys.exit(f"the page stopped training: {figures['error']}")
        each(figures)
        if figures["elapsed"] >= seconds:
            page.click("#train-stop")
            return figures
        time.sleep(0.25)


def fine_tune_in_page(browser, base, seconds):
    """{held_out_pretrained, held_out_<seconds>s, at_step, steps/s}: fine-tuning the pretrained weights."""
    context, page = open_page(browser, base)
    page.check("input[name=start-from][value=pretrained]")
    page.click("#train-start")
    figures = train_until(page, seconds, lambda figures: None)
    context.close()
    (_, before), (at_step, after) = figures["held_out"][0], figures["held_out"][-1]
    return {"held_out_pretrained": before, f"held_out_{seconds:g}s": after, "at_step": at_step,
            "steps/s": figures["step"] / figures["elapsed"]}


def train_in_page(browser, base, duration):
    """{steps/s, loss_start, loss_60s, loss_<duration>s, unigram} as the page showed them."""
    context, page = open_page(browser, base)
    page.click("#train-start")
    marks = {"loss_start": None, "loss_60s": None, f"loss_{duration:g}s": None}

    def mark(figures):
        if marks["loss_start"] is None and figures["step"] >= 1:
            marks["loss_start"] = figures["loss"]  # the first call trains one step: the first step's loss
        if marks["loss_60s"] is None and figures["elapsed"] >= 60:
            marks["loss_60s"] = figures["loss"]

    figures = train_until(page, duration, mark)
    marks[f"loss_{duration:g}s"] = figures["loss"]
    context.close()
    return {"steps/s": figures["step"] / figures["elapsed"], **marks, "unigram": figures["unigram"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build one into a temporary folder)")
    parser.add_argument("--seconds", type=float, default=120, help="seconds of training in the page")
    parser.add_argument("--fine-tune-seconds", type=float, default=60, help="seconds of fine-tuning in the page")
    args = parser.parse_args()

    native = native_steps_per_second(NATIVE_SECONDS)
    print(f"native CPython {sys.version.split()[0]}: steps/s={native:.2f} (same model, batch and text, references, "
          f"one BLAS thread, {NATIVE_SECONDS} s)", flush=True)
    with tempfile.TemporaryDirectory() as scratch:
        site = args.site
        if site is None:
            site = Path(scratch) / "_site"
            build_site(site)
        server = make_server(site, "127.0.0.1", 0)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                base = f"http://127.0.0.1:{server.server_address[1]}"
                tuned = fine_tune_in_page(browser, base, args.fine_tune_seconds)
                print("fine-tune: " + " ".join(f"{name}={value:.4f}" if isinstance(value, float) else f"{name}={value}"
                                               for name, value in tuned.items()), flush=True)
                figures = train_in_page(browser, base, args.seconds)
                browser.close()
        finally:
            server.shutdown()
            server.server_close()
    print(f"Pyodide/CPython speed: {figures['steps/s'] / native:.2f} (Pyodide in Chromium: "
          f"{figures['steps/s']:.2f} steps/s, training time on the page's clock)")
    print("capstone: " + " ".join(f"{name}={value:.3f}" for name, value in figures.items()))


if __name__ == "__main__":
    main()
