"""Lowering a ground rule set to CNF (the RepresentationSchema), one module per job.

Why this shape: every integer (or enum) term becomes a one-hot value map ``{value: lit}``
with derived order literals ``[x >= v]`` on demand, so comparisons, sums and clue rules
all reduce to a handful of clauses; top-level counting constraints go straight to the
core cardinality encodings; clue rules are guarded by selector literals (assumptions),
so one encoding serves every clue set. Choices: ``int_encoding`` "onehot" (primary
equality literals) or "order" (primary ``>=`` literals), ``card_encoding`` any core
cardinality encoding name (seqcounter, totalizer, sortnetwrk, cardnetwrk, mtotalizer) or
"native": unguarded counts that would need auxiliary variables are kept as at-most-k
constraints in ``natives`` for a solver that propagates them natively (Minicard), the
guarded ones (clue rules) falling back to the sequential counter.

The modules: ``lowering`` (``Lowering``: shared state, Boolean connectives, clue rules,
dispatch), ``ints`` (integer terms as value maps), ``compare`` (comparisons as literals),
``counting`` (counts against constants), ``runs`` (run patterns), ``graph`` (the static
part of connectivity and loop rules). The SMT-LIB text of the same ground tree is
``grid.smtlib``.
"""

from __future__ import annotations

from .ints import INT_ENCODINGS, IntRep
from .lowering import Lowering

__all__ = ["IntRep", "Lowering", "INT_ENCODINGS"]
