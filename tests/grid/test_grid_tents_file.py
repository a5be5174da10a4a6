"""Tents, a genre in a separate file (examples/genres/tents.py), used without touching the
package: its published-style instance solves to the one answer a brute force finds; it is
generated, solved, exported (SMT-LIB checked by Z3, DIMACS solved by a plain SAT solver)
and made into a dataset whose records load the file again only under --trust."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from itertools import pairwise
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TENTS = ROOT / "examples" / "genres" / "tents.py"
PUZZLE = ROOT / "examples" / "genres" / "tents-8x8.txt"
CLI = [sys.executable, "-m", "puzzleforge.cli.main"]


def _run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=300, cwd=cwd)


def _num(token: str) -> int | None:
    return None if token == "." else int(token)


def _read(text: str) -> tuple[list[list[bool]], list, list]:
    """Trees, row counts, column counts (None where no count is given)."""
    lines = [ln.split() for ln in text.splitlines() if ln.strip() and not ln.startswith(";")][1:]
    trees = [[t == "T" for t in row[:-1]] for row in lines[:-1]]
    return trees, [_num(row[-1]) for row in lines[:-1]], [_num(t) for t in lines[-1]]


def _matching(tents: list[tuple[int, int]], trees: set) -> bool:
    """A perfect tent-tree pairing between side neighbours (Kuhn's augmenting paths)."""
    partner: dict = {}

    def grow(t: tuple[int, int], seen: set) -> bool:
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            tree = (t[0] + dr, t[1] + dc)
            if tree in trees and tree not in seen:
                seen.add(tree)
                if tree not in partner or grow(partner[tree], seen):
                    partner[tree] = t
                    return True
        return False

    return len(tents) == len(trees) and all(grow(t, set()) for t in tents)


def _brute_force(text: str) -> list[tuple[tuple[int, ...], ...]]:
    """Every tent layout obeying the rules, row by row (independent of the DSL)."""
    trees, row_counts, col_counts = _read(text)
    n, m = len(trees), len(trees[0])
    tree_set = {(r, c) for r in range(n) for c in range(m) if trees[r][c]}
    options = [
        [
            combo
            for k in (range(m + 1) if row_counts[r] is None else [row_counts[r]])
            for combo in itertools.combinations([c for c in range(m) if not trees[r][c]], k)
            if all(b - a > 1 for a, b in pairwise(combo))
        ]
        for r in range(n)
    ]
    found = []

    def place(r: int, rows: list) -> None:
        if r == n:
            tents = [(i, c) for i, row in enumerate(rows) for c in row]
            if all(
                k is None or sum(1 for _, c in tents if c == j) == k
                for j, k in enumerate(col_counts)
            ) and _matching(tents, tree_set):
                found.append(tuple(tuple(int(c in row) for c in range(m)) for row in rows))
            return
        for combo in options[r]:
            if rows and any(abs(a - b) <= 1 for a in rows[-1] for b in combo):
                continue
            place(r + 1, rows + [combo])

    place(0, [])
    return found


def test_the_tents_instance_has_the_brute_force_answer() -> None:
    (only,) = _brute_force(PUZZLE.read_text())
    solved = _run("grid", "solve", "--genre-file", str(TENTS), str(PUZZLE))
    assert solved.returncode == 0, solved.stderr
    assert solved.stdout.startswith("tents 8x8: unique solution")
    assert solved.stdout.endswith("\n".join("".join(map(str, row)) for row in only) + "\n")


def test_a_generated_tents_puzzle_solves_and_exports(tmp_path: Path) -> None:
    out = tmp_path / "t.txt"
    made = _run(
        "grid",
        "generate",
        "tents",
        "--genre-file",
        str(TENTS),
        "--size",
        "7x7",
        "--seed",
        "3",
        "--out",
        str(out),
        "--solution",
    )
    assert made.returncode == 0, made.stderr
    text = out.read_text()
    assert text.startswith("tents 7x7\n")
    expected = _brute_force(text)
    assert len(expected) == 1
    answer = "\n".join("".join(map(str, row)) for row in expected[0])
    solved = _run("grid", "solve", "--genre-file", str(TENTS), str(out))
    assert solved.returncode == 0 and solved.stdout.startswith("tents 7x7: unique solution")
    assert solved.stdout.endswith(answer + "\n")
    smt = _run("grid", "smtlib", "--check", "--genre-file", str(TENTS), str(out))
    assert smt.returncode == 0 and "; z3 and SAT agree: True" in smt.stderr
    cnf = _run("grid", "cnf", "--genre-file", str(TENTS), str(out))
    assert cnf.returncode == 0, cnf.stderr
    assert _solve_dimacs(cnf.stdout, 7) == [answer]


def _solve_dimacs(text: str, n: int) -> list[str]:
    """All tent layouts of a DIMACS export, by a plain SAT solver and the file's answer map."""
    from pysat.formula import CNF
    from pysat.solvers import Solver

    lits = {}
    for line in text.splitlines():
        if line.startswith("c answer tent "):
            _, _, _, r, c, _, lit = line.split()
            lits[(int(r), int(c))] = int(lit)
    assert len(lits) == n * n
    layouts = []
    with Solver(name="g3", bootstrap_with=CNF(from_string=text).clauses) as s:
        while s.solve() and len(layouts) < 3:
            model = set(s.get_model())
            layouts.append(
                "\n".join(
                    "".join("1" if lits[(r, c)] in model else "0" for c in range(n))
                    for r in range(n)
                )
            )
            s.add_clause([-lit if lit in model else lit for lit in lits.values()])
    return layouts


def test_graph_rules_have_no_dimacs_export() -> None:
    hitori = ROOT / "examples" / "genres"
    got = _run(
        "grid", "cnf", "--genre-file", str(hitori / "hitori.py"), str(hitori / "hitori-5x5.txt")
    )
    assert got.returncode == 2
    assert "the rules of hitori use graph rules (connected)" in got.stderr


def test_a_dataset_of_a_genre_file_verifies_only_with_trust(tmp_path: Path) -> None:
    genre = tmp_path / "tents.py"
    marker = tmp_path / "loaded.txt"
    # the copy leaves a mark each time it runs: proof of when the file is (not) executed
    genre.write_text(TENTS.read_text() + f"\nopen({str(marker)!r}, 'a').write('x')\n")
    refused = _run(
        "generate", "tents.py", "-n", "2", "--out", "d.jsonl", "-p", "size=6x6", "-q", cwd=tmp_path
    )
    assert refused.returncode == 2 and not marker.exists()
    assert "error (trust required): tents.py" in refused.stderr
    assert "is a grid genre file: Python code" in refused.stderr
    made = _run(
        "generate",
        "tents.py",
        "-n",
        "2",
        "--out",
        "d.jsonl",
        "-p",
        "size=6x6",
        "-q",
        "--trust",
        "--workers",
        "1",
        cwd=tmp_path,
    )
    assert made.returncode == 0, made.stderr
    records = [json.loads(line) for line in (tmp_path / "d.jsonl").read_text().splitlines()]
    assert [r["family"] for r in records] == ["tents", "tents"]
    assert {r["meta"]["source"] for r in records} == {"tents.py"}
    assert all(len(_brute_force(r["solution"]["instance"])) == 1 for r in records)
    marker.unlink()
    untrusted = _run("verify", "d.jsonl", cwd=tmp_path)
    assert untrusted.returncode == 2 and not marker.exists()
    assert (
        "record of family 'tents' names the grid genre file tents.py (meta.source); a "
        "genre file is Python code"
    ) in untrusted.stderr
    trusted = _run("verify", "d.jsonl", "--trust", cwd=tmp_path)
    assert trusted.returncode == 0, trusted.stdout + trusted.stderr
    assert "2/2 correct in d.jsonl" in trusted.stdout
    answers = tmp_path / "answers.jsonl"
    answers.write_text(
        "".join(json.dumps({"id": r["id"], "answer": r["answer"]}) + "\n" for r in records)
    )
    assert _run("score", "d.jsonl", str(answers), cwd=tmp_path).returncode == 2
    scored = _run("score", "d.jsonl", str(answers), "--json", "-", "--trust", cwd=tmp_path)
    assert scored.returncode == 0 and '"accuracy": 1.0' in scored.stdout
    genre.write_text(genre.read_text() + "\n# edited\n")
    marker.unlink()
    changed = _run("verify", "d.jsonl", "--trust", cwd=tmp_path)
    assert changed.returncode == 1 and not marker.exists()
    assert "the genre file tents.py has changed since this record was made" in changed.stdout


@pytest.mark.parametrize("size", ["5x5", "6x6"])
def test_generated_tents_are_unique_by_brute_force(size: str) -> None:
    from puzzleforge.grid import api
    from puzzleforge.grid.genrefile import load_genre_file

    genre = load_genre_file(TENTS)
    inst, sol, _ = api.generate("tents", size, 5)
    (only,) = _brute_force(genre.format(inst))
    assert "\n".join("".join(map(str, row)) for row in only) == genre.answer_text(inst, sol)
