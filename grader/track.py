"""The earlier steps an exercise builds on (`uses`), resolved against the exercises beside it.

An exercise's `uses` names earlier steps of its own track; the learner's code finds their entry
functions in scope (see grader/core/engine.py, `EarlierStep`).  Offline the earlier steps are the
references, so a mark is about the step itself; in the browser they are the learner's own passing
code where there is one.
"""

from pathlib import Path

from grader.core.engine import EarlierStep, load_submission
from grader.exercise import ExerciseError, did_you_mean, exercise_folders, load_exercise


def used_steps(exercise, root=None):
    """The exercises `exercise` builds on, with what those build on in turn, dependencies first.

    Each must exist under `root` (default: the folder holding `exercise`), be in the same track and
    come at an earlier step; an ExerciseError names the `uses` line of the exercise that breaks this.
    """
    root = exercise.path.parent if root is None else root
    ordered, loaded = [], {}

    def visit(user):
        for used_id in user.uses:
            if used_id not in loaded:
                loaded[used_id] = _load_used(user, used_id, root)
                visit(loaded[used_id])
                ordered.append(loaded[used_id])

    visit(exercise)
    # Dependencies first: a used step is always at an earlier step number than its user.
    return sorted(ordered, key=lambda used: used.step)


def reference_steps(exercise, root=None):
    """[EarlierStep] with the references of everything `exercise` uses: what offline grading puts in scope."""
    return [as_earlier_step(used, used.solution, yours=False) for used in used_steps(exercise, root)]


def reference_function(exercise, root=None):
    """The exercise's reference entry function, loaded in this interpreter as offline grading loads it: with
    the references of the steps it uses in scope.  An ExerciseError says why the reference does not load."""
    function, error = load_submission(exercise.entry, exercise.solution, reference_steps(exercise, root))
    if error is not None:
        raise ExerciseError(exercise.path / "solution.py", f"the reference does not load: {error}")
    return function


def as_earlier_step(used, source, yours):
    return EarlierStep(exercise_id=used.id, entry=used.entry, step=used.step, source=source,
                       uses=used.uses, yours=yours)


_loaded = {}  # folder -> (its files' sizes and modification times, the Exercise loaded from them)


def _load_unchanged(used_id, root):
    """load_exercise, reusing the Exercise loaded before while no file of its folder changed: the steps a
    track builds on are loaded again for every step that uses them, on every build of the preview."""
    folder = Path(root) / used_id
    try:
        stamp = tuple((path.as_posix(), info.st_mtime_ns, info.st_size)
                      for path in sorted(folder.rglob("*")) if (info := path.stat()))
    except OSError:
        return load_exercise(used_id, root)  # let the loader say what is wrong
    if _loaded.get(folder, (None,))[0] != stamp:
        _loaded[folder] = stamp, load_exercise(used_id, root)
    return _loaded[folder][1]


def _load_used(user, used_id, root):
    try:
        used = _load_unchanged(used_id, root)
    except ExerciseError as exc:
        ids = [folder.name for folder in exercise_folders(root)]
        raise user.error_at("uses", f"uses {used_id!r}, which cannot be loaded from {root}: {exc}"
                                    + ("" if used_id in ids else did_you_mean(used_id, ids))) from None
    if used.track != user.track:
        raise user.error_at("uses", f"uses {used_id!r}, which is in track {used.track!r}, not {user.track!r}")
    if used.step >= user.step:
        raise user.error_at("uses", f"uses {used_id!r}, which is step {used.step}: only steps before "
                                    f"step {user.step} can be used")
    return used
