"""Exhaustive finite-domain solving: evaluate the constraints over every assignment at once.

Why: most spec puzzles have a handful of Boolean or small-range integer symbols (a
knapsack of 12 items is 4096 assignments). Evaluating the constraints, vectorised with
numpy over *all* assignments of the symbols, gives the complete solution set (and an
optimum with its multiplicity) with no solver call; enumerating every assignment is
itself the proof. It is exact: integer arithmetic in int64 with every operation's result
bounded before it is computed (a possible overflow abandons the fast path), and any
operator it does not model exactly (division by a term that may be zero, reals, arrays,
powers, ...) abandons it too, so the caller falls back to Z3.

The space is ordered lexicographically (first constant most significant, False < True,
integers ascending), so solutions come out in the canonical order the Z3 path sorts to.

This module is the front end: it compiles the constraints (Z3 terms through the C API,
or spec/terms.py's Python-built nodes) into one IR node list; spec/finitespace.py
evaluates that list over the assignment space, once spec/finitedomains.py has found it
small enough: only then are it and numpy imported (``_evaluate``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import z3
from z3 import z3core as zc

from .finitedomains import _CONST, _LIT, _NUM, MAX_ASSIGNMENTS, Unsupported, space_plan
from .z3raw import RAW, ptr
from .z3raw import unchecked as _raw

if TYPE_CHECKING:
    from .finitespace import FiniteProblem

__all__ = [
    "FiniteWalk",
    "compile_finite",
    "compile_terms",
    "walk_finite",
    "MAX_ASSIGNMENTS",
]

_NUM_AST = z3.Z3_NUMERAL_AST
_APP_AST = z3.Z3_APP_AST
_BOOL = z3.Z3_BOOL_SORT
_INT = z3.Z3_INT_SORT


class _Wrapped:
    """The z3core accessors without their error check, under ``RawAPI``'s names.

    The fallback when spec/z3raw.py could not declare the plain-pointer functions; the
    walk then passes z3core's pointer objects instead of integers.
    """

    get_ast_id = staticmethod(_raw("Z3_get_ast_id"))
    get_ast_kind = staticmethod(_raw("Z3_get_ast_kind"))
    get_sort = staticmethod(_raw("Z3_get_sort"))
    get_sort_kind = staticmethod(_raw("Z3_get_sort_kind"))
    to_app = staticmethod(_raw("Z3_to_app"))
    get_app_decl = staticmethod(_raw("Z3_get_app_decl"))
    get_decl_kind = staticmethod(_raw("Z3_get_decl_kind"))
    get_app_num_args = staticmethod(_raw("Z3_get_app_num_args"))
    get_app_arg = staticmethod(_raw("Z3_get_app_arg"))
    get_numeral_string = staticmethod(zc.Z3_get_numeral_string)


_API: Any = RAW if RAW is not None else _Wrapped


def _p(obj: Any) -> Any:
    """What the walk passes for a z3core pointer object: its address, or the object."""
    return ptr(obj) if RAW is not None else obj


_TRUE, _FALSE, _UNINTERPRETED = z3.Z3_OP_TRUE, z3.Z3_OP_FALSE, z3.Z3_OP_UNINTERPRETED

# IR opcodes
_OPS = {
    z3.Z3_OP_AND: "and",
    z3.Z3_OP_OR: "or",
    z3.Z3_OP_NOT: "not",
    z3.Z3_OP_IMPLIES: "implies",
    z3.Z3_OP_XOR: "xor",
    z3.Z3_OP_EQ: "eq",
    z3.Z3_OP_DISTINCT: "distinct",
    z3.Z3_OP_ITE: "ite",
    z3.Z3_OP_LE: "le",
    z3.Z3_OP_LT: "lt",
    z3.Z3_OP_GE: "ge",
    z3.Z3_OP_GT: "gt",
    z3.Z3_OP_ADD: "add",
    z3.Z3_OP_SUB: "sub",
    z3.Z3_OP_UMINUS: "neg",
    z3.Z3_OP_MUL: "mul",
    z3.Z3_OP_IDIV: "div",
    z3.Z3_OP_MOD: "mod",
}
if hasattr(z3, "Z3_OP_IFF"):
    _OPS[z3.Z3_OP_IFF] = "eq"


class _Compiler:
    """Z3 DAG -> list of IR nodes (op, args) in topological order, through the C API."""

    def __init__(self, ctx: Any, const_index: dict[int, int]) -> None:
        self.cref = _p(ctx.ref())
        self.const_index = const_index
        self.memo: dict[int, int] = {}
        self.nodes: list[tuple] = []
        self.used: set[int] = set()
        #: with ``compile_finite(kinds=None)``: the sort kinds of the constants met
        self.kinds: list | None = None

    def node(self, a: Any) -> int:
        # unchecked library calls (spec/z3raw.py): these accessors cannot fail on a live
        # AST of this context, and the checked wrappers cost several times as much. With
        # plain addresses, a live AST's address is its key (terms are hash-consed) and
        # Z3_to_app, a cast, is skipped
        c, api = self.cref, _API
        key = a if RAW is not None else api.get_ast_id(c, a)
        got = self.memo.get(key)
        if got is not None:
            return got
        kind = api.get_ast_kind(c, a)
        if kind == _NUM_AST:
            if api.get_sort_kind(c, api.get_sort(c, a)) != _INT:
                raise Unsupported("non-integer numeral")
            ir: tuple = (_NUM, int(api.get_numeral_string(c, a)))
        elif kind == _APP_AST:
            app = a if RAW is not None else api.to_app(c, a)
            dk = api.get_decl_kind(c, api.get_app_decl(c, app))
            n = api.get_app_num_args(c, app)
            if dk == _TRUE:
                ir = (_LIT, True)
            elif dk == _FALSE:
                ir = (_LIT, False)
            elif dk == _UNINTERPRETED and n == 0:
                idx = self.const_index.get(key)
                if idx is None:
                    raise Unsupported("a constant outside the projection")
                if self.kinds is not None and self.kinds[idx] is None:  # sorts read here
                    sk = api.get_sort_kind(c, api.get_sort(c, a))
                    if sk != _BOOL and sk != _INT:
                        raise Unsupported("a constant outside Bool/Int")
                    self.kinds[idx] = sk
                self.used.add(idx)
                ir = (_CONST, idx)
            else:
                op = _OPS.get(dk)
                if op is None:
                    raise Unsupported(f"operator kind {dk}")
                # no sort check needed here: an operator over reals, bit-vectors or other
                # sorts bottoms out in a numeral or constant of that sort, refused above
                # (constants outside Bool/Int are refused by compile_finite)
                arg, memo = api.get_app_arg, self.memo
                kids = [arg(c, app, i) for i in range(n)]
                # a child already compiled is looked up here, not in a call (with plain
                # addresses the child is its own key; otherwise node() finds it by id)
                ir = (op, tuple([memo[k] if k in memo else self.node(k) for k in kids]))
        else:
            raise Unsupported("quantifier or variable")
        self.nodes.append(ir)
        idx = len(self.nodes) - 1
        self.memo[key] = idx
        return idx


#: Deepest Python-built term walked (deeper: None, and the caller's Z3 path decides,
#: exactly as before, whether its own recursive walk can take it).
_MAX_TERM_DEPTH = 200


def _evaluate(
    nodes: list[tuple],
    roots: list[int],
    obj: int | None,
    used: list[int],
    kinds: list[int],
    limit: int | None,
) -> tuple[FiniteProblem, Any] | None:
    """finitespace's evaluation of a node list, or None when its space is too large.

    Why here: the size is decided without numpy (``space_plan``), so specs whose spaces are
    all too large for the exhaustive path (their backends: SAT, Z3) never import numpy."""
    plan = space_plan(nodes, roots, obj, used, kinds)
    if plan is None:
        return None
    from .finitespace import evaluate_space

    return evaluate_space(nodes, plan, obj, used, kinds, limit)


def compile_finite(
    assertions: Sequence[Any],
    consts: Sequence[Any],
    kinds: Sequence[int],
    objective: Any = None,
    limit: int | None = None,
) -> tuple[FiniteProblem, Any] | None:
    """Evaluate ``assertions`` (and ``objective``) over all assignments, or None if not exact.

    ``consts`` is the projection (the symbols' constants) and fixes the order of the
    space; the problem may only use constants among them. Returns the problem and the
    objective's values over the satisfying rows (None without objective). With
    ``limit``, evaluation stops once more than ``limit`` solutions are found.
    """
    if not assertions or any(k not in (_BOOL, _INT) for k in kinds):
        return None
    try:
        got = _compile(assertions, consts, list(kinds), objective)
        if got is None:
            return None
        comp, roots, obj = got
        return _evaluate(comp.nodes, roots, obj, sorted(comp.used), list(kinds), limit)
    except (Unsupported, RecursionError):
        return None
    except z3.Z3Exception:
        return None


def _compile(
    assertions: Sequence[Any], consts: Sequence[Any], kinds: list | None, objective: Any = None
) -> tuple[_Compiler, list[int], int | None] | None:
    """The walk of ``compile_finite`` (raises Unsupported); None for a non-integer objective.

    ``kinds`` None: the sorts of the constants met are read during the walk (into
    ``comp.kinds``), and one outside Bool/Int is refused.
    """
    ctx = assertions[0].ctx
    cref = ctx.ref()
    c = _p(cref)
    # the compiler's key of a constant: its address (plain calls) or its AST id
    index = {
        (_p(k.as_ast()) if RAW is not None else _API.get_ast_id(c, k.as_ast())): i
        for i, k in enumerate(consts)
    }
    comp = _Compiler(ctx, index)
    if kinds is None:
        comp.kinds = [None] * len(consts)
    roots = [comp.node(_p(a.as_ast())) for a in assertions]
    obj = None
    if objective is not None:
        if zc.Z3_get_sort_kind(cref, zc.Z3_get_sort(cref, objective.as_ast())) != _INT:
            return None
        obj = comp.node(_p(objective.as_ast()))
    return comp, roots, obj


class FiniteWalk:
    """Constraints compiled for exhaustive evaluation, projected on the constants that occur.

    ``walk_finite`` makes it from a projection that may hold more constants (all the
    symbols' constants): ``consts``/``kinds`` are then the ones that occur, in projection
    order, and ``evaluate`` gives exactly ``compile_finite(assertions, consts, kinds)``
    (same nodes in the same order, renumbered on that projection). Why: the caller
    needs those constants anyway, and finding them took a walk of its own.
    """

    def __init__(
        self,
        assertions: Sequence[Any],
        comp: _Compiler,
        roots: list[int],
        projection: Sequence[Any],
    ) -> None:
        self.assertions = assertions
        order = sorted(comp.used)
        kinds = comp.kinds or []
        self.consts = [projection[i] for i in order]
        self.kinds = [kinds[i] for i in order]
        pos = {i: k for k, i in enumerate(order)}
        self.nodes = [(op, pos[args]) if op == _CONST else (op, args) for op, args in comp.nodes]
        self.roots = roots

    def evaluate(self, limit: int | None = None) -> tuple[FiniteProblem, Any] | None:
        """``compile_finite(self.assertions, self.consts, self.kinds, limit=limit)``."""
        try:
            return _evaluate(
                self.nodes, self.roots, None, list(range(len(self.consts))), list(self.kinds), limit
            )
        except (Unsupported, RecursionError):
            return None


def walk_finite(assertions: Sequence[Any], projection: Sequence[Any]) -> FiniteWalk | None:
    """``assertions`` compiled over ``projection``, or None where ``compile_finite`` refuses.

    None when a constant outside ``projection`` or outside Bool/Int occurs, or an
    operator the evaluator does not model; evaluation may still refuse (``evaluate``).
    """
    if not assertions:
        return None
    try:
        got = _compile(assertions, projection, None)
    except (Unsupported, RecursionError, z3.Z3Exception):
        return None
    if got is None:
        return None
    comp, roots, _ = got
    return FiniteWalk(assertions, comp, roots, projection)


def compile_terms(
    bnodes: list[tuple],
    roots: Sequence[int],
    objective: int | None,
    index: dict[int, int],
    kinds: Sequence[int],
    limit: int | None = None,
) -> tuple[FiniteProblem, Any] | None:
    """``compile_finite`` for terms built in Python (spec/terms.py), with the same result.

    ``bnodes`` are a ``Builder``'s hash-consed nodes (leaves ``("const", ast id)``),
    ``roots``/``objective`` indices into them, ``index`` maps a constant's AST id to its
    position in the projection. The nodes are renumbered in the order the Z3 walk visits
    the same DAG, so domains, bounds, work estimate and rows are exactly those of
    ``compile_finite`` on the Z3 terms the same formulas build.
    """
    if not roots or any(k not in (_BOOL, _INT) for k in kinds):
        return None
    nodes: list[tuple] = []
    memo: dict[int, int] = {}
    used: set[int] = set()

    def walk(i: int, depth: int) -> int:
        got = memo.get(i)
        if got is not None:
            return got
        if depth > _MAX_TERM_DEPTH:
            raise Unsupported("term too deep")  # the caller asks Z3, whose walk decides
        op, args = bnodes[i]
        if op == _CONST:
            idx = index.get(args)
            if idx is None:
                raise Unsupported("a constant outside the projection")
            used.add(idx)
            ir: tuple = (_CONST, idx)
        elif op in (_NUM, _LIT):
            ir = (op, args)
        else:
            ir = (op, tuple([walk(a, depth + 1) for a in args]))
        nodes.append(ir)
        k = memo[i] = len(nodes) - 1
        return k

    try:
        rs = [walk(r, 0) for r in roots]
        obj = walk(objective, 0) if objective is not None else None
        return _evaluate(nodes, rs, obj, sorted(used), list(kinds), limit)
    except (Unsupported, RecursionError):
        return None
    finally:
        walk = None  # type: ignore[assignment]  # the recursive closure is a cycle: free it now
