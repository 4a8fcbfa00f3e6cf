"""Render the index and exercise pages through the Jinja2 templates in site/templates/."""

import json
from collections import Counter
from itertools import groupby

import jinja2
from markupsafe import Markup, escape

from grader.pyodide.dist import PYODIDE_VERSION
from sitebuild.try_example import example_calls

SITE_NAME = "ML Exercises"
# Spellings of words in track titles; other words are capitalized, and vowel-less
# ones ("gpt", "mlp", "rnn") are taken for acronyms.
SPELLINGS = {"ai": "AI", "bert": "BERT", "gan": "GAN", "gru": "GRU", "lora": "LoRA", "vae": "VAE", "vit": "ViT"}


def track_title(slug):
    """'build-gpt' -> 'Build GPT'."""
    def word(w):
        if w in SPELLINGS:
            return SPELLINGS[w]
        return w.upper() if not set(w) & set("aeiouy") else w.capitalize()
    return " ".join(word(w) for w in slug.split("-") if w)


def starter_json(source):
    """The starter code as a JSON string that is safe inside <script type="application/json">."""
    return Markup(json.dumps(source).replace("</", "<\\/").replace("<!--", "<\\u0021--"))


def track_parts(exercises):
    """[(part, [Exercise, ...])]: runs of consecutive steps with the same `part` (None: no part named)."""
    return [(part, list(group)) for part, group in groupby(exercises, key=lambda exercise: exercise.part)]


def common_tags(exercises):
    """Tags on more than a third of a track's steps ("numpy", "transformers"): they tell its rows apart
    from nothing, so the index lists them in its tag filter only."""
    counts = Counter(tag for exercise in exercises for tag in exercise.tags)
    return {tag for tag, count in counts.items() if 3 * count > len(exercises)}


def tag_counts(exercises):
    """[(tag, number of exercises with it)], alphabetical: the index's tag filter."""
    return sorted(Counter(tag for exercise in exercises for tag in exercise.tags).items())


class Renderer:
    def __init__(self, templates_dir, *, asset_urls, page_imports=(), pyodide_url=None, python_start=(),
                 python_files=(), live_reload=False):
        """asset_urls: {file name: URL relative to the site root, "editor": the editor's chunk};
        page_imports: URLs (relative to the site root) of the chunks page.js imports, preloaded with it;
        pyodide_url: None when self-hosted;
        python_start: URLs (relative to the site root) of the self-hosted files the grading worker fetches to
        start Python, preloaded by exercise pages;
        python_files: [[URL relative to the site root, bytes]] of what the grading worker downloads, counted
        by the first-visit progress bar."""
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(templates_dir), autoescape=True,
            undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
        )
        self.env.globals["site_name"] = SITE_NAME
        self.env.globals["live_reload"] = live_reload
        self.env.globals["assets"] = asset_urls
        self.env.globals["page_imports"] = list(page_imports)
        self.env.globals["pyodide_url"] = pyodide_url
        self.env.globals["pyodide_version"] = PYODIDE_VERSION
        # The WebAssembly first: the largest download, which the worker compiles as it arrives, so it should
        # not wait for a free connection behind the others (HTTP/1.1 allows six per host).
        self.env.globals["python_start"] = sorted(python_start, key=lambda url: not url.endswith(".wasm"))
        self.env.globals["python_files"] = list(python_files)
        self.env.filters["track_title"] = track_title
        self.env.filters["inline_code"] = inline_code

    def index(self, tracks, capstones=None):
        """tracks: [(slug, [Exercise, ...] ordered by step)], ordered for display; capstones: {slug: Capstone}, each
        listed at the end of its track."""
        everything = [exercise for _, exercises in tracks for exercise in exercises]
        return self.env.get_template("index.html").render(
            root="", preload_python=False, capstones=capstones or {},
            tracks=[(slug, exercises, track_parts(exercises), common_tags(exercises)) for slug, exercises in tracks],
            all_tags=tag_counts(everything), first=everything[0], total=len(everything))

    def exercise(self, exercise, *, statement_html, hints_html, test_names, used, prev_exercise, next_exercise,
                 capstone=None, how_it_works_html=None):
        """used: the exercises it builds on, dependencies first (listed as "In scope"); capstone: the track's
        capstone, linked from the success panel of its last part's steps and from its last step;
        how_it_works_html: how_it_works.md rendered, or None."""
        return self.env.get_template("exercise.html").render(
            root="../../", preload_python=True, exercise=exercise, statement_html=Markup(statement_html),
            hints_html=[Markup(h) for h in hints_html],
            how_it_works_html=None if how_it_works_html is None else Markup(how_it_works_html), test_names=test_names, used=used,
            prev=prev_exercise, next=next_exercise, capstone=capstone,
            starter_json=starter_json(exercise.starter),
            try_example=example_calls(exercise.statement, exercise.entry),
        )

    def capstone(self, capstone, *, statement_html, used, prev_exercise):
        """The capstone page (capstone/index.html): used: the exercises it needs, dependencies first."""
        return self.env.get_template("capstone.html").render(
            root="../", preload_python=True, capstone=capstone, statement_html=Markup(statement_html), used=used,
            prev=prev_exercise)


def inline_code(text):
    """A test's name as HTML: `code` between backticks in <code>, as the statement shows it (site/js/results.js
    does the same for the results)."""
    parts = str(text).split("`")
    if len(parts) % 2 == 0:  # an unpaired backtick: shown as written
        return escape(text)
    return Markup("").join(escape(part) if index % 2 == 0 else Markup("<code>%s</code>") % part
                           for index, part in enumerate(parts))
