"""Each grid genre as a puzzleforge Family (registered as ``puzzleforge.grid.family:<id>``).

Why an adapter: the batch runner, the CLI and the web app only speak the Family protocol;
the genre keeps its rules and formats, this turns them into Puzzle records whose answer
is the solution grid as text rows (partial credit = fraction of correct cells).
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

from ..core.difficulty import DifficultyScale, apply_scale
from ..core.errors import ConfigError, InvalidDescription
from ..core.family import params_to_dict
from ..core.puzzle import Puzzle
from .generator import TIERS
from .genres import GENRES

#: One family per built-in genre, named as in ``genres.GENRES`` (the one list of genres).
__all__ = ["GridFamily", *GENRES]  # load_genre_file_family: reached through the registry

GENERATOR_VERSION = "grid-2"  # 2: k-star Star Battle, clue-only Nonogram, graph-aware grades

DIFFICULTY_DOC = (
    "Difficulty proxy from the rule encoding: 1.x = propagation from the clues fixes every "
    "cell (unit propagation interleaved with connectivity / island / loop deductions for the "
    "graph rules); 2.x = needs failed-literal probing (assume a value, propagate, refute); "
    "3.x = needs search. The fraction is the share of cells the cheaper level left open. "
    "Sudoku, Futoshiki and Light Up grade by technique instead: 1.x = the basic steps "
    "(singles), 2.x = + the medium ones (locked candidates, pairs/triples; number "
    "placements, one-step trials), 3.x = more (docs/grid.md). "
    "Params.difficulty targets a tier (easy=1, medium=2, hard=3, any); the generator retries "
    "until the grade falls in the tier and fails with reasons when it cannot. The grade is "
    "meta.rating; difficulty maps it onto [0, 0.75) (no grid puzzle is expert)."
)

#: easy 1.x, medium 2.x, hard 3.x; the expert quarter is left empty (nothing above search).
GRID_SCALE = DifficultyScale((1.0, 2.0, 3.0, 4.0, 4.0), "grid grade")


def _make_params(genre: Any) -> type:
    size = "{}x{}".format(*genre.default_size)
    fields: list = [
        ("size", str, dataclasses.field(default=size)),
        ("difficulty", str, dataclasses.field(default="any")),
        ("density", float | None, dataclasses.field(default=None)),
    ]
    fields += [
        (n, t, dataclasses.field(default=d)) for n, t, d in getattr(genre, "extra_params", ())
    ]

    def validate(self: Any) -> None:
        from .genre import parse_size

        problems = []
        try:
            rows, cols = parse_size(self.size)
            opts = genre.opts_from_params(self, rows, cols)
            problems += genre.check_size(rows, cols, opts)
            if self.difficulty in TIERS and self.difficulty != "any":
                refused = genre.tier_problem(self.difficulty, rows, cols, opts)
                if refused:
                    problems.append(refused)
        except Exception as exc:  # noqa: BLE001 - collected into one ConfigError
            problems.append(f"size {self.size!r}: {getattr(exc, 'problem', exc)}")
        if self.difficulty not in TIERS:
            problems.append(f"difficulty {self.difficulty!r} is not one of {', '.join(TIERS)}")
        if self.density is not None and not 0 < self.density <= 1:
            problems.append(f"density {self.density} is not in (0, 1]")
        problems += genre.check_params(self)
        if problems:
            raise ConfigError(
                "; ".join(problems), field="params", expected=f"valid {genre.id} parameters"
            )

    cls = dataclasses.make_dataclass(
        f"{genre.id.capitalize()}Params", fields, frozen=True, namespace={"validate": validate}
    )
    cls.__module__ = __name__
    return cls


class GridFamily:
    """Family protocol over one grid genre."""

    difficulty_doc = DIFFICULTY_DOC

    def __init__(self, genre_id: str, *, source: str | None = None) -> None:
        from .genres import get_genre

        self.genre = get_genre(genre_id)
        self.name = genre_id
        self.summary = self.genre.summary
        self.Params = _make_params(self.genre)
        #: For a genre loaded from a file: the file (its path as given) and what its
        #: records carry to find it again (meta.source, meta.source_sha256).
        self.source = source
        self._provenance: dict = {}
        if source is not None:
            from .genrefile import file_sha256, portable_path

            self._provenance = {
                "source": portable_path(source),
                "source_sha256": file_sha256(source),
            }

    def __reduce__(self) -> Any:
        # workers rebuild a file genre by loading the file again: the parent had --trust
        if self.source is not None:
            return (load_genre_file_family, (str(Path(self.source).resolve()), True))
        return (GridFamily, (self.name,))

    def generate(self, params: Any, rng: random.Random) -> Puzzle:
        from .generator import generate_instance
        from .genre import parse_size

        params.validate()
        g = self.genre
        rows, cols = parse_size(params.size)
        opts = g.opts_from_params(params, rows, cols)
        inst, sol, diff, comp = generate_instance(
            g, rows, cols, opts, rng, tier=params.difficulty, density=params.density
        )
        text = g.format(inst)
        answer = g.answer_text(inst, sol)
        question = (
            f"{g.title} puzzle ({rows}x{cols}). Rules: {g.rules_doc}\n"
            f"Answer format: {g.answer_doc}\n\n{text}"
        )
        return apply_scale(
            Puzzle(
                family=self.name,
                question=question,
                answer=answer,
                solution={"instance": text, "grid": answer.splitlines()},
                difficulty=diff,
                params=params_to_dict(params),
                seed=0,
                meta={
                    "generator": GENERATOR_VERSION,
                    "backend": comp.session.backend,
                    "clues": inst.clue_count(),
                    "solver_calls": comp.solves,
                    "genre": g.id,
                    **self._provenance,
                },
            ),
            GRID_SCALE,
        )

    def verify(self, puzzle: Any, answer: str) -> float:
        try:
            expected = puzzle["answer"] if isinstance(puzzle, dict) else puzzle.answer
            return self.genre.score(str(expected), str(answer))
        except Exception:  # noqa: BLE001 - a malformed answer scores 0.0, never raises
            return 0.0

    def instance_of(self, puzzle: Any) -> Any:
        sol = puzzle["solution"] if isinstance(puzzle, dict) else puzzle.solution
        if not isinstance(sol, dict) or "instance" not in sol:
            raise InvalidDescription("record carries no grid instance", field="solution.instance")
        return self.genre.parse(sol["instance"])

    def explain(self, puzzle: Any) -> list[str]:
        """The step-by-step solution a person follows (grid.hints: the easiest deduction
        at each step, its reason in words)."""
        from .hints import explain

        return [step.reason for step in explain(self.genre, self.instance_of(puzzle))]

    def audit(self, puzzle: Any) -> list[str]:
        """Independent re-check: re-parse the instance text, solve it from scratch, demand a
        unique solution equal to the stored answer."""
        try:
            inst = self.instance_of(puzzle)
        except Exception as exc:  # noqa: BLE001
            return [f"instance does not parse: {exc}"]
        comp = self.genre.compile(inst)
        status, sols = comp.is_unique(inst.clues)
        if status != "unique":
            return [f"solution is {status}"]
        expected = puzzle["answer"] if isinstance(puzzle, dict) else puzzle.answer
        got = self.genre.answer_text(inst, sols[0])
        if self.genre.score(expected, got) != 1.0:
            return ["stored answer differs from the solver's solution"]
        return []


def load_genre_file_family(path: str | Path, trust: bool = False, **options: Any) -> GridFamily:
    """The family of a genre file (``registry.PATH_LOADERS`` for ``.py``).

    A genre file is Python and runs as Python, so it is loaded only with ``trust``: the
    caller's ``--trust`` (``puzzleforge generate/verify/score --trust``), never a record's
    say-so. Without it this raises ``TrustRequired`` before the file is even read.
    """
    from ..core.errors import TrustRequired
    from .genrefile import load_genre_file

    if not trust:
        raise TrustRequired(
            f"{path} is a grid genre file: Python code that runs as Python when loaded, so "
            "it is loaded only when you pass --trust",
            file=str(path),
            field="--trust",
            expected="--trust on the command (generate, verify, score) if you trust this file",
            hint="Only pass --trust for genre files you trust",
        )
    genre = load_genre_file(path)
    return GridFamily(genre.id, source=str(path))


def _lazy(genre_id: str) -> GridFamily:
    return GridFamily(genre_id)


def __getattr__(name: str) -> GridFamily:
    """Module attributes per genre id, built on first use (``family:unruly``)."""
    if name in GENRES:
        fam = GridFamily(name)
        globals()[name] = fam
        return fam
    raise AttributeError(name)
