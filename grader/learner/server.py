"""The learner's process: load the submission, then answer calls to its entry function.

Runs in a confined process forked by the zygote, with the checker at the other
end of `channel` (a stream socket).  Messages are frames of plain data (see
grader/wire.py):

    checker -> learner   {"load": {"entry": str, "source": str, "importable": [str] | None,
                                   "earlier": [EarlierStep.to_dict(), ...]}}              first, once
    learner -> checker   {"loaded": None | error message}
    checker -> learner   {"call": value tree}      (args, kwargs), blobs alongside
    learner -> checker   {"return": value tree} | {"raised": {...}} | {"unencodable": str}
                         | {"side_effect": str}   the call changed an argument in place, or returned one

Nothing here is trusted by the checker: the learner's code shares this
process and may change any of it.  The checker validates every message.
The learner's prints go to file descriptors 1 and 2, a pipe the checker drains.

`earlier` lists the earlier steps the exercise uses (offline: their references), dependencies
first; their entry functions are in the submission's scope when it runs (see `load_submission`).
"""

import io
import os
import socket
import sys

from grader.core.engine import EarlierStep, builtin_bases, describe_exception, load_submission, one_line
from grader.core.side_effects import side_effect
from grader.learner.imports import refuse_imports_missing_from
from grader.wire import FrameReader, Unencodable, decode_value, encode_value, frame

CHUNK = 1 << 20


def serve(channel):
    sys.stdout = sys.stderr = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8",
                                               errors="backslashreplace", write_through=True)
    reader = FrameReader()
    entry = None
    for message, blobs in _messages(channel, reader):
        if entry is None:
            request = message.get("load") or {}
            if request.get("importable") is not None:
                refuse_imports_missing_from(request["importable"])
            earlier = [EarlierStep.from_dict(fields) for fields in request.get("earlier") or ()]
            entry, error = load_submission(request.get("entry"), request.get("source", ""), earlier)
            _send(channel, {"loaded": error})
            if error is not None:
                return
        else:
            _send(channel, *_call(entry, message, blobs))


def _messages(channel, reader):
    while True:
        data = channel.recv(CHUNK)
        if not data:
            return
        yield from reader.feed(data)


def _call(entry, message, blobs):
    args, kwargs = decode_value(message["call"], blobs)
    pristine = decode_value(message["call"], blobs)  # an untouched copy, to see what the call changed
    try:
        result = entry(*args, **kwargs)
    except BaseException as exc:  # the checker decides what it means; this process goes on serving
        return {"raised": {"bases": builtin_bases(exc), "message": one_line(exc),
                           "description": describe_exception(exc)}}, ()
    problem = side_effect(entry, pristine, (args, kwargs), result)
    if problem is not None:
        return {"side_effect": problem}, ()
    try:
        tree, result_blobs = encode_value(result)
    except Unencodable as exc:
        return {"unencodable": str(exc)}, ()
    except Exception as exc:  # e.g. an ndarray subclass whose methods raise
        return {"unencodable": f"a value that could not be read ({type(exc).__name__})"}, ()
    return {"return": tree}, result_blobs


def _send(channel, message, blobs=()):
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()  # what the call printed reaches the pipe before its answer
        except Exception:
            pass
    channel.sendall(frame(message, blobs))


def main(channel_fd):
    channel = socket.socket(fileno=channel_fd)
    try:
        serve(channel)
    finally:
        os._exit(0)
