"""The capstone page's data (exercises/capstone/, see grader/capstone.py): what the build writes under capstone/.

capstone/capstone.json holds what the page's session needs: the steps it uses (with their references, put in
scope where the learner has not passed a step, as grading.json's `uses`), the session's config and the URLs
of the text and the pretrained weights. Those two are large and change rarely: their URLs carry a hash of
their content, so the service worker serves them from its cache first (see sitebuild/offline.py).
"""

import dataclasses
import hashlib
import json
import shutil

from grader.capstone import capstone_steps, corpus_text, load_capstone

FOLDER = "capstone"
CAPSTONE_TOML = "capstone.toml"
DATA_FILES = ("corpus.txt", "weights.npz")  # in capstone/: cached by the service worker under a versioned URL


@dataclasses.dataclass(frozen=True)
class CapstonePage:
    capstone: object  # grader.capstone.Capstone
    used: list  # the exercises it needs, dependencies first
    statement_html: str
    text: str  # the corpus, as the session trains on it


def load_capstone_page(exercises_dir, render_markdown):
    """The capstone of `exercises_dir`, or None when it has none (no capstone/capstone.toml)."""
    if not (exercises_dir / FOLDER / CAPSTONE_TOML).is_file():
        return None
    capstone = load_capstone(exercises_dir)
    return CapstonePage(capstone, capstone_steps(capstone, exercises_dir), render_markdown(capstone.statement),
                        corpus_text(capstone))


def write_capstone_data(out, page):
    """Write capstone/corpus.txt, weights.npz (when the capstone has some) and capstone.json under `out`."""
    folder = out / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "corpus.txt").write_text(page.text, encoding="utf-8")
    if page.capstone.weights is not None:
        shutil.copyfile(page.capstone.weights, folder / "weights.npz")
    urls = data_urls(out)
    uses = [{"exercise_id": step.id, "entry": step.entry, "step": step.step, "title": step.title,
             "uses": list(step.uses), "reference": step.solution} for step in page.used]
    data = {"uses": uses, "config": page.capstone.session_config(), "text": urls["corpus.txt"],
            "weights": urls.get("weights.npz")}
    (folder / "capstone.json").write_text(json.dumps(data), encoding="utf-8")


def data_urls(out):
    """{"corpus.txt": "capstone/corpus.txt?v=<hash>", ...} (relative to the site root) for the data files built."""
    return {name: f"{FOLDER}/{name}?v={file_digest(out / FOLDER / name)}"
            for name in DATA_FILES if (out / FOLDER / name).is_file()}


def file_digest(path):
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()[:16]
