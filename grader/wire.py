"""Values and messages as plain data, for the channel between the checker and the learner's process.

Nothing that crosses the channel is ever unpickled or evaluated: a message is a
JSON header plus raw byte blobs, and the only values either side can build
from one are None, bool, int, float, complex, str, lists, tuples and dicts of
them, numpy arrays and scalars of an allow-listed dtype (rebuilt with
`np.frombuffer`), and `numpy.random.Generator`s (rebuilt from their bit
generator's name and state).  Sizes and nesting are capped.

The checker side decodes what the learner's process sends, so `decode_value`
and `FrameReader` treat their input as hostile: anything unexpected is a
`WireError`, never an exception from deeper down.
"""

import json
import math
import struct

import numpy as np

MAX_FRAME_BYTES = 64 * 1024 * 1024    # a whole message, header and blobs (8 million float64s)
MAX_HEADER_BYTES = 16 * 1024 * 1024
MAX_VALUE_BYTES = MAX_FRAME_BYTES - MAX_HEADER_BYTES
MAX_DEPTH = 100
MAX_ITEMS = 1_000_000                  # containers' elements, counted over the whole value
MAX_INT_BITS = 4096

ALLOWED_DTYPES = frozenset(np.dtype(name).str for name in (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128"))
BIT_GENERATORS = ("PCG64", "PCG64DXSM", "MT19937", "Philox", "SFC64")

_PREFIX = struct.Struct("<IQ")  # header length, total blob length
_BLOB_SIZE = struct.Struct("<Q")


class WireError(Exception):
    """A message or value that is not valid data; the text says what is wrong."""


class Unencodable(Exception):
    """A value that cannot cross the channel; the text names its type and where it sits."""


# ---- values -------------------------------------------------------------------------------------

def encode_value(value, known=()):
    """(tree, blobs): `tree` is JSON-serialisable, `blobs` the raw bytes of the arrays in it.

    `known`: arrays the other side has already (as `arrays` lists them in a value it sent), encoded as
    their number in that list, without their bytes.
    """
    blobs = []
    counter = [0, {id(array): index for index, array in enumerate(known)}, known]
    tree = _encode(value, blobs, counter, 0, "")
    size = sum(len(memoryview(b).cast("B")) for b in blobs)
    if size > MAX_VALUE_BYTES:
        raise Unencodable(f"{size / 2 ** 20:.0f} MB of array data, more than the {MAX_VALUE_BYTES // 2 ** 20} MB "
                          "a value may hold")
    return tree, blobs


def _encode(value, blobs, counter, depth, where):
    counter[0] += 1
    if counter[0] > MAX_ITEMS:
        raise Unencodable(f"more than {MAX_ITEMS:,} items in all")
    if depth > MAX_DEPTH:
        raise Unencodable(f"a value nested more than {MAX_DEPTH} levels deep")
    kind = type(value)
    if value is None or kind is bool or kind is str:
        return value
    if kind is int:
        if value.bit_length() > MAX_INT_BITS:
            raise Unencodable(f"an int of more than {MAX_INT_BITS} bits" + _at(where))
        return value
    if kind is float:
        return value if math.isfinite(value) else {"float": repr(value)}
    if kind is complex:
        return {"complex": [_encode(value.real, blobs, counter, depth, where),
                            _encode(value.imag, blobs, counter, depth, where)]}
    if kind is list or kind is tuple:
        items = [_encode(item, blobs, counter, depth + 1, f"{where}[{i}]") for i, item in enumerate(value)]
        return items if kind is list else {"tuple": items}
    if kind is dict:
        return {"dict": [[_encode(k, blobs, counter, depth + 1, f"{where}, in a key"),
                          _encode(v, blobs, counter, depth + 1, f"{where}[{k!r}]")]
                         for k, v in value.items()]}
    if isinstance(value, np.ndarray):
        known = counter[1].get(id(value))
        if known is not None and counter[2][known] is value:
            return {"known": known}
        array = np.asarray(value)  # a plain ndarray view, whatever subclass it was
        if not array.flags.c_contiguous:
            array = array.copy(order="C")
        if array.dtype.str not in ALLOWED_DTYPES:
            raise Unencodable(f"a numpy array of dtype {array.dtype}" + _at(where))
        blobs.append(array.reshape(-1).view(np.uint8).data if array.size else b"")
        return {"nd": [array.dtype.str, list(array.shape), len(blobs) - 1]}
    if isinstance(value, np.generic):
        if value.dtype.str not in ALLOWED_DTYPES:
            raise Unencodable(f"a numpy scalar of dtype {value.dtype}" + _at(where))
        blobs.append(np.asarray(value).tobytes())
        return {"np": [value.dtype.str, len(blobs) - 1]}
    if kind is np.random.Generator:
        bit_generator = value.bit_generator
        name = type(bit_generator).__name__
        if name not in BIT_GENERATORS:
            raise Unencodable(f"a numpy Generator driven by {name}" + _at(where))
        return {"rng": [name, _encode(bit_generator.state, blobs, counter, depth + 1, where)]}
    raise Unencodable(f"a {_type_name(value)}" + _at(where))


def _at(where):
    return f" (at {where})" if where else ""


def decode_value(tree, blobs, copy=True, known=None):
    """The value `tree` (from `encode_value`) describes, built from plain data only; WireError if malformed.

    With `copy=False` its arrays are views of `blobs` (writable when they are), not arrays of their own.
    `known`: the arrays `encode_value` was given as known (a tree that refers to one is malformed without).
    """
    counter = [0, known]
    return _decode(tree, blobs, counter, 0, copy)


def arrays(value, depth=0):
    """The numpy arrays inside `value` (lists, tuples, dict values), in the order `encode_value` meets them."""
    kind = type(value)
    if isinstance(value, np.ndarray):
        yield value
    elif depth < MAX_DEPTH and (kind is list or kind is tuple or kind is dict):
        for item in (value.values() if kind is dict else value):
            yield from arrays(item, depth + 1)


def generators(value, depth=0):
    """The numpy Generators inside `value`, in the order `encode_value` meets them (so the same order in
    the value it encodes and in the value decoded from it)."""
    kind = type(value)
    if kind is np.random.Generator:
        yield value
    elif depth < MAX_DEPTH and (kind is list or kind is tuple or kind is dict):
        for item in (value.values() if kind is dict else value):
            yield from generators(item, depth + 1)


def _decode(node, blobs, counter, depth, copy=True):
    counter[0] += 1
    if counter[0] > MAX_ITEMS:
        raise WireError(f"more than {MAX_ITEMS:,} items")
    if depth > MAX_DEPTH:
        raise WireError(f"nested more than {MAX_DEPTH} levels")
    kind = type(node)
    if node is None or kind is bool or kind is str:
        return node
    if kind is int:
        if node.bit_length() > MAX_INT_BITS:
            raise WireError("integer too large")
        return node
    if kind is float:
        return node
    if kind is list:
        return [_decode(item, blobs, counter, depth + 1, copy) for item in node]
    if kind is not dict or len(node) != 1:
        raise WireError(f"unexpected {_type_name(node)} in a value")
    (tag, body), = node.items()
    if tag == "tuple" and type(body) is list:
        return tuple(_decode(item, blobs, counter, depth + 1, copy) for item in body)
    if tag == "dict" and type(body) is list:
        result = {}
        for pair in body:
            if type(pair) is not list or len(pair) != 2:
                raise WireError("malformed dict entry")
            key = _decode(pair[0], blobs, counter, depth + 1)
            try:
                hash(key)
            except TypeError:
                raise WireError(f"unhashable dict key of type {_type_name(key)}") from None
            result[key] = _decode(pair[1], blobs, counter, depth + 1, copy)
        return result
    if tag == "float" and body in ("nan", "inf", "-inf"):
        return float(body)
    if tag == "complex" and type(body) is list and len(body) == 2:
        real, imag = (_decode(part, blobs, counter, depth + 1) for part in body)
        if type(real) is not float or type(imag) is not float:
            raise WireError("malformed complex number")
        return complex(real, imag)
    if tag == "nd" and type(body) is list and len(body) == 3:
        return _decode_array(*body, blobs, copy)
    if tag == "np" and type(body) is list and len(body) == 2:
        dtype, index = body
        return _decode_array(dtype, [], index, blobs)[()]
    if tag == "known" and type(body) is int and counter[1] is not None and 0 <= body < len(counter[1]):
        return counter[1][body]
    if tag == "rng" and type(body) is list and len(body) == 2:
        return _decode_generator(body[0], _decode(body[1], blobs, counter, depth + 1))
    raise WireError(f"unknown or malformed tag {tag!r}")


def _decode_array(dtype, shape, index, blobs, copy=True):
    if type(dtype) is not str or dtype not in ALLOWED_DTYPES:
        raise WireError(f"dtype {dtype!r} is not allowed")
    if type(shape) is not list or len(shape) > 32 or any(type(n) is not int or n < 0 for n in shape):
        raise WireError(f"malformed shape {shape!r}"[:200])
    if type(index) is not int or not 0 <= index < len(blobs):
        raise WireError("array data missing")
    data = blobs[index]
    itemsize = np.dtype(dtype).itemsize
    count = math.prod(shape)
    if count * itemsize != len(data):
        raise WireError(f"array of shape {tuple(shape)} and dtype {dtype} does not match its {len(data)} bytes")
    array = np.frombuffer(data, dtype=np.dtype(dtype), count=count).reshape(shape)
    # copy(): a writable array that owns its memory, like any array the caller builds itself.
    return array.copy() if copy else array


def _decode_generator(name, state):
    if name not in BIT_GENERATORS:
        raise WireError(f"bit generator {name!r} is not allowed")
    if type(state) is not dict:
        raise WireError("malformed generator state")
    bit_generator = getattr(np.random, name)()
    try:
        bit_generator.state = state
    except (TypeError, ValueError, KeyError, OverflowError) as exc:
        raise WireError(f"invalid {name} state: {exc}"[:300]) from None
    return np.random.Generator(bit_generator)


def _type_name(value):
    # type()'s own __name__ slot: never runs code of the value's class.
    return type.__dict__["__name__"].__get__(type(value))


# ---- framing ------------------------------------------------------------------------------------

def frame(message, blobs=()):
    """The bytes of one message: a dict (JSON-serialisable) plus raw blobs."""
    views = [memoryview(b).cast("B") for b in blobs]
    header = json.dumps({"message": message, "blobs": [len(v) for v in views]}, separators=(",", ":")).encode()
    return b"".join([_PREFIX.pack(len(header), sum(len(v) for v in views)), header, *views])


class FrameReader:
    """Reassembles messages from a byte stream fed in pieces; WireError for anything malformed."""

    def __init__(self, max_bytes=MAX_FRAME_BYTES):
        self.max_bytes = max_bytes
        self._buffer = bytearray()
        self._start = 0  # where the first unread byte is: consumed bytes are dropped in one go

    @property
    def pending(self):
        """True while part of a message has arrived but not all of it."""
        return len(self._buffer) > self._start

    def feed(self, data):
        """Add received bytes; return the list of (message, blobs) completed by them."""
        self._buffer += data
        messages = []
        view = memoryview(self._buffer)
        try:
            while len(self._buffer) - self._start >= _PREFIX.size:
                header_size, blob_size = _PREFIX.unpack_from(self._buffer, self._start)
                if header_size > MAX_HEADER_BYTES or header_size + blob_size > self.max_bytes:
                    raise WireError(f"message of {header_size + blob_size:,} bytes is over the limit")
                header_start = self._start + _PREFIX.size
                end = header_start + header_size + blob_size
                if len(self._buffer) < end:
                    break
                messages.append(_parse(bytes(view[header_start:header_start + header_size]),
                                       bytes(view[header_start + header_size:end])))
                self._start = end
        finally:
            view.release()
        if self._start == len(self._buffer):
            self._buffer, self._start = bytearray(), 0
        return messages


def _parse(header, body):
    try:
        parsed = json.loads(header)
    except (ValueError, RecursionError) as exc:  # RecursionError: absurdly nested JSON
        raise WireError(f"header is not JSON ({type(exc).__name__})") from None
    if type(parsed) is not dict or set(parsed) != {"message", "blobs"} or type(parsed["message"]) is not dict:
        raise WireError("malformed header")
    sizes = parsed["blobs"]
    if type(sizes) is not list or any(type(n) is not int or n < 0 for n in sizes) or sum(sizes) != len(body):
        raise WireError("blob sizes do not match the message")
    blobs, offset = [], 0
    view = memoryview(body)
    for size in sizes:
        blobs.append(view[offset:offset + size])
        offset += size
    return parsed["message"], blobs
