"""The seed documents' examples, written as English specs, generate correct puzzles."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from puzzleforge.core.registry import family_for_record, resolve_family
from puzzleforge.core.seeding import derive_seed, make_rng
from puzzleforge.spec.family import SpecFamily, load_spec_family, score_answer

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "specs"
NAMES = ["vase", "house_numbers", "ore", "wine_merchant", "knapsack"]


def _puzzles(name: str, n: int = 3):
    fam = load_spec_family(EXAMPLES / f"{name}.yaml")
    return fam, [
        fam.generate(fam.Params(attempts=500), make_rng(derive_seed(11, fam.name, i)))
        for i in range(n)
    ]


@pytest.mark.parametrize("name", NAMES)
def test_example_generates_verified_puzzles(name: str) -> None:
    fam, puzzles = _puzzles(name)
    for p in puzzles:
        assert p.family == f"spec:{name}"
        assert p.question and p.answer
        # the question is the spec's own text plus one sentence stating the answer format
        head, sentence = p.question.rsplit("\n", 1)
        assert head == p.extra["problem"].rstrip("\n") and sentence.startswith("Answer format: ")
        assert set(p.extra["parameters"]) == {"cond_num", "sym_num", "sym_type", "difficulty"}
        assert 0.0 <= p.difficulty <= 1.0
        assert fam.verify(p, p.answer) == 1.0
        assert fam.verify(p, "definitely wrong") == 0.0
        assert fam.audit(p) == []  # config replay gives the same problem and answer
        assert Path(p.meta["source"]).name == f"{name}.yaml"


@pytest.mark.parametrize("name", ["vase", "wine_merchant"])
def test_same_seed_same_puzzle(name: str) -> None:
    fam = load_spec_family(EXAMPLES / f"{name}.yaml")
    a = fam.generate(fam.Params(), random.Random(5))
    b = fam.generate(fam.Params(), random.Random(5))
    assert a.to_json() == b.to_json()


def test_vase_answer_matches_brute_force() -> None:
    _, puzzles = _puzzles("vase", 4)
    for p in puzzles:
        cfg = p.config
        names = cfg["names"]
        pool = [[int(x[0].strip("_")), int(y[0].strip("_"))] for x, y in cfg["speeches_s"]["pool"]]
        culprits = []
        for c in range(len(names)):
            true_count = sum((about == c) == (claim == 0) for about, claim in pool)
            if true_count == len(names) - 1:
                culprits.append(names[c])
        assert culprits == [p.answer]


def test_knapsack_answer_matches_brute_force() -> None:
    _, puzzles = _puzzles("knapsack", 3)
    for p in puzzles:
        w, v, cap = p.config["weight"], p.config["price"], p.config["bag_size"]
        best = max(
            sum(v[i] for i in range(len(w)) if mask >> i & 1)
            for mask in range(1 << len(w))
            if sum(w[i] for i in range(len(w)) if mask >> i & 1) <= cap
        )
        assert p.answer == str(best)


def test_wine_single_choice_has_exactly_one_correct_option() -> None:
    _, puzzles = _puzzles("wine_merchant", 2)
    for p in puzzles:
        assert len(p.answer) == 1 and p.answer in "ABCD"
        assert p.question.count("\nA. ") == 1 and "\nD. " in p.question


def test_registry_resolves_spec_paths_and_records() -> None:
    fam = resolve_family(str(EXAMPLES / "vase.yaml"))
    assert isinstance(fam, SpecFamily) and fam.name == "spec:vase"
    p = fam.generate(fam.Params(), random.Random(3))
    again = family_for_record(p.to_record())
    assert again.verify(p, p.answer) == 1.0


def test_family_pickles_as_its_path() -> None:
    import pickle

    fam = load_spec_family(EXAMPLES / "vase.yaml")
    clone = pickle.loads(pickle.dumps(fam))
    assert clone.name == fam.name
    p = fam.generate(fam.Params(), random.Random(1))
    assert clone.generate(clone.Params(), random.Random(1)).to_json() == p.to_json()


def test_use_spec_vars_rerandomises_only_those(tmp_path: Path) -> None:
    fam = load_spec_family(EXAMPLES / "vase.yaml")
    p = fam.generate(fam.Params(), random.Random(8))
    seen = set()
    for s in range(6):
        q = fam.generate(fam.Params(), random.Random(s), config=p.config, use_spec_vars=("names",))
        assert q.config["p_num"] == p.config["p_num"]
        seen.add(tuple(q.config["names"]))
    assert len(seen) > 1


@pytest.mark.parametrize(
    "expected,given,kinds,score",
    [
        ("A", "a", None, 1.0),
        ("A", "(A)", None, 1.0),
        ("A", "Answer: A", None, 1.0),
        ("A", "B", None, 0.0),
        ("AC", "A, C", ["multiple_choice"], 1.0),
        ("AC", "CA", ["multiple_choice"], 1.0),
        ("AC", "A", ["multiple_choice"], 0.5),
        ("AC", "AB", ["multiple_choice"], 0.0),
        ("12.50", "12.5", ["open"], 1.0),
        ("3", "3.0", ["open"], 1.0),
        ("1,2", "1, 2", ["open"], 1.0),
        ("B====7", "B====7", ["single_choice", "open"], 1.0),
        ("B====7", "B====8", ["single_choice", "open"], 0.5),
        ("7", None, ["open"], 0.0),
        ("A", "", None, 0.0),
    ],
)
def test_answer_scoring_is_tolerant(expected, given, kinds, score) -> None:
    assert score_answer(expected, given, kinds) == score


def test_multiple_choice_is_supported(tmp_path: Path) -> None:
    spec = (
        (EXAMPLES / "vase.yaml")
        .read_text()
        .replace(
            "queries:\n",
            'queries:\n  q0:\n    desc: "Who told the truth?"\n    query_type: multiple_choice\n'
            "    opt_num: 4\n    source:\n    - names\n    cond: all\n"
            '    opt_formula: "get_value(_model, speeches_s[names.index(_opt[0][0])])"\n'
            '    opt_text: "{_opt[0][0]}"\n',
            1,
        )
    )
    path = tmp_path / "vase_mc.yaml"
    path.write_text(spec)
    fam = load_spec_family(path)
    p = fam.generate(fam.Params(attempts=500), random.Random(4))
    first = p.answer.split("====")[0]
    assert first and set(first) <= set("ABCD")
    assert fam.verify(p, p.answer) == 1.0
