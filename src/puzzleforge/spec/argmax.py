"""When an optimisation puzzle needs its optimal configuration (the argmax) proven unique.

Why: a question that reads the optimal configuration ("how many trucks of type A?",
46-elevator's "which floor?") has one right answer only when exactly one configuration
reaches the optimum. The original tool and this engine before issue 23 rejected several
optima only when the spec said ``max_solution: 1``; otherwise they answered with one of
them, and every other optimal configuration was a correct answer scored 0 (6-partition:
39 of 40 puzzles had 17-30 correct answer sets). So an attempt is rejected with
``multiple optima`` unless the optimum value *and* its argmax are proven unique whenever

* the spec says ``max_solution: 1``, or
* the question reads the configuration: a query or the description names ``_solutions``
  (or ``_sol``), the optimal model, instead of only ``_value``.

A question that reads only ``_value`` (5-knapsack: "the largest total value") has one
answer however many configurations reach it, and keeps its puzzles. "Proven" means: the
finite-domain path saw every assignment; the LP path certified a unique optimal vertex;
the Z3 paths ran a second solve with the objective fixed at the optimum and the argmax
excluded, and it answered unsat (unknown there is ``uniqueness undecided``).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any

from .outcome import Rejection

__all__ = ["argmax_matters", "needs_unique_optimum", "multiple_optima", "CONFIG_NAMES"]

#: The names through which a question reads the optimal configuration.
CONFIG_NAMES = re.compile(r"(?<![A-Za-z0-9_])(_solutions|_sol)(?![A-Za-z0-9_])")
_CACHE_ATTR = "_pf_argmax_matters"


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def argmax_matters(spec: Any) -> bool:
    """True when the spec's queries or description read the optimal configuration.

    Read from the spec's YAML text (``spec.raw``): every expression and template of
    ``queries`` and ``desc``. Computed once per loaded spec.
    """
    cached = getattr(spec, _CACHE_ATTR, None)
    if cached is None:
        raw = getattr(spec, "raw", None) or {}
        parts = [raw.get("queries"), raw.get("desc")]
        cached = any(CONFIG_NAMES.search(s) for s in _strings(parts))
        with contextlib.suppress(AttributeError):  # a frozen stand-in: recompute next time
            setattr(spec, _CACHE_ATTR, cached)
    return cached


def needs_unique_optimum(spec: Any) -> bool:
    """True when several optimal configurations must reject the attempt (see the module doc)."""
    return spec.max_solution == 1 or argmax_matters(spec)


def multiple_optima(value: Any) -> Rejection:
    """The rejection of an attempt whose optimum is reached by more than one configuration."""
    return Rejection("multiple optima", f"more than one optimal solution with value {value}")
