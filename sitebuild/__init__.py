"""Build the static site from exercises/: pages, data files, JS bundles, Pyodide.

`build.py` is the command line; `pipeline.build_site` does the work with the
help of one module per step (render, data, bundle, output) and of `markup`
(Markdown and math, shared with `grader validate`); `serve` serves the result.
"""


class BuildError(Exception):
    """The site cannot be built; the message says what is wrong and where."""
