"""A puzzle (rules + clues) as DIMACS CNF, for any SAT solver.

Why a file of its own: SMT-LIB (``grid.smtlib``) keeps integers and graph rules; DIMACS
is what plain SAT solvers read, so a puzzle of any genre, built-in or from a genre file,
can be checked with a solver that knows nothing of puzzleforge. The rules are lowered
with the sequential-counter cardinality encoding (pure clauses, no native at-most-k),
each clue becomes a unit clause on its selector, and ``c`` comment lines map every
answer entry to its literals, so a model can be read back without this package.

Rules with graph primitives (``connected``, ``single_loop``, ``islands``) have no fixed
CNF here: the engine learns their cuts while solving. Such a puzzle is refused with an
error that says so (``grid smtlib`` writes those rules).
"""

from __future__ import annotations

from typing import Any

from ..core.errors import ConfigError

__all__ = ["to_dimacs"]


def _entity(e: Any) -> str:
    if hasattr(e, "o"):
        return f"{e.o} {e.r} {e.c}"
    if hasattr(e, "r"):
        return f"{e.r} {e.c}"
    return repr(e)


def to_dimacs(genre: Any, inst: Any) -> str:
    """DIMACS text of ``inst``: header comments, the answer map, ``p cnf``, clauses."""
    comp = genre.compile(inst, card_encoding="seqcounter")
    if comp.low.lazy:
        names = {"conn": "connected", "islands": "islands"}
        kinds = sorted({names.get(item[0], "single_loop") for item in comp.low.lazy})
        raise ConfigError(
            f"the rules of {genre.id} use graph rules ({', '.join(kinds)}) that are checked "
            "lazily while solving and have no fixed CNF",
            field="cnf",
            expected="a genre without connected/single_loop/islands rules, or `grid smtlib`",
        )
    clauses = [list(c) for c in comp.low.clauses]
    clauses += [[lit] for lit in comp.assumptions(inst.clues)]
    top = max([comp.low.pool.top] + [abs(lit) for c in clauses for lit in c])
    lines = [
        f"c puzzleforge grid {genre.id} {inst.rows}x{inst.cols}: rules and "
        f"{inst.clue_count()} clues",
        "c answer map: 'c answer VAR ENTITY lit L' (a Boolean entry: L true = 1) or "
        "'c answer VAR ENTITY VALUE lit L' (L true = that value)",
    ]
    for name, e, rep, _ in comp.answer:
        if isinstance(rep, int):
            lines.append(f"c answer {name} {_entity(e)} lit {rep}")
        else:
            for value, lit in sorted(rep.eq.items(), key=lambda kv: repr(kv[0])):
                lines.append(f"c answer {name} {_entity(e)} {genre.token(value)} lit {lit}")
    lines.append(f"p cnf {top} {len(clauses)}")
    lines += [" ".join(map(str, c)) + " 0" for c in clauses]
    return "\n".join(lines) + "\n"
