"""SMT-LIB 2 output of a grounded rule set with one instance's clues, and a Z3 check.

Why from the ground tree (not from the CNF): SMT-LIB keeps integers as integers
(``(+ ...)``, ``(< a b)``), which is the readable, solver-neutral form; the CNF path and
this path start from the same ground formula, and tests solve both and compare.
Connectivity and single-loop rules are written with a ranking encoding (every member but
one root has a neighbour one step closer to the root).
"""

from __future__ import annotations

import re
from typing import Any

from .domains import DSLError, Enum, Int
from .engine import Compiled
from .ground import gtype

__all__ = ["to_smtlib", "solve_smtlib_z3", "smt_name"]


def smt_name(var_name: str, entity: Any) -> str:
    if entity is None:
        return var_name
    parts = [var_name, type(entity).__name__[0].lower()]
    parts += [str(x) for x in vars(entity).values()] if hasattr(entity, "__dict__") else []
    if not hasattr(entity, "__dict__"):
        parts += [str(getattr(entity, f)) for f in entity.__dataclass_fields__]
    return re.sub(r"[^A-Za-z0-9_]", "_", "_".join(parts))


class _Printer:
    def __init__(self, comp: Compiled, clues: dict) -> None:
        self.comp = comp
        self.clues = clues or {}
        self.decls: list[str] = []
        self.asserts: list[str] = []
        self.declared: set[str] = set()
        self.extra = 0

    def declare(self, name: str, sort: str, lo: int | None = None, hi: int | None = None) -> None:
        if name in self.declared:
            return
        self.declared.add(name)
        self.decls.append(f"(declare-fun {name} () {sort})")
        if lo is not None:
            self.asserts.append(f"(assert (and (<= {lo} {name}) (<= {name} {hi})))")

    def var(self, var: Any, e: Any) -> str:
        name = smt_name(var.name, e)
        dom = self.comp.grounder.domain(var)
        if isinstance(dom, Enum):
            self.declare(name, "Int", 0, len(dom.values) - 1)
        elif isinstance(dom, Int):
            self.declare(name, "Int", dom.lo, dom.hi)
        elif dom.kind == "bool":
            self.declare(name, "Bool")
        else:
            raise DSLError(
                f"variable {var.name} has a {dom.kind} domain",
                expected="a Bool, Enum or Int variable",
            )
        return name

    @staticmethod
    def num(v: int) -> str:
        return str(v) if v >= 0 else f"(- {-v})"

    def int_term(self, g: tuple) -> str:
        if gtype(g) == "bool":
            return f"(ite {self.term(g)} 1 0)"
        return self.term(g)

    def term(self, g: tuple) -> str:
        tag = g[0]
        if tag == "c":
            v = g[1]
            if isinstance(v, bool):
                return "true" if v else "false"
            if isinstance(v, int):
                return self.num(v)
            raise ValueError(f"bare enum constant {v!r}")
        if tag == "v":
            return self.var(g[1], g[2])
        if tag == "not":
            return f"(not {self.term(g[1])})"
        if tag in ("and", "or"):
            return f"({tag} {' '.join(self.term(a) for a in g[1])})"
        if tag == "add":
            return (
                f"(+ {' '.join(self.int_term(a) for a in g[1])})"
                if len(g[1]) > 1
                else self.int_term(g[1][0])
            )
        if tag == "mul":
            return f"(* {self.int_term(g[1])} {self.int_term(g[2])})"
        if tag == "div":
            return f"(div {self.int_term(g[1])} {self.int_term(g[2])})"
        if tag == "ite":
            if gtype(g) == "bool":
                return f"(ite {self.term(g[1])} {self.term(g[2])} {self.term(g[3])})"
            return f"(ite {self.term(g[1])} {self.int_term(g[2])} {self.int_term(g[3])})"
        if tag == "cmp":
            return self.cmp(g[1], g[2], g[3])
        if tag == "given":
            spec, place = g[1], g[2]
            return "true" if place in self.clues.get(spec.name, {}) else "false"
        raise ValueError(f"cannot print {tag}")

    def cmp(self, op: str, a: tuple, b: tuple) -> str:
        if "enum" in (gtype(a), gtype(b)):
            var_side = a if a[0] == "v" else b
            dom = self.comp.grounder.domain(var_side[1])
            assert isinstance(dom, Enum)

            def t(x: tuple) -> str:
                return str(dom.values.index(x[1])) if x[0] == "c" else self.term(x)

            eq = f"(= {t(a)} {t(b)})"
            return eq if op == "Eq" else f"(not {eq})"
        if gtype(a) == "bool" and gtype(b) == "bool" and op in ("Eq", "Ne"):
            eq = f"(= {self.term(a)} {self.term(b)})"
            return eq if op == "Eq" else f"(not {eq})"
        x, y = self.int_term(a), self.int_term(b)
        sym = {"Eq": "=", "Lt": "<", "Le": "<=", "Gt": ">", "Ge": ">="}.get(op)
        return f"(not (= {x} {y}))" if op == "Ne" else f"({sym} {x} {y})"

    def fresh(self, stem: str, lo: int, hi: int) -> str:
        self.extra += 1
        name = f"_{stem}{self.extra}"
        self.declare(name, "Int", lo, hi)
        return name

    def ranking(self, members: list[tuple[Any, str]], links: dict) -> None:
        """members: (node, active term); links[node] = [(other node, edge-active term)]."""
        n = len(members)
        rank = {node: self.fresh("rank", 0, max(0, n - 1)) for node, _ in members}
        active = dict(members)
        roots = " ".join(f"(ite (and {a} (= {rank[x]} 0)) 1 0)" for x, a in members)
        self.asserts.append(f"(assert (<= (+ 0 {roots}) 1))")
        for x, a in members:
            opts = [
                f"(and {via} {active[y]} (= {rank[y]} (- {rank[x]} 1)))"
                for y, via in links.get(x, [])
                if y in active
            ]
            body = f"(or {' '.join(opts)})" if opts else "false"
            self.asserts.append(f"(assert (=> (and {a} (> {rank[x]} 0)) {body}))")

    def constraint(self, g: tuple) -> None:
        tag = g[0]
        if tag == "clue":
            _, spec, place, value, body = g
            if self.clues.get(spec.name, {}).get(place, object()) == value:
                self.asserts.append(f"(assert {self.term(body)})")
            return
        if tag == "conn":
            items = [(e, self.term(x)) for e, x in g[1]]
            cells = {e for e, _ in items}
            links = {e: [(n, "true") for n in _adj4(e) if n in cells] for e, _ in items}
            self.ranking(items, links)
            return
        if tag == "islands":
            spec = g[1]
            items = [(e, self.term(x)) for e, x in g[2]]
            member = dict(items)
            clues = sorted(self.clues.get(spec.name, {}).items())
            if not clues:
                for _, t in items:
                    self.asserts.append(f"(assert (not {t}))")
                return
            index = {p: i for i, (p, _) in enumerate(clues)}
            n = len(items)
            owner = {e: self.fresh("own", 0, len(clues) - 1) for e, _ in items}
            rank = {e: self.fresh("dist", 0, n) for e, _ in items}
            for e, t in items:
                nbrs = [d for d in _adj4(e) if d in member]
                for d in nbrs:
                    self.asserts.append(
                        f"(assert (=> (and {t} {member[d]}) (= {owner[e]} {owner[d]})))"
                    )
                if e in index:
                    self.asserts.append(f"(assert (and (= {owner[e]} {index[e]}) (= {rank[e]} 0)))")
                    continue
                opts = (
                    " ".join(f"(and {member[d]} (= {rank[d]} (- {rank[e]} 1)))" for d in nbrs)
                    or "false"
                )
                self.asserts.append(f"(assert (=> {t} (and (> {rank[e]} 0) (or {opts}))))")
            for i, (_p, v) in enumerate(clues):
                terms = " ".join(f"(ite (and {t} (= {owner[e]} {i})) 1 0)" for e, t in items)
                self.asserts.append(f"(assert (= (+ 0 {terms}) {v}))")
            return
        if tag == "runs":
            from .primitives import run_automaton

            L, delta = run_automaton(g[1])
            bits = [self.term(x) for _, x in g[2]]
            st = [self.fresh("st", 0, L) for _ in range(len(bits) + 1)]
            self.asserts.append(f"(assert (= {st[0]} 0))")
            for i, x in enumerate(bits):
                for j in range(L + 1):
                    for bit, cond in ((1, x), (0, f"(not {x})")):
                        k = delta(j, bit)
                        then = "false" if k is None else f"(= {st[i + 1]} {k})"
                        self.asserts.append(f"(assert (=> (and (= {st[i]} {j}) {cond}) {then}))")
            self.asserts.append(f"(assert (= {st[-1]} {L}))")
            return
        if tag == "loop":
            grid = self.comp.grid
            assert grid is not None  # a loop rule grounds over a board
            ends = grid.edge_vertices if g[1] == "vertices" else grid.edge_cells
            edges = [(e, self.term(x)) for e, x in g[2]]
            incid: dict = {}
            for e, t in edges:
                a, b = ends(e)
                incid.setdefault(a, []).append((b, t))
                incid.setdefault(b, []).append((a, t))
            for _node, lst in incid.items():
                deg = " ".join(f"(ite {t} 1 0)" for _, t in lst)
                self.asserts.append(f"(assert (let ((d (+ 0 {deg}))) (or (= d 0) (= d 2))))")
            self.asserts.append(f"(assert (or {' '.join(t for _, t in edges)}))")
            members = [(node, f"(or {' '.join(t for _, t in lst)})") for node, lst in incid.items()]
            self.ranking(members, incid)
            return
        self.asserts.append(f"(assert {self.term(g)})")


def _adj4(c: Any) -> list:
    from .topology import Cell

    return [Cell(c.r - 1, c.c), Cell(c.r + 1, c.c), Cell(c.r, c.c - 1), Cell(c.r, c.c + 1)]


def to_smtlib(comp: Compiled, clues: dict | None = None) -> str:
    """The rules plus the given clues as an SMT-LIB 2 script (QF_LIA)."""
    p = _Printer(comp, clues or {})
    for name, e, _, _ in comp.answer:  # declare every answer variable, used or not
        var = next(v for v in comp.low.answer_vars if v.name == name)
        p.var(var, e)
    for g in comp.constraints:
        p.constraint(g)
    head = [
        f"; puzzleforge grid rules '{comp.model.name}' params {comp.params}",
        "(set-logic QF_LIA)",
    ]
    return "\n".join(head + p.decls + p.asserts + ["(check-sat)", "(get-model)"]) + "\n"


def solve_smtlib_z3(text: str, comp: Compiled, time_limit: float = 60.0) -> dict | None:
    """Solve SMT-LIB text with Z3; decode the answer variables as a Solution (or None)."""
    import z3

    solver = z3.Solver()
    solver.set("timeout", int(time_limit * 1000))
    solver.from_string(text.replace("(check-sat)", "").replace("(get-model)", ""))
    if solver.check() != z3.sat:
        return None
    model = solver.model()
    values = {d.name(): model[d] for d in model.decls()}
    sol: dict = {}
    for name, e, _, dom in comp.answer:
        v = values.get(smt_name(name, e))
        if dom.kind == "bool":
            value = bool(z3.is_true(v)) if v is not None else False
        elif dom.kind == "enum":
            value = dom.values[v.as_long()] if v is not None else dom.values[0]
        else:
            value = v.as_long() if v is not None else dom.lo
        sol.setdefault(name, {})[e] = value
    return sol
