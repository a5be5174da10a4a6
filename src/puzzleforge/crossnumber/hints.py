"""The next hint on a cross-number being filled in: the easiest deduction available now.

Why a module of its own: a player asks "what can I fill in next, and why?", not "reveal a
cell". The answer comes from the engine that writes the step log (the solver's constraints
narrowing candidate sets, ``steps.py``'s words), tried from the most local reason outwards:

1. **one clue by itself**, reading the cells already filled: its rule and its cells leave one
   value for an empty cell (the fewest steps wins, then the clue that comes first);
2. **every clue and rule together**, propagated to a fixpoint: the first step that fixes an
   empty cell, told with the earlier steps it builds on;
3. only when propagation fixes nothing, **the smallest case split**, said as such: every other
   case of the smallest open set ends in a contradiction, whose reason is given;
4. failing even that, the cell the solver's deeper search settles, said as such.

Given cells and cells the player has filled are never hinted. Coordinates in the words are
1-based ("row 1, column 1" is the top-left cell), as on the page.

>>> from .api import parse_puzzle, solve_puzzle
>>> m = parse_puzzle('''
... grid: |
...   ..
...   ..
... clues:
...   A1: square
...   A3: square
...   D1: prime
...   D2: square
... ''')
>>> h = next_hint(m, {}, solve_puzzle(m).solutions[0])
>>> h.method, h.clue, h.cell, h.value
('propagation', 'A3', (1, 1), '6')
>>> h.reason.split(";")[0]
'Row 2, column 2 is 6: A3 is square with 2 digits: {16, 25, 36, 49, 64, 81}'
>>> h.reason.endswith("A3: {16, 25, 36, 49, 64, 81} -> {16, 36}; so cells r2c2 6")
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .constraints import Contradiction
from .model import Model
from .solver import Solution, Solver
from .steps import Step, StepLog, summarize
from .steptext import key_text

__all__ = ["Hint", "next_hint"]

#: case splits are tried on at most this many open sets, each of at most this many values
SPLIT_KEYS = 12
SPLIT_VALUES = 10

Cell = tuple[int, int]


@dataclass(frozen=True)
class Hint:
    """One cell to fill and why. ``method`` says how far the reason reaches: ``clue`` (one
    clue by itself), ``propagation`` (several clues and rules), ``case split`` or
    ``search``."""

    cell: Cell  # 0-based (row, column)
    value: str
    method: str
    clue: str | None  # the clue the reason starts from, when there is one
    reason: str  # in words, 1-based coordinates
    used: tuple[Cell, ...]  # the cells the reason reads (to highlight)


def _cell_name(rc: Cell) -> str:
    """The step log's name of a cell (``r1c2``: row 1, column 2)."""
    return f"r{rc[0] + 1}c{rc[1] + 1}"


def _fixed_in(step: Step, open_names: Mapping[str, Cell]) -> list[Cell]:
    """The open cells this step leaves with a single value."""
    out = []
    for change in step.data.get("cells", []) + step.data.get("changes", []):
        rc = open_names.get(change["subject"])
        if rc is not None and "{" not in change["after"] and rc not in out:
            out.append(rc)
    return out


def _first_fix(log: StepLog, open_names: Mapping[str, Cell], dom: dict) -> tuple[int, Cell] | None:
    """(index of the step, cell) of the first step that fixes an open cell."""
    for i, step in enumerate(log.steps):
        for rc in _fixed_in(step, open_names):
            if len(dom[("x", rc)]) == 1:
                return i, rc
    return None


def _clues_named(model: Model, steps: list[Step]) -> list[str]:
    """Clue names a run of steps mentions (their subjects, or the clue their reason names)."""
    found: list[str] = []
    for step in steps:
        names = list(step.data.get("subjects", [])) + [step.data.get("why", "").split(" ")[0]]
        for name in names:
            if name in model.clues and name not in found:
                found.append(name)
    return found


def _entry_cells(model: Model, clue: str, dom: dict) -> list[Cell]:
    c = model.clues[clue]
    entry = c.entry
    if entry is None:
        mapped = dom.get(("m", clue))
        entry = next(iter(mapped)) if mapped is not None and len(mapped) == 1 else None
    return list(model.entries[entry].cells) if entry is not None else []


def _used(model: Model, clues: list[str], dom: dict, cell: Cell) -> tuple[Cell, ...]:
    cells: list[Cell] = []
    for name in clues:
        cells += [rc for rc in _entry_cells(model, name, dom) if rc not in cells]
    if cell not in cells:
        cells.append(cell)
    return tuple(cells)


#: a reason tells at most this many steps (the ones closest to the cell); earlier ones are counted
SAID_STEPS = 4


def _said(steps: list[Step], kinds: Mapping[str, str], clues: list[str]) -> str:
    """The steps as one sentence, each clue's type first (from the starting domains)."""
    parts = [kinds[c] for c in clues if c in kinds]
    if len(steps) > SAID_STEPS:
        earlier = len(steps) - SAID_STEPS
        parts.append(f"after {earlier} earlier step" + ("s" if earlier > 1 else ""))
    parts += [s.text for s in steps[-SAID_STEPS:]]
    return "; ".join(parts)


def _reads(model: Model, step: Step) -> set[str]:
    """What a step depends on: its subjects, the clue its reason names and that clue's cells
    (a clue narrowed by its cells read every one of them, changed or not)."""
    names = set(step.data.get("subjects", []))
    names.add(step.data.get("why", "").split(" ")[0])
    for name in list(names):
        clue = model.clues.get(name)
        if clue is not None:
            for entry in clue.candidates:
                names.update(_cell_name(rc) for rc in model.entries[entry].cells)
    return names


def _relevant(model: Model, steps: list[Step], last: int) -> list[Step]:
    """The steps up to ``last`` that the step at ``last`` builds on: those that narrowed
    something it reads, followed backwards."""
    wanted = _reads(model, steps[last])
    keep = [last]
    for i in range(last - 1, -1, -1):
        if set(steps[i].data.get("subjects", [])) & wanted:
            keep.append(i)
            wanted |= _reads(model, steps[i])
    return [steps[i] for i in sorted(keep)]


def next_hint(model: Model, filled: Mapping[Cell, str], solution: Solution) -> Hint | None:
    """The easiest deduction for an empty cell, given the cells filled so far (which must
    be correct: check them first). None when every cell is given or filled."""
    givens = model.grid.givens
    open_cells = [rc for rc in model.grid.cells() if rc not in givens and rc not in filled]
    if not open_cells:
        return None
    open_names = {_cell_name(rc): rc for rc in open_cells}
    solver = Solver(model, fixed=dict(filled), log_steps=True)
    base = solver.initial_domains()
    kinds = {s.subject: s.text for s in solver.log.steps if s.kind == "kind"}

    def right(dom: dict, rc: Cell) -> bool:
        return next(iter(dom[("x", rc)])) == solution.cells[rc]

    # 1. one clue by itself
    best: tuple[int, int, Cell, str, StepLog, dict] | None = None
    for order, name in enumerate(model.clues):
        dom = dict(base)
        try:
            log = solver.propagate_only(dom, solver.clue_constraints(name))
        except Contradiction:
            continue
        hit = _first_fix(log, open_names, dom)
        if hit is not None and right(dom, hit[1]) and (best is None or hit[0] < best[0]):
            best = (hit[0], order, hit[1], name, log, dom)
    if best is not None:
        last, _, rc, name, log, dom = best
        value = solution.cells[rc]
        reason = _said(log.steps[: last + 1], kinds, [name])
        return Hint(
            rc,
            value,
            "clue",
            name,
            f"Row {rc[0] + 1}, column {rc[1] + 1} is {value}: {reason}",
            _used(model, [name], dom, rc),
        )

    # 2. every clue and rule together
    dom = dict(base)
    log = solver.propagate_only(dom, solver.cons)
    hit = _first_fix(log, open_names, dom)
    if hit is not None and right(dom, hit[1]):
        last, rc = hit
        steps = _relevant(model, log.steps, last)
        clues = _clues_named(model, steps[-1:]) + [
            c for c in _clues_named(model, steps) if c not in _clues_named(model, steps[-1:])
        ]
        value = solution.cells[rc]
        return Hint(
            rc,
            value,
            "propagation",
            clues[0] if clues else None,
            f"Row {rc[0] + 1}, column {rc[1] + 1} is {value}: {_said(steps, kinds, clues[:1])}",
            _used(model, clues, dom, rc),
        )

    # 3. the smallest case split
    split = _case_split(solver, model, dom, open_names, solution)
    if split is not None:
        return split

    # 4. deeper search: say so
    rc = min(open_cells, key=lambda x: (len(dom[("x", x)]), x))
    value = solution.cells[rc]
    return Hint(
        rc,
        value,
        "search",
        None,
        f"Row {rc[0] + 1}, column {rc[1] + 1} is {value}: no clue or rule fixes a cell "
        f"now and no single case split settles one; a deeper case analysis (the "
        f"solver's search) does. Its candidates now: {summarize(dom[('x', rc)], True)}",
        (rc,),
    )


def _case_split(
    solver: Solver, model: Model, dom: dict, open_names: Mapping[str, Cell], solution: Solution
) -> Hint | None:
    """Split the smallest open set whose cases all but one end in a contradiction, when the
    case that survives fixes an empty cell."""
    rank = {"v": 0, "m": 1, "c": 2, "x": 3}
    keys = sorted(
        (k for k, d in dom.items() if 1 < len(d) <= SPLIT_VALUES),
        key=lambda k: (len(dom[k]), rank[k[0]], key_text(k)),
    )
    for key in keys[:SPLIT_KEYS]:
        refuted: list[str] = []
        alive: list[tuple[object, dict]] = []
        for v in sorted(dom[key]):
            child = dict(dom)
            child[key] = frozenset([v])
            try:
                solver.propagate_only(child, solver.cons, changed=key)
            except Contradiction as e:
                refuted.append(f"if {key_text(key)} = {v}, {e}")
                continue
            alive.append((v, child))
        if len(alive) != 1:
            continue
        v, child = alive[0]
        fixed = sorted(
            rc
            for rc in open_names.values()
            if len(child[("x", rc)]) == 1
            and len(dom[("x", rc)]) > 1
            and next(iter(child[("x", rc)])) == solution.cells[rc]
        )
        if not fixed:
            continue
        rc = fixed[0]
        value = solution.cells[rc]
        clue = key[1] if key[0] in ("c", "m") else None
        used = _used(model, [clue], dom, rc) if clue is not None else (rc,)
        return Hint(
            rc,
            value,
            "case split",
            clue,
            f"Row {rc[0] + 1}, column {rc[1] + 1} is {value}: no clue or rule fixes a "
            f"cell by itself now, so split the cases of {key_text(key)} "
            f"({summarize(dom[key])}): "
            + "; ".join(refuted)
            + f"; so {key_text(key)} = {v}, which fixes it",
            used,
        )
    return None
