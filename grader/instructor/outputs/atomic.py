"""Writing a whole file or nothing: a temporary file beside it, synced, then renamed over it."""

import contextlib
import os
import tempfile


def write_atomically(path, text):
    """Replace `path` by a file holding `text` (str: as UTF-8, or bytes); a reader sees the old file or the
    new, never a part."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(text.encode("utf-8") if isinstance(text, str) else text)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
    return path
