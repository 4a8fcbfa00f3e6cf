"""Write the site into a temporary folder beside the output and swap it in only on success."""

import contextlib
import shutil
import tempfile
from pathlib import Path

from sitebuild import BuildError

# Only an empty folder or a previous build may be replaced: `--out` pointing at a
# folder of other files must not wipe it.
BUILD_MARKER = Path("assets") / "grader-core.json"


@contextlib.contextmanager
def staged_output(out_dir):
    """Yield an empty folder to build into; on normal exit it replaces `out_dir`, else it is removed."""
    out_dir = Path(out_dir).resolve()
    _check_replaceable(out_dir)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=out_dir.parent, prefix=f"{out_dir.name}.tmp-"))
    try:
        staging.chmod(0o755)  # mkdtemp makes it private; the site is meant to be served
        yield staging
        _swap(staging, out_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _check_replaceable(out_dir):
    if out_dir.exists() and not out_dir.is_dir():
        raise BuildError(f"{out_dir}: exists and is not a folder")
    if out_dir.is_dir() and any(out_dir.iterdir()) and not (out_dir / BUILD_MARKER).is_file():
        raise BuildError(f"{out_dir}: refusing to replace a folder that is not a previous site build "
                         f"(it has no {BUILD_MARKER.as_posix()})")


def _swap(staging, out_dir):
    if not out_dir.exists():
        staging.rename(out_dir)
        return
    old = staging.with_name(staging.name + "-old")
    out_dir.rename(old)
    try:
        staging.rename(out_dir)
    except OSError:
        old.rename(out_dir)
        raise
    shutil.rmtree(old)
