"""Tests for the site build (`python build.py`): output layout, pages, data files, errors."""

import dataclasses
import gzip
import hashlib
import html
import json
import re
import shutil
import subprocess
import sys
import threading
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest
from markupsafe import escape

from grader.capstone import capstone_steps, corpus_text, load_capstone
from grader.core.engine import GradingSpec, load_tests
from grader.exercise import load_all, load_exercise
from grader.pyodide.dist import PYODIDE_VERSION
from grader.authoring.statement_checks import statement_assets
from grader.track import used_steps
from markup.markdown import render_markdown
from sitebuild.render import starter_json, track_title
from sitebuild.serve import make_server

ROOT = Path(__file__).resolve().parents[1]
CDN = "https://cdn.jsdelivr.net/pyodide/v0.27.7/full/"
CONTRACT_KEYS = ["exercise_id", "entry", "tests_source", "tests_filename", "points", "track_source", "track_filename",
                 "time_limit", "test_time_limit", "test_names", "uses"]


def build(*args):
    return subprocess.run([sys.executable, str(ROOT / "build.py"), *map(str, args)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def site(tmp_path_factory, site_dir):  # site_dir validates the catalogue once for the run
    out = tmp_path_factory.mktemp("build") / "_site"
    result = build("--out", out, "--pyodide-url", CDN)
    assert result.returncode == 0, result.stderr
    return out


@pytest.fixture(scope="module")
def exercises():
    return load_all()


def page_of(site, exercise_id):
    return (site / "exercises" / exercise_id / "index.html").read_text()


def between(text, start, end):
    """The text between the first `start` and the next `end`."""
    return text.split(start, 1)[1].split(end, 1)[0]


# --- Output layout and data files ---

def test_output_layout(site, exercises):
    for name in ("page.js", "worker.js", "style.css", "grader-core.json"):
        assert (site / "assets" / name).is_file(), name
    assert not (site / "pyodide").exists()
    for exercise in exercises:
        folder = site / "exercises" / exercise.id
        assert (folder / "index.html").is_file()
        assert (folder / "grading.json").is_file()
        assert (folder / "solution.py").is_file() == (exercise.reveal_solution == "after-pass")
        if exercise.reveal_solution == "after-pass":
            assert (folder / "solution.py").read_text() == exercise.solution
    assert not list(site.parent.glob("_site.*")), "temporary folders left beside the output"


def test_grading_json_matches_the_contract(site, exercises):
    for exercise in exercises:
        data = json.loads((site / "exercises" / exercise.id / "grading.json").read_text())
        assert list(data) == CONTRACT_KEYS
        fields = [f.name for f in dataclasses.fields(GradingSpec)]
        spec = GradingSpec(**{key: data[key] for key in fields})
        assert spec == dataclasses.replace(exercise.grading_spec(), tests_filename="tests.py", track_filename="_track.py")
        assert data["time_limit"] == exercise.time_limit
        assert data["test_names"] == [t.name for t in load_tests(exercise.grading_spec())]
        # What it builds on, dependencies first, each with the reference the page runs until the learner passes it.
        assert data["uses"] == [{"exercise_id": used.id, "entry": used.entry, "step": used.step, "title": used.title,
                                 "uses": list(used.uses), "reference": used.solution}
                                for used in used_steps(exercise)]
    uses = json.loads((site / "exercises" / "multi_head_attention" / "grading.json").read_text())["uses"]
    assert [(used["exercise_id"], used["uses"]) for used in uses] == [("softmax", []), ("causal_attention", ["softmax"])]


def test_grader_core_json_holds_the_pure_grader(site):
    files = json.loads((site / "assets" / "grader-core.json").read_text())
    expected = ["grader/__init__.py"] + [f"grader/core/{p.name}" for p in sorted((ROOT / "grader/core").glob("*.py"))]
    assert sorted(files) == sorted(expected)
    for path, source in files.items():
        assert source == (ROOT / path).read_text()


# --- Index ---

def test_index_groups_by_track_and_orders_by_step(site, exercises):
    index = (site / "index.html").read_text()
    sections = re.findall(r'<section class="track" id="track-([a-z0-9-]+)"(.*?)(?=<section class="track" |</main>)',
                          index, re.S)
    tracks = sorted({e.track for e in exercises})
    assert [slug for slug, _ in sections] == tracks
    for slug, body in sections:
        in_track = sorted((e for e in exercises if e.track == slug), key=lambda e: e.step)
        assert f">{track_title(slug)}</h2>" in body
        assert re.findall(r'class="exercise-link" href="exercises/([a-z0-9_]+)/"', body) == [e.id for e in in_track]
        # The track's own "Start with step 1" link, which the script turns into "Continue" with saved progress.
        assert re.findall(r'<a class="track-continue" href="exercises/([a-z0-9_]+)/"', body) == [in_track[0].id]
        parts = [part for part in dict.fromkeys(e.part for e in in_track) if part]
        titles = re.findall(r'<h3 class="track-part-title" id="[^"]+">([^<]*?)\s+<span class="part-steps">([^<]*)</span>',
                            body)
        assert [title for title, _ in titles] == [str(escape(part)) for part in parts]
        for (_, steps), part in zip(titles, parts):
            numbers = [e.step for e in in_track if e.part == part]
            assert steps == (f"steps {numbers[0]}–{numbers[-1]}" if len(numbers) > 1 else f"step {numbers[0]}")
        shown_on_rows = set(re.findall(r'<a class="tag" href="index.html\?tag=([^"]+)"', body))
        for exercise in in_track:
            assert str(escape(exercise.title)) in body
            assert f'<p class="exercise-blurb">{escape(exercise.summary)}</p>' in body
            assert f'<span class="difficulty difficulty-{exercise.difficulty.lower()}">' in body
            assert f'<span class="progress" data-progress-for="{exercise.id}"></span>' in body
            for tag in exercise.tags:  # every tag is in the filter; the rare ones are on the rows too, as links
                assert f'<option value="{escape(tag)}">' in index
        assert shown_on_rows and not {"numpy", "transformers"} & shown_on_rows


def test_track_titles():
    assert track_title("build-gpt") == "Build GPT"
    assert track_title("data-loading") == "Data Loading"
    assert track_title("lora-fine-tuning") == "LoRA Fine Tuning"


# --- Exercise pages ---

def test_exercise_page_follows_the_contract(site, exercises):
    # The chunks page.js imports with import statements (esbuild writes them first, before any code).
    page_js = (site / "assets" / "page.js").read_text()
    page_js_imports = set(re.findall(r'(?:^|;)import\{[^}]*\}from"\./chunks/(chunk-\w+\.js)"', page_js))
    assert page_js_imports
    for exercise in exercises:
        page = page_of(site, exercise.id)
        body = re.search(r"<body ([^>]*)>", page).group(1)
        assert re.fullmatch(
            rf'data-root="\.\./\.\./" data-pyodide-url="{re.escape(CDN)}" data-pyodide-version="{PYODIDE_VERSION}" '
            r'data-worker-url="\.\./\.\./assets/worker\.js\?v=[0-9a-f]{16}" '
            r'data-grader-files-url="\.\./\.\./assets/grader-core\.json\?v=[0-9a-f]{16}" data-bytecode-url="" '
                r'data-stdlib-url="" '
            r'data-python-files="\[\[&#34;assets/grader-core\.json\?v=[0-9a-f]{16}&#34;, \d+\]\]" '
            rf'data-exercise-id="{exercise.id}" data-time-limit="{exercise.time_limit}" '
            rf'data-reveal-solution="{exercise.reveal_solution}"'
            r'(?: data-capstone-url="\.\./\.\./capstone/" data-capstone-title="[^"]+")?', body), body
        # page.js, then what it imports (so that the grading worker starts without waiting for a second round
        # of requests), then the editor
        preloads = re.search(r'<script type="module" src="\.\./\.\./assets/page\.js\?v=[0-9a-f]{16}"></script>\n'
                             r'((?:  <link rel="modulepreload" href="\.\./\.\./assets/chunks/chunk-\w+\.js">\n)+)'
                             r'  <link rel="modulepreload" href="\.\./\.\./assets/chunks/exercise-view-\w+\.js">', page)
        assert preloads, page[:2000]
        assert set(re.findall(r'chunks/(chunk-\w+\.js)', preloads.group(1))) == page_js_imports
        for fragment in ('<article id="statement"', '<ol id="test-list">', '<nav id="track-nav"',
                         '<div id="editor">', 'id="run-button"', "Ctrl",
                         'id="reset-button"', '<p id="runtime-status" role="status">',
                         '<section id="results" aria-live="polite"'):
            assert fragment in page, (exercise.id, fragment)
        assert ('<section id="hints"' in page) == bool(exercise.hints)
        assert page.count("<li hidden>") == len(exercise.hints)
        has_solution = exercise.reveal_solution == "after-pass"
        assert ('<section id="solution" hidden' in page) == has_solution
        assert ('<code id="solution-code"></code>' in page) == has_solution
        scope = re.findall(r'<li data-exercise-id="(\w+)" data-entry="(\w+)" data-step="(\d+)">', page)
        assert scope == [(used.id, used.entry, str(used.step)) for used in used_steps(exercise)]
        assert ('<details class="in-scope" id="in-scope"' in page) == bool(exercise.uses)


def test_statement_is_rendered_with_mathml(site, exercises):
    for exercise in exercises:
        statement = between(page_of(site, exercise.id), '<article id="statement" class="prose">', "</article>")
        assert "<h2>" in statement
        prose = re.sub(r"<code[^>]*>.*?</code>", "", statement, flags=re.S)
        if "$" in exercise.statement:
            assert "<math" in statement
        if "\\$" not in exercise.statement:  # no literal dollars: every $ became math
            assert "$" not in prose, exercise.id
    sinusoidal = page_of(site, "sinusoidal_pe")
    assert '<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">' in sinusoidal
    with_a_fraction = next(e for e in exercises if "\\frac" in e.statement)
    assert "<mfrac>" in page_of(site, with_a_fraction.id)


def test_hidden_test_names_are_listed(site):
    page = page_of(site, "sinusoidal_pe")
    names = [t.name for t in load_tests(load_exercise("sinusoidal_pe").grading_spec())]
    assert len(names) == 6
    # Honest about what is hidden: not shown on the page, yet not a secret either.
    assert ("This problem has 6 tests, listed by name. Their code is not shown on this page, and the reference "
            "solution is shown only once you pass. Neither is a secret: your browser downloads both to grade your "
            "code, so a determined learner can read them; they are simply kept out of your way.") in page
    listed = re.findall(r"<li>(.*?)</li>", between(page, '<ol id="test-list">', "</ol>"))
    assert [html.unescape(name) for name in listed] == names


def test_an_exercise_without_its_solution_on_the_site_says_so(tmp_path):
    folder = tmp_path / "exercises" / "sinusoidal_pe"
    shutil.copytree(ROOT / "exercises" / "sinusoidal_pe", folder)
    toml = folder / "exercise.toml"
    toml.write_text(toml.read_text().replace('reveal_solution = "after-pass"', 'reveal_solution = "never"'))
    result = build("--exercises", tmp_path / "exercises", "--out", tmp_path / "_site", "--pyodide-url", CDN)
    assert result.returncode == 0, result.stderr
    page = page_of(tmp_path / "_site", "sinusoidal_pe")
    assert ("This problem has 6 tests, listed by name. Their code is not shown on this page. It is not a secret: "
            "your browser downloads it to grade your code, so a determined learner can read it; it is simply kept "
            "out of your way.") in page
    assert not (tmp_path / "_site" / "exercises" / "sinusoidal_pe" / "solution.py").exists()


def test_prev_next_links_stay_within_the_track(site, exercises):
    for exercise in exercises:
        track = sorted((e for e in exercises if e.track == exercise.track), key=lambda e: e.step)
        position = track.index(exercise)
        nav = between(page_of(site, exercise.id), '<nav id="track-nav"', "</nav>")
        prev_links = re.findall(r'<a rel="prev" href="\.\./([a-z0-9_]+)/">', nav)
        next_links = re.findall(r'<a rel="next" href="\.\./([a-z0-9_]+)/">', nav)
        assert prev_links == ([track[position - 1].id] if position > 0 else [])
        assert next_links == ([track[position + 1].id] if position + 1 < len(track) else [])


def test_starter_code_round_trips(site, exercises):
    for exercise in exercises:
        page = page_of(site, exercise.id)
        raw = between(page, '<script type="application/json" id="starter-code">', "</script>")
        assert json.loads(raw) == exercise.starter


def test_starter_json_cannot_end_its_script_element():
    source = 'x = "</script><!-- <script>"\n'
    encoded = str(starter_json(source))
    assert "</" not in encoded and "<!--" not in encoded
    assert json.loads(encoded) == source


def test_self_hosted_pyodide(tmp_path):
    out = tmp_path / "_site"
    result = build("--out", out)
    assert result.returncode == 0, result.stderr
    assert (out / "pyodide" / "pyodide.asm.wasm").is_file()
    assert len(list((out / "pyodide").glob("numpy-*.whl"))) == 1
    assert 'data-pyodide-url="../../pyodide/"' in page_of(out, "sinusoidal_pe")
    # The worker starts Python from the site's standard library (below), not from Pyodide's own zip, which
    # stays in the folder for whoever loads that Pyodide as it is.
    index = (out / "index.html").read_text()
    stdlib = re.search(r'data-stdlib-url="([^"]*)"', index).group(1)
    assert stdlib.startswith("assets/python-stdlib.zip?v=")
    fetched = sorted(f"pyodide/{p.name}" for p in (out / "pyodide").iterdir()
                     if p.name not in ("pyodide.mjs", "python_stdlib.zip")) + [stdlib]
    preloaded = re.findall(r'<link rel="preload" href="\.\./\.\./([^"]+)" as="(script|fetch)"',
                           page_of(out, "sinusoidal_pe"))
    assert sorted(preloaded) == sorted((url, "script" if url.endswith(".js") else "fetch") for url in fetched)
    assert '<link rel="preload"' not in index, "the index leaves Python's download to its script (Save-Data)"
    # What the first-visit progress bar counts: every file the worker downloads, with its size.
    python_files = json.loads(html.unescape(re.search(r'data-python-files="([^"]*)"', index).group(1)))
    grader_files = re.search(r'data-grader-files-url="([^"]*)"', index).group(1)
    bytecode = re.search(r'data-bytecode-url="([^"]*)"', index).group(1)
    assert bytecode.startswith("assets/python-bytecode.zip?v=")
    assert sorted(python_files) == sorted([[url, (out / url.split("?")[0]).stat().st_size] for url in fetched]
                                          + [[grader_files, (out / "assets/grader-core.json").stat().st_size]]
                                          + [[bytecode, (out / "assets/python-bytecode.zip").stat().st_size]])
    # The standard library: Pyodide's zip, every entry as it is, plus a checked hash-based .pyc (flags 3) beside
    # each module Python's start, numpy and the grader import, where the zip importer looks for it.
    with zipfile.ZipFile(out / "pyodide" / "python_stdlib.zip") as pyodides, \
            zipfile.ZipFile(out / "assets" / "python-stdlib.zip") as sites:
        assert all(sites.read(name) == pyodides.read(name) for name in pyodides.namelist())
        added = set(sites.namelist()) - set(pyodides.namelist())
        assert {"_pyodide/_base.pyc", "json/__init__.pyc", "dataclasses.pyc", "pickle.pyc"} <= added
        assert all(name.endswith(".pyc") and name[:-1] in pyodides.namelist() for name in added)
        assert {int.from_bytes(sites.read(name)[4:8], "little") for name in added} == {3}
    # numpy's and the grader's bytecode, compiled in this Pyodide: checked hash-based .pyc (flags 3) at the paths
    # Python looks for them in the worker.
    with zipfile.ZipFile(out / "assets/python-bytecode.zip") as archive:
        names = archive.namelist()
        assert {int.from_bytes(archive.read(name)[4:8], "little") for name in names} == {3}
    assert all(name.endswith(".cpython-312.pyc") for name in names)
    assert "lib/python3.12/site-packages/numpy/_core/__pycache__/multiarray.cpython-312.pyc" in names
    assert {f"home/pyodide/grader-core/grader/core/__pycache__/{path.stem}.cpython-312.pyc"
            for path in (ROOT / "grader" / "core").glob("*.py")} <= set(names)
    precache = service_worker_build(out)
    assert precache["isolate"] is True
    assert sorted(precache["files"]) == sorted(
        [url for url in precache["files"] if url.startswith(("assets/", "capstone/"))]
        + [url for url in fetched if url.startswith("pyodide/")])
    for path, digest in precache["files"].items():
        if path.startswith("pyodide/"):
            assert hashlib.sha256((out / path).read_bytes()).hexdigest()[:16] == digest, path


# --- Service worker and versioned assets ---

def service_worker_build(site):
    """The BUILD constant at the top of sw.js."""
    source = (site / "sw.js").read_text()
    return json.loads(between(source, "const BUILD = ", ";\n"))


def test_asset_urls_carry_the_hash_of_their_file(site):
    pages = [site / "index.html", *(site / "exercises").glob("*/index.html")]
    assert all('data-bytecode-url=""' in page.read_text() for page in pages), "no bytecode for a Pyodide from a URL"
    used = {url for page in pages for url in re.findall(r'(?:src|href|-url)="(?:\.\./\.\./)?(assets/[^"]+)"',
                                                         page.read_text())}
    chunks = {url for url in used if url.startswith("assets/chunks/")}
    # the editor and what page.js imports, named after their content by esbuild
    assert any("/exercise-view-" in url for url in chunks) and all((site / url).is_file() for url in chunks)
    assert {url.split("?")[0] for url in used - chunks} == {"assets/page.js", "assets/style.css", "assets/worker.js",
                                                            "assets/grader-core.json"}
    for url in used - chunks:
        path, digest = url.split("?v=")
        assert hashlib.sha256((site / path).read_bytes()).hexdigest()[:16] == digest, url


def test_the_grading_worker_policy_allows_its_boot_only(site):
    """With Pyodide from a URL: its two scripts, anything under its URL and the grader's files from the site (the
    self-hosted site's policy: tests/browser/test_worker_network.py)."""
    worker = json.loads((site / "worker-policy.json").read_text())
    assert service_worker_build(site)["worker"] == worker
    assert worker["script"] == "assets/worker.js"
    assert worker["policy"] == "; ".join([
        "default-src 'none'",
        f"script-src {CDN}pyodide.js {CDN}pyodide.asm.js 'wasm-unsafe-eval'",
        f"connect-src {CDN} {{site}}assets/grader-core.json",
        "worker-src {site}assets/worker.js",
    ])


def test_service_worker_precaches_every_page_and_asset(site, exercises):
    build = service_worker_build(site)
    assert build["isolate"] is False, "Pyodide from a CDN: no isolation, which would need its opt-in"
    assert re.fullmatch(r"[0-9a-f]{16}", build["version"])
    expected_pages = {"./", "index.html"}
    for exercise in exercises:
        expected_pages |= {f"exercises/{exercise.id}/", f"exercises/{exercise.id}/grading.json"}
        if exercise.reveal_solution == "after-pass":
            expected_pages.add(f"exercises/{exercise.id}/solution.py")
        expected_pages |= {f"exercises/{exercise.id}/{asset.as_posix()}" for asset in statement_assets(exercise)}
    expected_pages |= {"capstone/", "capstone/capstone.json"}
    assert set(build["pages"]) == expected_pages
    for url, digest in build["pages"].items():
        path = site / (url + "index.html" if url.endswith("/") else url)
        assert hashlib.sha256(path.read_bytes()).hexdigest()[:16] == digest, url
    capstone_data = {p.relative_to(site).as_posix() for p in (site / "capstone").glob("*")
                     if p.suffix in (".txt", ".npz")}
    assert {url.split("?")[0] for url in build["files"]} == {
        p.relative_to(site).as_posix() for p in (site / "assets").rglob("*") if p.is_file() and p.suffix != ".map"
    } | capstone_data
    for url, digest in build["files"].items():
        if url.startswith("capstone/"):  # versioned by the hash of their content, as the assets
            content = (site / url.split("?")[0]).read_bytes()
            assert url.endswith(f"?v={digest}") and digest == hashlib.sha256(content).hexdigest()[:16]
    assert "<link rel=\"preload\"" not in page_of(site, "sinusoidal_pe"), "nothing preloaded from a CDN"


def test_capstone_page_and_its_data(site, exercises):
    capstone = load_capstone()
    data = json.loads((site / "capstone" / "capstone.json").read_text())
    used = capstone_steps(capstone)
    assert [step["exercise_id"] for step in data["uses"]] == [step.id for step in used]
    assert data["uses"][0]["reference"] == used[0].solution
    assert data["config"] == capstone.session_config()
    assert re.fullmatch(r"capstone/corpus\.txt\?v=[0-9a-f]{16}", data["text"])
    assert (site / "capstone" / "corpus.txt").read_text() == corpus_text(capstone)
    if capstone.weights is None:
        assert data["weights"] is None
    else:
        assert (site / data["weights"].split("?")[0]).read_bytes() == capstone.weights.read_bytes()

    page = (site / "capstone" / "index.html").read_text()
    assert f'data-capstone="{capstone.track}"' in page and f"<h1>{capstone.title}</h1>" in page
    assert re.findall(r'<li data-exercise-id="([a-z_]+)"', page) == [step.id for step in used]
    last = max((e for e in exercises if e.track == capstone.track), key=lambda e: e.step)
    assert f'<a rel="prev" href="../exercises/{last.id}/">' in page
    # Linked at the end of its track on the index, and from the track's last step only.
    index = (site / "index.html").read_text()
    assert index.rindex('href="capstone/"') > index.index(f'href="exercises/{last.id}/"')
    assert [e.id for e in exercises if 'class="to-capstone"' in page_of(site, e.id)] == [last.id]
    # And at the top of the index, and from the success panel of every step of the track's last part.
    assert index.index('<p class="intro-capstone">') < index.index('id="your-progress"')
    last_part = [e.id for e in exercises if e.track == capstone.track and e.part == last.part]
    assert len(last_part) >= 2
    assert sorted(e.id for e in exercises if 'data-capstone-url="../../capstone/"' in page_of(site, e.id)) \
        == sorted(last_part)


def test_how_it_works_is_on_the_page_hidden_until_a_pass(site, exercises):
    with_it = [e for e in exercises if e.how_it_works is not None]
    assert "sinusoidal_pe" in [e.id for e in with_it]
    for exercise in with_it:
        page = page_of(site, exercise.id)
        section = between(page, '<section id="how-it-works" hidden aria-labelledby="how-it-works-title">', "</section>")
        assert '<h2 id="how-it-works-title">How it works</h2>' in section
        assert ("<math" in section) == ("$" in exercise.how_it_works), exercise.id  # its formulas rendered
        assert page.index('id="how-it-works"') < page.index('id="track-nav"')
    assert 'id="how-it-works"' not in page_of(site, next(e.id for e in exercises if e.how_it_works is None))


# --- Statement Markdown ---

def test_markdown_math_is_protected_from_markdown():
    rendered = render_markdown(r"Let $a_1 * b_2 * c\_d$ and *emphasis*.")
    assert "<em>" in rendered and rendered.count("<em>") == 1
    assert "<msub><mi>a</mi><mn>1</mn></msub>" in rendered


def test_markdown_dollars_that_are_not_math():
    rendered = render_markdown("Costs \\$5, or `$x$` in code, or $3 and $4.\n\n```\nprint('$y$')\n```\n")
    assert "<math" not in rendered
    assert "Costs $5" in rendered
    assert "<code>$x$</code>" in rendered
    assert "print('$y$')" in rendered


def test_markdown_display_math_and_code_class():
    rendered = render_markdown("Text\n\n$$\n\\frac{1}{2}\n$$\n\n```python\nx = 1\n```\n")
    assert '<div class="math-display"><math xmlns="http://www.w3.org/1998/Math/MathML" display="block">' in rendered
    assert ('<pre class="code-block"><code class="language-python"><span class="code-line" style="--indent: 0ch">'
            '<span class="hl-n">x</span> <span class="hl-o">=</span> <span class="hl-mi">1</span>\n</span></code></pre>'
            ) in rendered


def test_markdown_python_code_highlighted_and_escaped_other_code_plain():
    rendered = render_markdown("```python\nif a < b:  # 'x & y'\n```\n\n```\nif a < b: pass\n```\n")
    assert ('<span class="hl-k">if</span> <span class="hl-n">a</span> <span class="hl-o">&lt;</span> '
            '<span class="hl-n">b</span><span class="hl-p">:</span>  <span class="hl-c1"># &#39;x &amp; y&#39;</span>'
            ) in rendered
    assert ('<pre class="code-block"><code><span class="code-line" style="--indent: 0ch">if a &lt; b: pass\n'
            '</span></code></pre>') in rendered


def test_code_lines_know_their_indentation_and_keep_their_text():
    # Each line wraps under its own start on a phone (style.css: .code-line); the text is the code, newlines
    # included, so that copying the block copies the code. A docstring over several lines is highlighted
    # line by line, so every line's span holds whole elements.
    source = 'def f(x):\n    """Two\n    lines."""\n\n    return x < 1\n'
    rendered = render_markdown(f"```python\n{source}```\n")
    assert re.findall(r'style="--indent: (\d+)ch"', rendered) == ["0", "4", "4", "0", "4"]
    assert html.unescape(re.sub(r"<[^>]+>", "", rendered)).strip("\n") == source.strip("\n")
    for line in re.findall(r'<span class="code-line"[^>]*>(.*?)\n</span>', rendered):
        assert line.count("<span") == line.count("</span>"), line


def test_markdown_tables():
    assert "<table>" in render_markdown("| a | b |\n|---|---|\n| $x$ | 2 |\n")


# --- Broken exercises ---

def _break_toml(folder):
    (folder / "exercise.toml").write_text('id = "sinusoidal_pe"\ntitle = \n')
    return "exercise.toml", "invalid TOML"


def _remove_starter(folder):
    (folder / "starter.py").unlink()
    return "starter.py", "missing"


def _break_latex(folder):
    with open(folder / "statement.md", "a") as statement:
        statement.write("\nA broken formula: $\\frac{1}$.\n")
    return "statement.md", "\\frac{1}"


def _break_hint(folder):
    toml = folder / "exercise.toml"
    toml.write_text(toml.read_text().replace("hints = [", 'hints = [\n  "Look at $x^$.",', 1))
    return "exercise.toml", "x^"


def _break_how_it_works(folder):
    (folder / "how_it_works.md").write_text("Why.\n\nIt is $\\frac{1}{$.\n")
    return "how_it_works.md:3", "cannot render formula"


def _break_tests_import(folder):
    tests = folder / "tests.py"
    tests.write_text('raise RuntimeError("tests are broken")\n' + tests.read_text())
    return "tests.py", "tests are broken"


def _break_uses(folder):
    toml = folder / "exercise.toml"
    toml.write_text(toml.read_text().replace("step = 2\n", 'step = 2\nuses = ["softmax"]\n', 1))
    return "exercise.toml", "uses 'softmax', which cannot be loaded"


def _duplicate_step(folder):
    twin = folder.parent / "twin_pe"
    shutil.copytree(folder, twin)
    toml = twin / "exercise.toml"
    toml.write_text(toml.read_text().replace('id = "sinusoidal_pe"', 'id = "twin_pe"'))
    return "exercise.toml", "step 2 of track 'build-gpt' is already used by twin_pe (" + str(twin) + "/exercise.toml:"


@pytest.mark.parametrize("breaker", [_break_toml, _remove_starter, _break_latex, _break_hint, _break_how_it_works,
                                     _break_tests_import, _break_uses, _duplicate_step])
def test_broken_exercise_stops_the_build_and_keeps_the_previous_site(site, tmp_path, breaker):
    exercises_dir = tmp_path / "exercises"
    folder = exercises_dir / "sinusoidal_pe"
    shutil.copytree(ROOT / "exercises" / "sinusoidal_pe", folder)
    filename, problem = breaker(folder)
    out = tmp_path / "_site"
    shutil.copytree(site, out)
    before = sorted(p.relative_to(out) for p in out.rglob("*"))

    result = build("--exercises", exercises_dir, "--out", out, "--pyodide-url", CDN)

    assert result.returncode == 2
    message = result.stderr.strip()
    assert "\n" not in message and "Traceback" not in message, message
    assert message.startswith("error: ") and filename in message and problem in message, message
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == before
    assert (out / "index.html").read_text() == (site / "index.html").read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["_site", "exercises"]


def test_refuses_to_replace_a_folder_that_is_not_a_site(tmp_path):
    out = tmp_path / "notes"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    result = build("--out", out, "--pyodide-url", CDN)
    assert result.returncode == 2 and "refusing to replace" in result.stderr
    assert (out / "keep.txt").read_text() == "mine"


def test_no_exercises(tmp_path):
    result = build("--exercises", tmp_path, "--out", tmp_path / "_site", "--pyodide-url", CDN)
    assert result.returncode == 2 and "no exercises" in result.stderr


# --- Serving ---

@pytest.fixture
def served_folder(tmp_path):
    """A folder served by make_server: (folder, {isolate: base URL})."""
    servers = {isolate: make_server(tmp_path, "127.0.0.1", 0, isolate=isolate) for isolate in (True, False)}
    for server in servers.values():
        threading.Thread(target=server.serve_forever, daemon=True).start()
    yield tmp_path, {isolate: f"http://127.0.0.1:{server.server_address[1]}/" for isolate, server in servers.items()}
    for server in servers.values():
        server.shutdown()
        server.server_close()


def get(url, **headers):
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers)) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, b""


def test_server_mime_types_and_cache_headers(served_folder):
    folder, bases = served_folder
    for name in ("index.html", "a.js", "b.mjs", "c.wasm", "d.json", "e.css"):
        (folder / name).write_bytes(b"x")
    expected = {"index.html": "text/html", "a.js": "text/javascript", "b.mjs": "text/javascript",
                "c.wasm": "application/wasm", "d.json": "application/json", "e.css": "text/css"}
    for name, mime in expected.items():
        status, headers, _ = get(bases[True] + name)
        assert status == 200 and headers.get_content_type() == mime, name
        assert headers["Cache-Control"] == "no-cache", name
        _, headers, _ = get(bases[True] + name + "?v=0123abcd")
        assert headers["Cache-Control"] == "public, max-age=31536000, immutable", name


def test_server_compresses_text_and_wasm_and_answers_304(served_folder):
    folder, bases = served_folder
    text = ("def f(x):\n    return x\n" * 400).encode()
    for name in ("page.js", "module.wasm", "lib.whl"):
        (folder / name).write_bytes(text)
    for name in ("page.js", "module.wasm"):
        status, headers, body = get(bases[True] + name, **{"Accept-Encoding": "gzip"})
        assert status == 200 and headers["Content-Encoding"] == "gzip" and headers["Vary"] == "Accept-Encoding"
        assert int(headers["Content-Length"]) == len(body) < len(text) / 10
        assert gzip.decompress(body) == text
        status, headers, body = get(bases[True] + name)
        assert headers["Content-Encoding"] is None and body == text, "plain for clients without gzip"
        status, _, body = get(bases[True] + name, **{"Accept-Encoding": "gzip",
                                                     "If-Modified-Since": headers["Last-Modified"]})
        assert status == 304 and body == b""
    _, headers, body = get(bases[True] + "lib.whl", **{"Accept-Encoding": "gzip"})
    assert headers["Content-Encoding"] is None and body == text, "zip archives are not compressed again"
    (folder / "page.js").write_bytes(b"changed")
    assert gzip.decompress(get(bases[True] + "page.js", **{"Accept-Encoding": "gzip"})[2]) == b"changed"


def test_server_isolates_pages_unless_told_not_to(served_folder):
    folder, bases = served_folder
    (folder / "index.html").write_text("<p>hi</p>")
    _, isolated, _ = get(bases[True])
    assert isolated["Cross-Origin-Opener-Policy"] == "same-origin"
    assert isolated["Cross-Origin-Embedder-Policy"] == "require-corp"
    _, plain, _ = get(bases[False])
    assert plain["Cross-Origin-Opener-Policy"] is None and plain["Cross-Origin-Embedder-Policy"] is None


def test_backticks_in_a_test_name_show_as_code():
    from sitebuild.render import inline_code
    assert inline_code("Rows of `x` sum to 1 <exactly>") == "Rows of <code>x</code> sum to 1 &lt;exactly&gt;"
    assert inline_code("An unpaired ` stays") == "An unpaired ` stays"
    assert inline_code("`a<b`") == "<code>a&lt;b</code>"
