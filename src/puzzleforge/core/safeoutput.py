"""Write output files so that nothing is ever destroyed by a failed or interrupted run.

Why one module: every ``--out`` (datasets, spec JSONL, grid instances, PDFs, JSON reports)
used to open its path for writing directly, which turned a FIFO or a device node into a
regular file, emptied an existing file when generation then failed, and left half-written
files after a crash. Every writer now goes through here:

* only regular files are written: an existing FIFO, device node, socket or directory at the
  path is refused with a clear error naming the option (``check_output_path``);
* data goes to ``<path>.partial`` in the same folder (same filesystem, so the final
  ``os.replace`` is atomic) and replaces the path only once complete and fsynced, so an
  existing file stays untouched until then and is never left half-written;
* the ``.partial`` file is held under an exclusive ``flock`` while it is written, so two runs
  writing the same output are refused instead of interleaving; the lock lives and dies
  with the file descriptor (the kernel drops it on ``kill -9``), no separate lock file;
* on failure the ``.partial`` file is removed, or, for streamed outputs whose records are
  worth keeping (``keep_partial=True``), left beside the untouched original and named in
  the error, as it is after ``kill -9``.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
from pathlib import Path
from typing import IO, Any

from .errors import ConfigError, PuzzleForgeError

__all__ = [
    "check_output_path",
    "check_output_dir",
    "partial_path",
    "AtomicOutput",
    "StreamOutput",
    "write_atomic",
    "fsync_dir",
    "describe_kind",
]


def describe_kind(mode: int) -> str:
    """'a FIFO', 'a directory', ... for an ``os.stat`` mode (what we refuse to overwrite)."""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def check_output_path(path: str | os.PathLike[str], *, option: str = "--out") -> Path:
    """The real path to write ``path`` to; refuse anything that is not a regular file.

    Symlinks are followed (the link's target is what gets replaced, the link stays).
    """
    path = Path(path)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except NotADirectoryError:
        raise ConfigError(
            f"'{path}' lies under something that is not a folder",
            field=option,
            expected="a file path in an existing folder",
        ) from None
    if mode is not None and not stat.S_ISREG(mode):
        raise ConfigError(
            f"'{path}' is {describe_kind(mode)}; puzzleforge writes only regular "
            "files and leaves anything else alone",
            field=option,
            expected="a path to a regular file or a new file name",
        )
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def check_output_dir(path: str | os.PathLike[str], *, option: str = "--out") -> Path:
    """A directory output (Parquet shards): an existing path must be a directory."""
    path = Path(path)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return path
    if not stat.S_ISDIR(mode):
        raise ConfigError(
            f"'{path}' is {describe_kind(mode) if not stat.S_ISREG(mode) else 'a file'}",
            field=option,
            expected="a directory (or a new name) for the shards",
        )
    return path


def partial_path(path: str | os.PathLike[str]) -> Path:
    """Where the output is written until it is complete: ``<path>.partial``."""
    path = Path(path)
    return path.with_name(path.name + ".partial")


def fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable (best effort: not every filesystem allows it)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _open_locked(path: Path, option: str) -> int:
    """Open ``path`` (created if missing), exclusively flocked, and verified to still be
    the file at ``path`` (another writer may have renamed it away in between)."""
    for _ in range(50):
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise ConfigError(
                "another puzzleforge run is writing this output now",
                file=str(path.with_name(path.name.removesuffix(".partial"))),
                field=option,
                expected="one run per output; wait for it or choose another path",
            ) from None
        try:
            same = os.stat(path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)
    raise ConfigError(
        "the output keeps changing under this run",
        file=str(path),
        field=option,
        expected="one run per output",
    )


class AtomicOutput:
    """Context manager: a file object on ``<path>.partial``, renamed over ``path`` on success.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp()); (d / "a.txt").write_text("old")
    3
    >>> try:
    ...     with AtomicOutput(d / "a.txt") as fh:
    ...         _ = fh.write("new, but the run fails")
    ...         raise ValueError("boom")
    ... except ValueError:
    ...     pass
    >>> (d / "a.txt").read_text(), sorted(p.name for p in d.iterdir())
    ('old', ['a.txt'])

    ``keep_partial``: on failure keep a non-empty ``.partial`` (its records are worth having)
    and name it in the PuzzleForgeError's hint. ``binary`` opens the file in bytes mode.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        option: str = "--out",
        binary: bool = False,
        keep_partial: bool = False,
        encoding: str = "utf-8",
    ) -> None:
        self.path = check_output_path(path, option=option)
        self.option = option
        self.binary = binary
        self.keep_partial = keep_partial
        self.encoding = encoding
        self.partial = partial_path(self.path)
        self._fh: IO[Any] | None = None

    def __enter__(self) -> IO[Any]:
        try:
            mode = os.stat(self.partial).st_mode
        except FileNotFoundError:
            mode = None
        if mode is not None and not stat.S_ISREG(mode):
            raise ConfigError(
                f"'{self.partial}' (where the output is written until complete) "
                f"is {describe_kind(mode)}",
                field=self.option,
                expected="nothing or a regular file at that path",
            )
        fd = _open_locked(self.partial, self.option)
        os.ftruncate(fd, 0)
        self._fh = (
            os.fdopen(fd, "wb")
            if self.binary
            else os.fdopen(fd, "w", encoding=self.encoding, newline="")
        )
        return self._fh

    def __exit__(self, exc_type: Any, exc: BaseException | None, tb: Any) -> None:
        if exc_type is None:
            self.commit()
        else:
            self.abort(exc)

    def commit(self) -> None:
        """Flush, fsync and rename the complete ``.partial`` over the path."""
        fh = self._fh
        if fh is None:
            return
        self._fh = None
        try:
            fh.flush()
            os.fsync(fh.fileno())
            with contextlib.suppress(FileNotFoundError):
                os.chmod(self.partial, stat.S_IMODE(os.stat(self.path).st_mode))
            os.replace(self.partial, self.path)
        except BaseException:
            _unlink(self.partial)
            fh.close()
            raise
        fh.close()
        fsync_dir(self.path.parent)

    def abort(self, exc: BaseException | None = None) -> bool:
        """Leave the path untouched; keep a non-empty ``.partial`` if ``keep_partial``.

        Returns whether the partial file was kept; a PuzzleForgeError ``exc`` gets a hint
        naming it.
        """
        fh = self._fh
        if fh is None:
            return False
        self._fh = None
        try:
            fh.flush()
            kept = self.keep_partial and os.fstat(fh.fileno()).st_size > 0
        except OSError:
            kept = False
        if not kept:
            _unlink(self.partial)  # while still locked: no other writer can own it yet
        fh.close()
        if kept and isinstance(exc, PuzzleForgeError):
            note = (
                f"{self.path} was left unchanged; the records made before the failure "
                f"are in {self.partial}"
            )
            exc.hint = f"{exc.hint.rstrip('.')}. {note}" if exc.hint else note
            exc.args = (exc._compose(),)
        return kept


class StreamOutput:
    """A text stream for record-by-record writers (``spec generate --out``).

    Records go to ``<path>.partial`` (the writer may flush and fsync each one, so ``kill
    -9`` keeps them there); ``commit()`` publishes the complete file, ``close()`` without a
    commit leaves the path untouched and keeps a non-empty ``.partial``.
    """

    def __init__(
        self, path: str | os.PathLike[str], *, option: str = "--out", keep_partial: bool = True
    ) -> None:
        self._writer = AtomicOutput(path, option=option, keep_partial=keep_partial)
        self._fh = self._writer.__enter__()
        self.path = self._writer.path
        self.partial = self._writer.partial

    def write(self, text: str) -> int:
        return self._fh.write(text)

    def flush(self) -> None:
        self._fh.flush()

    def fileno(self) -> int:
        return self._fh.fileno()

    def commit(self) -> None:
        self._writer.commit()

    def close(self, exc: BaseException | None = None) -> bool:
        """Abort unless committed; returns whether a ``.partial`` file was kept."""
        return self._writer.abort(exc)


def _unlink(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    except OSError as exc:  # pragma: no cover - read-only folder after a successful open
        if exc.errno != errno.ENOENT:
            raise


def write_atomic(path: str | os.PathLike[str], data: str | bytes, *, option: str = "--out") -> Path:
    """Write ``data`` to ``path`` through ``AtomicOutput``; returns the path written."""
    writer = AtomicOutput(path, option=option, binary=isinstance(data, bytes))
    with writer as fh:
        fh.write(data)
    return writer.path
