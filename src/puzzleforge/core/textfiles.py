"""Read a user's text file with errors that name it.

Why: ``Path.read_text`` on a binary or Latin-1 file raises a bare UnicodeDecodeError with
no file name, which the CLI could only report as an internal error.
"""

from __future__ import annotations

from pathlib import Path

from .errors import InvalidDescription

__all__ = ["read_text_file"]


def read_text_file(path: str | Path) -> str:
    """The file's text (UTF-8), or InvalidDescription naming the file and the bad byte.

    Missing or unreadable files raise the usual OSError (the CLI names the file for those).
    """
    data = Path(path).read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidDescription(
            f"not UTF-8 text (byte {data[exc.start : exc.start + 1]!r} at offset {exc.start})",
            file=str(path),
            expected="a UTF-8 text file",
        ) from None
