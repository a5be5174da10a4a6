"""Answer formats of spec queries: what an answer means, how to say it, how to compare it.

Why: a spec's answer is a rendered string ("4,2", "12.50", "AC"), but what the question
asks for decides which other strings are the same answer: the possible values of a
quantity over all solutions are a set ("2,4" is "4,2"), the people who passed a test are a
set, the ages of the named fathers are a list (order carries meaning), a count is a number
("4", "4.0" and "4/1" agree), option letters are letters (case and separators do not
matter). The format is decided once per query when the puzzle is made (from the spec's
``ans_formula`` / ``ans_text`` and the value), stored in ``solution.queries[i].format``,
stated in the question, and used by scoring.

Formats: ``letter`` (one option), ``letters`` (several options, a set), ``number``,
``set`` (order-free items), ``list`` (ordered items), ``text``.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Sequence
from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

__all__ = [
    "FORMATS",
    "infer_format",
    "choice_format",
    "format_sentence",
    "question_with_format",
    "score_part",
    "score_answer",
    "parse_number",
]

FORMATS = ("letter", "letters", "number", "set", "list", "text")

_SENTENCES = {
    "en": {
        "letter": "the letter of the one correct option",
        "letters": "the letters of all correct options, in any order",
        "number": "a number",
        "set": "all the items separated by commas, in any order",
        "list": "the items separated by commas, in the order asked",
        "text": "the answer text",
    },
    "zh": {
        "letter": "唯一正确选项的字母",
        "letters": "所有正确选项的字母，顺序不限",
        "number": "一个数",
        "set": "全部答案项，用逗号分隔，顺序不限",
        "list": "各答案项，用逗号分隔，按题目要求的顺序",
        "text": "答案文本",
    },
}


# ---- deciding the format -----------------------------------------------------------------
def choice_format(query_type: str) -> str:
    """The format of a choice query (``single_choice`` or ``multiple_choice``)."""
    return "letters" if query_type == "multiple_choice" else "letter"


def _parse(src: str) -> ast.AST | None:
    try:
        return ast.parse(" ".join(str(src).split()), mode="eval").body
    except SyntaxError:
        return None


def _is_filter(node: ast.AST | None) -> bool:
    """A comprehension that keeps the items meeting a condition (``[p for p in xs if ...]``)."""
    return isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp)) and any(
        gen.ifs for gen in node.generators
    )


def _per_model(node: ast.AST | None) -> ast.AST | None:
    """``ELT`` of ``to_unique([ELT for _model in _solutions])`` (one value per solution)."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "to_unique"
        and len(node.args) == 1
        and isinstance(node.args[0], ast.ListComp)
    ):
        comp = node.args[0]
        if (
            len(comp.generators) == 1
            and isinstance(comp.generators[0].target, ast.Name)
            and comp.generators[0].target.id == "_model"
        ):
            return comp.elt
    return None


def _collection_format(formula_src: str) -> str:
    """set or list for an answer that renders a collection."""
    tree = _parse(formula_src)
    elt = _per_model(tree)
    if elt is not None:
        if _is_filter(elt):
            return "set"  # the items that qualify, in one solution (the answer is that solution's)
        if isinstance(elt, (ast.ListComp, ast.List, ast.Tuple, ast.GeneratorExp)) or (
            isinstance(elt, ast.Call)
            and any(isinstance(a, (ast.List, ast.ListComp, ast.Call)) for a in elt.args[1:])
        ):
            return "list"  # one ordered tuple of values per solution
        return "set"  # one value per solution: the answer is every possible value
    return "set" if _is_filter(tree) else "list"


def infer_format(formula_src: str, text_src: str, text: str) -> str:
    """The format of an open query's answer: ``number``, ``set``, ``list`` or ``text``.

    A collection is an answer whose ``ans_text`` joins items (``','.join(...)``) or that
    renders a Python list; it is a set when ``ans_formula`` filters items by a condition or
    collects one value per solution (``to_unique([v for _model in _solutions])``), a list
    otherwise. Any other answer is a number when its text is one, else text.
    """
    t = str(text).strip()
    if ".join(" in str(text_src) or (t.startswith("[") and t.endswith("]")):
        return _collection_format(formula_src)
    return "number" if parse_number(t) is not None else "text"


# ---- saying it ----------------------------------------------------------------------------
def _is_chinese(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def _decimals(answer: str) -> int:
    m = re.fullmatch(r"\s*[-+]?\d*\.(\d+)\s*", answer)
    return len(m.group(1)) if m else 0


def format_sentence(formats: Sequence[str], answers: Sequence[str], chinese: bool) -> str:
    """One sentence stating the answer format of every query (English or Chinese)."""
    words = _SENTENCES["zh" if chinese else "en"]

    def one(fmt: str, ans: str) -> str:
        w = words.get(fmt, words["text"])
        d = _decimals(ans) if fmt == "number" else 0
        if d:
            w += f"（保留{d}位小数）" if chinese else f" rounded to {d} decimal places"
        return w

    parts = [one(f, a) for f, a in zip(formats, answers, strict=False)]
    if not parts:
        return ""
    if chinese:
        if len(parts) == 1:
            return f"答案格式：{parts[0]}。"
        each = "；".join(f"第{i}问为{p}" for i, p in enumerate(parts, start=1))
        return f"答案格式：按顺序回答各问，答案之间用“====”分隔；{each}。"
    if len(parts) == 1:
        return f"Answer format: {parts[0]}."
    each = "; ".join(f"question {i}: {p}" for i, p in enumerate(parts, start=1))
    return f"Answer format: answer the questions in order, separated by '===='; {each}."


def question_with_format(problem: str, details: Sequence[dict]) -> str:
    """The question shown to a solver: the spec's problem text plus the format sentence."""
    formats = [d.get("format") for d in details]
    if not details or not all(formats):
        return problem
    sentence = format_sentence(
        [f for f in formats if f], [str(d.get("answer", "")) for d in details], _is_chinese(problem)
    )
    return problem.rstrip("\n") + "\n" + sentence


# ---- comparing ------------------------------------------------------------------------------
_NUMBER = re.compile(r"[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?|[-+]?\d+\s*/\s*\d+")


def parse_number(text: str) -> Fraction | None:
    """The exact value of a number written as an integer, a decimal or a fraction."""
    t = str(text).strip().replace("−", "-")
    if not _NUMBER.fullmatch(t):
        return None
    try:
        return Fraction(t.replace(" ", ""))
    except (ValueError, ZeroDivisionError):
        return None


def _same_number(expected: str, given: str) -> bool:
    e, g = parse_number(expected), parse_number(given)
    if e is None or g is None:
        return False
    if e == g:
        return True
    d = _decimals(expected)
    if d:  # a rounded answer: the given value rounds to it at the stated precision
        try:
            q = Decimal(g.numerator) / Decimal(g.denominator)
            return Fraction(q.quantize(Decimal(1).scaleb(-d), rounding=ROUND_HALF_EVEN)) == e
        except InvalidOperation:
            return False
    return False


def _norm(text: str) -> str:
    t = str(text).strip().replace("，", ",").replace("、", ",").replace("；", ";")
    t = re.sub(r"\s+", "", t)
    return t.strip("。.").casefold()


_SEP = re.compile(r"[,，、;；]+")
_WRAP = "[](){}<>\"'“”‘’「」《》"


def _items(text: str, split_space: bool) -> list[str]:
    t = str(text).strip().strip("。.")
    t = "".join(" " if ch in _WRAP else ch for ch in t)
    parts = re.split(r"[,，、;；\s]+" if split_space else _SEP, t)
    return [p.strip() for p in parts if p.strip()]


def _key(item: str) -> tuple:
    n = parse_number(item)
    return ("n", n) if n is not None else ("t", _norm(item))


def _collection_score(expected: str, given: str, ordered: bool) -> float:
    split_space = not any(re.search(r"\s", w) for w in _items(expected, False))
    want = [_key(w) for w in _items(expected, split_space)]
    got = [_key(g) for g in _items(given, split_space)]
    if ordered:
        return 1.0 if want == got else 0.0
    return 1.0 if Counter(want) == Counter(got) else 0.0


def _letters(text: str) -> set[str] | None:
    """Option letters in an answer: "A", "A, C", "AC", "(B)", "Answer: B"."""
    t = re.sub(r"(答案|选项|正确|是|为)", " ", str(text)).upper()
    tokens = [tok for tok in re.split(r"[^A-Z]+", t) if tok]
    singles = [tok for tok in tokens if len(tok) == 1]
    if singles:
        return set(singles)
    if len(tokens) == 1 and len(set(tokens[0])) == len(tokens[0]):
        return set(tokens[0])
    return None


def _choice_score(expected: str, given: str, multiple: bool) -> float:
    want = set(expected.strip().upper())
    got = _letters(given)
    if not got:
        return 0.0
    if got == want:
        return 1.0
    if multiple and got <= want:
        return round(len(got) / len(want), 3)  # partial credit: some correct options, no wrong one
    return 0.0


def _legacy_open_score(expected: str, given: str) -> float:
    """Records made before formats existed: items compared in order, numbers by value."""
    e, g = _norm(expected), _norm(given)
    if e == g:
        return 1.0
    ep, gp = re.split(r"[,;]", e), re.split(r"[,;]", g)
    if len(ep) == len(gp) and all(
        _same_number(a, b) or a == b for a, b in zip(ep, gp, strict=False)
    ):
        return 1.0
    return 0.0


def score_part(expected: str, given: str, fmt: str | None) -> float:
    """Score one query's answer by its format (a query kind or None for old records)."""
    if fmt in ("letter", "single_choice"):
        return _choice_score(expected, given, False)
    if fmt in ("letters", "multiple_choice"):
        return _choice_score(expected, given, True)
    if fmt == "number":
        return 1.0 if _same_number(expected, given) or _norm(expected) == _norm(given) else 0.0
    if fmt == "set":
        return _collection_score(expected, given, False)
    if fmt == "list":
        return _collection_score(expected, given, True)
    if fmt == "text":
        return 1.0 if _norm(expected) == _norm(given) or _same_number(expected, given) else 0.0
    return _legacy_open_score(expected, given)


def score_answer(expected: str, given: Any, formats: Sequence[str | None] | None = None) -> float:
    """Score ``given`` against the canonical answer (parts of several queries joined by ``====``).

    ``formats`` holds each query's format (or, in records made before formats, its kind).

    >>> score_answer("B", " b ", ["letter"])
    1.0
    >>> score_answer("4,2", "2, 4", ["set"])
    1.0
    >>> score_answer("4,2", "2,4", ["list"])
    0.0
    """
    try:
        exp_parts = str(expected).split("====")
        giv_parts = str(given if given is not None else "").split("====")
        if len(giv_parts) == 1 and len(exp_parts) > 1:
            giv_parts = re.split(r"\n+|;|；", str(given))
        fmts = list(formats or [])
        total = 0.0
        for i, exp in enumerate(exp_parts):
            fmt = (
                fmts[i]
                if i < len(fmts)
                else ("letter" if re.fullmatch(r"[A-Z]+", exp.strip()) else None)
            )
            g = giv_parts[i] if i < len(giv_parts) else ""
            total += score_part(exp, g, fmt)
        return round(total / max(1, len(exp_parts)), 6)
    except Exception:  # noqa: BLE001 - scoring never raises on a malformed answer
        return 0.0
