"""Operating-system lock-down of the spec worker process (spec/sandbox_worker.py).

Why a second wall behind the allow-list evaluator (spec/safe.py): an evaluator is code,
and code has bugs. If a hostile spec ever reaches a module, a frame or ctypes through a
hole in the namespace, the process it runs in must still be unable to do harm: no file
written, no process started, no socket opened, no signal sent to another process, no
environment secrets to read (the worker starts with an empty environment), bounded
memory and CPU. Each layer here is independent of the others:

* ``setrlimit``: RLIMIT_AS (address space), RLIMIT_FSIZE = 0 (a write to a regular file
  fails and raises SIGXFSZ), RLIMIT_NPROC = 0 (no new process), RLIMIT_CORE = 0, and a
  CPU limit the worker sets per call (``set_cpu_limit``).
* running as root: the worker switches to ``nobody`` (root ignores RLIMIT_NPROC and
  may read every file), or, when ``nobody`` could not read the Python installation (a
  pyenv Python under /root), stays uid 0 without any capability: it cannot then read
  other users' files, signal or trace other processes, and it still cannot write.
* Landlock (Linux >= 5.13; used when the kernel has it): no file may be written,
  created, removed, renamed, truncated or executed anywhere; on ABI >= 4 no TCP bind or
  connect; on ABI >= 6 no signal to a process outside the worker, no abstract unix
  socket. Reads stay allowed (imports).
* seccomp (libseccomp through ``pyseccomp``): execve, fork, clone without CLONE_THREAD,
  sockets, opening a file for writing, every call that changes the file system, ptrace,
  io_uring, kernel keyrings, BPF, mounts, namespaces, SysV IPC, signals to other
  processes and every rlimit change but the CPU one fail with EPERM.

``lock_down`` fails closed: a layer that cannot be applied (other than Landlock, which
older kernels lack) raises ``LockDownFailed`` and the worker refuses to serve.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import resource
import signal
from dataclasses import dataclass, field

__all__ = ["LockDownFailed", "Limits", "lock_down", "set_cpu_limit", "landlock_abi"]

#: uid/gid the worker switches to when started as root.
NOBODY = 65534
_PR_SET_PDEATHSIG = 1
_PR_SET_NO_NEW_PRIVS = 38
_PR_CAPBSET_DROP = 24
_PR_CAP_AMBIENT = 47
_PR_CAP_AMBIENT_CLEAR_ALL = 4
_LINUX_CAPABILITY_VERSION_3 = 0x20080522
_SYS_LANDLOCK_CREATE_RULESET = 444  # the same number on every Linux architecture
_SYS_LANDLOCK_RESTRICT_SELF = 446
_LANDLOCK_CREATE_RULESET_VERSION = 1

# Landlock file-system access rights (include/uapi/linux/landlock.h)
_FS_EXECUTE = 1 << 0
_FS_WRITE_FILE = 1 << 1
_FS_REMOVE_DIR = 1 << 4
_FS_REMOVE_FILE = 1 << 5
_FS_MAKE_ALL = sum(1 << b for b in range(6, 13))  # char, dir, reg, sock, fifo, block, sym
_FS_REFER = 1 << 13  # ABI 2
_FS_TRUNCATE = 1 << 14  # ABI 3
_NET_BIND_TCP = 1 << 0  # ABI 4
_NET_CONNECT_TCP = 1 << 1
_SCOPE_ABSTRACT_UNIX = 1 << 0  # ABI 6
_SCOPE_SIGNAL = 1 << 1


class LockDownFailed(RuntimeError):
    """A required lock-down layer could not be applied (the worker must not run)."""


@dataclass(frozen=True)
class Limits:
    """The resource limits of a worker."""

    #: address space in bytes (Python + Z3 + numpy need ~0.5 GB of it before any spec)
    address_space: int = 4 << 30
    #: the CPU limit set before the first call (each call sets its own, ``set_cpu_limit``)
    cpu_seconds: int = 3600


@dataclass
class Applied:
    """What ``lock_down`` applied (reported to the parent, shown by ``sandbox_status``)."""

    uid: int = -1
    #: how root was given up ("nobody", "uid 0 without capabilities ...", "not root")
    root: str = ""
    landlock_abi: int = 0
    seccomp: bool = False
    rlimits: dict = field(default_factory=dict)


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def landlock_abi() -> int:
    """The kernel's Landlock ABI version (0: none or disabled)."""
    libc = _libc()
    libc.syscall.restype = ctypes.c_long
    abi = libc.syscall(
        ctypes.c_long(_SYS_LANDLOCK_CREATE_RULESET),
        None,
        ctypes.c_size_t(0),
        ctypes.c_uint32(_LANDLOCK_CREATE_RULESET_VERSION),
    )
    return max(0, int(abi))


def _readable_by_others(path: str) -> bool:
    """Whether a user other than the owner can read ``path`` (and reach it)."""
    import stat

    p = os.path.abspath(path)
    try:
        if not os.stat(p).st_mode & stat.S_IROTH:
            return False
        while True:
            if not os.stat(p).st_mode & stat.S_IXOTH:
                return False
            parent = os.path.dirname(p)
            if parent == p:
                return True
            p = parent
    except OSError:
        return False


def _python_dirs() -> list[str]:
    """The directories imports may still read after the lock-down."""
    import sys
    import sysconfig

    dirs = {os.path.dirname(os.__file__)}
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        with contextlib.suppress(KeyError):
            dirs.add(sysconfig.get_path(key))
    dirs.update(p for p in sys.path if p and os.path.isdir(p))
    return sorted(dirs)


def _drop_capabilities() -> None:
    """Keep uid 0 but give up every capability (bounding, ambient, effective, permitted)."""
    libc = _libc()
    for cap in range(64):
        if libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 and ctypes.get_errno() == errno.EINVAL:
            break
    libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [
            ("effective", ctypes.c_uint32),
            ("permitted", ctypes.c_uint32),
            ("inheritable", ctypes.c_uint32),
        ]

    header = Header(_LINUX_CAPABILITY_VERSION_3, 0)
    data = (Data * 2)()
    if libc.capset(ctypes.byref(header), data) != 0:
        raise LockDownFailed(f"capset: {os.strerror(ctypes.get_errno())}")
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("CapEff:") and int(line.split()[1], 16) != 0:
                raise LockDownFailed("capabilities still effective after capset")


def _drop_root() -> str:
    """Give up root: switch to nobody, or (when nobody could not read the Python
    installation, e.g. pyenv under /root) stay uid 0 without any capability. Returns how."""
    if os.geteuid() != 0:
        return "not root"
    if not all(_readable_by_others(d) for d in _python_dirs()):
        _drop_capabilities()
        return "uid 0 without capabilities (nobody cannot read the Python installation)"
    try:
        os.setgroups([])
        os.setresgid(NOBODY, NOBODY, NOBODY)
        os.setresuid(NOBODY, NOBODY, NOBODY)
    except OSError as exc:
        raise LockDownFailed(f"cannot switch from root to uid {NOBODY} (nobody): {exc}") from None
    if os.geteuid() == 0 or os.getuid() == 0:
        raise LockDownFailed("still root after setresuid")
    return "nobody"


def _set_rlimits(limits: Limits) -> dict:
    wanted = {
        "RLIMIT_CORE": (0, 0),
        "RLIMIT_FSIZE": (0, 0),
        "RLIMIT_NPROC": (0, 0),
        "RLIMIT_AS": (limits.address_space, limits.address_space),
        # hard stays as it is: each call sets its own soft limit (set_cpu_limit)
        "RLIMIT_CPU": (limits.cpu_seconds, resource.RLIM_INFINITY),
    }
    applied = {}
    for name, (soft, hard) in wanted.items():
        res = getattr(resource, name)
        cur_soft, cur_hard = resource.getrlimit(res)
        if cur_hard != resource.RLIM_INFINITY and (
            hard == resource.RLIM_INFINITY or hard > cur_hard
        ):
            hard = cur_hard
            soft = min(soft, hard) if soft != resource.RLIM_INFINITY else hard
        try:
            if soft < 0 and soft != resource.RLIM_INFINITY:
                raise ValueError("a limit cannot be negative")
            resource.setrlimit(res, (soft, hard))
            if resource.getrlimit(res)[0] != soft:
                raise ValueError(f"it reads back as {resource.getrlimit(res)[0]}")
        except (OSError, ValueError) as exc:
            raise LockDownFailed(f"cannot set {name} to {soft}: {exc}") from None
        applied[name] = soft
    return applied


def _die_with_parent(parent_pid: int) -> None:
    libc = _libc()
    if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        raise LockDownFailed(f"prctl(PR_SET_PDEATHSIG): {os.strerror(ctypes.get_errno())}")
    if os.getppid() != parent_pid:  # the parent died before the line above
        os._exit(1)


def _no_new_privs() -> None:
    libc = _libc()
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise LockDownFailed(f"prctl(PR_SET_NO_NEW_PRIVS): {os.strerror(ctypes.get_errno())}")


class _RulesetAttr(ctypes.Structure):
    _fields_ = [
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    ]


def _landlock() -> int:
    """Forbid every write/exec in the file system (and TCP, foreign signals): the ABI used."""
    abi = landlock_abi()
    if abi <= 0:
        return 0
    fs = _FS_EXECUTE | _FS_WRITE_FILE | _FS_REMOVE_DIR | _FS_REMOVE_FILE | _FS_MAKE_ALL
    if abi >= 2:
        fs |= _FS_REFER
    if abi >= 3:
        fs |= _FS_TRUNCATE
    attr = _RulesetAttr(fs, 0, 0)
    size = 8
    if abi >= 4:
        attr.handled_access_net = _NET_BIND_TCP | _NET_CONNECT_TCP
        size = 16
    if abi >= 6:
        attr.scoped = _SCOPE_ABSTRACT_UNIX | _SCOPE_SIGNAL
        size = 24
    libc = _libc()
    libc.syscall.restype = ctypes.c_long
    fd = libc.syscall(
        ctypes.c_long(_SYS_LANDLOCK_CREATE_RULESET),
        ctypes.byref(attr),
        ctypes.c_size_t(size),
        ctypes.c_uint32(0),
    )
    if fd < 0:
        raise LockDownFailed(f"landlock_create_ruleset: {os.strerror(ctypes.get_errno())}")
    try:
        # no rule added: nothing handled is allowed anywhere
        if (
            libc.syscall(
                ctypes.c_long(_SYS_LANDLOCK_RESTRICT_SELF), ctypes.c_int(fd), ctypes.c_uint32(0)
            )
            != 0
        ):
            raise LockDownFailed(f"landlock_restrict_self: {os.strerror(ctypes.get_errno())}")
    finally:
        os.close(fd)
    return abi


#: System calls that fail with EPERM whatever their arguments.
_DENIED = (
    "execve",
    "execveat",
    "fork",
    "vfork",
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "socket",
    "socketpair",
    "connect",
    "bind",
    "listen",
    "accept",
    "accept4",
    "creat",
    "unlink",
    "unlinkat",
    "rename",
    "renameat",
    "renameat2",
    "mkdir",
    "mkdirat",
    "rmdir",
    "link",
    "linkat",
    "symlink",
    "symlinkat",
    "chmod",
    "fchmod",
    "fchmodat",
    "fchmodat2",
    "chown",
    "fchown",
    "lchown",
    "fchownat",
    "truncate",
    "ftruncate",
    "mknod",
    "mknodat",
    "utime",
    "utimes",
    "utimensat",
    "futimesat",
    "setxattr",
    "lsetxattr",
    "fsetxattr",
    "removexattr",
    "lremovexattr",
    "fremovexattr",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "unshare",
    "setns",
    "move_mount",
    "open_tree",
    "fsopen",
    "fsmount",
    "fsconfig",
    "fspick",
    "mount_setattr",
    "reboot",
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "bpf",
    "perf_event_open",
    "keyctl",
    "add_key",
    "request_key",
    "userfaultfd",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "open_by_handle_at",
    "name_to_handle_at",
    "quotactl",
    "swapon",
    "swapoff",
    "sethostname",
    "setdomainname",
    "settimeofday",
    "clock_settime",
    "adjtimex",
    "clock_adjtime",
    "acct",
    "vhangup",
    "iopl",
    "ioperm",
    "syslog",
    "memfd_create",
    "mq_open",
    "shmget",
    "shmat",
    "msgget",
    "semget",
    "pidfd_open",
    "pidfd_send_signal",
    "pidfd_getfd",
    "fanotify_init",
    "setuid",
    "setgid",
    "setreuid",
    "setregid",
    "setresuid",
    "setresgid",
    "setgroups",
    "setfsuid",
    "setfsgid",
    "capset",
    "landlock_create_ruleset",
    "landlock_add_rule",
    "landlock_restrict_self",
    "openat2",
    "setrlimit",
    "personality",
)


def _seccomp_module():
    """pyseccomp, imported while the process may still run ``ldconfig`` to find libseccomp."""
    try:
        import pyseccomp
    except (ImportError, OSError, RuntimeError) as exc:  # the package or libseccomp.so missing
        raise LockDownFailed(f"seccomp is unavailable (pyseccomp / libseccomp): {exc}") from None
    return pyseccomp


def _seccomp(sc) -> None:
    eperm = sc.ERRNO(errno.EPERM)
    me = os.getpid()
    try:
        f = sc.SyscallFilter(sc.ALLOW)
        for name in _DENIED:
            try:
                f.add_rule(eperm, name)
            except (ValueError, OSError, RuntimeError):
                continue  # a call this architecture does not have
        clone_thread = 0x00010000
        f.add_rule(eperm, "clone", sc.Arg(0, sc.MASKED_EQ, clone_thread, 0))  # a new process
        # clone3's flags sit in a struct seccomp cannot read: ENOSYS makes the C library
        # fall back to clone (threads still work, processes do not)
        f.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")
        accmode, creat, trunc = os.O_ACCMODE, os.O_CREAT, os.O_TRUNC
        for call, arg in (("open", 1), ("openat", 2)):
            f.add_rule(eperm, call, sc.Arg(arg, sc.MASKED_EQ, accmode, os.O_WRONLY))
            f.add_rule(eperm, call, sc.Arg(arg, sc.MASKED_EQ, accmode, os.O_RDWR))
            f.add_rule(eperm, call, sc.Arg(arg, sc.MASKED_EQ, creat, creat))
            f.add_rule(eperm, call, sc.Arg(arg, sc.MASKED_EQ, trunc, trunc))
        # signals only to the worker itself
        f.add_rule(eperm, "kill", sc.Arg(0, sc.NE, me))
        f.add_rule(eperm, "tgkill", sc.Arg(0, sc.NE, me))
        f.add_rule(eperm, "tkill", sc.Arg(0, sc.NE, me))
        f.add_rule(eperm, "rt_sigqueueinfo", sc.Arg(0, sc.NE, me))
        f.add_rule(eperm, "rt_tgsigqueueinfo", sc.Arg(0, sc.NE, me))
        # limits: reading any, changing only the CPU one (per call; set_cpu_limit)
        f.add_rule(eperm, "prlimit64", sc.Arg(0, sc.NE, 0))
        f.add_rule(eperm, "prlimit64", sc.Arg(1, sc.NE, resource.RLIMIT_CPU), sc.Arg(2, sc.NE, 0))
        f.load()
    except OSError as exc:
        raise LockDownFailed(f"cannot load the seccomp filter: {exc}") from None


#: CPU seconds past a spec call's safety net before the kernel stops the worker.
CPU_GRACE = 5.0


def set_cpu_limit(seconds: float) -> None:
    """Let the coming call use ``seconds`` more CPU (SIGXCPU kills the worker past it)."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    total = used.ru_utime + used.ru_stime
    soft = int(total + seconds) + 1
    hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
    if hard != resource.RLIM_INFINITY:  # a caller's own CPU limit (core/limits.py) is lower
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def lock_down(limits: Limits, parent_pid: int) -> Applied:
    """Apply every layer, in the order that keeps each possible; raise LockDownFailed."""
    applied = Applied()
    sc = _seccomp_module()
    applied.root = _drop_root()
    applied.uid = os.getuid()
    applied.rlimits = _set_rlimits(limits)
    _die_with_parent(parent_pid)  # after the uid change, which clears the setting
    _no_new_privs()
    applied.landlock_abi = _landlock()
    _seccomp(sc)
    applied.seccomp = True
    return applied
