"""Grid engine speed: uniqueness checks and whole generations, DSL vs hand-written.

Prints, for Unruly 14x14, Unruly 30x30 and Sudoku 9x9:
  * the DSL engine (rules compiled from the DSL, one incremental CaDiCaL session,
    clues as assumptions, one solve per uniqueness check);
  * the same loop hand-written directly on PySAT (same clauses a person would write);
  * the same loop on a Z3 Int-arithmetic encoding (push/pop per check).
Loop: random full solution -> try removing every clue in random order, keeping the
removal when the puzzle stays unique. Reported: ms per uniqueness check, seconds per
generated puzzle, and the ratios (target: DSL within 2x of PySAT, >= 100x faster than Z3).

Run: .venv/bin/python bench/grid_generate.py [--z3-checks N] [--puzzles N]
"""
from __future__ import annotations

import argparse
import random
import sys
import time

from pysat.card import CardEnc, EncType
from pysat.solvers import Solver

from puzzleforge.grid.generator import random_solution
from puzzleforge.grid.genre import Instance
from puzzleforge.grid.genres import get_genre


# ----------------------------------------------------------------------------- DSL -----
def dsl_generate(genre: str, n: int, seed: int, shared: dict) -> tuple[float, int, float]:
    """(seconds for the whole puzzle, number of checks, seconds inside checks); leaves the
    solution and removal order in ``shared`` so the baseline checks the same puzzles."""
    t0 = time.perf_counter()
    g = get_genre(genre)
    rng = random.Random(seed)
    inst = Instance(genre, n, n)
    comp = g.compile(inst)
    sol = random_solution(comp, rng)
    clues = g.clues_from_solution(inst, sol)
    differs = comp.block_solution(sol)
    places = sorted(clues["given"], key=repr)
    rng.shuffle(places)
    shared["solution"] = {(p.r, p.c): v for p, v in clues["given"].items()}
    shared["order"] = [(p.r, p.c) for p in places]
    checks, spent = 0, 0.0
    for p in places:
        v = clues["given"].pop(p)
        a = comp.assumptions(clues)
        t = time.perf_counter()
        unique = comp.unique_given(a, differs)
        shared.setdefault("times", []).append(time.perf_counter() - t)
        spent += shared["times"][-1]
        checks += 1
        if not unique:
            clues["given"][p] = v
    return time.perf_counter() - t0, checks, spent


# ----------------------------------------------------------------- hand-written PySAT ---
def unruly_clauses(n: int) -> tuple[list, dict, int]:
    x = {(r, c): r * n + c + 1 for r in range(n) for c in range(n)}
    top = n * n
    clauses = []
    lines = [[x[r, c] for c in range(n)] for r in range(n)] + [[x[r, c] for r in range(n)] for c in range(n)]
    for line in lines:
        enc = CardEnc.equals(lits=line, bound=n // 2, top_id=top, encoding=EncType.seqcounter)
        top = max(top, enc.nv)
        clauses += enc.clauses
        for i in range(n - 2):
            w = line[i:i + 3]
            clauses.append(w)
            clauses.append([-l for l in w])
    givens = {(p, val): (x[p] if val else -x[p]) for p in x for val in (False, True)}
    return clauses, givens, top


def sudoku_clauses(n: int = 9, b: int = 3) -> tuple[list, dict, int]:
    x = {(r, c, v): (r * n + c) * n + v for r in range(n) for c in range(n) for v in range(1, n + 1)}
    clauses = []

    def exactly_one(lits: list) -> None:
        clauses.append(lits)
        clauses.extend([[-lits[i], -lits[j]] for i in range(len(lits)) for j in range(i + 1, len(lits))])

    for r in range(n):
        for c in range(n):
            exactly_one([x[r, c, v] for v in range(1, n + 1)])
    for v in range(1, n + 1):
        for i in range(n):
            exactly_one([x[i, c, v] for c in range(n)])
            exactly_one([x[r, i, v] for r in range(n)])
        for br in range(0, n, b):
            for bc in range(0, n, b):
                exactly_one([x[r, c, v] for r in range(br, br + b) for c in range(bc, bc + b)])
    givens = {((r, c), v): x[r, c, v] for (r, c, v) in x}
    return clauses, givens, n * n * n


def pysat_generate(kind: str, n: int, seed: int, shared: dict) -> tuple[float, int, float]:
    t0 = time.perf_counter()
    clauses, givens, top = unruly_clauses(n) if kind == "unruly" else sudoku_clauses()
    rng = random.Random(seed)
    with Solver(name="cadical195", bootstrap_with=clauses) as s:
        cells = sorted({p for p, _ in givens})
        values = {}
        for p, v in givens:
            values.setdefault(p, []).append(v)
        chosen = []
        order = cells[:]
        rng.shuffle(order)
        picks = [givens[p, rng.choice(values[p])] for p in order[: max(4, int(len(order) * 0.35))]]

        def add(batch: list) -> None:  # same batching as the DSL generator
            if not batch:
                return
            if s.solve(assumptions=chosen + batch):
                chosen.extend(batch)
            elif len(batch) > 1:
                add(batch[:len(batch) // 2])
                add(batch[len(batch) // 2:])

        for i in range(0, len(picks), 16):
            add(picks[i:i + 16])
        s.solve(assumptions=chosen)
        model = set(l for l in s.get_model() if l > 0)
        sol = {p: next(v for v in values[p] if givens[p, v] in model or (kind == "unruly" and
                                                                          -givens[p, v] not in model and givens[p, v] < 0))
               for p in cells}
        if kind == "unruly":
            sol = {p: (givens[p, True] in model) for p in cells}
        # the removal loop runs on the DSL's solution and order: same checks, same puzzle
        sol, order = shared["solution"], shared["order"]
        act = top + 1
        s.add_clause([-act] + [-givens[p, sol[p]] for p in cells])
        clue = dict(sol)
        checks, spent = 0, 0.0
        for p in order:
            v = clue.pop(p)
            a = [givens[q, w] for q, w in clue.items()] + [act]
            t = time.perf_counter()
            unique = not s.solve(assumptions=a)
            spent += time.perf_counter() - t
            checks += 1
            if not unique:
                clue[p] = v
    return time.perf_counter() - t0, checks, spent


# -------------------------------------------------------------------------- Z3 ints ---
def z3_checks(kind: str, n: int, shared: dict, max_checks: int, budget: float) -> tuple[float, int]:
    """Seconds and number of uniqueness checks on an Int-arithmetic Z3 model, on the
    DSL run's solution and removal order (the same first ``max_checks`` checks)."""
    import z3

    s = z3.Solver()
    if kind == "unruly":
        x = {(r, c): z3.Int(f"x_{r}_{c}") for r in range(n) for c in range(n)}
        for v in x.values():
            s.add(v >= 0, v <= 1)
        lines = [[x[r, c] for c in range(n)] for r in range(n)] + [[x[r, c] for r in range(n)] for c in range(n)]
        for line in lines:
            s.add(z3.Sum(line) == n // 2)
            for i in range(n - 2):
                w = z3.Sum(line[i:i + 3])
                s.add(w >= 1, w <= 2)
        sol = {p: int(bool(v)) for p, v in shared["solution"].items()}
    else:
        x = {(r, c): z3.Int(f"x_{r}_{c}") for r in range(9) for c in range(9)}
        for v in x.values():
            s.add(v >= 1, v <= 9)
        for i in range(9):
            s.add(z3.Distinct([x[i, c] for c in range(9)]))
            s.add(z3.Distinct([x[r, i] for r in range(9)]))
        for br in range(0, 9, 3):
            for bc in range(0, 9, 3):
                s.add(z3.Distinct([x[r, c] for r in range(br, br + 3) for c in range(bc, bc + 3)]))
        sol = dict(shared["solution"])
    differs = z3.Or([x[p] != val for p, val in sol.items()])
    s.set("timeout", int(budget * 1000))  # a check cut off here counts as its time limit
    clue = dict(sol)
    checks, spent = 0, 0.0
    for p in shared["order"][:max_checks]:
        val = clue.pop(p)
        t = time.perf_counter()
        s.push()
        s.add([x[q] == w for q, w in clue.items()])
        s.add(differs)
        result = s.check()
        unique = result == z3.unsat
        if result == z3.unknown:
            shared["z3_timeouts"] = shared.get("z3_timeouts", 0) + 1
        s.pop()
        spent += time.perf_counter() - t
        checks += 1
        if not unique:
            clue[p] = val
        if spent > budget:
            break
    return spent, checks


def _z3_child(kind: str, n: int, shared: dict, max_checks: int, budget: float, out) -> None:
    out.put(z3_checks(kind, n, shared, max_checks, budget))


def z3_checks_bounded(kind: str, n: int, shared: dict, max_checks: int, budget: float):
    """z3_checks in a child process stopped after ``2 * budget + 10`` s (Z3 does not always
    honour its own time limit); (None, 0) when not even one check finished."""
    import multiprocessing as mp

    out = mp.Queue()
    child = mp.Process(target=_z3_child, args=(kind, n, shared, max_checks, budget, out))
    child.start()
    child.join(2 * budget + 10)
    if child.is_alive():
        child.terminate()
        child.join()
        return None, 0
    return out.get()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--puzzles", type=int, default=3, help="puzzles per case (DSL and PySAT)")
    ap.add_argument("--z3-checks", type=int, default=40, help="uniqueness checks timed on Z3 per case")
    ap.add_argument("--z3-budget", type=float, default=60.0, help="stop timing Z3 after this many seconds")
    args = ap.parse_args()
    cases = [("Unruly 14x14", "unruly", 14), ("Unruly 30x30", "unruly", 30), ("Sudoku 9x9", "sudoku", 9)]
    print(f"{'case':14s} {'engine':14s} {'ms/check':>9s} {'s/puzzle':>9s} {'checks':>7s}")
    for label, kind, n in cases:
        rows = {}
        shared: dict = {}
        sums = {"DSL (grid)": [0.0, 0, 0.0], "PySAT by hand": [0.0, 0, 0.0]}
        for seed in range(args.puzzles):  # interleaved, so machine load hits both alike
            for engine, fn in (("DSL (grid)", dsl_generate), ("PySAT by hand", pysat_generate)):
                t, c, sp = fn(kind, n, seed, shared.setdefault(seed, {}))
                acc = sums[engine]
                acc[0], acc[1], acc[2] = acc[0] + t, acc[1] + c, acc[2] + sp
        for engine, (total, checks, spent) in sums.items():
            rows[engine] = (1000 * spent / checks, total / args.puzzles, checks / args.puzzles)
            print(f"{label:14s} {engine:14s} {rows[engine][0]:9.3f} {rows[engine][1]:9.3f} {rows[engine][2]:7.0f}")
        spent, checks = z3_checks_bounded(kind, n, shared[0], args.z3_checks, args.z3_budget)
        dsl, hand = rows["DSL (grid)"], rows["PySAT by hand"]
        if not checks:
            limit = 2 * args.z3_budget + 10
            print(f"{label:14s} {'Z3 Int model':14s} no check finished in {limit:.0f} s "
                  f"(> {limit * 1000 / dsl[0]:.0f}x the DSL's {dsl[0]:.3f} ms/check)")
            print(f"{label:14s} ratios: DSL/PySAT check {dsl[0] / hand[0]:.2f}x, puzzle {dsl[1] / hand[1]:.2f}x")
            continue
        z3_ms = 1000 * spent / checks
        same = shared[0]["times"][:checks]
        dsl_same = 1000 * sum(same) / len(same)
        est = z3_ms * rows["DSL (grid)"][2] / 1000
        print(f"{label:14s} {'Z3 Int model':14s} {z3_ms:9.3f} {est:9.1f}~ {checks:7d}  "
              f"(~ = all checks x ms/check; DSL on these same {checks} checks: {dsl_same:.3f} ms)")
        dsl, hand = rows["DSL (grid)"], rows["PySAT by hand"]
        print(f"{label:14s} ratios: DSL/PySAT check {dsl[0] / hand[0]:.2f}x, puzzle {dsl[1] / hand[1]:.2f}x; "
              f"Z3/DSL on the same checks {z3_ms / dsl_same:.0f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
