"""Variable pool: tuple keys <-> positive DIMACS ints.

Why: solver variables are named by structured keys (``("x", r, c, v)``), never strings
that get parsed back; encodings and backends share one pool so auxiliary variables never
collide with named ones.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

__all__ = ["VarPool"]


class VarPool:
    """Maps hashable keys to consecutive variable ids starting at 1.

    >>> pool = VarPool()
    >>> pool.id(("x", 0, 0)), pool.id(("x", 0, 1)), pool.id(("x", 0, 0))
    (1, 2, 1)
    >>> pool.key(2)
    ('x', 0, 1)
    >>> pool.fresh()  # anonymous auxiliary variable
    3
    """

    def __init__(self) -> None:
        self._ids: dict[Hashable, int] = {}
        self._keys: dict[int, Hashable] = {}
        self.top = 0

    def id(self, key: Hashable) -> int:
        var = self._ids.get(key)
        if var is None:
            self.top += 1
            var = self.top
            self._ids[key] = var
            self._keys[var] = key
        return var

    def fresh(self) -> int:
        """A new variable with no key (auxiliary)."""
        self.top += 1
        return self.top

    def reserve_upto(self, top: int) -> None:
        """Mark ids up to ``top`` as used (after an encoding allocated auxiliaries)."""
        if top > self.top:
            self.top = top

    def key(self, var: int) -> Hashable | None:
        return self._keys.get(abs(var))

    def has(self, key: Hashable) -> bool:
        return key in self._ids

    def named(self) -> Iterable[tuple[Hashable, int]]:
        return self._ids.items()

    def __len__(self) -> int:
        return self.top
