"""What a Dask client ships so that its workers need no copy of this project: the grader itself, and tasks
that the scheduler can pass on without the grader.

The grader travels as a zip of the `grader` package inside a worker plugin (`InstallGrader`), which each
worker (those there now, and any that joins later) unpacks once into its own folder, named by the grader's
fingerprint, and puts first on its `sys.path`.  The plugin is pickled by value: a worker unpickles it
before it has any grader, so it uses nothing but the standard library and Dask.

The scheduler unpickles each task it is given, and has no grader either: so a task is `pickle.loads` of
bytes that only the worker unpickles (`deferred_call`), and unpickling them makes the call.
"""

import io
import os
import pickle
import shutil
import sys
import tempfile
import zipfile
from pathlib import Path

PLUGIN_NAME = "grader"  # one per cluster: a client that registers it again replaces it


def deferred_call(function, *args):
    """(pickle.loads, bytes) that make the call `function(*args)` where the bytes are unpickled."""
    return pickle.loads, pickle.dumps(_Call(function, args))


class _Call:
    def __init__(self, function, args):
        self.function, self.args = function, args

    def __reduce__(self):
        return self.function, self.args


def package_archive(package, files):
    """The zip of `files` (paths under the folder `package`), as bytes, each named from the package's parent."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in files:
            archive.write(path, path.relative_to(package.parent).as_posix())
    return buffer.getvalue()


def install_plugin(archive, code):
    """The worker plugin that installs the grader of `archive` (`code`: its fingerprint)."""
    import cloudpickle
    from distributed.diagnostics.plugin import WorkerPlugin

    cloudpickle.register_pickle_by_value(sys.modules[__name__])

    class InstallGrader(WorkerPlugin):
        name = PLUGIN_NAME

        def setup(self, worker):
            _install(worker.local_directory, archive, code)

    return InstallGrader()


def _install(local_directory, archive, code):
    """Unpack the grader (`code`: its fingerprint) into the worker's folder, once, and put it first on sys.path."""
    folder = Path(local_directory) / f"grader-{code}"
    if not folder.is_dir():
        unpacking = Path(tempfile.mkdtemp(prefix=".grader-", dir=local_directory))
        with zipfile.ZipFile(io.BytesIO(archive)) as files:
            files.extractall(unpacking)
        try:
            os.rename(unpacking, folder)  # whole or not at all; another process may have done it first
        except OSError:
            shutil.rmtree(unpacking)
            if not folder.is_dir():
                raise
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
