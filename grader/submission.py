"""Reading a learner's submission file safely, and showing file names that may not be valid text.

A submission is read only if it is a regular file (never a FIFO or a device,
which could block or never end) and only up to a size cap, so a huge file is
refused without being loaded into memory.
"""

import os
import stat

MAX_SUBMISSION_BYTES = 1_000_000


class SubmissionError(Exception):
    """A submission file that cannot be graded; the message names it and says why (`reason`: just why)."""

    def __init__(self, shown, reason):
        super().__init__(f"{shown}: {reason}")
        self.reason = reason


def display(name):
    """A file name or path as printable text: bytes that are not UTF-8 as \\xNN escapes (names that
    os.fsdecode gives with surrogates), control and other unprintable characters escaped too."""
    text = os.fsdecode(name).encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


def read_bytes(path, limit=MAX_SUBMISSION_BYTES, too_large_note="a submission is a Python file"):
    """The bytes of a regular file of at most `limit` bytes; never blocks on a FIFO or a device.

    `too_large_note` ends the message for a file over the limit: what such a file should be.
    """
    shown = display(path)
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer; the type is checked before reading.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise SubmissionError(shown, "no such file") from None
    except OSError as exc:
        raise SubmissionError(shown, f"cannot be read ({exc.strerror})") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise SubmissionError(shown, "is a folder, not a Python file")
        if not stat.S_ISREG(mode):
            raise SubmissionError(shown, "not a regular file")
        data = bytearray()
        while len(data) <= limit:
            chunk = os.read(fd, limit + 1 - len(data))
            if not chunk:
                break
            data += chunk
    except OSError as exc:
        raise SubmissionError(shown, f"cannot be read ({exc.strerror})") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise SubmissionError(shown, f"too large (more than {limit:,} bytes); {too_large_note}")
    return bytes(data)


def decode_source(data, path):
    """`data`, the bytes of the file at `path`, as text; SubmissionError when it is not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise SubmissionError(display(path), "not a UTF-8 text file") from None


def read_source(path, limit=MAX_SUBMISSION_BYTES):
    """The text of a regular, UTF-8 file of at most `limit` bytes; never blocks on a FIFO or a device."""
    return decode_source(read_bytes(path, limit), path)
