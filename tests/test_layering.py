"""A lower layer never imports a higher one, read from the source (imports inside functions count too).

From the bottom: `toolchain` (Node.js, the cache folder), `markup` (statements to HTML), `grader`, and
`sitebuild` with `build.py` on top. `grader/core` runs in the browser too: numpy and the standard library only.
Inside the grader, the authors' tools (`grader/authoring`) and the instructors' (`grader/instructor`) sit on
the engine: neither imports the other, and of the rest of the grader only the command line imports them.
"""

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROJECT_PACKAGES = {"toolchain", "markup", "grader", "sitebuild", "build"}

# What each part may import of the project (a module is governed by the longest prefix listed).
ALLOWED = {
    "toolchain": {"toolchain"},
    "markup": {"toolchain", "markup"},
    "grader": {"toolchain", "markup", "grader"},
    "grader.core": {"grader.core"},
    "sitebuild": {"toolchain", "markup", "grader", "sitebuild"},
    "build": {"toolchain", "markup", "grader", "sitebuild", "build"},
}
CORE_THIRD_PARTY = {"numpy"}
USERS_TOOLS = ("grader.authoring", "grader.instructor")
COMMAND_LINE = "grader.cli"


def module_name(path):
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path):
    """(line, module name) of every import in the file, relative imports made absolute."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[:len(package.split(".")) - node.level + 1] if node.level else []
            yield node.lineno, ".".join([*base, *([node.module] if node.module else [])])


def governing_part(module):
    return max((part for part in ALLOWED if module == part or module.startswith(part + ".")), key=len)


def within(module, prefixes):
    return any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes)


def source_files():
    files = [ROOT / "build.py"]
    for package in PROJECT_PACKAGES - {"build"}:
        files += sorted((ROOT / package).rglob("*.py"))
    return files


def violations(path):
    module = module_name(path)
    part = governing_part(module)
    found = []
    for line, imported in imports(path):
        top = imported.split(".")[0]
        if top in PROJECT_PACKAGES and not within(imported, ALLOWED[part]):
            found.append(f"{path.relative_to(ROOT)}:{line}: {part} imports {imported}")
        elif part == "grader.core" and top not in PROJECT_PACKAGES | sys.stdlib_module_names | CORE_THIRD_PARTY:
            found.append(f"{path.relative_to(ROOT)}:{line}: grader.core imports {imported}, which Pyodide lacks")
    return found


def test_every_source_file_belongs_to_a_layer():
    assert {governing_part(module_name(path)) for path in source_files()} == set(ALLOWED)


@pytest.mark.parametrize("layer", ["toolchain", "markup", "grader", "sitebuild"])
def test_no_layer_imports_a_higher_one(layer):
    files = [path for path in source_files() if module_name(path).split(".")[0] == layer]
    assert files
    assert [problem for path in files for problem in violations(path)] == []


def users_tools_violations(path):
    """Imports of one user's tools from the other's, or from the grader's engine."""
    module = module_name(path)
    own = next((tools for tools in USERS_TOOLS if within(module, [tools])), None)
    if module == COMMAND_LINE or not within(module, ["grader"]):
        return []
    return [f"{path.relative_to(ROOT)}:{line}: {module} imports {imported}" for line, imported in imports(path)
            if any(within(imported, [tools]) for tools in USERS_TOOLS if tools != own)]


def test_authors_and_instructors_tools_stay_apart_and_above_the_engine():
    files = [path for path in source_files() if module_name(path).split(".")[0] == "grader"]
    assert {tools for tools in USERS_TOOLS if any(within(module_name(path), [tools]) for path in files)} == set(USERS_TOOLS)
    assert [problem for path in files for problem in users_tools_violations(path)] == []


def test_the_check_sees_the_engine_import_an_instructors_tool(tmp_path, monkeypatch):
    package = tmp_path / "grader" / "checker"
    package.mkdir(parents=True)
    (package / "executors.py").write_text("from grader.instructor.records import results_checksum\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert users_tools_violations(package / "executors.py") == [
        "grader/checker/executors.py:1: grader.checker.executors imports grader.instructor.records"]


def test_the_check_sees_a_forbidden_import(tmp_path, monkeypatch):
    # The site's math rendering once reached into the grader for its cache folder: the check names such an import.
    package = tmp_path / "markup"
    package.mkdir()
    (package / "katex.py").write_text("import json\n\n\ndef cache():\n    from grader.pyodide.dist import cache_root\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert violations(package / "katex.py") == ["markup/katex.py:5: markup imports grader.pyodide.dist"]
