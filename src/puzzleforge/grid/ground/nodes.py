"""Ground nodes: the tuples of the ground tree, their type, and folding constructors.

Why a module of its own: the grounder builds these tuples, and the CNF lowering and the
SMT-LIB printer read them; all three need the node vocabulary and ``gtype``, none of
them needs the others. The ``mk_*`` constructors fold constants and flatten nested
conjunctions, disjunctions and sums as they build, so every consumer sees the same
simplified tree.

Ground nodes are tuples: ('c', value) | ('v', var, entity) | ('not', a) | ('and', args) |
('or', args) | ('cmp', op, a, b) | ('add', args) | ('mul', a, b) | ('div', a, b) |
('ite', c, a, b) | ('clue', spec, place, value, body) | ('given', spec, place) |
('conn', ((entity, g), ...)) | ('loop', nodes, ((edge, g), ...)) |
('runs', pattern, ((entity, g), ...)) | ('islands', spec, ((entity, g), ...)).
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["TRUE", "FALSE", "gtype", "mk_and", "mk_or", "mk_not", "mk_cmp", "mk_add", "mk_mul"]

TRUE = ("c", True)
FALSE = ("c", False)


def gtype(g: tuple) -> str:
    """ "bool", "int" or "enum": the type of ground node ``g``."""
    tag = g[0]
    if tag == "c":
        v = g[1]
        return "bool" if isinstance(v, bool) else "int" if isinstance(v, int) else "enum"
    if tag == "v":
        return g[1].domain.kind
    if tag in ("add", "mul", "div"):
        return "int"
    if tag == "ite":
        return gtype(g[2])
    return "bool"


def mk_not(a: tuple) -> tuple:
    if a[0] == "c":
        return ("c", not a[1])
    if a[0] == "not":
        return a[1]
    return ("not", a)


def mk_and(args: Iterable[tuple]) -> tuple:
    out = []
    for a in args:
        if a[0] == "c":
            if not a[1]:
                return FALSE
            continue
        if a[0] == "and":
            out.extend(a[1])
        else:
            out.append(a)
    if not out:
        return TRUE
    return out[0] if len(out) == 1 else ("and", tuple(out))


def mk_or(args: Iterable[tuple]) -> tuple:
    out = []
    for a in args:
        if a[0] == "c":
            if a[1]:
                return TRUE
            continue
        if a[0] == "or":
            out.extend(a[1])
        else:
            out.append(a)
    if not out:
        return FALSE
    return out[0] if len(out) == 1 else ("or", tuple(out))


_CMP = {
    "Eq": lambda x, y: x == y,
    "Ne": lambda x, y: x != y,
    "Lt": lambda x, y: x < y,
    "Le": lambda x, y: x <= y,
    "Gt": lambda x, y: x > y,
    "Ge": lambda x, y: x >= y,
}


def mk_cmp(op: str, a: tuple, b: tuple) -> tuple:
    if a[0] == "c" and b[0] == "c":
        x, y = a[1], b[1]
        if isinstance(x, bool) or isinstance(y, bool):
            x, y = (int(x) if isinstance(x, bool) else x), (int(y) if isinstance(y, bool) else y)
        return ("c", bool(_CMP[op](x, y)))
    return ("cmp", op, a, b)


def mk_add(args: Iterable[tuple]) -> tuple:
    const = 0
    out = []
    for a in args:
        if a[0] == "c":
            const += int(a[1])
        elif a[0] == "add":
            for b in a[1]:
                if b[0] == "c":
                    const += int(b[1])
                else:
                    out.append(b)
        else:
            out.append(a)
    if not out:
        return ("c", const)
    if const:
        out.append(("c", const))
    return out[0] if len(out) == 1 and gtype(out[0]) == "int" else ("add", tuple(out))


def mk_mul(a: tuple, b: tuple) -> tuple:
    if a[0] == "c" and b[0] == "c":
        return ("c", int(a[1]) * int(b[1]))
    for x, y in ((a, b), (b, a)):
        if x[0] == "c":
            if int(x[1]) == 0:
                return ("c", 0)
            if int(x[1]) == 1 and gtype(y) == "int":
                return y
    return ("mul", a, b)
