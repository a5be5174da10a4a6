"""One writer per output: an exclusive lock file beside it for the length of a run.

Why: a second run into the same output (or a ``--resume`` while the first still runs)
would interleave its chunks with the first run's in the journal. ``flock`` is released by
the kernel even on ``kill -9``, so a stale lock file never blocks a later run.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..core.errors import ConfigError
from .summary import sidecar

__all__ = ["output_lock"]


@contextmanager
def output_lock(out: Path) -> Iterator[None]:
    """Hold ``<out>.lock`` exclusively, or raise ConfigError at once if a run holds it.

    The lock file is removed when the run ends (a stale one after kill -9 is simply
    reused); a waiter that finds the file replaced under it takes the new one."""
    lock_path = sidecar(out, "lock")
    for _ in range(50):
        fh = open(lock_path, "a+b")  # noqa: SIM115 - closed below
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            fh.close()
            raise ConfigError(
                "another puzzleforge run is writing this output now",
                file=str(out),
                expected="one run per output; wait for it or choose another --out",
            ) from None
        try:
            same = os.stat(lock_path).st_ino == os.fstat(fh.fileno()).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        fh.close()  # the previous holder removed it while we waited: take the new one
    else:  # pragma: no cover - 50 writers racing
        raise ConfigError(
            "the output's lock keeps changing", file=str(out), expected="one run per output"
        )
    try:
        yield
    finally:
        # while still holding it: no one else owns this inode
        lock_path.unlink(missing_ok=True)
        fh.close()
