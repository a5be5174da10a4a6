"""Grid engine speed: uniqueness checks and whole generations, DSL vs hand-written.

Prints, for Unruly 14x14, Unruly 30x30 and Sudoku 9x9:
  * the DSL engine (rules compiled from the DSL with its default options: one incremental
    session, clues as assumptions, one solve per uniqueness check; Unruly's row/column
    counts become native at-most-k constraints on Minicard, Sudoku stays on CaDiCaL);
  * the same loop hand-written directly on PySAT (CaDiCaL + PySAT's sequential counter,
    what a person writes first) and, for reference, hand-written on Minicard with native
    at-most-k constraints (the DSL's representation, written by hand);
  * the same loop on a Z3 Int-arithmetic encoding, in two idiomatic forms timed on the
    same checks: "assume" (each clue ``Implies(g, x == v)`` behind a Boolean ``g``, the
    known solution blocked behind ``act``; ``check(g..., act)``: the same incremental
    loop as the DSL) and "push/pop" (assert the clue equalities and the blocking clause
    in a push/pop scope). The ratio uses the faster of the two.
Loop: random full solution -> try removing every clue in random order, keeping the
removal when the puzzle stays unique. "ms/check" is the solver call with the assumption
list already built, for every engine (building the lists is in s/puzzle); wall time and
CPU time (time.process_time) are both printed, CPU being the steadier figure on a shared
machine. Targets: DSL within 2x of hand-written PySAT, >= 100x faster than Z3.

Run: .venv/bin/python bench/grid_generate.py [--z3-checks N] [--puzzles N] [--z3-budget S]
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


def _clocks() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


# ----------------------------------------------------------------------------- DSL -----
def dsl_generate(genre: str, n: int, seed: int, shared: dict) -> tuple[float, int, float, float]:
    """(seconds for the whole puzzle, number of checks, wall and CPU seconds inside
    checks); leaves the solution and removal order in ``shared`` so the baselines check
    the same puzzles, and the per-check (wall, cpu) times in ``shared["times"]``."""
    t0 = time.perf_counter()
    g = get_genre(genre)
    rng = random.Random(seed)
    inst = Instance(genre, n, n)
    comp = g.compile(inst)
    shared["backend"] = comp.session.backend
    sol = random_solution(comp, rng)
    clues = g.clues_from_solution(inst, sol)
    differs = comp.block_solution(sol)
    places = sorted(clues["given"], key=repr)
    rng.shuffle(places)
    shared["solution"] = {(p.r, p.c): v for p, v in clues["given"].items()}
    shared["order"] = [(p.r, p.c) for p in places]
    times = shared.setdefault("times", [])
    checks, wall, cpu = 0, 0.0, 0.0
    for p in places:
        v = clues["given"].pop(p)
        a = comp.assumptions(clues)
        w, c = _clocks()
        unique = comp.unique_given(a, differs)
        w2, c2 = _clocks()
        times.append((w2 - w, c2 - c))
        wall, cpu, checks = wall + w2 - w, cpu + c2 - c, checks + 1
        if not unique:
            clues["given"][p] = v
    return time.perf_counter() - t0, checks, wall, cpu


# ----------------------------------------------------------------- hand-written PySAT ---
def unruly_clauses(n: int, native: bool = False) -> tuple[list, dict, int, list]:
    """Clauses, given literals, top variable and (``native``) at-most-k constraints."""
    x = {(r, c): r * n + c + 1 for r in range(n) for c in range(n)}
    top = n * n
    clauses, cards = [], []
    lines = [[x[r, c] for c in range(n)] for r in range(n)] + [
        [x[r, c] for r in range(n)] for c in range(n)
    ]
    for line in lines:
        if native:
            cards += [(line, n // 2), ([-lit for lit in line], n // 2)]
        else:
            enc = CardEnc.equals(lits=line, bound=n // 2, top_id=top, encoding=EncType.seqcounter)
            top = max(top, enc.nv)
            clauses += enc.clauses
        for i in range(n - 2):
            w = line[i : i + 3]
            clauses.append(w)
            clauses.append([-lit for lit in w])
    givens = {(p, val): (x[p] if val else -x[p]) for p in x for val in (False, True)}
    return clauses, givens, top, cards


def sudoku_clauses(n: int = 9, b: int = 3) -> tuple[list, dict, int, list]:
    x = {
        (r, c, v): (r * n + c) * n + v for r in range(n) for c in range(n) for v in range(1, n + 1)
    }
    clauses = []

    def exactly_one(lits: list) -> None:
        clauses.append(lits)
        clauses.extend(
            [[-lits[i], -lits[j]] for i in range(len(lits)) for j in range(i + 1, len(lits))]
        )

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
    return clauses, givens, n * n * n, []


def pysat_generate(
    kind: str, n: int, seed: int, shared: dict, native: bool = False
) -> tuple[float, int, float, float]:
    t0 = time.perf_counter()
    clauses, givens, top, cards = (
        unruly_clauses(n, native) if kind == "unruly" else sudoku_clauses()
    )
    rng = random.Random(seed)
    with Solver(name="minicard" if native else "cadical195", bootstrap_with=clauses) as s:
        for lits, k in cards:
            s.add_atmost(lits, k)
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
                add(batch[: len(batch) // 2])
                add(batch[len(batch) // 2 :])

        for i in range(0, len(picks), 16):
            add(picks[i : i + 16])
        s.solve(assumptions=chosen)
        s.get_model()  # a person's loop reads the solution here
        # the removal loop runs on the DSL's solution and order: same checks, same puzzle
        sol, order = shared["solution"], shared["order"]
        act = top + 1
        s.add_clause([-act] + [-givens[p, sol[p]] for p in cells])
        clue = dict(sol)
        checks, wall, cpu = 0, 0.0, 0.0
        for p in order:
            v = clue.pop(p)
            a = [givens[q, w] for q, w in clue.items()] + [act]
            w, c = _clocks()
            unique = not s.solve(assumptions=a)
            w2, c2 = _clocks()
            wall, cpu, checks = wall + w2 - w, cpu + c2 - c, checks + 1
            if not unique:
                clue[p] = v
    return time.perf_counter() - t0, checks, wall, cpu


# -------------------------------------------------------------------------- Z3 ints ---
def z3_checks(
    kind: str, n: int, shared: dict, max_checks: int, budget: float, variant: str
) -> tuple[float, float, int]:
    """Wall and CPU seconds and number of uniqueness checks on an Int-arithmetic Z3 model,
    on the DSL run's solution and removal order (the same first ``max_checks`` checks).

    ``variant`` "assume": clues behind Boolean indicators and the blocking clause behind
    an activation literal, all asserted once; each check is ``check(assumptions)`` (the
    incremental loop the DSL runs). "pushpop": each check asserts the clue equalities and
    the blocking clause inside push/pop."""
    import z3

    s = z3.Solver()
    if kind == "unruly":
        x = {(r, c): z3.Int(f"x_{r}_{c}") for r in range(n) for c in range(n)}
        for v in x.values():
            s.add(v >= 0, v <= 1)
        lines = [[x[r, c] for c in range(n)] for r in range(n)] + [
            [x[r, c] for r in range(n)] for c in range(n)
        ]
        for line in lines:
            s.add(z3.Sum(line) == n // 2)
            for i in range(n - 2):
                w = z3.Sum(line[i : i + 3])
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
    if variant == "assume":
        given = {p: z3.Bool(f"given_{p[0]}_{p[1]}") for p in sol}
        for p, val in sol.items():
            s.add(z3.Implies(given[p], x[p] == val))
        act = z3.Bool("differs")
        s.add(z3.Implies(act, differs))
    s.set("timeout", int(budget * 1000))  # a check cut off here counts as its time limit
    clue = dict(sol)
    checks, wall, cpu = 0, 0.0, 0.0
    for p in shared["order"][:max_checks]:
        val = clue.pop(p)
        if variant == "assume":
            a = [given[q] for q in clue] + [act]
            w, c = _clocks()
            result = s.check(a)
        else:
            w, c = _clocks()
            s.push()
            s.add([x[q] == v for q, v in clue.items()])
            s.add(differs)
            result = s.check()
            s.pop()
        w2, c2 = _clocks()
        wall, cpu, checks = wall + w2 - w, cpu + c2 - c, checks + 1
        if result != z3.unsat:  # unknown (time limit) counts as "not unique", like sat
            clue[p] = val
        if wall > budget:
            break
    return wall, cpu, checks


def _z3_child(args: tuple, out) -> None:
    out.put(z3_checks(*args))


def z3_checks_bounded(
    kind: str, n: int, shared: dict, max_checks: int, budget: float, variant: str
):
    """z3_checks in a child process stopped after ``2 * budget + 10`` s (Z3 does not always
    honour its own time limit); (None, None, 0) when not even one check finished."""
    import multiprocessing as mp

    out = mp.Queue()
    child = mp.Process(target=_z3_child, args=((kind, n, shared, max_checks, budget, variant), out))
    child.start()
    child.join(2 * budget + 10)
    if child.is_alive():
        child.terminate()
        child.join()
        return None, None, 0
    return out.get()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--puzzles", type=int, default=3, help="puzzles per case (DSL and PySAT)")
    ap.add_argument(
        "--z3-checks", type=int, default=40, help="uniqueness checks timed on Z3 per case"
    )
    ap.add_argument(
        "--z3-budget", type=float, default=30.0, help="stop timing Z3 after this many seconds"
    )
    args = ap.parse_args()
    cases = [
        ("Unruly 14x14", "unruly", 14),
        ("Unruly 30x30", "unruly", 30),
        ("Sudoku 9x9", "sudoku", 9),
    ]
    print(
        f"{'case':13s} {'engine':22s} {'ms/check':>9s} {'cpu ms':>8s} {'s/puzzle':>9s} {'checks':>7s}"
    )
    for label, kind, n in cases:
        shared: dict = {}
        engines = [("DSL", dsl_generate), ("PySAT by hand", pysat_generate)]
        if kind == "unruly":
            engines.append(("PySAT+Minicard by hand", lambda *a: pysat_generate(*a, native=True)))
        sums = {name: [0.0, 0, 0.0, 0.0] for name, _ in engines}
        for seed in range(args.puzzles):  # interleaved, so machine load hits all alike
            for name, fn in engines:
                res = fn(kind, n, seed, shared.setdefault(seed, {}))
                sums[name] = [x + y for x, y in zip(sums[name], res, strict=True)]
        rows = {}
        for name, (total, checks, wall, cpu) in sums.items():
            rows[name] = (1000 * wall / checks, 1000 * cpu / checks, total / args.puzzles)
            label_e = f"{name} ({shared[0]['backend']})" if name == "DSL" else name
            print(
                f"{label:13s} {label_e:22s} {rows[name][0]:9.4f} {rows[name][1]:8.4f} "
                f"{rows[name][2]:9.3f} {checks / args.puzzles:7.0f}"
            )
        dsl, hand = rows["DSL"], rows["PySAT by hand"]
        line = (
            f"{label:13s} ratios: DSL/PySAT check {dsl[0] / hand[0]:.2f}x (cpu {dsl[1] / hand[1]:.2f}x), "
            f"puzzle {dsl[2] / hand[2]:.2f}x"
        )
        if "PySAT+Minicard by hand" in rows:
            mc = rows["PySAT+Minicard by hand"]
            line += (
                f"; DSL/Minicard by hand check {dsl[0] / mc[0]:.2f}x (cpu {dsl[1] / mc[1]:.2f}x)"
            )
        print(line)
        best = None
        for variant in ("assume", "pushpop"):
            wall, cpu, checks = z3_checks_bounded(
                kind, n, shared[0], args.z3_checks, args.z3_budget, variant
            )
            name = f"Z3 Int, {variant}"
            if not checks:
                limit = 2 * args.z3_budget + 10
                print(
                    f"{label:13s} {name:22s} no check finished in {limit:.0f} s "
                    f"(> {limit * 1000 / dsl[0]:.0f}x the DSL's {dsl[0]:.4f} ms/check)"
                )
                continue
            same = shared[0]["times"][:checks]
            dsl_w = 1000 * sum(w for w, _ in same) / checks
            dsl_c = 1000 * sum(c for _, c in same) / checks
            z_w, z_c = 1000 * wall / checks, 1000 * cpu / checks
            print(
                f"{label:13s} {name:22s} {z_w:9.4f} {z_c:8.4f} {'':9s} {checks:7d}  "
                f"(DSL on these {checks} checks: {dsl_w:.4f} ms, cpu {dsl_c:.4f}) "
                f"-> Z3/DSL {z_w / dsl_w:.0f}x, cpu {z_c / dsl_c:.0f}x"
            )
            if best is None or z_w / dsl_w < best[1]:
                best = (variant, z_w / dsl_w, z_c / dsl_c)
        if best is not None:
            print(
                f"{label:13s} ratios: Z3/DSL (faster Z3 form, {best[0]}) {best[1]:.0f}x, cpu {best[2]:.0f}x "
                f"(target >= 100x)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
