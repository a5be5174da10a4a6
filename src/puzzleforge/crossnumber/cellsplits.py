"""Every way a number's text can be cut into a row of cell values.

Why a cache of its own: with multi-digit cell values (``cell_values``) an entry's text has
many possible cuts, and the same (text, cells) pair is asked for again and again while
propagating; the answer depends only on the puzzle's cell values, never on the domains.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["CellSplits"]


class CellSplits:
    """The cuts of a text into cells, for one puzzle's set of valid cell values."""

    def __init__(self, cell_values: Iterable[str]) -> None:
        values = list(cell_values)
        self.max_cell_len = max(len(v) for v in values)
        self._valid = frozenset(values)
        self._cache: dict[tuple[str, int], list[tuple[str, ...]]] = {}

    def __call__(self, s: str, n: int) -> list[tuple[str, ...]]:
        """Every way to cut s into n valid cell values (cached: independent of domains)."""
        key = (s, n)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        out: list[tuple[str, ...]] = []
        valid = self._valid
        max_len = self.max_cell_len
        if n <= len(s) <= n * max_len:

            def rec(i: int, pos: int, acc: list[str]) -> None:
                if i == n:
                    if pos == len(s):
                        out.append(tuple(acc))
                    return
                rest = len(s) - pos
                if rest < n - i or rest > (n - i) * max_len:
                    return
                for ln in range(1, max_len + 1):
                    piece = s[pos : pos + ln]
                    if len(piece) == ln and piece in valid:
                        acc.append(piece)
                        rec(i + 1, pos + ln, acc)
                        acc.pop()

            rec(0, 0, [])
        self._cache[key] = out
        return out
