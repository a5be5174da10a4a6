"""The Z3 context a spec family works in, and everything cached in it.

Why explicit: z3py builds a term in its global *main context* whenever no ``ctx=`` is
given. The engine used to install its own context as that global one for the length of
a ``generate`` call (assigning ``z3.z3._main_ctx``), which changed process-global state
under every other user of z3 in the process (a caller's terms made during the call landed
in the spec's context, a caller's thread saw it swapped). Now a ``Z3Space`` owns one
context, and everything the engine and the spec expressions build names it: the Z3
functions of the spec namespace are bound to it (spec/z3names.py ``bind_context``),
solvers are made with ``ctx=``, and nothing reads or writes z3's main context
(tests/spec/test_spec_z3space.py checks that it is never even created).

The caches that depend on the context live here too, owned by the space and freed with
it: the symbol constants (``symbol``), the spec namespace's base (``env``) and the term
and linear dispatch tables, whose fallbacks are the bound functions. (Int numerals are
cached on the context object itself, spec/fastz3.py ``_int_ast``.)
"""

from __future__ import annotations

from typing import Any

import z3

from .fastint import FastInt, make_fast_int
from .fastz3 import FAST_EXPORTS
from .z3names import z3_table

__all__ = ["Z3Space", "make_constant", "solver_for"]


#: Symbol constants a space keeps before it starts over. Each cached constant keeps its
#: Z3 AST alive: a spec whose symbol names are drawn anew per attempt (58-sugar: person
#: names x steps) filled a bound of 100,000 with ~3 KB each (its peak RSS reached ~330 MB;
#: ~105 MB at this bound). A spec's own symbols fit many times over.
_MAX_SYMBOLS = 4096


class Z3Space:
    """One Z3 context with the spec namespace bound to it and the caches made in it."""

    def __init__(self, shared: bool = False) -> None:
        self.ctx = z3.Context()
        #: the family's context reused by its ``generate`` calls (spec/attempt.py
        #: ``SpecZ3Contexts``), where no output depends on the terms it already holds:
        #: the pre-check runs in it (spec/model.py) instead of in a second context
        self.shared = shared
        #: the Z3 names of the spec namespace, bound to ``ctx`` (identity matters:
        #: spec/columnmode.py recognises them in an expression's namespace)
        self.exports: dict[str, Any] = z3_table(FAST_EXPORTS, self.ctx)
        self._symbols: dict[tuple[str, str], Any] = {}
        #: Bool and Int sorts of ``ctx`` (two entries), for ``_plain_constant``
        self._sorts: dict[str, Any] = {}
        self._env: dict[str, Any] | None = None
        self._dispatch: dict[str, dict[str, Any]] = {}

    def base_env(self) -> dict[str, Any]:
        """A new namespace holding the builtins and the bound Z3 names (one dict copy)."""
        if self._env is None:
            from .safe import SAFE_BUILTINS

            self._env = {"__builtins__": SAFE_BUILTINS, **self.exports}
        return self._env.copy()

    def dispatch(self, kind: str) -> dict[str, Any]:
        """The term (``"terms"``) or linear (``"linear"``) versions of the Z3 operators,
        falling back to this space's bound functions for Python-only arguments."""
        table = self._dispatch.get(kind)
        if table is None:
            if kind == "terms":
                from .terms import dispatch_table
            else:
                from .linear import dispatch_table
            table = self._dispatch[kind] = dispatch_table(self.exports)
        return table

    def symbol(self, name: str, type_name: str) -> Any:
        """The Z3 constant of a symbol (reused: the same AST a new call would give).

        Why a cache: a family makes the same symbol constants every attempt; Z3
        hash-conses them to the same AST anyway, so the cached wrapper is the very
        constant a new call would give, at a dict lookup's cost. Bounded by the spec's
        symbols' names; cleared past ``_MAX_SYMBOLS`` (specs whose symbol names are drawn anew
        per attempt).
        """
        key = (name, type_name)
        v = self._symbols.get(key)
        if v is None:
            if len(self._symbols) >= _MAX_SYMBOLS:  # names drawn per attempt: keep it bounded
                self._symbols.clear()
            v = self._plain_constant(name, type_name)
            if v is None:
                v = make_constant(name, type_name, self.ctx)
                v._pf_id = v.get_id()  # cached AST id: solution lookups skip a C call
                v._pf_sort_kind = v.sort().kind()  # cached sort kind: no C calls per attempt
            self._symbols[key] = v
        return v

    def _plain_constant(self, name: str, type_name: str) -> Any:
        """A Bool or Int symbol constant from three C calls, or None for other types.

        Why: ``z3.Int(name, ctx)`` builds a new sort wrapper each call, and the wrapper's
        ``is_int``/``get_id``/``sort().kind()`` questions cost four more calls and two
        wrappers: ~175 us a constant, 39 % of 58-sugar's CPU (29 constants an attempt,
        named after people drawn per attempt, so the cache above misses). The AST is the
        one ``make_constant`` makes (Z3 hash-conses constants by name and sort), of the
        same wrapper class (FastInt for Int, BoolRef for Bool).
        """
        t = type_name.lower()
        if t in ("int", "enum"):
            kind = z3.Z3_INT_SORT
        elif t == "bool":
            kind = z3.Z3_BOOL_SORT
        else:
            return None
        sort = self._sorts.get(t)
        if sort is None:
            sort = self._sorts[t] = (
                z3.BoolSort(self.ctx) if kind == z3.Z3_BOOL_SORT else z3.IntSort(self.ctx)
            )
        ref = self.ctx.ref()
        ast = z3.z3core.Z3_mk_const(ref, z3.z3core.Z3_mk_string_symbol(ref, name), sort.ast)
        v = FastInt(ast, self.ctx) if kind == z3.Z3_INT_SORT else z3.BoolRef(ast, self.ctx)
        v._pf_id = z3.z3core.Z3_get_ast_id(ref, ast)
        v._pf_sort_kind = kind
        return v


def solver_for(logic: str, ctx: Any) -> Any:
    """``z3.SolverFor(logic, ctx=ctx)`` without its detour through the main context (z3py
    makes the logic's name symbol with ``to_symbol(logic)``, creating z3's global main
    context if there is none)."""
    sym = z3.to_symbol(logic, ctx)
    return z3.Solver(z3.z3core.Z3_mk_solver_for_logic(ctx.ref(), sym), ctx)


def make_constant(name: str, type_name: str, ctx: Any) -> Any:
    """A new Z3 constant of a symbol type (bool, int/enum, float/real, bitvec, bvN)."""
    t = type_name.lower()
    if t == "bool":
        return z3.Bool(name, ctx)
    if t in ("float", "real"):
        return z3.Real(name, ctx)
    if t in ("int", "enum"):
        return make_fast_int(z3.Int(name, ctx))  # C-level operators (spec/fastint.py)
    if t == "bitvec":
        return z3.BitVec(name, 8, ctx)
    if t.startswith("bv") and t[2:].isdigit():
        return z3.BitVec(name, int(t[2:]), ctx)
    raise ValueError(f"unsupported symbol type '{type_name}'")
