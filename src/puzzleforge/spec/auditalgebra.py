"""The audit of polynomial systems by computer algebra: SymPy's exact Groebner basis.

Why: generation decides polynomial equation systems (37-equation) with an algebraic
backend (FLINT's Groebner basis, spec/polysystem.py, realsolve.py, algebraic.py) that
proves systems Z3's nonlinear procedures cannot solve; the solver audit (spec/audit.py)
then ended ``undecided`` on them. This audit decides them by exact algebra that shares
nothing with the generator: the captured SMT-LIB text is parsed in a fresh Z3 context
(Z3 only reads the text, it decides nothing) into SymPy polynomials, and SymPy computes

1. the reduced lex Groebner basis (grevlex, then FGLM); ``[1]`` means no complex
   solution, a basis that is not zero-dimensional is undecided (infinitely many complex
   solutions: not handled);
2. a *shape* basis ``x_i - h_i(t), g(t)`` with rational ``h_i``: the solutions are in
   one-to-one correspondence with the roots of ``g``, and the real ones with its real
   roots (the last variable as ``t`` first; else the radical by Seidenberg's lemma, the
   square-free eliminant of every variable added, and ``t`` a linear form of the
   variables, ``LINEAR_FORMS`` tries);
3. the real roots of each irreducible factor ``f`` of ``g`` with exact rational
   isolating intervals: a coordinate is ``h_i mod f`` at the root, rational when that
   remainder is constant (``1, t, ..., t^(d-1)`` are independent over Q), and the sign
   of any polynomial at a root is exact: zero only when its remainder is zero, else read
   from interval arithmetic on a bisected isolating interval (never from floats);
4. the side conditions (inequalities, disequalities, integrality of Int constants)
   applied to each real solution exactly, and the solutions left compared with the
   stored ones: ``pass`` when they are the same set, ``ambiguous`` when more exist,
   ``wrong`` when a stored one is not among them.

Bounded by CPU seconds of the solving thread like the solver audit (spec/auditfresh.py
``CpuWatch``): the watcher raises an exception in the thread once the share is spent.
"""

from __future__ import annotations

import ctypes
import threading
from typing import Any

from .auditcapture import Problem
from .auditfresh import NET_FACTOR, NET_SLACK, AuditOutcome, CpuWatch
from .auditpoly import System, polynomial_system
from .auditroots import Point, Undecided, real_points

__all__ = ["METHOD", "audit_algebraic", "polynomial_system", "Undecided"]

#: The outcome's ``method`` when this audit decided.
METHOD = "algebraic"


class _OutOfCpu(BaseException):
    """Raised in the solving thread by the CPU watcher (a BaseException: no ``except
    Exception`` inside SymPy swallows it)."""


def _cpu_bounded(fn: Any, seconds: float) -> tuple[Any, str]:
    """``fn()`` stopped once this thread spent ``seconds`` of CPU time: (result, why)."""
    kick = _Kick()
    watch = CpuWatch(kick, seconds, seconds * NET_FACTOR + NET_SLACK)
    try:
        try:
            return fn(), ""
        finally:
            watch.close()
            if kick.fired:
                kick.clear()  # fired too late to be delivered: nothing left to stop
    except _OutOfCpu:
        if watch.net_fired:
            return None, "net"
        return None, "cpu"


class _Kick:
    """What ``CpuWatch`` interrupts: raises ``_OutOfCpu`` in the thread that made it."""

    def __init__(self) -> None:
        self.tid = threading.get_ident()
        self.fired = False

    def interrupt(self) -> None:
        self.fired = True
        ctypes.pythonapi.PyThreadState_SetAsyncExc(
            ctypes.c_ulong(self.tid), ctypes.py_object(_OutOfCpu)
        )

    def clear(self) -> None:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(self.tid), None)


def audit_algebraic(problem: Problem, seconds: float) -> AuditOutcome | None:
    """Decide a polynomial system's solutions exactly (None: this audit does not apply).

    ``seconds``: CPU seconds of this thread; the outcome is ``undecided`` with
    ``budget_spent`` once they run out, and ``undecided`` without it when SymPy cannot
    handle the system (positive-dimensional, no shape basis).
    """
    system = polynomial_system(problem)
    if system is None:
        return None
    if seconds <= 0:
        return AuditOutcome(
            "undecided", f"no CPU seconds to audit with ({seconds:g})", METHOD, budget_spent=True
        )

    def solve() -> list[Point] | str:
        try:
            return real_points(system)
        except Undecided as exc:
            return str(exc)

    got, why = _cpu_bounded(solve, seconds)
    if why:
        what = (
            "the wall-clock backstop fired (the process looked stuck; this outcome "
            "depends on the machine's load)"
            if why == "net"
            else f"its {seconds:g} CPU seconds ran out"
        )
        return AuditOutcome(
            "undecided",
            f"SymPy's Groebner basis: {what}",
            METHOD,
            net_fired=why == "net",
            budget_spent=why == "cpu",
        )
    if isinstance(got, str):
        return AuditOutcome("undecided", f"SymPy's Groebner basis: {got}", METHOD)
    return _compare(problem, system, got)


def _compare(problem: Problem, system: System, points: list[Point]) -> AuditOutcome:
    """The real solutions that meet every side condition, against the stored ones."""
    ok = [p for p in points if p.satisfies(system.conditions, system.integers)]
    how = f"{len(points)} real solution(s) of the equations, {len(ok)} meeting every condition"
    if len(system.gens) > len(system.names) and len(ok) > 1:
        keys = [p.rational_key(len(system.names)) for p in ok]
        if None in keys:
            return AuditOutcome("undecided", f"{how}: irrational projections not compared", METHOD)
        ok = [p for k, p in {k: p for k, p in zip(keys, ok, strict=True)}.items()]
    if not problem.complete:
        if len(ok) == 1:
            return AuditOutcome("pass", f"exactly one solution ({how}), proved by SymPy", METHOD)
        status = "wrong" if not ok else "undecided"
        return AuditOutcome(status, f"{how}; the replay gave no stored solution", METHOD)
    used: set[int] = set()
    for j, sol in enumerate(problem.solutions):
        hit = [k for k, p in enumerate(ok) if p.matches(sol[: len(system.names)])]
        if not hit:
            return AuditOutcome(
                "wrong",
                f"stored solution {j + 1} is not a solution ({how}: "
                f"{'; '.join(p.show(system.names) for p in ok[:3]) or 'none'})",
                METHOD,
            )
        used.update(hit)
    extra = [p for k, p in enumerate(ok) if k not in used]
    if extra:
        return AuditOutcome(
            "ambiguous",
            f"another solution exists beyond the {len(problem.solutions)} the puzzle was "
            f"made from ({how}): {extra[0].show(system.names)}",
            METHOD,
        )
    return AuditOutcome(
        "pass",
        f"exactly {len(ok)} solution(s) ({how}), proved by SymPy's lex Groebner basis",
        METHOD,
    )
