"""The statement's text checked against its folder: no stray `$`, every image and relative link found; its
formulas (and those of the hints and how_it_works.md) with no doubled backslash before a command, and no inline
formula wider than the statement column.

A relative image or link must point to a file inside the exercise's folder (the build copies it next to
the page: `statement_assets`) or to another exercise's folder (`../softmax/`, its page on the site). The
files that make the exercise itself (tests, reference, mutants, ...) are never published that way.
"""

import difflib
from pathlib import Path
from urllib.parse import unquote, urlsplit

from grader.exercise import HOW_IT_WORKS_FILE, REQUIRED_FILES, ExerciseError, exercise_folders
from markup.lint import MAX_INLINE_EM, doubled_backslashes, references, stray_dollars, wide_inline_formulas

PRIVATE_FOLDERS = ("mutants", "accepted")  # known-wrong and accepted solutions: never shown to learners
STRAY_DOLLAR = ("a `$` that starts no formula is shown as a dollar sign: close the formula (`$x$`, no space "
                "inside the dollars) or write `\\$` for a dollar sign")


def statement_problems(exercise):
    """'file:line: message' for each stray `$` (statement and hints), formula with a doubled backslash or too wide
    inline (statement, hints and how_it_works.md), missing image and dead relative link."""
    statement = exercise.path / "statement.md"
    problems = [str(ExerciseError(statement, STRAY_DOLLAR, line)) for line in stray_dollars(exercise.statement)]
    for number, hint in enumerate(exercise.hints, start=1):
        if stray_dollars(hint):
            problems.append(str(ExerciseError(exercise.path / "exercise.toml", f"hint {number}: {STRAY_DOLLAR}")))
    toml = exercise.path / "exercise.toml"
    texts = [(statement, "", exercise.statement, True)]
    texts += [(toml, f"hint {number}: ", hint, False) for number, hint in enumerate(exercise.hints, start=1)]
    if exercise.how_it_works is not None:
        texts.append((exercise.path / HOW_IT_WORKS_FILE, "", exercise.how_it_works, True))
    for path, label, text, own_lines in texts:
        for line, formula in doubled_backslashes(text):
            problems.append(str(ExerciseError(path, f"{label}{_DOUBLED.format(_short(formula))}",
                                              line if own_lines else None)))
        for line, formula, width in wide_inline_formulas(text):
            problems.append(str(ExerciseError(path, f"{label}{_WIDE.format(_short(formula), width, MAX_INLINE_EM)}",
                                              line if own_lines else None)))
    for reference in references(exercise.statement):
        _, problem = _resolve(exercise.path, reference)
        if problem:
            problems.append(str(ExerciseError(statement, problem, reference.line)))
    return problems

_DOUBLED = ("the formula `{}` has a doubled backslash before a command, a line break the page follows with italic "
            "letters: write one backslash (in exercise.toml a \"...\" string needs two, a '...' string one)")
_WIDE = ("the inline formula `{}` is about {} em wide, wider than the statement column ({} em at 1280 px): "
         "make it a display formula ($$...$$, an aligned block for a chain of steps) or cut it into shorter ones")


def _short(formula, limit=60):
    formula = " ".join(formula.split())
    return formula if len(formula) <= limit else formula[:limit - 1] + "…"


def statement_assets(exercise):
    """The files of the exercise's folder its statement shows or links to, relative to the folder."""
    assets = []
    for reference in references(exercise.statement):
        asset, problem = _resolve(exercise.path, reference)
        if asset is not None and problem is None and asset not in assets:
            assets.append(asset)
    return assets


def _resolve(folder, reference):
    """(path of the asset inside `folder` or None, problem or None) for one image or link."""
    parts = urlsplit(reference.address)
    if parts.scheme or parts.netloc or not parts.path:
        return None, None  # another site, or a place on this page
    what = f"{reference.kind} {reference.address!r}"
    if parts.path.startswith("/"):
        return None, f"{what}: use an address relative to the statement (the site may live under a subfolder)"
    folder = Path(folder).resolve()
    target = (folder / unquote(parts.path)).resolve()
    if not target.is_relative_to(folder):
        if reference.kind == "link" and target.parent == folder.parent:
            if (target / "exercise.toml").is_file():
                return None, None  # another exercise's page
            return None, f"dead link {reference.address!r}: {_no_exercise(target)}"
        return None, (f"{what} points outside the exercise's folder: only files inside it are published "
                      f"(and other exercises' pages, as `../softmax/`)")
    asset = target.relative_to(folder)
    if not target.is_file():
        missing = "missing image" if reference.kind == "image" else "dead link"
        return None, f"{missing} {reference.address!r}: no such file in the exercise's folder"
    if asset.as_posix() in REQUIRED_FILES or asset.parts[0] in PRIVATE_FOLDERS:
        return None, f"{what}: {asset.as_posix()} is part of the exercise itself and is not published"
    return asset, None


def _no_exercise(target):
    """'there is no exercise softmaxx beside this one (did you mean softmax?)'."""
    beside = [folder.name for folder in exercise_folders(target.parent)]
    close = difflib.get_close_matches(target.name, beside, n=1)
    return f"there is no exercise {target.name} beside this one" + (f" (did you mean {close[0]}?)" if close else "")
