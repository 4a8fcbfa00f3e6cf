"""Drafts (`draft = true`): `grader new` makes one, `build.py serve` previews it, `build.py` leaves it out."""

import pytest

from grader.exercise import ExerciseError, load_exercise
from grader.authoring.scaffold import create_exercise
from sitebuild import BuildError
from sitebuild.pipeline import BuildOptions, build_site

CDN = "https://cdn.jsdelivr.net/pyodide/v0.27.7/full/"


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    """Two scaffolds: `ready` published, `sketch` still the draft `grader new` made."""
    root = tmp_path_factory.mktemp("exercises")
    create_exercise("ready", root, draft=False)
    create_exercise("sketch", root)
    return root


def build(root, out, **options):
    return build_site(BuildOptions(exercises_dir=root, out_dir=out, pyodide_url=CDN, **options))


def test_new_scaffolds_a_draft(root):
    assert load_exercise(root / "sketch").draft is True
    assert load_exercise(root / "ready").draft is False
    assert "draft = true" in (root / "sketch" / "exercise.toml").read_text()


def test_the_build_leaves_drafts_out_and_the_preview_shows_them(root, tmp_path):
    published = build(root, tmp_path / "published")
    assert (published.exercises, published.drafts) == (1, ["sketch"])
    assert published.summary().endswith("; drafts left out: sketch")
    assert (tmp_path / "published" / "exercises" / "ready" / "index.html").is_file()
    assert not (tmp_path / "published" / "exercises" / "sketch").exists()
    assert "sketch" not in (tmp_path / "published" / "index.html").read_text()

    preview = build(root, tmp_path / "preview", include_drafts=True, live_reload=True)
    assert (preview.exercises, preview.drafts) == (2, [])
    badge = '<span class="difficulty draft-badge" title="draft = true: previewed, not published">Draft</span>'
    assert badge in (tmp_path / "preview" / "exercises" / "sketch" / "index.html").read_text()
    assert badge in (tmp_path / "preview" / "index.html").read_text()
    assert badge not in (tmp_path / "preview" / "exercises" / "ready" / "index.html").read_text()


def test_a_published_step_cannot_use_a_draft(tmp_path):
    create_exercise("sketch", tmp_path)
    create_exercise("user", tmp_path, uses=["sketch"], draft=False)
    with pytest.raises(BuildError, match=r"user/exercise.toml:\d+: uses sketch, a draft \(draft = true in its "
                                            r"exercise.toml\): publish it before the steps that build on it"):
        build(tmp_path, tmp_path / "_site")


def test_a_site_of_drafts_only_is_refused(tmp_path):
    create_exercise("sketch", tmp_path)
    with pytest.raises(BuildError, match="every exercise is a draft"):
        build(tmp_path, tmp_path / "_site")


def test_draft_must_be_a_boolean(tmp_path):
    folder = create_exercise("sketch", tmp_path)
    toml = folder / "exercise.toml"
    toml.write_text(toml.read_text().replace("draft = true", 'draft = "yes"'))
    line = toml.read_text().splitlines().index('draft = "yes"') + 1
    with pytest.raises(ExerciseError, match=rf"exercise.toml:{line}: draft should be bool, not str 'yes'"):
        load_exercise(folder)
