"""Rendered Markdown (statements and hints) remembered on disk between builds.

Rendering the math is most of a build that validates nothing, and a statement
rarely changes. An entry's key is the Markdown text plus everything that turns
it into HTML: the build's own code (sitebuild/) and the pinned Python and npm
packages (requirements.txt, package-lock.json), so changing the renderer or a
pin renders everything again. Errors are not stored: a broken formula is
reported on every build.
"""

import sys
from pathlib import Path

from sitebuild.cache import digest, files_digest
from sitebuild.markdown import render_markdown


class MarkdownCache:
    def __init__(self, project_root, cache):
        project_root = Path(project_root)
        self.cache = cache  # a DiskCache
        self.renderer = digest(files_digest(project_root / "sitebuild", ["**/*.py", "**/*.mjs"]),
                               files_digest(project_root, ["requirements.txt", "package-lock.json"]),
                               sys.version)

    def render(self, text):
        """render_markdown(text), from the cache when the same text was rendered by the same renderer."""
        key = digest(self.renderer, text)
        stored = self.cache.get(key)
        if stored is not None and isinstance(stored.get("html"), str):
            return stored["html"]
        html = render_markdown(text)
        self.cache.put(key, {"html": html})
        return html
