"""LaTeX to MathML with KaTeX, many formulas per Node.js run, remembered by content.

Starting Node and loading KaTeX costs about half a second, so formulas are
rendered in batches (`render_formulas`) and every successful rendering is
kept: in memory for the process, and on disk across runs, in a file named by
a hash of what shapes the output (KaTeX's version, the Node script and the
MathML Core adaptation). A build whose formulas have all been seen before does
not start Node at all.
"""

import dataclasses
import hashlib
import json
import os
import re
import subprocess
import tempfile
from pathlib import Path

from markup import mathml_core
from toolchain.cache import cache_root
from toolchain.node import NodeError, ensure_node_modules, node_command

PROJECT_ROOT = Path(__file__).resolve().parent.parent
NODE_SCRIPT = Path(__file__).with_name("katex_batch.mjs")
KATEX_PACKAGE = PROJECT_ROOT / "node_modules" / "katex" / "package.json"
NODE_SECONDS = 120

# KaTeX's wording -> ours, naming the construct at fault.
MESSAGES = [
    (re.compile(r"Undefined control sequence: (.+)"), r"unknown command \1"),
    (re.compile(r"No such environment: (.+)"), r"unknown environment \1"),
    # KaTeX says this for `\frac{1}` and for `\frac{1}{C` alike: _failure tells them apart.
    (re.compile(r"Unexpected end of input in a macro argument, expected '}'"),
     "a command is missing an argument at the end of the formula"),
    (re.compile(r"Expected group (?:as argument to|after) '(.+)'"), r"\1 is missing an argument"),
    (re.compile(r"Expected '}', got 'EOF'"), "unbalanced braces: a '{' is never closed"),
    (re.compile(r"Expected '}', got '.+'"), "unbalanced braces: a '{' is still open"),
    (re.compile(r"Expected 'EOF', got '}'"), "unbalanced braces: a '}' has no matching '{'"),
    (re.compile(r"LaTeX-incompatible input and strict mode is set to 'error': (.*?)(?: \[\w+\])?"), r"\1"),
]


class MathUnavailable(Exception):
    """KaTeX cannot run here (no Node.js, KaTeX not installed); the message says what to do."""


@dataclasses.dataclass(frozen=True)
class Formula:
    latex: str
    display: bool


@dataclasses.dataclass(frozen=True)
class Rendered:
    """A formula's MathML, or why it has none: `problem` names the construct, at `position` in the LaTeX."""
    mathml: str | None = None
    problem: str | None = None
    position: int | None = None


_remembered = {}  # Formula -> Rendered, for this process


def render_formulas(formulas):
    """{Formula: Rendered} for every formula, running Node once for those never rendered before."""
    wanted = set(formulas) - _remembered.keys()
    if wanted:
        cache_file = _cache_file()
        on_disk = _read_cache(cache_file)
        for formula in wanted & on_disk.keys():
            _remembered[formula] = Rendered(mathml=on_disk[formula])
        missing = sorted(wanted - on_disk.keys(), key=lambda f: (f.latex, f.display))
        if missing:
            fresh = _run_katex(missing)
            for formula, result in zip(missing, fresh):
                if "mathml" in result:
                    on_disk[formula] = mathml_core.adapt(result["mathml"])
                    _remembered[formula] = Rendered(mathml=on_disk[formula])
                else:
                    _remembered[formula] = _failure(formula.latex, result)
            _write_cache(cache_file, on_disk)
    return {formula: _remembered[formula] for formula in formulas}


def _failure(latex, result):
    problem = result["error"]
    for pattern, replacement in MESSAGES:
        if match := pattern.fullmatch(problem):
            problem = match.expand(replacement)
            break
    if problem.startswith("a command is missing an argument") and _unclosed_braces(latex):
        problem = "unbalanced braces: a '{' is never closed"
    position, length = result["position"], result["length"]
    if position is not None and position >= len(latex) and "end of the formula" not in problem:
        problem += " (at the end of the formula)"
    elif position is not None and length:
        construct = latex[position:position + length].strip()
        if construct and construct.strip("{}") not in problem:
            problem += f" at `{construct}`"
    return Rendered(problem=problem, position=position)


def _unclosed_braces(latex):
    """Whether more groups open than close (escaped braces, `\\{`, are text, not groups)."""
    plain = re.sub(r"\\.", "", latex)
    return plain.count("{") > plain.count("}")


def _run_katex(formulas):
    try:
        node = node_command()
        ensure_node_modules(PROJECT_ROOT)
    except NodeError as exc:
        raise MathUnavailable(f"cannot render math: {exc}") from None
    if not KATEX_PACKAGE.is_file():
        raise MathUnavailable(f"cannot render math: KaTeX is not installed; run `npm ci` in {PROJECT_ROOT}")
    batch = json.dumps([[formula.latex, formula.display] for formula in formulas])
    try:
        process = subprocess.run([node, str(NODE_SCRIPT)], input=batch, capture_output=True, text=True,
                                 encoding="utf-8", timeout=NODE_SECONDS)
    except subprocess.TimeoutExpired:
        raise MathUnavailable(f"cannot render math: KaTeX took more than {NODE_SECONDS} s") from None
    if process.returncode != 0:
        last_line = (process.stderr.strip().splitlines() or ["no message"])[-1]
        raise MathUnavailable(f"cannot render math: {NODE_SCRIPT.name} failed: {last_line}")
    return json.loads(process.stdout)


def _cache_file():
    shaping = hashlib.sha256()
    for path in (KATEX_PACKAGE, NODE_SCRIPT, Path(mathml_core.__file__)):
        shaping.update(path.read_bytes() if path.is_file() else b"")
    return cache_root() / "katex" / f"{shaping.hexdigest()[:16]}.json"


def _read_cache(path):
    """{Formula: MathML} from the cache file; a missing or damaged file counts as empty."""
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(entries, list):
        return {}
    return {Formula(entry[0], entry[1]): entry[2] for entry in entries
            if isinstance(entry, list) and [type(value) for value in entry] == [str, bool, str]}


def _write_cache(path, rendered):
    """Replace the cache file at once; a cache that cannot be written only costs time later."""
    entries = [[formula.latex, formula.display, mathml] for formula, mathml in rendered.items()]
    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, suffix=".tmp",
                                         delete=False) as temporary:
            json.dump(entries, temporary)
        os.replace(temporary.name, path)
    except OSError:
        if temporary is not None:
            Path(temporary.name).unlink(missing_ok=True)
