"""Grounding: bind Params and instance data, expand quantifiers and aggregates.

Why a ground tree between the IR and the back ends: both the CNF lowering and the
SMT-LIB printer start from the same fully expanded, constant-folded formula over variable
instances ``('v', var, entity)``, so the two outputs cannot drift apart.

The modules: ``nodes`` (the ground tuples, ``gtype`` and the folding constructors),
``sets`` (set and entity expressions to concrete members), ``exprs`` (IR expressions to
ground nodes), ``grounder`` (``Grounder``: the binding and the rule-level expansion).
"""

from __future__ import annotations

from .grounder import Grounder
from .nodes import FALSE, TRUE, gtype, mk_add, mk_and, mk_cmp, mk_not, mk_or

__all__ = ["Grounder", "TRUE", "FALSE", "gtype", "mk_and", "mk_or", "mk_not", "mk_cmp", "mk_add"]
