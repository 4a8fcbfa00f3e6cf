"""Keep learner code from changing what the hidden tests rely on.

Learner code runs in the same interpreter as the tests, so it could patch
`np.allclose`, a builtin, or a grader helper to make a wrong answer pass.  A
`Snapshot` records the state of the modules the tests use before any learner
code runs; `restore()` puts it back.  The engine restores after the learner's
module runs, after every call into the learner's function and after every test.

This stops patching through attributes, module globals, `sys.modules` and
function code objects.  It is not a security sandbox: code that rewrites
memory (ctypes) or digs the snapshot itself out of the garbage collector is
out of its reach.
"""

import sys
import types

# Modules (and their submodules) the tests and the grader depend on.
PROTECTED_MODULES = (
    "builtins", "sys", "numpy", "math", "cmath", "operator", "functools", "itertools", "copy",
    "json", "time", "traceback", "linecache", "inspect", "dataclasses", "io", "types",
    "threading", "re", "grader",
)


def _is_protected(name, extra):
    return name in extra or any(name == p or name.startswith(p + ".") for p in PROTECTED_MODULES)


class Snapshot:
    def __init__(self, extra_modules=()):
        extra = set(extra_modules)
        self._modules = {
            name: (module, dict(module.__dict__))
            for name, module in list(sys.modules.items())
            if isinstance(module, types.ModuleType) and _is_protected(name, extra)
        }
        self._functions = []
        self._classes = []
        for name, (module, namespace) in self._modules.items():
            if name.startswith("grader") or name in extra:
                self._record_trusted_code(name, namespace)
        # Interpreter state that lives outside module namespaces.
        self._hooks = (sys.gettrace(), sys.getprofile(), sys.getrecursionlimit())
        self.thread_count = len(sys._current_frames())

    def _record_trusted_code(self, module_name, namespace):
        for value in namespace.values():
            if isinstance(value, type) and value.__module__ == module_name:
                self._classes.append((value, dict(value.__dict__)))
                members = value.__dict__.values()
            else:
                members = (value,)
            for member in members:
                if isinstance(member, (staticmethod, classmethod)):
                    member = member.__func__
                if isinstance(member, types.FunctionType):
                    self._functions.append((member, member.__code__, member.__defaults__, member.__kwdefaults__))

    def restore(self):
        trace, profile, recursion_limit = self._hooks
        sys.settrace(trace)
        sys.setprofile(profile)
        sys.setrecursionlimit(recursion_limit)
        for name, (module, saved) in self._modules.items():
            if sys.modules.get(name) is not module:
                sys.modules[name] = module
            _restore_namespace(module.__dict__, saved)
        for cls, saved in self._classes:
            _restore_class(cls, saved)
        for function, code, defaults, kwdefaults in self._functions:
            if function.__code__ is not code:
                function.__code__ = code
            if function.__defaults__ is not defaults:
                function.__defaults__ = defaults
            if function.__kwdefaults__ is not kwdefaults:
                function.__kwdefaults__ = kwdefaults

    def extra_threads(self):
        """How many threads are running now that were not running at snapshot time."""
        return len(sys._current_frames()) - self.thread_count


def _restore_namespace(current, saved):
    for key in [k for k in current if k not in saved]:
        del current[key]
    for key, value in saved.items():
        if current.get(key, _MISSING) is not value:
            current[key] = value


def _restore_class(cls, saved):
    current = cls.__dict__
    for key in [k for k in current if k not in saved]:
        delattr(cls, key)
    for key, value in saved.items():
        if key in ("__dict__", "__weakref__"):
            continue
        if current.get(key, _MISSING) is not value:
            setattr(cls, key, value)


_MISSING = object()
