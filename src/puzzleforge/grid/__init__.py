"""The grid engine: the LogicPuzzles DSL (seeds/002) end to end.

Rules are written once, size-independent, over cells, edges and vertices; they compile
to an IR (pretty-printable), are grounded once Params are bound, lowered to CNF for an
incremental SAT session (clues as assumptions) or printed as SMT-LIB 2. Genres live in
``grid/genres/``; ``grid.api`` is what the CLI and the web app call.
"""
from .domains import Bool, DSLError, Enum, Int
from .ir import (
    Add,
    And,
    BoolConst,
    Const,
    CountTrue,
    Div,
    EnumConst,
    Eq,
    Exists,
    ForAll,
    Ge,
    Gt,
    If,
    Implies,
    IntConst,
    Le,
    Lt,
    Mul,
    Ne,
    Not,
    Or,
    Param,
    Range,
    Sub,
    Sum,
    Var,
    exists,
    forall,
)
from .model import ClueSpec, Grid, Model, all_different, balanced, exactly_k_true, no_triples
from .primitives import connected, islands, runs_match, single_loop
from .topology import Cell, Edge, Line, Vertex

__all__ = [
    "Bool", "Enum", "Int", "DSLError", "Param", "Var", "Const", "Grid", "Model", "ClueSpec",
    "And", "Or", "Not", "Implies", "Eq", "Ne", "Lt", "Le", "Gt", "Ge", "Add", "Sub", "Mul",
    "Div", "Sum", "CountTrue", "ForAll", "Exists", "forall", "exists", "If", "Range",
    "BoolConst", "IntConst", "EnumConst", "balanced", "exactly_k_true", "no_triples",
    "all_different", "connected", "single_loop", "islands", "runs_match", "Cell", "Edge", "Vertex", "Line",
]
