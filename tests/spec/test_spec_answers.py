"""Spec answers are compared as the question means them (issue 23 item 3).

Expected scores are worked out by hand from what each format means: a set ignores order
and separators, a list does not, a number is its value, option letters ignore case.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from puzzleforge.core.puzzle import Puzzle
from puzzleforge.dataset import score_answer as dataset_score
from puzzleforge.spec.answers import (
    format_sentence,
    infer_format,
    parse_number,
    question_with_format,
    score_answer,
)
from puzzleforge.spec.family import load_spec_family

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "specs"
CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "puzzleclone"


@pytest.mark.parametrize(
    "expected,given,fmt,score",
    [
        # letter: one option, case and decoration ignored
        ("B", "b", "letter", 1.0),
        ("B", "(B)", "letter", 1.0),
        ("B", "答案是B", "letter", 1.0),
        ("B", "C", "letter", 0.0),
        ("B", "B, C", "letter", 0.0),
        # letters: a set of options; a correct subset earns its share
        ("AC", "ca", "letters", 1.0),
        ("AC", "C; A", "letters", 1.0),
        ("AC", "A、C", "letters", 1.0),
        ("AC", "A", "letters", 0.5),
        ("ACD", "AD", "letters", 0.667),
        ("AC", "AB", "letters", 0.0),
        # number: by value, fractions allowed; a rounded answer accepts values that round to it
        ("4", "4.0", "number", 1.0),
        ("4", "4/1", "number", 1.0),
        ("4", " 8/2 ", "number", 1.0),
        ("4", "5", "number", 0.0),
        ("-3", "-3.00", "number", 1.0),
        ("0.5", "1/2", "number", 1.0),
        ("3.33", "10/3", "number", 1.0),
        ("3.33", "3.3", "number", 0.0),
        ("12.50", "12.5", "number", 1.0),
        ("7", "seven", "number", 0.0),
        # set: order, spaces and separator style ignored; numbers by value; no extra or missing item
        ("4,2", "2,4", "set", 1.0),
        ("4,2", "2, 4", "set", 1.0),
        ("4,2", "4.0，2", "set", 1.0),
        ("林龙,向秀梅", "向秀梅、林龙", "set", 1.0),
        ("林龙,向秀梅", "林龙", "set", 0.0),
        ("4,2", "4,2,2", "set", 0.0),
        ("4,2", "2 4", "set", 1.0),
        ("['老1', '老7']", "老7,老1", "set", 1.0),
        # list: order matters
        ("4,2", "4,2", "list", 1.0),
        ("4,2", "2,4", "list", 0.0),
        ("-26,37", "-26, 37.0", "list", 1.0),
        ("刘,青年,女,医学", "刘，青年，女，医学", "list", 1.0),
        # text: whitespace, case and a final full stop ignored
        ("钟夫妇", "钟夫妇。", "text", 1.0),
        ("Alice", "alice", "text", 1.0),
        ("Alice", "Bob", "text", 0.0),
        # several queries: each part by its own format, mean of the parts
        ("7====80", "7====80.0", "number,number", 1.0),
        ("B====4,2", "b====2,4", "letter,set", 1.0),
        ("B====4,2", "B====2,5", "letter,set", 0.5),
    ],
)
def test_score_by_format(expected: str, given: str, fmt: str, score: float) -> None:
    assert score_answer(expected, given, fmt.split(",")) == score


def test_old_records_without_formats_keep_their_scoring() -> None:
    # records made before formats carry the query kind: open answers compared in order
    assert score_answer("4,2", "2,4", ["open"]) == 0.0
    assert score_answer("4,2", "4, 2", ["open"]) == 1.0
    assert score_answer("AC", "C,A", ["multiple_choice"]) == 1.0
    assert score_answer("A", "a", None) == 1.0


@pytest.mark.parametrize(
    "formula,text_src,text,fmt",
    [
        # 44-chess: one value per solution, every possible value listed -> set
        (
            "to_unique([sum([get_value(_model, s[i]) for i in names]) for _model in _solutions])",
            "','.join([str(v) for v in _ans])",
            "4,2",
            "set",
        ),
        # 28-exam: the people meeting a condition -> set
        (
            "to_unique([[p for p in names if get_value(_model, ok[p])] for _model in _solutions])",
            "','.join(_ans[0])",
            "林龙,向秀梅",
            "set",
        ),
        # 37-equation: the values of x, y in that order -> list
        (
            "to_unique([[get_value(_model, v) for v in vars] for _model in _solutions])",
            "','.join([str(int(v)) for v in _ans[0]])",
            "-26,37",
            "list",
        ),
        # 7-age: a count and a sum -> list
        (
            "to_unique([[len(a), sum(b)] for _model in _solutions])",
            "','.join(map(str, _ans[0]))",
            "2,10",
            "list",
        ),
        # 52-conference: owners of the supplies in order -> list
        (
            "[names[get_value(_solutions[0], hold[(q, s)])] for s in supplies]",
            "','.join(_ans)",
            "a,b",
            "list",
        ),
        # 31-rich: a filtered list printed as a Python list -> set
        (
            "to_unique([[p for p in names if get_value(_model, s[p])] for _model in _solutions])",
            "str(_ans[0])",
            "['老1', '老7']",
            "set",
        ),
        ("_value", "str(_value)", "10", "number"),
        ("x", "'{:.2f}'.format(_ans)", "323.05", "number"),
        ("to_unique([[p for p in s if c][0] for _model in _solutions])", "_ans[0]", "A2", "text"),
    ],
)
def test_infer_format(formula: str, text_src: str, text: str, fmt: str) -> None:
    assert infer_format(formula, text_src, text) == fmt


def test_parse_number() -> None:
    assert parse_number("4/1") == 4 and parse_number("-0.25") == parse_number("-1/4")
    assert parse_number("1,2") is None and parse_number("") is None and parse_number("1/0") is None


def test_format_sentence_language_and_queries() -> None:
    assert (
        format_sentence(["set"], ["4,2"], chinese=False)
        == "Answer format: all the items separated by commas, in any order."
    )
    assert (
        format_sentence(["number"], ["3.33"], chinese=True) == "答案格式：一个数（保留2位小数）。"
    )
    assert format_sentence(["letter", "number"], ["B", "7"], chinese=False) == (
        "Answer format: answer the questions in order, separated by '===='; question 1: the letter "
        "of the one correct option; question 2: a number."
    )
    assert (
        question_with_format("问题？\n", [{"format": "letter", "answer": "A"}])
        == "问题？\n答案格式：唯一正确选项的字母。"
    )
    assert question_with_format("Q?", []) == "Q?"


def test_record_stores_format_and_states_it() -> None:
    fam = load_spec_family(EXAMPLES / "vase.yaml")
    p = fam.generate(fam.Params(), random.Random(3))
    fmts = [q["format"] for q in p.solution["queries"]]
    assert fmts and all(f in ("letter", "letters", "number", "set", "list", "text") for f in fmts)
    assert p.question.endswith(format_sentence(fmts, p.answer.split("===="), chinese=False))
    assert "Answer format" not in p.extra["problem"]  # extra.problem stays the spec's own text


@pytest.mark.skipif(not CORPUS.exists(), reason="../shared corpus missing")
def test_chess_values_compare_as_a_set() -> None:
    fam = load_spec_family(CORPUS / "44-chess.yaml")
    p = fam.generate(fam.Params(), random.Random(1))
    assert p.solution["queries"][0]["format"] == "set"
    assert p.question.endswith("答案格式：全部答案项，用逗号分隔，顺序不限。")
    record = p.to_record()
    # a record of several possible values, written in another order, scores 1
    record["answer"] = "4,2"
    record["solution"] = dict(
        record["solution"], queries=[dict(record["solution"]["queries"][0], answer="4,2")]
    )
    assert dataset_score("2,4", record) == 1.0
    assert dataset_score("2，4", record) == 1.0
    assert dataset_score("2,5", record) == 0.0
    assert fam.verify(Puzzle.from_record(record), "2, 4") == 1.0


def test_records_made_before_formats_still_audit_and_score() -> None:
    fam = load_spec_family(EXAMPLES / "vase.yaml")
    p = fam.generate(fam.Params(), random.Random(3))
    old = Puzzle.from_record(p.to_record())
    old.question = old.extra["problem"]  # as records were written before the format sentence
    for q in old.solution["queries"]:
        q.pop("format")
    assert fam.audit(old) == []
    assert fam.verify(old, old.answer) == 1.0 and fam.verify(old, "nobody") == 0.0
