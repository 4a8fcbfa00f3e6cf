"""Build the whole site: load and check every exercise, render, bundle, copy Pyodide."""

import dataclasses
import json
import shutil
import time
from itertools import groupby
from pathlib import Path

from grader.capstone import CorpusError
from grader.exercise import ExerciseError, load_all
from grader.exercise_rules import InvalidExercise, ensure_valid
from grader.authoring.statement_checks import statement_assets, statement_problems
from grader.track import used_steps
from markup.katex import MathUnavailable
from markup.markdown import MarkdownError, prerender, render_markdown
from sitebuild import BuildError
from sitebuild.bundle import bundle
from sitebuild.cache import DiskCache
from sitebuild.capstone import load_capstone_page, write_capstone_data
from sitebuild.data import grading_data
from sitebuild.python_bytecode import BYTECODE_FILE, PYODIDE_STDLIB, STDLIB_FILE, write_python_bytecode
from sitebuild.offline import editor_chunk_url, versioned_asset_urls, worker_policy, write_service_worker
from sitebuild.output import staged_output
from grader.pyodide.dist import DistError, browser_files, copy_dist, ensure_dist
from grader.pyodide.run import PyodideError, grader_core_files
from sitebuild.render import Renderer
from sitebuild.validation import Validator
from toolchain.cache import cache_root
from toolchain.node import NodeError, ensure_node_modules

PROJECT_ROOT = Path(__file__).resolve().parent.parent


@dataclasses.dataclass(frozen=True)
class BuildOptions:
    out_dir: Path = PROJECT_ROOT / "_site"
    exercises_dir: Path = PROJECT_ROOT / "exercises"
    pyodide_url: str | None = None  # None: self-host Pyodide under <out>/pyodide/
    pyodide_dist: Path | None = None  # an official Pyodide release folder to take it from
    project_root: Path = PROJECT_ROOT
    live_reload: bool = False  # pages poll the server and reload after a rebuild (build.py serve)
    use_cache: bool = True  # False: validate and render everything again (the results still refresh the cache)
    include_drafts: bool = False  # build the exercises marked `draft = true` too (the preview does)
    validate: bool = True  # False: leave the exercises not validated before to the caller (BuildReport.unvalidated)
    cache_dir: Path | None = None  # None: toolchain.cache.cache_root()


@dataclasses.dataclass(frozen=True)
class BuildReport:
    exercises: int
    seconds: float
    validated: list  # ids of the exercises validated by this build
    from_cache: list  # ids of those whose validation was taken from the cache
    cache_warning: str | None  # why the cache could not be written, if it could not
    drafts: list = dataclasses.field(default_factory=list)  # ids of the drafts left out
    unvalidated: list = dataclasses.field(default_factory=list)  # Exercises left unvalidated (validate=False)

    def summary(self):
        validated = ", ".join(self.validated) or "none"
        cached = len(self.from_cache)
        drafts = f"; drafts left out: {', '.join(self.drafts)}" if self.drafts else ""
        pending = f"; to validate: {', '.join(e.id for e in self.unvalidated)}" if self.unvalidated else ""
        return f"validated: {validated}; from cache: {cached} exercise{'' if cached == 1 else 's'}{drafts}{pending}"


@dataclasses.dataclass(frozen=True)
class Page:
    """One exercise, checked and ready to render."""
    exercise: object
    test_names: list
    used: list  # the exercises it builds on, dependencies first (grader.track.used_steps)
    statement_html: str
    hints_html: list
    unvalidated: bool = False  # built without validation (BuildOptions.validate)


def build_site(options):
    """Build into options.out_dir, replacing it only on success; return a BuildReport."""
    started = time.perf_counter()
    caches = {kind: DiskCache((options.cache_dir or cache_root()) / kind, read=options.use_cache)
              for kind in ("validation", "bundles", "bytecode")}
    validator = Validator(caches["validation"])
    try:
        exercises = _load_exercises(options.exercises_dir)
        drafts = [] if options.include_drafts else [exercise.id for exercise in exercises if exercise.draft]
        exercises = [exercise for exercise in exercises if exercise.id not in drafts]
        if not exercises:
            raise BuildError(f"{options.exercises_dir}: every exercise is a draft (draft = true); "
                             f"`python build.py serve` previews drafts")
        ensure_node_modules(options.project_root)  # KaTeX renders the math
        prerender([text for exercise in exercises for text in (exercise.statement, *exercise.hints)])
        pages = [_prepare(exercise, exercises, validator, options.validate) for exercise in exercises]
        tracks = _tracks(pages)
        capstone = _load_capstone(options.exercises_dir)
        pyodide_url = options.pyodide_url.rstrip("/") + "/" if options.pyodide_url else None
        # The site's own Pyodide, or None when it comes from pyodide_url (then no bytecode is shipped: the
        # site cannot know which Python compiles it).
        dist = None if pyodide_url else ensure_dist(project_root=options.project_root, dist_dir=options.pyodide_dist)
        with staged_output(options.out_dir) as out:
            grader_files = grader_core_files()
            page_imports = _write_assets(out / "assets", options.project_root, options.live_reload,
                                         caches["bundles"], grader_files)
            if dist is not None:
                write_python_bytecode(dist, grader_files, out / "assets", caches["bytecode"])
                copy_dist(dist, out / "pyodide")
            asset_urls = versioned_asset_urls(out / "assets")
            python_start = [] if dist is None else _python_start_files(out, asset_urls)
            python_files = _python_files(out, python_start, asset_urls)
            renderer = Renderer(options.project_root / "site" / "templates",
                                asset_urls={**asset_urls, "editor": editor_chunk_url(out / "assets")},
                                page_imports=[f"assets/{path}" for path in page_imports],
                                pyodide_url=pyodide_url, live_reload=options.live_reload, python_start=python_start,
                                python_files=python_files)
            capstones = {capstone.capstone.track: capstone.capstone} if capstone else {}
            _write(out / "index.html", renderer.index([(slug, [p.exercise for p in ps]) for slug, ps in tracks],
                                                      capstones))
            for slug, track in tracks:
                for index, page in enumerate(track):
                    _write_exercise(out, renderer, page, track, index, capstones.get(slug))
            if capstone:
                _write_capstone(out, renderer, capstone, dict(tracks).get(capstone.capstone.track))
            # Isolation needs every cross-origin file to opt in (CORP/CORS); a CDN's Pyodide may not.
            write_service_worker(out, (options.project_root / "site" / "js" / "service-worker.js").read_text(),
                                 asset_urls, [url for url in python_start if url.startswith("pyodide/")],
                                 isolate=options.pyodide_url is None,
                                 worker=worker_policy(asset_urls["worker.js"], pyodide_url,
                                                      [path for path, _ in python_files]))
    except (ExerciseError, DistError, MathUnavailable, NodeError, CorpusError, PyodideError) as exc:
        raise BuildError(str(exc)) from None
    cache_warning = next((cache.write_error for cache in caches.values() if cache.write_error), None)
    return BuildReport(len(pages), time.perf_counter() - started, validator.validated, validator.from_cache,
                       cache_warning, drafts, [page.exercise for page in pages if page.unvalidated])


def _load_capstone(exercises_dir):
    try:
        return load_capstone_page(exercises_dir, render_markdown)
    except MarkdownError as exc:
        raise ExerciseError(exercises_dir / "capstone" / "statement.md", exc.message, exc.line) from None


def _write_capstone(out, renderer, capstone, track):
    """capstone/index.html and its data; it comes after the last step of its track."""
    write_capstone_data(out, capstone)
    html = renderer.capstone(capstone.capstone, statement_html=capstone.statement_html, used=capstone.used,
                             prev_exercise=track[-1].exercise if track else None)
    _write(out / "capstone" / "index.html", html)


def _python_start_files(out, asset_urls):
    """URLs (relative to the site root) of the files a grading worker of this self-hosted site fetches to start
    Python: Pyodide's, with the site's standard library (its bytecode beside the sources) in place of Pyodide's."""
    return [f"pyodide/{name}" for name in browser_files(out / "pyodide") if name != PYODIDE_STDLIB] \
        + [asset_urls[STDLIB_FILE]]


def _python_files(out, python_start, asset_urls):
    """[[URL relative to the site root, bytes]]: what the grading worker downloads from this site (none of
    Pyodide's files, nor their bytecode, when it comes from elsewhere)."""
    paths = [*python_start, asset_urls["grader-core.json"]]
    if BYTECODE_FILE in asset_urls:
        paths.append(asset_urls[BYTECODE_FILE])
    return [[path, (out / path.split("?")[0]).stat().st_size] for path in paths]


def _load_exercises(exercises_dir):
    exercises = load_all(exercises_dir)
    if not exercises:
        raise BuildError(f"{exercises_dir}: no exercises (folders holding an exercise.toml)")
    return exercises


def _prepare(exercise, exercises, validator, validate):
    used = used_steps(exercise)  # a broken `uses` stops the build (ExerciseError)
    if drafts := [step.id for step in used if step.draft and not exercise.draft]:
        raise exercise.error_at("uses", f"uses {', '.join(drafts)}, a draft (draft = true in its exercise.toml): "
                                        f"publish it before the steps that build on it")
    try:
        # The rules `validate` and `check` apply too, every time (the validation cache covers the gradings only).
        test_names = [test.name for test in ensure_valid(exercise, exercises)]
    except InvalidExercise as exc:
        raise BuildError(str(exc)) from None
    try:
        statement_html = render_markdown(exercise.statement)
    except MarkdownError as exc:
        raise ExerciseError(exercise.path / "statement.md", exc.message, exc.line) from None
    hints_html = []
    for number, hint in enumerate(exercise.hints, start=1):
        try:
            hints_html.append(render_markdown(hint))
        except MarkdownError as exc:  # worded as `validate` words it
            raise ExerciseError(exercise.path / "exercise.toml",
                                f"hint {number} does not render: {exc.message}") from None
    if problems := statement_problems(exercise):  # checked on every build, as the rendering
        raise BuildError("\n".join(problems))
    # Authoring checks (grader/authoring/validate.py): reference passes, mutants caught, tests deterministic and fast.
    if validate:
        validator.check(exercise)
    return Page(exercise, test_names, used, statement_html, hints_html,
                unvalidated=not validate and not validator.passed_before(exercise))


def _tracks(pages):
    """[(track slug, [Page, ...] by step)], tracks in alphabetical order."""
    ordered = sorted(pages, key=lambda p: (p.exercise.track, p.exercise.step))
    return [(slug, list(group)) for slug, group in groupby(ordered, key=lambda p: p.exercise.track)]


def _write_exercise(out, renderer, page, track, index, capstone):
    """capstone: the track's capstone (linked from its last step) or None."""
    exercise = page.exercise
    folder = out / "exercises" / exercise.id
    html = renderer.exercise(
        exercise, statement_html=page.statement_html, hints_html=page.hints_html,
        test_names=page.test_names, used=page.used,
        prev_exercise=track[index - 1].exercise if index > 0 else None,
        next_exercise=track[index + 1].exercise if index + 1 < len(track) else None,
        capstone=capstone if index + 1 == len(track) else None,
    )
    _write(folder / "index.html", html)
    _write(folder / "grading.json", json.dumps(grading_data(exercise, page.test_names, page.used)))
    if exercise.reveal_solution == "after-pass":
        _write(folder / "solution.py", exercise.solution)
    for asset in statement_assets(exercise):  # the images and files the statement shows or links to
        (folder / asset).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(exercise.path / asset, folder / asset)


def _write_assets(assets, project_root, live_reload, bundles_cache, grader_files):
    """Write the site's assets (grader_files: grader.pyodide.run.grader_core_files()); returns the chunks page.js
    imports (paths under `assets`)."""
    assets.mkdir(parents=True)
    page_imports = bundle(project_root, assets, bundles_cache)
    shutil.copyfile(project_root / "site" / "css" / "style.css", assets / "style.css")
    if live_reload:
        shutil.copyfile(project_root / "site" / "js" / "live-reload.js", assets / "live-reload.js")
    _write(assets / "grader-core.json", json.dumps(grader_files))
    return page_imports


def _write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
