"""A small bounded store of per-puzzle server state (generated puzzles, loaded files).

Why bounded: the server keeps the hidden solution of every puzzle it generated so hints
and checks can use it; an LRU of a few hundred entries keeps memory flat however long
the server runs.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from typing import Any

from .errors import WebError

__all__ = ["SessionStore", "new_token"]


def new_token() -> str:
    return secrets.token_hex(12)


class SessionStore:
    def __init__(self, max_items: int = 256) -> None:
        self._items: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()
        self._max = max_items

    def put(self, token: str, item: Any) -> Any:
        with self._lock:
            self._items[token] = item
            self._items.move_to_end(token)
            while len(self._items) > self._max:
                self._items.popitem(last=False)
        return item

    def get(self, token: str, what: str = "puzzle") -> Any:
        with self._lock:
            item = self._items.get(token)
            if item is not None:
                self._items.move_to_end(token)
        if item is None:
            raise WebError(
                f"this {what} is no longer on the server (it was restarted or the "
                "puzzle expired); generate or load it again",
                404,
            )
        return item
