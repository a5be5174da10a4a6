"""Specs written for these tests in the PuzzleClone format, run through the real CLI.

Why: the engine must handle specs it has never seen (issue 16 item 5), including a
``customs/`` Python operator file under ``--trust``, and ``verify`` must re-derive a
dataset made from such a spec when given the same ``--trust`` (and say in one paragraph
what is missing when it is not). Each spec uses a construct the corpus uses rarely;
every answer is re-derived here by brute force from the puzzle text alone (an
independent source), never from the engine's own solver.

Specs (tests/spec/data/unseen/): customs_lineup.yaml (+ customs/lineup.py: an operator
file drawing from the global ``random`` module and building a constraint), knights_templates.yaml
(derived symbols of several templates, ``total``, ``amount``, the ``vars`` alias),
post_gen_pair.yaml (``post_generation`` vars and conditions, ``{post_gen_conditions}``),
bakery_lp.yaml (``float`` symbols, ``optimize``, an exact rational answer from ``_value``).
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import puzzleforge

DATA = Path(__file__).resolve().parent / "data" / "unseen"
SRC = str(Path(puzzleforge.__file__).resolve().parents[1])


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": SRC}
    env.pop("PUZZLEFORGE_DEBUG", None)
    return subprocess.run(
        [sys.executable, "-m", "puzzleforge", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _copy(tmp: Path, spec: str, customs: bool = False) -> None:
    shutil.copy(DATA / spec, tmp / spec)
    if customs:
        (tmp / "customs").mkdir()
        shutil.copy(DATA / "customs" / "lineup.py", tmp / "customs" / "lineup.py")


# ---- independent answers, from the question text alone ------------------------------------
def _lineup_answer(question: str) -> str:
    n = int(re.match(r"(\d+) friends stand in a row", question).group(1))
    pairs = re.findall(r"(\w+) stands directly left of (\w+)\.", question)
    k = int(re.search(r"Who stands at place (\d+)\?", question).group(1))
    names = sorted({x for p in pairs for x in p})
    assert len(names) == n and len(pairs) == n - 1
    rows = [
        order
        for order in itertools.permutations(names)
        if all(order.index(a) + 1 == order.index(b) for a, b in pairs)
    ]
    assert len(rows) == 1  # the clues fix the row
    return rows[0][k - 1]


def _knights_answer(question: str) -> str:
    said = re.findall(
        r"(\w+) says: (\w+)(?: is a (knight|knave)| and (\w+) are of the same kind)\.", question
    )
    people = [s[0] for s in said]
    worlds = []
    for kinds in itertools.product([True, False], repeat=len(people)):
        knight = dict(zip(people, kinds, strict=True))
        ok = True
        for speaker, a, kind, b in said:
            claim = knight[a] == knight[b] if b else knight[a] == (kind == "knight")
            ok &= knight[speaker] == claim
        if ok:
            worlds.append([p for p in people if knight[p]])
    assert len(worlds) == 1  # exactly one world: the puzzle is unique
    return ", ".join(worlds[0]) or "nobody"


def _pair_answer(question: str) -> str:
    total = int(re.search(r"add up to (\d+);", question).group(1))
    product = int(re.search(r"their product is (\d+);", question).group(1))
    pairs = [
        (x, y)
        for x in range(1, 10)
        for y in range(1, 10)
        if x < y and x + y == total and x * y == product
    ]
    assert len(pairs) == 1
    return str(pairs[0][1])


def _bakery_answer(question: str) -> str:
    """The LP optimum by its vertices: every intersection of two of the four lines."""
    nums = [int(x) for x in re.findall(r"\d+", question)]
    flour, hours, cf, ch, cp, bf, bh, bp = nums[:8]
    lines = [(1, 0, 0), (0, 1, 0), (cf, bf, flour), (ch, bh, hours)]  # a*x + b*y = c
    best = None
    for (a1, b1, c1), (a2, b2, c2) in itertools.combinations(lines, 2):
        det = a1 * b2 - a2 * b1
        if det == 0:
            continue
        x, y = Fraction(c1 * b2 - c2 * b1, det), Fraction(a1 * c2 - a2 * c1, det)
        if x >= 0 and y >= 0 and cf * x + bf * y <= flour and ch * x + bh * y <= hours:
            value = cp * x + bp * y
            best = value if best is None else max(best, value)
    return str(best)


# ---- customs/ under --trust ---------------------------------------------------------------
def test_customs_spec_generates_under_trust_and_verifies_with_the_same_trust(
    tmp_path: Path,
) -> None:
    _copy(tmp_path, "customs_lineup.yaml", customs=True)
    made = _run(
        [
            "spec",
            "generate",
            "customs_lineup.yaml",
            "-n",
            "6",
            "--seed",
            "5",
            "--trust",
            "-o",
            "a.jsonl",
        ],
        tmp_path,
    )
    assert made.returncode == 0, made.stderr
    again = _run(
        [
            "spec",
            "generate",
            "customs_lineup.yaml",
            "-n",
            "6",
            "--seed",
            "5",
            "--trust",
            "-o",
            "b.jsonl",
        ],
        tmp_path,
    )
    assert again.returncode == 0, again.stderr
    # the operator's global random follows the seed: the same bytes twice
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    records = _records(tmp_path / "a.jsonl")
    assert len(records) == 6
    for r in records:
        assert r["answer"] == _lineup_answer(r["question"])
        assert sorted(r["config"]["order"]) == sorted(r["config"]["names"])
    assert len({r["question"] for r in records}) == 6
    checked = _run(["verify", "a.jsonl", "--trust", "--workers", "1"], tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.splitlines()[-2:] == [
        "6/6 correct in a.jsonl",
        "uniqueness audit: 6 pass",
    ]


def test_verify_without_trust_says_once_which_file_and_flag_are_missing(tmp_path: Path) -> None:
    _copy(tmp_path, "customs_lineup.yaml", customs=True)
    made = _run(
        ["spec", "generate", "customs_lineup.yaml", "-n", "3", "--trust", "-o", "a.jsonl"], tmp_path
    )
    assert made.returncode == 0, made.stderr
    got = _run(["verify", "a.jsonl", "--workers", "1"], tmp_path)
    assert got.returncode == 2
    assert got.stdout == ""
    assert "Traceback" not in got.stderr
    paragraph = got.stderr.strip()
    assert "\n" not in paragraph  # one paragraph, said once (not once per record)
    assert paragraph == (
        "error (trust required): a.jsonl, field 'meta.source': record 1 was made from the spec "
        "customs_lineup.yaml, which runs Python code: customs_lineup.yaml:4, field "
        "'custom_operator.hidden_order': operator 'hidden_order' runs Python code from "
        "'customs/lineup.py'. Expected `puzzleforge verify a.jsonl --trust` to re-derive it, "
        "the same --trust the dataset was generated with (verify never trusts a spec on a "
        "record's word). Only pass --trust if you trust customs_lineup.yaml and its operator files."
    )


def test_verify_with_trust_but_without_the_customs_file_names_it(tmp_path: Path) -> None:
    _copy(tmp_path, "customs_lineup.yaml", customs=True)
    made = _run(
        ["spec", "generate", "customs_lineup.yaml", "-n", "2", "--trust", "-o", "a.jsonl"], tmp_path
    )
    assert made.returncode == 0, made.stderr
    shutil.rmtree(tmp_path / "customs")
    got = _run(["verify", "a.jsonl", "--trust", "--workers", "1"], tmp_path)
    assert got.returncode == 2 and got.stdout == "" and "Traceback" not in got.stderr
    paragraph = got.stderr.strip()
    assert "\n" not in paragraph
    assert paragraph.startswith(
        "error (invalid spec): a.jsonl, field 'meta.source': record 1 was made from the spec "
        "customs_lineup.yaml, whose Python operator file cannot be used here: "
        "customs_lineup.yaml:4, field 'custom_operator.hidden_order': operator file "
        "'customs/lineup.py' not found."
    )
    assert paragraph.endswith(
        "(run verify where the dataset was generated, with its customs/ folder)."
    )


# ---- rarely used constructs, untrusted (the sandboxed worker) -----------------------------
def test_derived_symbols_of_several_templates(tmp_path: Path) -> None:
    _copy(tmp_path, "knights_templates.yaml")
    made = _run(
        ["spec", "generate", "knights_templates.yaml", "-n", "8", "--seed", "3", "-o", "k.jsonl"],
        tmp_path,
    )
    assert made.returncode == 0, made.stderr
    records = _records(tmp_path / "k.jsonl")
    kinds = set()
    for r in records:
        assert r["answer"] == _knights_answer(r["question"])
        kinds |= {
            "same" if "same kind" in s else "single"
            for s in re.findall(r"says: [^.]*\.", r["question"])
        }
        people = len(re.findall(r"(\w+) says:", r["question"]))
        assert people == r["config"]["n"]  # `total: n` statements, one per person
    assert kinds == {"same", "single"}  # both shapes of template (with and without amount)
    checked = _run(["verify", "k.jsonl", "--workers", "1"], tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.splitlines()[-2:] == [
        "8/8 correct in k.jsonl",
        "uniqueness audit: 8 pass",
    ]


def test_post_generation_vars_and_conditions(tmp_path: Path) -> None:
    _copy(tmp_path, "post_gen_pair.yaml")
    made = _run(
        ["spec", "generate", "post_gen_pair.yaml", "-n", "8", "--seed", "2", "-o", "p.jsonl"],
        tmp_path,
    )
    assert made.returncode == 0, made.stderr
    records = _records(tmp_path / "p.jsonl")
    for r in records:
        assert r["answer"] == _pair_answer(r["question"])
        total, product = r["config"]["total"], r["config"]["product"]
        assert f"add up to {total}; their product is {product}; " in r["question"]
    checked = _run(["verify", "p.jsonl", "--workers", "1"], tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.splitlines()[-2:] == [
        "8/8 correct in p.jsonl",
        "uniqueness audit: 8 pass",
    ]


def test_float_symbols_and_optimize(tmp_path: Path) -> None:
    _copy(tmp_path, "bakery_lp.yaml")
    made = _run(
        ["spec", "generate", "bakery_lp.yaml", "-n", "8", "--seed", "4", "-o", "b.jsonl"], tmp_path
    )
    assert made.returncode == 0, made.stderr
    records = _records(tmp_path / "b.jsonl")
    for r in records:
        assert r["answer"] == _bakery_answer(r["question"])
    assert any("/" in r["answer"] for r in records)  # an exact rational, not a rounded float
    checked = _run(["verify", "b.jsonl", "--workers", "1"], tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.splitlines()[-2:] == [
        "8/8 correct in b.jsonl",
        "uniqueness audit: 8 pass",
    ]
