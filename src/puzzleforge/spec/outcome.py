"""The outcomes of a generation attempt other than success, and the guarded evaluator.

Why a module of its own: every step of an attempt (sampling, solving, questions) raises
these and evaluates spec expressions through ``ev``; keeping them here lets those modules
and ``attempt.py`` (which re-exports them) import them without an import cycle.
"""

from __future__ import annotations

from typing import Any

from .safe import SafeCode

__all__ = ["Rejection", "ExprFailure", "ev", "UNDECIDED", "undecided"]

#: The rejection reason of an attempt whose uniqueness check Z3 left undecided (unknown,
#: work budget used up): no proof, no puzzle (issue 23, "proof or nothing").
UNDECIDED = "uniqueness undecided"


class Rejection(Exception):
    """The random parameters of this attempt do not give a valid puzzle."""

    def __init__(self, reason: str, detail: str = "") -> None:
        self.reason = reason
        self.detail = detail
        super().__init__(f"{reason}: {detail}" if detail else reason)


def undecided(detail: str) -> Rejection:
    """The rejection of an attempt whose answer Z3 could not prove unique.

    Why reject rather than keep (the original tool's rule, which ends its enumeration at
    the first undecided check and keeps the puzzle): on 18-numbers 13 of 25 puzzles kept
    that way had a second correct answer. A puzzle is emitted only with a proof.
    """
    return Rejection(UNDECIDED, detail)


class ExprFailure(Exception):
    """A spec expression raised while evaluating (names the field, line and source)."""

    def __init__(self, code: SafeCode, exc: BaseException) -> None:
        self.code = code
        self.exc = exc
        super().__init__(f"{code.where}: {type(exc).__name__}: {exc}")


def ev(code: SafeCode, env: dict) -> Any:
    try:
        return code.run(env)
    except (Rejection, ExprFailure):
        raise
    except RecursionError as exc:
        raise ExprFailure(code, exc) from None
    except Exception as exc:  # noqa: BLE001 - any error of user code is reported with its location
        raise ExprFailure(code, exc) from None
