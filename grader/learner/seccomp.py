"""Where no cgroup counts a learner's memory: keep the learner to one process whose memory its rlimit bounds.

A seccomp filter refuses what would let memory escape RLIMIT_AS: starting
another process (fork, vfork, clone without CLONE_THREAD; clone3, which
glibc then retries as clone, so threads still work), and memory that lives
outside any process's address space: memfd_create, memfd_secret, System V
shared memory and message queues.  What is left is one process (threads
share its address space) and the learner's private /tmp and /dev/shm, each
a small tmpfs under bubblewrap.  Python in the browser cannot start
processes either.
"""

import ctypes
import errno
import platform

PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
LOAD_WORD, JUMP_EQUAL, JUMP_AT_LEAST, JUMP_ANY_BIT, RETURN = 0x20, 0x15, 0x35, 0x45, 0x06
RETURN_ALLOW, RETURN_ERRNO, RETURN_KILL_PROCESS = 0x7FFF0000, 0x00050000, 0x80000000
NR_OFFSET, ARCH_OFFSET, FIRST_ARG_OFFSET = 0, 4, 16  # in struct seccomp_data (the low half of args[0])
CLONE_THREAD = 0x00010000
X32_SYSCALL_BIT = 0x40000000

# Per architecture: its audit id, clone's number, and the refused calls with the errno they fail with.
ARCHITECTURES = {
    "x86_64": (0xC000003E, 56, {57: errno.EAGAIN, 58: errno.EAGAIN, 435: errno.ENOSYS, 319: errno.EPERM,
                                447: errno.EPERM, 29: errno.EPERM, 68: errno.EPERM}),
    "aarch64": (0xC00000B7, 220, {435: errno.ENOSYS, 279: errno.EPERM, 447: errno.EPERM, 194: errno.EPERM,
                                  186: errno.EPERM}),
}


class _Instruction(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint16), ("jump_true", ctypes.c_uint8), ("jump_false", ctypes.c_uint8),
                ("k", ctypes.c_uint32)]


class _Program(ctypes.Structure):
    _fields_ = [("length", ctypes.c_ushort), ("instructions", ctypes.POINTER(_Instruction))]


def confine_without_cgroup():
    """Install the filter in this process (and all it may still start); OSError when the kernel refuses it."""
    machine = platform.machine()
    if machine not in ARCHITECTURES:
        raise OSError(errno.ENOTSUP, f"no seccomp filter for {machine}")
    instructions = _filter(*ARCHITECTURES[machine], x32=machine == "x86_64")
    program = _Program(len(instructions), (_Instruction * len(instructions))(*instructions))
    libc = ctypes.CDLL(None, use_errno=True)
    for arguments in ((PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(program))):
        if libc.prctl(*arguments) != 0:
            raise OSError(ctypes.get_errno(), "seccomp filter refused")


def _filter(architecture, clone, refused, x32):
    code = [_Instruction(LOAD_WORD, 0, 0, ARCH_OFFSET),
            _Instruction(JUMP_EQUAL, 1, 0, architecture),
            _Instruction(RETURN, 0, 0, RETURN_KILL_PROCESS),  # another ABI's numbers mean other calls
            _Instruction(LOAD_WORD, 0, 0, NR_OFFSET)]
    if x32:
        code += [_Instruction(JUMP_AT_LEAST, 0, 1, X32_SYSCALL_BIT),
                 _Instruction(RETURN, 0, 0, RETURN_ERRNO | errno.ENOSYS)]
    for number, error in refused.items():
        code += [_Instruction(JUMP_EQUAL, 0, 1, number), _Instruction(RETURN, 0, 0, RETURN_ERRNO | error)]
    return code + [_Instruction(JUMP_EQUAL, 0, 2, clone),
                   _Instruction(LOAD_WORD, 0, 0, FIRST_ARG_OFFSET),
                   _Instruction(JUMP_ANY_BIT, 0, 1, CLONE_THREAD),
                   _Instruction(RETURN, 0, 0, RETURN_ALLOW),
                   _Instruction(RETURN, 0, 0, RETURN_ERRNO | errno.EAGAIN)]
