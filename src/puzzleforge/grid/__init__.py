"""The grid engine: the LogicPuzzles DSL (seeds/002) end to end.

Rules are written once, size-independent, over cells, edges and vertices; they compile
to an IR (pretty-printable), are grounded once Params are bound, lowered to CNF for an
incremental SAT session (clues as assumptions) or printed as SMT-LIB 2. Genres live in
``grid/genres/``; ``grid.api`` is what the CLI and the web app call.
"""

from .domains import Bool, DSLError, Enum, Int
from .ir import *  # noqa: F403 - the IR's public names, listed once: grid/ir/__init__.py __all__
from .ir import __all__ as _IR_NAMES
from .model import ClueSpec, Grid, Model, all_different, balanced, exactly_k_true, no_triples
from .primitives import connected, islands, runs_match, single_loop
from .topology import Cell, Edge, Line, Vertex

__all__ = [
    *_IR_NAMES,  # Param, Var, Const, And, Or, Sum, forall, ... (grid/ir/__init__.py)
    "Bool",
    "Enum",
    "Int",
    "DSLError",
    "Grid",
    "Model",
    "ClueSpec",
    "balanced",
    "exactly_k_true",
    "no_triples",
    "all_different",
    "connected",
    "single_loop",
    "islands",
    "runs_match",
    "Cell",
    "Edge",
    "Vertex",
    "Line",
]
