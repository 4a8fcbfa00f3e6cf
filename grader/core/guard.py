"""Keep learner code from changing what the hidden tests rely on.

Learner code runs in the same interpreter as the tests, so it could patch
`np.allclose`, a builtin, or a grader helper to make a wrong answer pass.
`protect()` records the state of the modules the tests use before any learner
code runs and returns `restore`, which puts it back, and `extra_threads`.  The engine
restores after the learner's module runs, after every call into the learner's
function and after every test.

`restore` and `extra_threads` are closures made by `protect()` that bind
everything they use when they are made, and they are not reachable from any
module: a submission that patches this module, builtins, or the code of grader
functions found through `sys.modules` cannot disarm them.

This stops patching through attributes, module globals, `sys.modules` and
function code objects.  It is not a security sandbox: code that digs the guard
itself out of the garbage collector or a frame, or rewrites memory (ctypes),
is out of its reach.
"""

import sys
import types

# Modules (and their submodules) the tests and the grader depend on.
PROTECTED_MODULES = (
    "builtins", "sys", "numpy", "math", "cmath", "operator", "functools", "itertools", "copy",
    "json", "time", "traceback", "linecache", "inspect", "dataclasses", "io", "types",
    "threading", "re", "grader",
)


def protect(extra_modules=()):
    """Record the protected state now; return the functions (restore, extra_threads).

    A plain tuple, unpacked at once by the caller: no attribute lookup that learner code could patch.
    """
    trusted = set(extra_modules)
    modules = [
        (name, module, module.__dict__, dict(module.__dict__))
        for name, module in list(sys.modules.items())
        if isinstance(module, types.ModuleType) and _is_protected(name, trusted)
    ]
    classes, functions = [], []
    for name, module, namespace, saved in modules:
        if name.startswith("grader") or name in trusted:
            _record_code(name, saved, classes, functions)
    # Everything restore() calls is bound here, so later patches cannot reach it.
    sys_modules, settrace, setprofile, setrecursionlimit = sys.modules, sys.settrace, sys.setprofile, sys.setrecursionlimit
    hooks = (sys.gettrace(), sys.getprofile(), sys.getrecursionlimit())
    current_frames, length, set_attribute, delete_attribute = sys._current_frames, len, setattr, delattr
    missing = object()
    skipped_class_keys = ("__dict__", "__weakref__")

    def restore():
        settrace(hooks[0])
        setprofile(hooks[1])
        setrecursionlimit(hooks[2])
        for name, module, current, saved in modules:
            if sys_modules.get(name) is not module:
                sys_modules[name] = module
            for key in [k for k in current if k not in saved]:
                del current[key]
            for key, value in saved.items():
                if current.get(key, missing) is not value:
                    current[key] = value
        for cls, saved in classes:
            current = cls.__dict__
            for key in [k for k in current if k not in saved]:
                delete_attribute(cls, key)
            for key, value in saved.items():
                if key not in skipped_class_keys and current.get(key, missing) is not value:
                    set_attribute(cls, key, value)
        for function, code, defaults, kwdefaults in functions:
            if function.__code__ is not code:
                function.__code__ = code
            if function.__defaults__ is not defaults:
                function.__defaults__ = defaults
            if function.__kwdefaults__ is not kwdefaults:
                function.__kwdefaults__ = kwdefaults

    thread_count = length(current_frames())

    def extra_threads():
        """How many threads are running now that were not running when protect() was called."""
        return length(current_frames()) - thread_count

    return restore, extra_threads


def _is_protected(name, trusted):
    return name in trusted or any(name == p or name.startswith(p + ".") for p in PROTECTED_MODULES)


def _record_code(module_name, namespace, classes, functions):
    """Record the classes and functions defined in a trusted module, with their code."""
    for value in namespace.values():
        if isinstance(value, type) and value.__module__ == module_name:
            classes.append((value, dict(value.__dict__)))
            members = value.__dict__.values()
        else:
            members = (value,)
        for member in members:
            if isinstance(member, (staticmethod, classmethod)):
                member = member.__func__
            if isinstance(member, types.FunctionType):
                functions.append((member, member.__code__, member.__defaults__, member.__kwdefaults__))
