"""Keep freed heap memory in the process for reuse (glibc), for specs with a Z3 context per attempt.

Why: a ``post_generation`` spec creates a fresh Z3 context for every attempt
(spec/attempt.py ``SpecZ3Contexts``). A context allocates about 16 MB of tables; with
glibc's default thresholds those blocks are mapped fresh from the kernel and returned
to it when the context is deleted, so every attempt paid some 1,500-4,000 page faults:
on 11-wine 2.7 ms of kernel time per attempt in context creation alone (a tenth of the
attempt). With blocks under ``MMAP_THRESHOLD`` served from the heap and up to
``TRIM_THRESHOLD`` of free heap kept, the next context reuses the same pages.

The cost is memory the process keeps after it frees it: at most ``TRIM_THRESHOLD`` of
free heap top, never more than its peak. Nothing else changes (addresses do, but Z3
and the engine never order anything by address). Other C libraries (musl, macOS) are
left alone; ``PUZZLEFORGE_SPEC_HEAP_REUSE=0`` turns it off.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
import threading

__all__ = ["keep_freed_heap", "MMAP_THRESHOLD", "TRIM_THRESHOLD"]

#: Blocks below this size come from the heap (glibc's own adaptive maximum is 32 MB).
MMAP_THRESHOLD = 32 << 20
#: Free memory at the top of the heap kept instead of being returned to the kernel.
TRIM_THRESHOLD = 64 << 20
_M_TRIM_THRESHOLD = -1  # glibc's mallopt parameter numbers (malloc.h)
_M_MMAP_THRESHOLD = -3

_lock = threading.Lock()
_done: list[bool] = []


def keep_freed_heap() -> bool:
    """Set the glibc thresholds once per process; True if they are in force."""
    with _lock:
        if not _done:
            _done.append(_apply())
        return _done[0]


def _apply() -> bool:
    if os.environ.get("PUZZLEFORGE_SPEC_HEAP_REUSE", "1") == "0" or not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.gnu_get_libc_version  # glibc only: other libcs' mallopt differ or are stubs
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))
