"""Stage 3 of an attempt: the conditions, built into one constraint model.

Each condition's text and drawn values go into the namespace (``conditions``, its
name); its formula goes into the model: as Python terms while the attempt is in the term
model (spec/columnmode.py), else as Z3 assertions (spec/model.py), followed by the
finite-domain pre-check that rejects contradictory condition sets at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .columnmode import column_start, condition_formula
from .configcodec import parse_index
from .model import precheck
from .outcome import Rejection, ev
from .sampling import select, sources_of, values_at
from .schema import Selection
from .selection import as_config
from .symbols import CondText

if TYPE_CHECKING:
    from .attempt import Attempt

__all__ = ["build_conditions"]


def build_conditions(a: Attempt) -> None:
    """Every condition: its text, its drawn values, and its formula into the model."""
    env = a.env
    column_start(a)
    for name, c in a.spec.conditions.items():
        a.check_time()
        if c["kind"] == "static":
            d = ev(c["desc"], env) if c["desc"] is not None else ""
            env[name] = d
            a.cond_text += d or ""
            env["conditions"] = a.cond_text
            condition_formula(a, c["formula"])
            continue
        sel: Selection = c["selection"]
        found, stored = a.from_config(name)
        if found and isinstance(stored, dict) and "pool" in stored:
            num = int(stored.get("domain", len(stored["pool"])))
            indices = parse_index(stored["pool"])
            sources = sources_of(a, sel)
        else:
            if c["domain"] is not None:
                lo, hi = ev(c["domain"][0], env), ev(c["domain"][1], env)
                lo, hi = int(lo), int(hi)
                if lo > hi:
                    raise Rejection("empty condition count range", f"{name}: [{lo}, {hi}]")
                num = a.rng.randint(lo, hi)
            else:
                num = 1
            sources = sources_of(a, sel)
            indices = select(a, sel, sources, num)
        a.config[name] = {"domain": num, "pool": as_config(indices)}
        values = [values_at(sources, item) for item in indices]
        text = ""
        for i, (item, v) in enumerate(zip(indices, values, strict=False)):
            env["_index"] = i
            env["_sym"] = v if c["has_amount"] else [x[0] for x in v]
            env["_ind"] = item if c["has_amount"] else [x[0] for x in item]
            condition_formula(a, c["formula"])
            text += ev(c["desc"], env) or ""
        obj = CondText(text, values, num)
        env[name] = obj
        a.cond_text += text
        env["conditions"] = a.cond_text
    env["conditions"] = a.cond_text
    if a.col is None:  # in the mode, exhaustive evaluation decides (or Z3 later)
        precheck(a)
