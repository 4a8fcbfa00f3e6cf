"""The learner's process: load the submission, then answer calls to its entry function.

Runs in a confined process forked by the zygote, with the checker at the other
end of `channel` (a stream socket).  Messages are frames of plain data (see
grader/wire.py):

    checker -> learner   {"load": {"entry": str, "source": str, "importable": [str] | None,
                                   "earlier": [EarlierStep.to_dict() without "source", ...]}}   first, once
    learner -> checker   {"loaded": None | error message, "parameters": [the entry's parameter names]}
    checker -> learner   {"call": value tree, "shared": [[offset, size], ...]}      (args, kwargs)
                         the arrays' bytes: in the frame's blobs when "shared" is empty, else at those
                         places of a memory file (memfd) whose descriptor comes with the message
    learner -> checker   {"return": value tree of [result, (args, kwargs) after the call]}
                         (plus "side_effect": str when the result is, or shares memory with, an argument;
                         the result is then None) | {"raised": {...}} | {"unencodable": str}
                         | {"changed": str}   the call put into an argument what cannot be sent
    while a call or the load runs, any number of calls to the earlier steps in scope (references.py):
    learner -> checker   {"earlier_call": {"step": exercise id, "args": value tree}}
    checker -> learner   {"earlier_return": value tree}   [result, [state of each Generator in the args]]
                         | {"earlier_raised": {"type": str, "bases": [str], "message": str}}

Nothing here is trusted by the checker: the learner's code shares this
process and may change any of it.  The checker validates every message.
The arguments' arrays are views of the shared memory file, so a call that
writes into them writes where the checker looks after the call: the checker
sees that on its own (grader/checker/remote.py).  Lists, dicts and the
values in them are reported as the call left them, for the checker to
compare (the arrays still in its memory by number), and so is a result that
shares memory with an argument: both only as honestly as the learner's code
lets this process work.
The learner's prints go to file descriptors 1 and 2, a pipe the checker drains.

`earlier` lists the earlier steps the exercise uses (offline: their references), dependencies
first; their entry functions are in the submission's scope when it runs (see `load_submission`), as
stubs that call the references in the checker (see references.py): no reference's code comes here.
"""

import collections
import io
import mmap
import os
import socket
import sys

from grader.core.engine import builtin_bases, describe_exception, load_submission, one_line
from grader.core.side_effects import parameter_names, shared_result
from grader.learner import references
from grader.learner.imports import refuse_imports_missing_from
from grader.wire import FrameReader, Unencodable, arrays, decode_value, encode_value, frame

CHUNK = 1 << 20
MAX_FDS = 4  # descriptors taken from one read (the checker sends at most one with a message)


def serve(channel):
    sys.stdout = sys.stderr = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8",
                                               errors="backslashreplace", write_through=True)
    channel = references.channel = _Channel(channel)
    entry = None
    while (received := channel.receive()) is not None:
        message, blobs = received
        if entry is None:
            request = message.get("load") or {}
            if request.get("importable") is not None:
                refuse_imports_missing_from(request["importable"])
            earlier = references.stub_steps(request.get("earlier"))
            entry, error = load_submission(request.get("entry"), request.get("source", ""), earlier)
            parameters = parameter_names(entry) if error is None else []
            channel.send({"loaded": error, "parameters": parameters})
            if error is not None:
                return
        else:
            channel.send(*_call(entry, parameters, message, blobs, channel))


class _Channel:
    """The learner's end of the channel: whole messages, and the descriptors that came with them."""

    def __init__(self, sock):
        self.sock = sock
        self.reader = FrameReader()
        self.messages = collections.deque()
        self.fds = collections.deque()

    def receive(self):
        """The next (message, blobs), or None once the checker has closed the channel."""
        while not self.messages:
            data, fds, _, _ = socket.recv_fds(self.sock, CHUNK, MAX_FDS)
            self.fds.extend(fds)
            if not data:
                return None
            self.messages.extend(self.reader.feed(data))
        return self.messages.popleft()

    def send(self, message, blobs=()):
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()  # what the call printed reaches the pipe before its answer
            except Exception:
                pass
        self.sock.sendall(frame(message, blobs))

    def ask(self, message, blobs=()):
        """Send a request to the checker and return its answer."""
        self.send(message, blobs)
        answer = self.receive()
        if answer is None:
            os._exit(0)  # the checker has let go of this process
        return answer


def _call(entry, parameters, message, blobs, channel):
    if message.get("shared"):
        blobs = _shared(message["shared"], channel.fds.popleft())
    passed = decode_value(message["call"], blobs, copy=False)  # arrays: views of the checker's memory
    known = [(array, (array.shape, array.dtype)) for array in arrays(passed)]
    try:
        result = entry(*passed[0], **passed[1])
    except BaseException as exc:  # the checker decides what it means; this process goes on serving
        return {"raised": {"bases": builtin_bases(exc), "message": one_line(exc),
                           "description": describe_exception(exc)}}, ()
    # An array given a new shape or dtype (`x.shape = ...`) goes with its bytes: the checker sees that too.
    known = [array if (array.shape, array.dtype) == layout else None for array, layout in known]
    try:
        encode_value(passed, known)
    except Exception as exc:
        return {"changed": f"it put {exc if isinstance(exc, Unencodable) else 'a value that cannot be read'} "
                           "into one of them"}, ()
    answer = {}
    problem = shared_result(parameters, passed, result)
    if problem is not None:
        answer["side_effect"] = problem
        result = None
    try:
        # The arguments as the call left them: the arrays still in the checker's memory go by number.
        tree, answer_blobs = encode_value([result, passed], known)
    except Unencodable as exc:
        return {"unencodable": str(exc)}, ()
    except Exception as exc:  # e.g. an ndarray subclass whose methods raise
        return {"unencodable": f"a value that could not be read ({type(exc).__name__})"}, ()
    return {"return": tree, **answer}, answer_blobs


def _shared(places, fd):
    """The arguments' blobs, as writable views of the memory file the checker sent."""
    try:
        shared = mmap.mmap(fd, max(offset + size for offset, size in places))
    finally:
        os.close(fd)
    view = memoryview(shared)
    return [view[offset:offset + size] for offset, size in places]


def main(channel_fd):
    channel = socket.socket(fileno=channel_fd)
    try:
        serve(channel)
    finally:
        os._exit(0)
