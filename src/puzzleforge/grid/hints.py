"""Hints a person can use, for every genre written in the DSL: the easiest deduction now.

Why here and generic: a hint is a fact about the compiled rules, not about one genre, so
every genre (and a genre of the user's own) gets hints without code of its own. The
deduction operator is the one grading uses (``grading.closure``: unit propagation of the
rule encoding plus the graph deductions), so "easy" means the same thing in hints and in
difficulty tiers.

How the next hint is chosen, easiest first:

1. **A local deduction.** Among the entries the clues and the filled cells force, the one
   forced by the *nearest* evidence: clues and filled cells within distance 0, then 1,
   then 2... of the entry (Chebyshev distance on the board; a row or column clue is as
   near as its nearest cell). The evidence is then shrunk by deletion to a minimal set,
   and the hint cites exactly that set, so the reason can be checked by hand.
2. **A one-cell case split** (failed literal) when nothing is forced: "if this cell were
   black the rules would break, so it is white".
3. **Search** only when neither exists, said as such.

Givens (a cell whose own clue fixes it, such as a Sudoku digit or a Nurikabe number) are
never hinted. Places are 1-based ("row 3, column 5") and values are named ("black",
"a bulb", "a line"), as a person reads the board.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .grading import closure
from .topology import Cell, Edge, Line, Vertex

__all__ = ["Hint", "next_hint", "explain", "place_name", "value_name", "givens"]

#: What True and False mean for the binary genres, as a person says it.
_BINARY_NAMES = {
    "lightup": ("a bulb", "no bulb"),
    "starbattle": ("a star", "no star"),
    "slitherlink": ("a line", "no line"),
    "masyu": ("a line", "no line"),
    "nonogram": ("filled", "empty"),
    "kakurasu": ("shaded", "unshaded"),
}
#: Deduction shortcuts: at most this many forced entries are minimised per hint.
_MINIMISE_AT_MOST = 6


@dataclass
class Hint:
    """One deducible entry, why, and the evidence it rests on."""

    var: str
    entity: Any
    value: Any
    reason: str
    level: str  # "propagation" (local deduction) | "probing" (one-cell case split) | "search"
    clues: list[tuple[str, Any, Any]] = field(default_factory=list)
    cells: list[tuple[Any, Any]] = field(default_factory=list)  # ((var, entity), value)


def place_name(p: Any, rows: int = 0, cols: int = 0) -> str:
    """A place as people count it (rows and columns from 1). An edge is named by the two
    cells it separates (or, on the border, as a side of its one cell): the same words for
    Slitherlink's grid lines, Masyu's links between cell centres and Futoshiki's signs."""
    if isinstance(p, Cell):
        return f"row {p.r + 1}, column {p.c + 1}"
    if isinstance(p, Edge):
        a, b = (
            (Cell(p.r - 1, p.c), Cell(p.r, p.c))
            if p.o == "h"
            else (Cell(p.r, p.c - 1), Cell(p.r, p.c))
        )
        inside = [
            x for x in (a, b) if 0 <= x.r < (rows or x.r + 1) and 0 <= x.c < (cols or x.c + 1)
        ]
        if len(inside) == 2:
            return f"the edge between {place_name(a)} and {place_name(b)}"
        side = (
            ("top" if inside[0] == b else "bottom")
            if p.o == "h"
            else ("left" if inside[0] == b else "right")
        )
        return f"the {side} side of {place_name(inside[0])}"
    if isinstance(p, Vertex):
        return f"the corner at the top left of {place_name(Cell(p.r, p.c))}"
    if isinstance(p, Line):
        side = {
            "row": "row",
            "col": "column",
            "W": "row",
            "E": "row",
            "N": "column",
            "S": "column",
        }.get(p.name[0], "")
        # (names of lines are 0-based indices like cells)
        seen = {
            "W": " seen from the left",
            "E": " seen from the right",
            "N": " seen from the top",
            "S": " seen from the bottom",
        }.get(p.name[0], "")
        if side and len(p.name) > 1 and isinstance(p.name[1], int):
            return f"{side} {p.name[1] + 1}{seen}"
        return "the " + " ".join(map(str, p.name))
    return str(p)


def value_name(genre: Any, value: Any) -> str:
    """A value as people say it: names for binary genres, the token otherwise."""
    if isinstance(value, bool) or value in (0, 1) and _is_binary(genre):
        yes, no = _BINARY_NAMES.get(genre.id, ("black", "white"))
        return yes if value else no
    return genre.token(value)


def _is_binary(genre: Any) -> bool:
    return getattr(genre, "binary_answer", False)


def _coords(p: Any) -> list[tuple[float, float]]:
    if isinstance(p, Cell):
        return [(p.r, p.c)]
    if isinstance(p, Edge):
        return [(p.r - 0.5, p.c)] if p.o == "h" else [(p.r, p.c - 0.5)]
    if isinstance(p, Vertex):
        return [(p.r - 0.5, p.c - 0.5)]
    if isinstance(p, Line):
        return [xy for item in p.items for xy in _coords(item)]
    return []


def _distance(a: Any, b: Any) -> float:
    pa, pb = _coords(a), _coords(b)
    if not pa or not pb:
        return 0.0  # a clue with no place (a count for the whole board) is always at hand
    return min(max(abs(x[0] - y[0]), abs(x[1] - y[1])) for x in pa for y in pb)


class _Board:
    """The compiled puzzle and the literals of its entries and clues."""

    def __init__(self, genre: Any, inst: Any, comp: Any | None = None) -> None:
        self.genre, self.inst = genre, inst
        self.comp = comp if comp is not None else genre.compile(inst)
        self.reps = {(name, e): rep for name, e, rep, _ in self.comp.answer}
        self.items = [
            (n, p, v) for n, d in sorted(inst.clues.items()) for p, v in sorted(d.items(), key=repr)
        ]

    def place(self, p: Any) -> str:
        return place_name(p, self.inst.rows, self.inst.cols)

    def lit(self, key: tuple, value: Any) -> int:
        rep = self.reps[key]
        return (rep if value else -rep) if isinstance(rep, int) else rep.eq[value]

    def value_in(self, key: tuple, lits: set[int]) -> Any:
        rep = self.reps[key]
        if isinstance(rep, int):
            return True if rep in lits else False if -rep in lits else None
        return next((v for v, lit in rep.eq.items() if lit in lits), None)

    def assumptions(self, items: Iterable[tuple], cells: Iterable[tuple]) -> list[int]:
        clues: dict = {}
        for n, p, v in items:
            clues.setdefault(n, {})[p] = v
        return self.comp.assumptions(clues) + [self.lit(k, v) for k, v in cells]

    def forces(self, items: list, cells: list, target: int) -> bool:
        ok, lits = closure(self.comp, self.assumptions(items, cells))
        return ok and target in lits


def givens(genre: Any, inst: Any, comp: Any | None = None) -> dict[tuple, Any]:
    """Entries a clue on their own place fixes by itself (a Sudoku digit, a Nurikabe
    number's cell), and marked cells the layout decides (Light Up's walls): the player
    does not fill them, so a hint never names them."""
    board = _Board(genre, inst, comp)
    out: dict[tuple, Any] = {}
    # cells the puzzle's drawing marks (Light Up's walls) that the layout alone decides
    drawing = genre.drawing(inst, None)
    marked = set(drawing.text) | set(drawing.shaded)
    if marked:
        ok, lits = closure(board.comp, board.assumptions([], []))
        for key in board.reps:
            if ok and key[1] in marked:
                value = board.value_in(key, lits)
                if value is not None:
                    out[key] = value
    for item in board.items:
        keys = [k for k in board.reps if k[1] == item[1]]
        if not keys:
            continue
        ok, lits = closure(board.comp, board.assumptions([item], []))
        if ok:
            for key in keys:
                value = board.value_in(key, lits)
                if value is not None:
                    out[key] = value
    return out


def next_hint(
    genre: Any,
    inst: Any,
    known: dict[tuple, Any] | None = None,
    comp: Any | None = None,
    given: dict[tuple, Any] | None = None,
) -> Hint | None:
    """The easiest deduction available from the clues and the ``known`` entries
    ({(var name, entity): value}); None when the board contradicts itself or is full.
    ``given``: the puzzle's ``givens`` when the caller has them already (explain)."""
    board = _Board(genre, inst, comp)
    if given is None:
        given = givens(genre, inst, board.comp)
    fixed = {**given, **(known or {})}
    cells = sorted(fixed.items(), key=lambda kv: repr(kv[0]))
    ok, lits = closure(board.comp, board.assumptions(board.items, cells))
    if not ok:
        return None
    open_keys = [k for k in board.reps if k not in fixed]
    forced = [(k, board.value_in(k, lits)) for k in open_keys]
    forced = [(k, v) for k, v in forced if v is not None]
    if forced:
        return _local(board, forced, cells)
    return _probe(board, open_keys, cells) or _search(board, open_keys, fixed)


def _local(board: _Board, forced: list, cells: list) -> Hint:
    """The forced entry with the nearest evidence, cited as a minimal set."""
    limit = max(board.inst.rows, board.inst.cols) + 1
    found: list[tuple] = []
    for radius in range(limit + 1):
        for key, value in forced:
            near_items = [it for it in board.items if _distance(it[1], key[1]) <= radius]
            near_cells = [c for c in cells if _distance(c[0][1], key[1]) <= radius]
            if board.forces(near_items, near_cells, board.lit(key, value)):
                found.append((key, value, near_items, near_cells))
        if found:
            break
    if not found:  # only the whole board forces them (graph rules reach far)
        found = [(k, v, list(board.items), list(cells)) for k, v in forced]
    best = None
    for key, value, items, near in found[:_MINIMISE_AT_MOST]:
        items, near = _minimise(board, key, value, items, near)
        rank = (len(items) + len(near), repr(key))
        if best is None or rank < best[0]:
            best = (rank, key, value, items, near)
    assert best is not None  # found is never empty here
    _, key, value, items, near = best
    return Hint(
        key[0],
        key[1],
        value,
        _reason(board, key, value, items, near),
        "propagation",
        clues=items,
        cells=near,
    )


def _minimise(board: _Board, key: tuple, value: Any, items: list, cells: list) -> tuple[list, list]:
    """Drop evidence one piece at a time while the deduction still holds."""
    target = board.lit(key, value)
    # far pieces first: what stays is the evidence closest to the entry
    order = sorted(
        [("item", it) for it in items] + [("cell", c) for c in cells],
        key=lambda x: -_distance(x[1][1] if x[0] == "item" else x[1][0][1], key[1]),
    )
    keep_items, keep_cells = list(items), list(cells)
    for kind, piece in order:
        trial_items = [x for x in keep_items if x is not piece] if kind == "item" else keep_items
        trial_cells = [x for x in keep_cells if x is not piece] if kind == "cell" else keep_cells
        if board.forces(trial_items, trial_cells, target):
            keep_items, keep_cells = trial_items, trial_cells
    return keep_items, keep_cells


def _reason(board: _Board, key: tuple, value: Any, items: list, cells: list) -> str:
    g = board.genre
    parts = [f"{_clue_text(n, v)} at {board.place(p)}" for n, p, v in items]
    parts += [f"{board.place(k[1])} being {value_name(g, v)}" for k, v in cells]
    shown = parts[:6] + ([f"{len(parts) - 6} more"] if len(parts) > 6 else [])
    evidence = (
        "; ".join(shown)
        if shown
        else "the layout of the board alone"
        if board.inst.data
        else "nothing but the rules"
    )
    return (
        f"{board.place(key[1]).capitalize()} must be {value_name(g, value)}: the rules "
        f"({_rule_names(g)}) with {evidence} leave no other choice."
    )


#: How clue values read in a sentence, per clue kind (the default is "the <kind> <value>").
_CLUE_WORDS = {
    ("pearl", "W"): "the white pearl",
    ("pearl", "B"): "the black pearl",
    ("rel", "<"): "the sign <",
    ("rel", ">"): "the sign >",
}


def _clue_text(kind: str, value: Any) -> str:
    return _CLUE_WORDS.get((kind, value)) or f"the {kind} {value}"


def _rule_names(genre: Any) -> str:
    labels = getattr(genre.rules, "labels", None) or []
    return ", ".join(n for n in labels if n and "given" not in n) or genre.title


def _probe(board: _Board, open_keys: list, cells: list) -> Hint | None:
    """Case splits on one place at a time: a value that breaks the rules at once is ruled
    out; as soon as the values ruled out decide some place, that place is the hint, with
    the smallest set of ruled-out values it needs."""
    base = board.assumptions(board.items, cells)
    ruled_out: list[tuple[tuple, Any]] = []
    for _ in range(4):  # an elimination can enable further ones
        progress = False
        for key in open_keys:
            rep = board.reps[key]
            for value in [True, False] if isinstance(rep, int) else sorted(rep.eq):
                if (key, value) in ruled_out:
                    continue
                against = [-board.lit(k, v) for k, v in ruled_out]
                ok, _ = closure(board.comp, base + against + [board.lit(key, value)])
                if ok:
                    continue
                ruled_out.append((key, value))
                progress = True
                ok, lits = closure(board.comp, base + against + [-board.lit(key, value)])
                decided = [(k, board.value_in(k, lits)) for k in open_keys]
                decided = [(k, v) for k, v in decided if v is not None]
                if ok and decided:
                    target = min(decided, key=lambda kv: (_distance(kv[0][1], key[1]), repr(kv[0])))
                    return _probe_hint(board, base, ruled_out, *target)
        if not progress:
            return None
    return None


def _probe_hint(board: _Board, base: list, ruled_out: list, key: tuple, value: Any) -> Hint:
    target = board.lit(key, value)
    needed = list(ruled_out)
    for piece in list(ruled_out):
        trial = [x for x in needed if x != piece]
        ok, lits = closure(board.comp, base + [-board.lit(k, v) for k, v in trial])
        if ok and target in lits:
            needed = trial
    g = board.genre
    splits = "; ".join(
        f"if {board.place(k[1])} were {value_name(g, v)}, the rules would break"
        for k, v in needed[:4]
    )
    more = f" (and {len(needed) - 4} more such case splits)" if len(needed) > 4 else ""
    return Hint(
        key[0],
        key[1],
        value,
        f"{board.place(key[1]).capitalize()} must be {value_name(g, value)}: a case split "
        f"shows it ({splits}{more}); with that, the rules ({_rule_names(g)}) and the "
        "clues leave no other choice.",
        "probing",
        cells=[(k, v) for k, v in needed],
    )


def _search(board: _Board, open_keys: list, fixed: dict) -> Hint | None:
    forced = board.comp.forced(board.inst.clues)
    for key in open_keys:
        if key in forced:
            g = board.genre
            return Hint(
                key[0],
                key[1],
                forced[key],
                f"{board.place(key[1]).capitalize()} must be {value_name(g, forced[key])}: "
                "every solution has it, but no local deduction or one-place case split "
                "shows it yet; it needs a longer case analysis.",
                "search",
            )
    return None


def explain(genre: Any, inst: Any, limit: int | None = None) -> list[Hint]:
    """Hints one after another from an empty board until it is full (the step-by-step
    solution a person follows); each step uses the entries filled before it."""
    board = _Board(genre, inst)
    given = givens(genre, inst, board.comp)  # once: a closure per clue
    known: dict[tuple, Any] = {}
    steps: list[Hint] = []
    total = len(board.reps)
    while len(known) + len(given) < total and (limit is None or len(steps) < limit):
        hint = next_hint(genre, inst, known, board.comp, given)
        if hint is None:
            break
        known[(hint.var, hint.entity)] = hint.value
        steps.append(hint)
    return steps
