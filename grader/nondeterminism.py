"""Find, in the source of hidden tests (or a track's helper module), what would make their verdicts change between
runs, machines and the page: reading the clock, generators seeded from the operating system, and the global
generators of numpy and `random`.  Read from the syntax tree, so nothing runs; names are followed through imports
and aliases (`import numpy as np`, `from numpy.random import default_rng`, `from time import perf_counter`).
"""

import ast

CLOCK = {"time.time", "time.time_ns", "time.perf_counter", "time.perf_counter_ns", "time.monotonic",
         "time.monotonic_ns", "time.process_time", "time.process_time_ns", "time.thread_time", "time.localtime",
         "time.gmtime", "time.ctime", "datetime.datetime.now", "datetime.datetime.utcnow", "datetime.datetime.today",
         "datetime.date.today", "os.urandom", "os.getpid", "uuid.uuid1", "uuid.uuid4", "random.SystemRandom"}
# Constructors that draw their seed from the operating system when given none.
SEEDED_BY_ARGUMENT = {"numpy.random.default_rng", "numpy.random.RandomState", "numpy.random.SeedSequence",
                      "numpy.random.PCG64", "numpy.random.PCG64DXSM", "numpy.random.MT19937", "numpy.random.Philox",
                      "numpy.random.SFC64", "random.Random"}
GENERATOR_CLASSES = {"numpy.random.Generator", "numpy.random.BitGenerator"}
FIX = "use np.random.default_rng(<a constant seed>)"


def nondeterministic_calls(tree):
    """[(line, what)]: each call in `tree` (ast.Module) that reads the clock or an unseeded or global generator."""
    aliases = _aliases(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _qualified(node.func, aliases)
        if name is None:
            continue
        if name in CLOCK or name.startswith("secrets."):
            found.append((node.lineno, f"reads the clock or the system's entropy ({name}): verdicts would differ "
                                       f"between runs, machines and the page; seed generators with a constant"))
        elif name in SEEDED_BY_ARGUMENT:
            if _unseeded(node):
                found.append((node.lineno, f"{name}() without a seed draws one from the operating system: verdicts "
                                           f"would differ between runs; {FIX}"))
        elif name.startswith("numpy.random.") and name not in GENERATOR_CLASSES:
            found.append((node.lineno, f"{name} uses numpy's global generator, whose state any code may change: "
                                       f"{FIX} and draw from it"))
        elif name.startswith("random.") and name.count(".") == 1:
            found.append((node.lineno, f"{name} uses the random module's global generator, whose state any code "
                                       f"may change: {FIX} (or random.Random(<a constant seed>))"))
    return sorted(found)


def _unseeded(call):
    if call.keywords:
        return not any(keyword.arg in ("seed", "x", None) and not _is_none(keyword.value) for keyword in call.keywords)
    return not call.args or _is_none(call.args[0])


def _is_none(node):
    return isinstance(node, ast.Constant) and node.value is None


def _aliases(tree):
    """{local name: the qualified name it stands for}, from every import in the module."""
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    aliases[alias.asname] = alias.name
                else:
                    top = alias.name.split(".")[0]
                    aliases[top] = top
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return aliases


def _qualified(func, aliases):
    """'numpy.random.default_rng' for `np.random.default_rng` (given `import numpy as np`), or None."""
    parts = []
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if not isinstance(func, ast.Name) or func.id not in aliases:
        return None
    return ".".join([aliases[func.id], *reversed(parts)])
