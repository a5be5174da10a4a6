"""Latin square completion with a unique solution: the example family.

Why it exists: it exercises the whole pipeline (solver sessions with assumptions,
generation by clue removal, verify with partial credit, the contract tests) before the
big engines land, and stays as the smallest readable example of a Family.

>>> from puzzleforge.core.seeding import make_rng
>>> p = family.generate(Params(n=4), make_rng(1))
>>> family.verify(p, p.answer)
1.0
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..core.difficulty import DifficultyScale, apply_scale
from ..core.errors import ConfigError, GenerationFailed
from ..core.family import params_to_dict
from ..core.puzzle import Puzzle
from ..core.solver import VarPool, exactly_one, open_session
from ..core.solver.session import Session

__all__ = ["Params", "LatinFamily", "family", "latin_clauses", "parse_grid"]

Grid = list[list[int]]


@dataclass(frozen=True)
class Params:
    """n: side of the square (3..12); backend: solver used for uniqueness ("sat", "z3")."""

    n: int = 5
    backend: str = "sat"

    def validate(self) -> None:
        problems = []
        if not 3 <= self.n <= 12:
            problems.append(f"n={self.n} is out of range; expected 3..12")
        if self.backend not in ("sat", "glucose", "z3"):
            problems.append(f"backend={self.backend!r}; expected sat, glucose or z3")
        if problems:
            raise ConfigError("; ".join(problems), field="params")


def latin_clauses(n: int, pool: VarPool) -> list[list[int]]:
    """Each cell one symbol; each symbol once per row and once per column."""
    x = lambda r, c, v: pool.id((r, c, v))  # noqa: E731
    clauses: list[list[int]] = []
    for r in range(n):
        for c in range(n):
            clauses += exactly_one([x(r, c, v) for v in range(n)])
    for v in range(n):
        for i in range(n):
            clauses += exactly_one([x(i, c, v) for c in range(n)])
            clauses += exactly_one([x(r, i, v) for r in range(n)])
    return clauses


class _Instance:
    """One incremental session for a square of side n; clues are assumption literals."""

    def __init__(self, n: int, backend: str) -> None:
        self.n = n
        self.pool = VarPool()
        self.session: Session = open_session(backend, latin_clauses(n, self.pool), pool=self.pool)

    def lit(self, r: int, c: int, v: int) -> int:
        return self.pool.id((r, c, v))

    def solve(self, assumptions: list[int]) -> Grid:
        result = self.session.solve(assumptions)
        if not result.sat:
            raise GenerationFailed("latin square constraints unexpectedly unsatisfiable")
        n = self.n
        return [
            [next(v for v in range(n) if result.value(self.lit(r, c, v))) for c in range(n)]
            for r in range(n)
        ]

    def block(self, solution: Grid) -> int:
        """Activation literal of 'some cell differs from ``solution``'."""
        act = self.session.new_var()
        n = self.n
        self.session.add_clause(
            [-act] + [-self.lit(r, c, solution[r][c]) for r in range(n) for c in range(n)]
        )
        return act


def _random_square(inst: _Instance, rng: random.Random) -> Grid:
    n = inst.n
    first_row = list(range(n))
    rng.shuffle(first_row)
    rest = [v for v in range(n) if v != first_row[0]]
    rng.shuffle(rest)
    first_col = [first_row[0]] + rest
    assumptions = [inst.lit(0, c, first_row[c]) for c in range(n)]
    assumptions += [inst.lit(r, 0, first_col[r]) for r in range(1, n)]
    # a few random interior cells diversify beyond the solver's default completion
    cells = [(r, c) for r in range(1, n) for c in range(1, n)]
    rng.shuffle(cells)
    for r, c in cells[: max(1, n // 2)]:
        trial = assumptions + [inst.lit(r, c, rng.randrange(n))]
        if inst.session.solve(trial).sat:
            assumptions = trial
    return inst.solve(assumptions)


def render_grid(grid: Sequence[Sequence[int | None]]) -> str:
    return "\n".join(" ".join("." if v is None else str(v + 1) for v in row) for row in grid)


def parse_grid(text: str, n: int) -> list[list[int]] | None:
    """Read n*n symbols 1..n from loosely formatted text; None if it is not a grid."""
    numbers = [int(t) for t in re.findall(r"\d+", text)]
    if len(numbers) != n * n:
        return None
    return [[v - 1 for v in numbers[r * n : (r + 1) * n]] for r in range(n)]


#: the Params class under a name the family's methods can annotate with (inside the class
#: body ``Params`` is the class attribute the Family protocol asks for)
LatinParams = Params


class LatinFamily:
    name = "latin"
    Params = Params
    summary = "Latin square completion with a unique solution (example family)"
    difficulty_doc = (
        "Native rating: the number of cells to fill in the clue-minimal puzzle "
        "(removing any given makes it ambiguous); tiers: easy < 14, medium < 22, "
        "hard < 35, expert from 35 empty cells."
    )
    difficulty_scale = DifficultyScale((0, 14, 22, 35, 64), "cells to fill")

    def generate(self, params: LatinParams, rng: random.Random) -> Puzzle:
        inst = _Instance(params.n, params.backend)
        try:
            solution = _random_square(inst, rng)
            n = params.n
            act = inst.block(solution)
            givens = {(r, c) for r in range(n) for c in range(n)}
            order = sorted(givens)
            rng.shuffle(order)
            checks = 0
            for cell in order:
                givens.discard(cell)
                assumptions = [inst.lit(r, c, solution[r][c]) for r, c in sorted(givens)] + [act]
                checks += 1
                if inst.session.solve(assumptions).sat:  # another solution exists
                    givens.add(cell)
        finally:
            inst.session.close()
        puzzle_grid = [
            [solution[r][c] if (r, c) in givens else None for c in range(n)] for r in range(n)
        ]
        empty = n * n - len(givens)
        question = (
            f"Fill the {n}x{n} grid with the numbers 1 to {n} so that every number appears "
            f"exactly once in each row and each column. Empty cells are shown as '.'.\n\n"
            f"{render_grid(puzzle_grid)}\n\n"
            f"Answer format: the completed grid, {n} lines of {n} numbers separated by spaces."
        )
        return apply_scale(
            Puzzle(
                family=self.name,
                question=question,
                answer=render_grid(solution),
                solution={
                    "grid": [[v + 1 for v in row] for row in solution],
                    "givens": [[None if v is None else v + 1 for v in row] for row in puzzle_grid],
                },
                difficulty=float(empty),
                params=params_to_dict(params),
                seed=0,
                meta={"uniqueness_checks": checks, "backend": params.backend, "unique": True},
            ),
            self.difficulty_scale,
        )

    def verify(self, puzzle: Puzzle, answer: str) -> float:
        """Fraction of cells equal to the (unique) solution; 1.0 only for the whole grid."""
        grid = puzzle.solution["grid"]
        n = len(grid)
        parsed = parse_grid(str(answer), n)
        if parsed is None:
            return 0.0
        right = sum(parsed[r][c] + 1 == grid[r][c] for r in range(n) for c in range(n))
        return right / (n * n)

    def audit(self, puzzle: Puzzle) -> list[str]:
        """Re-solve the givens with a fresh exact solver: exactly one solution, the stored one."""
        givens = puzzle.solution["givens"]
        n = len(givens)
        pool = VarPool()
        clauses = latin_clauses(n, pool)
        clauses += [
            [pool.id((r, c, v - 1))]
            for r in range(n)
            for c in range(n)
            if (v := givens[r][c]) is not None
        ]
        project = [pool.id((r, c, v)) for r in range(n) for c in range(n) for v in range(n)]
        with open_session("sat", clauses) as session:
            found = session.enumerate(project=project, limit=2)
        if len(found.models) != 1:
            return [
                f"givens admit {len(found.models)}{'+' if not found.complete else ''} solutions"
            ]
        model = found.models[0]
        solved = [
            [next(v for v in range(n) if model[pool.id((r, c, v))]) + 1 for c in range(n)]
            for r in range(n)
        ]
        return (
            []
            if solved == puzzle.solution["grid"]
            else ["stored solution differs from the solver's"]
        )


family = LatinFamily()
