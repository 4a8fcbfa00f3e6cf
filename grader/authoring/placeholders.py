"""What `grader new` leaves for the author to write, marked TODO(author) (grader/authoring/scaffold.py), found in
every file of an exercise so that `validate` and the build refuse it, at its line, until it is written."""

from grader.exercise import ExerciseError, HOW_IT_WORKS_FILE, REQUIRED_FILES

PLACEHOLDER = "TODO(author)"


def placeholder_problems(exercise):
    """'file:line: ...' for each line of the exercise's files that still holds a placeholder."""
    files = [exercise.path / name for name in (*REQUIRED_FILES, HOW_IT_WORKS_FILE)]
    files += [exercise.path / folder / name for folder, sources in (("mutants", exercise.mutants),
                                                                    ("accepted", exercise.accepted))
              for name in sources]
    problems = []
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue  # a missing how_it_works.md; the loader read (and checked) the others
        for number, line in enumerate(text.splitlines(), start=1):
            if PLACEHOLDER in line:
                shown = line.strip()
                shown = shown if len(shown) <= 100 else shown[:97] + "..."
                problems.append(str(ExerciseError(path, f"still a placeholder of `grader new`, to write: {shown}",
                                                  number)))
    return problems
