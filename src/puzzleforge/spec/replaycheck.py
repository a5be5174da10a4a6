"""Check replayed config values against the spec before they are used.

Why: ``spec generate --config`` must rebuild the same puzzle or refuse. A variable missing
from the config used to be drawn afresh (another puzzle, exit 0), a value outside the
variable's domain was used as if the spec allowed it, and a bad ``_z3_seed`` ended as an
internal error. Each of these is now a rejection of the replay that names the variable
and what the spec allows; ``spec generate`` reports the config as not replayable.
"""

from __future__ import annotations

import math
from typing import Any

from .outcome import Rejection, ev

__all__ = [
    "CONFIG_MISSING",
    "CONFIG_OUT_OF_RANGE",
    "check_replayed_variable",
    "missing_value",
    "replayed_z3_seed",
    "Z3_SEED_MAX",
]

CONFIG_MISSING = "config value missing"
CONFIG_OUT_OF_RANGE = "config value out of range"
#: Z3's random_seed parameter is an unsigned 32-bit integer.
Z3_SEED_MAX = (1 << 32) - 1


def missing_value(name: str) -> Rejection:
    return Rejection(
        CONFIG_MISSING,
        f"the config has no value for variable '{name}' (it would "
        "be drawn at random, giving another puzzle; use --use-spec-vars "
        f"{name} to draw it on purpose)",
    )


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def check_replayed_variable(name: str, v: dict, value: Any, env: dict) -> None:
    """Raise Rejection when ``value`` is not one the spec's variable ``v`` could take."""
    kind = v["type"]
    if kind == "int":
        ok_type = (
            isinstance(value, int)
            and not isinstance(value, bool)
            or (isinstance(value, float) and value.is_integer())
        )
        if not ok_type:
            raise Rejection(CONFIG_OUT_OF_RANGE, f"{name}={value!r} is not a whole number")
        lo, hi = ev(v["lo"], env), ev(v["hi"], env)
        if not int(lo) <= value <= int(hi):
            raise Rejection(
                CONFIG_OUT_OF_RANGE,
                f"{name}={value!r} is outside the variable's domain [{lo}, {hi}]",
            )
    elif kind in ("float", "real"):
        number = _number(value)
        if number is None or not math.isfinite(number):
            raise Rejection(CONFIG_OUT_OF_RANGE, f"{name}={value!r} is not a finite number")
        lo, hi = ev(v["lo"], env), ev(v["hi"], env)
        if not float(lo) <= number <= float(hi):
            raise Rejection(
                CONFIG_OUT_OF_RANGE,
                f"{name}={value!r} is outside the variable's domain [{lo}, {hi}]",
            )
    elif "choices" in v:
        choices = list(ev(v["choices"], env))
        if not any(_same(value, c) for c in choices):
            shown = ", ".join(repr(c) for c in choices[:8]) + (", ..." if len(choices) > 8 else "")
            raise Rejection(
                CONFIG_OUT_OF_RANGE,
                f"{name}={value!r} is not one of the variable's choices ({shown})",
            )


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON would store them (tuples and lists alike)."""
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=False))
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - exotic values compare unequal
        return False


def replayed_z3_seed(seed: Any) -> int:
    """A replayed ``_z3_seed`` as Z3 takes it, or a Rejection saying what is wrong."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= Z3_SEED_MAX:
        raise Rejection(
            CONFIG_OUT_OF_RANGE, f"_z3_seed={seed!r} is not a whole number from 0 to {Z3_SEED_MAX}"
        )
    return seed
