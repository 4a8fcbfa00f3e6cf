"""Reading a learner's submission file safely, and showing file names that may not be valid text.

A submission is read only if it is a regular file of its own inside the folder
it was handed in: never through a symbolic link (anywhere on the way from that
folder: a link could point at a reference solution, another learner's file or
/etc), never a file with other hard links (a hard link to a file elsewhere
cannot be told apart from the file itself), never a FIFO or a device (which
could block or never end), and only up to a size cap, so a huge file is refused
without being loaded into memory.  The checks are made on the opened file
itself (each folder on the way is opened without following links, then the
file), so nothing can be swapped in between the check and the read.
"""

import errno
import os
import stat

MAX_SUBMISSION_BYTES = 1_000_000
NOT_FOLLOWING = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NOCTTY
NOTEBOOK_SUFFIX = ".ipynb"  # a Jupyter notebook, graded from its code cells
LINK_REASON = "a symbolic link (links are never followed: hand in a regular file)"


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


def file_kind(mode):
    """What a file that is not a regular one is, for a reason given to a person."""
    for test, kind in ((stat.S_ISLNK, LINK_REASON), (stat.S_ISFIFO, "not a regular file (a FIFO)"),
                       (stat.S_ISCHR, "not a regular file (a device)"), (stat.S_ISBLK, "not a regular file (a device)"),
                       (stat.S_ISSOCK, "not a regular file (a socket)"), (stat.S_ISDIR, "is a folder, not a Python file")):
        if test(mode):
            return kind
    return "not a regular file"


def read_bytes(path, limit=MAX_SUBMISSION_BYTES, too_large_note="an exercise file is at most 1 MB"):
    """The bytes of a regular file of at most `limit` bytes (links followed: for the project's own files);
    never blocks on a FIFO or a device.  `too_large_note` ends the message for a file over the limit."""
    shown = display(path)
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer; the type is checked before reading.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    except OSError as exc:
        raise SubmissionError(shown, _open_problem(exc)) from None
    return _read_regular(fd, shown, limit, too_large_note, own_file=False)


def read_submission(path, inside=None, limit=MAX_SUBMISSION_BYTES):
    """The bytes of the submission at `path`: a regular file with no other hard link, of at most `limit`
    bytes, reached from the folder `inside` (default: the file's own folder, which may be anywhere)
    without a symbolic link on the way.  SubmissionError saying why not."""
    shown = display(path)
    if inside is None:
        inside, name = os.path.split(os.path.normpath(path))
        inside, parts = inside or ".", [name]
    else:
        parts = os.path.relpath(path, inside).split(os.sep)
        if parts[0] in ("..", "."):
            raise SubmissionError(shown, "outside the submission folder")
    try:
        folder = os.open(inside, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)  # the folder itself is trusted
    except OSError as exc:
        raise SubmissionError(shown, _open_problem(exc)) from None
    try:
        for depth, part in enumerate(parts):
            last = depth == len(parts) - 1
            flags = NOT_FOLLOWING | (os.O_NONBLOCK if last else os.O_DIRECTORY)
            try:
                fd = os.open(part, flags, dir_fd=folder)
            except OSError as exc:
                where = "" if last else f"{display(os.path.join(*parts[:depth + 1]))}: "
                raise SubmissionError(shown, where + _open_problem(exc, part, folder)) from None
            os.close(folder)
            folder = fd
    except BaseException:
        os.close(folder)
        raise
    return _read_regular(folder, shown, limit, "a submission is a Python file", own_file=True)


def _open_problem(exc, name=None, folder=None):
    """Why opening failed, in words; `name` in `folder`: what is there instead of what was expected."""
    if exc.errno == errno.ENOENT:
        return "no such file"
    if exc.errno in (errno.ELOOP, errno.ENOTDIR) and name is not None:
        try:
            return file_kind(os.lstat(name, dir_fd=folder).st_mode)  # a link, or a file where a folder should be
        except OSError:
            pass
    return f"cannot be read ({exc.strerror})"


def _read_regular(fd, shown, limit, too_large_note, own_file):
    """The bytes of the open `fd` (closed here), if it is a regular file (with one link, if `own_file`)."""
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            raise SubmissionError(shown, file_kind(status.st_mode))
        if own_file and status.st_nlink != 1:
            raise SubmissionError(shown, f"has {status.st_nlink} hard links (names): it may be another "
                                         "learner's file or one outside the folder; hand in a file of its own")
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
    """`data`, the bytes of the file at `path`, as text; SubmissionError when it is not UTF-8.
    (A byte-order mark stays: the engine skips it as Python does, see engine.python_source.)"""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise SubmissionError(display(path), "not a UTF-8 text file") from None


def accepted_names(file_name):
    """The names a student's file for `file_name` may have: a notebook may stand for a .py file."""
    stem, dot_py, _ = file_name.rpartition(".py")
    return (file_name, stem + NOTEBOOK_SUFFIX) if dot_py and not _ else (file_name,)


def decode_submission(data, path):
    """(the Python source of the submission `data` read from `path`, [notes for the feedback]): a .py file's
    text, a notebook's code cells and a note for each IPython line dropped (grader/notebook.py);
    SubmissionError saying why there is none."""
    text = decode_source(data, path)
    if not os.fspath(path).endswith(NOTEBOOK_SUFFIX):
        return text, []
    from grader.notebook import NotebookError, code_of  # nbformat is loaded only for a notebook
    try:
        return code_of(text.removeprefix("\ufeff"))
    except NotebookError as exc:
        raise SubmissionError(display(path), str(exc)) from None


def read_source(path, inside=None, limit=MAX_SUBMISSION_BYTES):
    """(the Python source of a submission, [notes]) (see read_submission and decode_submission)."""
    return decode_submission(read_submission(path, inside, limit), path)
