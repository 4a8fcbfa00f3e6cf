"""Build the static site from exercises/: pages, data files, JS bundles, Pyodide.

`build.py` is the command line; `pipeline.build_site` does the work with the
help of one module per step (render, data, bundle, output) and of `markup`
(Markdown and math, shared with `grader validate`), reusing earlier results kept
by `cache`; `serve` serves the result and `live` rebuilds it on change.
"""

from pathlib import Path


def shown_path(path):
    """`path` relative to the current folder when it is inside it, as messages show it."""
    try:
        return Path(path).resolve().relative_to(Path.cwd()).as_posix()
    except ValueError:
        return str(path)


class BuildError(Exception):
    """The site cannot be built; the message says what is wrong and where."""
