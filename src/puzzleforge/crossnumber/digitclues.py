"""Clue parts about an entry's single digits, written in words: "all digits odd", "no digit
repeated", "digit 2 is 7", "the first digit is greater than the last", "the second digit
is greater than the others", "the first two digits sum to the third".

Why a module of its own: these parts were written as ``%`` and division formulas
(``(D2 - D2 % 100) / 100 + ...``), which ``show`` printed as the clue and which the solver
could only judge once the whole entry was listed. Here each phrase becomes a ``DigitRule``:
a few *atoms*, each a test on the digits at a few positions. The same rule is a test on a
clue's value (``test``, used wherever number kinds are) and, per cell, a constraint that
narrows the entry's cells one atom at a time (digitcon.py), so "all digits odd" removes
the even digits from every cell before anything else is known.

Positions count the digits of the number from the left, from 1 ("digit 1", "the first
digit", "the 3rd digit"); "the last digit" (also "the units digit") is the rightmost.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["DigitRule", "parse_digit_rule", "digit_test", "DIGIT_TESTS"]

#: a position: 1-based from the left, or -1 for the last digit
Pos = int
#: an expanded atom: digit indices (0-based) and the test on the digits there
Atom = tuple[tuple[int, ...], Callable[..., bool]]

_ORD = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "last": -1,
    "final": -1,
    "units": -1,
}
_COUNT = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_CMP: dict[str, Callable[[int, int], bool]] = {
    "=": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    ">": operator.gt,
    "<=": operator.le,
    ">=": operator.ge,
}
_CMP_WORDS = [  # longer phrases first: "is at least" before "is"
    (r"(?:is )?(?:greater|larger|bigger|more|higher) than", ">"),
    (r"(?:is )?(?:less|smaller|lower|fewer) than", "<"),
    (r"(?:is )?(?:different from|not equal to|unequal to)|differs from|!=", "!="),
    (r">=|(?:is )?at least", ">="),
    (r"<=|(?:is )?at most", "<="),
    (r"(?:is )?(?:equal to|the same as)|equals|is|=", "="),
    (r">", ">"),
    (r"<", "<"),
]

_POS_RE = (
    r"(?:digit (?P<{g}n>\d+)"
    r"|(?:the )?(?:(?P<{g}w>first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth"
    r"|last|final|units)|(?P<{g}o>\d+)(?:st|nd|rd|th)) digit)"
)


def _pos_re(g: str, digit_optional: bool = False) -> str:
    """A position pattern with named groups prefixed ``g``; the second position of a
    comparison may leave out the word digit ("greater than the last")."""
    text = _POS_RE.format(g=g)
    return text.replace(") digit)", ")(?: digit)?)") if digit_optional else text


def _pos_of(m: re.Match[str], g: str) -> Pos:
    if m.group(g + "n"):
        return int(m.group(g + "n"))
    if m.group(g + "w"):
        return _ORD[m.group(g + "w")]
    return int(m.group(g + "o"))


#: the digit sets a word names ("odd", "prime", "greater than 4", "7", "not 0")
_PREDS: list[tuple[str, Callable[[re.Match[str]], frozenset[int]]]] = [
    (r"odd", lambda m: frozenset({1, 3, 5, 7, 9})),
    (r"even", lambda m: frozenset({0, 2, 4, 6, 8})),
    (r"(?:a )?primes?", lambda m: frozenset({2, 3, 5, 7})),
    (r"(?:non-?zero|not (?:0|zero))", lambda m: frozenset(range(1, 10))),
    (r"(?:0|zero)", lambda m: frozenset({0})),
    (r"(\d)", lambda m: frozenset({int(m.group(1))})),
    (r"not (\d)", lambda m: frozenset(range(10)) - {int(m.group(1))}),
    (r"(?:greater|larger|bigger|more) than (\d)|> ?(\d)", lambda m: _above(m, 1)),
    (r"(?:at least |>= ?)(\d)", lambda m: _above(m, 0)),
    (r"(?:less|smaller|lower) than (\d)|< ?(\d)", lambda m: _below(m, 1)),
    (r"(?:at most |<= ?)(\d)", lambda m: _below(m, 0)),
    (
        r"(\d)(?: ?, ?(\d))*(?:,? or (\d))",
        lambda m: frozenset(int(x) for x in re.findall(r"\d", m.group(0))),
    ),
]


def _num(m: re.Match[str]) -> int:
    return int(next(g for g in m.groups() if g is not None))


def _above(m: re.Match[str], strict: int) -> frozenset[int]:
    return frozenset(range(_num(m) + strict, 10))


def _below(m: re.Match[str], strict: int) -> frozenset[int]:
    return frozenset(range(0, _num(m) - strict + 1))


def _digit_set(text: str) -> frozenset[int] | None:
    t = re.sub(r"^(?:is |are |all |=\s*)+", "", text.strip())
    for pat, build in _PREDS:
        m = re.fullmatch(pat, t)
        if m:
            return build(m)
    return None


@dataclass(frozen=True)
class _Spec:
    """One phrase's atoms for a number of n digits (positions resolved against n)."""

    positions: tuple[Pos | str, ...]  # 1-based, -1 last, "all" every digit, "others"
    test: Callable[..., bool]

    def expand(self, n: int) -> list[Atom] | None:
        def idx(p: Pos) -> int | None:
            i = n - 1 if p == -1 else p - 1
            return i if 0 <= i < n else None

        if self.positions == ("all",):
            return [((i,), self.test) for i in range(n)]
        if "others" in self.positions:
            own = idx(int(self.positions[0]))
            if own is None:
                return None
            return [((own, j), self.test) for j in range(n) if j != own]
        got = [idx(int(p)) for p in self.positions]
        if any(i is None for i in got):
            return None
        return [(tuple(i for i in got if i is not None), self.test)]


@dataclass(eq=False)
class DigitRule:
    """A clue part about single digits: atoms (tests on the digits at a few positions)
    and "no digit repeated". ``key`` is the normalised phrase (the name of its test)."""

    key: str
    specs: tuple[_Spec, ...] = ()
    distinct: bool = False
    positions: tuple[int, ...] = ()  # explicit positions (checked against the length)
    #: ("sum" | "product", N): the digits add up to / multiply to N ("digit sum 14")
    total: tuple[str, int] | None = None
    _atoms: dict[int, list[Atom] | None] = field(default_factory=dict, repr=False)

    def expand(self, n: int) -> list[Atom] | None:
        """The atoms for a number of n digits, or None when a named position does not
        exist (digit 4 of a 3-digit number: the rule cannot hold)."""
        if n not in self._atoms:
            out: list[Atom] | None = []
            for spec in self.specs:
                got = spec.expand(n)
                if got is None:
                    out = None
                    break
                out.extend(got)  # type: ignore[union-attr]
            self._atoms[n] = out
        return self._atoms[n]

    def max_position(self) -> int:
        """The furthest position from the left a rule names (0: none)."""
        return max((p for p in self.positions if p > 0), default=0)

    def holds(self, digits: list[int]) -> bool:
        atoms = self.expand(len(digits))
        if atoms is None:
            return False
        if self.distinct and len(set(digits)) != len(digits):
            return False
        if self.total is not None and _combine(self.total[0], digits) != self.total[1]:
            return False
        return all(test(*(digits[i] for i in idxs)) for idxs, test in atoms)

    def test(self, v: int) -> bool:
        return v >= 0 and self.holds([int(c) for c in str(v)])


def _combine(how: str, digits: list[int]) -> int:
    if how == "sum":
        return sum(digits)
    out = 1
    for d in digits:
        out *= d
    return out


def total_rule(how: str, n: int, key: str) -> DigitRule:
    """ "digit sum 14" / "digit product 24" with a number: a digit rule, so the cells are
    narrowed at once (digitcon.py) instead of waiting until the entry can be listed."""
    return _register(DigitRule(key, (), False, (), (how, n)))


#: tests of the digit rules read so far, by key: a pure function of the key, so the
#: solver's kind tests (kinds.kind_test) find them whatever was parsed before
DIGIT_TESTS: dict[str, Callable[[int], bool]] = {}


def digit_test(key: str) -> Callable[[int], bool] | None:
    return DIGIT_TESTS.get(key)


def _in(allowed: frozenset[int]) -> Callable[[int], bool]:
    return allowed.__contains__


def _sum_is(op: Callable[[int, int], bool]) -> Callable[..., bool]:
    """The sum of every digit but the last compared with the last one."""
    return lambda *d: op(sum(d[:-1]), d[-1])


def _sum_const(op: Callable[[int, int], bool], k: int) -> Callable[..., bool]:
    return lambda *d: op(sum(d), k)


def _cmp_word(text: str) -> tuple[str, str] | None:
    """(operator, rest) for a comparison at the start of ``text``."""
    for pat, op in _CMP_WORDS:
        m = re.match(rf"(?:{pat})\s*", text)
        if m and m.end() > 0:
            return op, text[m.end() :]
    return None


def parse_digit_rule(item: str) -> DigitRule | None:
    """The rule a phrase names, or None when it is not a digit phrase (the clue parser
    then reads it as an expression or another phrase)."""
    t = re.sub(r"\s+", " ", item.strip().lower()).rstrip(".")
    t = re.sub(r"^(?:its|the answer's|the entry's) ", "", t)
    key = t
    spec = _distinct(t)
    if spec:
        return _register(DigitRule(key, (), True))
    m = re.fullmatch(r"(?:all|every|each) (?:of (?:its|the) )?digits? (.+)", t)
    if m:
        allowed = _digit_set(m.group(1))
        if allowed is not None:
            return _register(DigitRule(key, (_Spec(("all",), _in(allowed)),)))
    m = re.fullmatch(r"no digits? (?:is |are )?(.+)", t)
    if m:
        banned = _digit_set(m.group(1))
        if banned is not None:
            return _register(DigitRule(key, (_Spec(("all",), _in(frozenset(range(10)) - banned)),)))
    m = re.fullmatch(
        r"(?:the )?(first|last) (two|three|four|five|six|\d) digits (?:sum|add up) to (.+)", t
    )
    if m:
        return _sum_rule(key, m)
    m = re.fullmatch(_pos_re("a") + r" (?P<rest>.+)", t)
    if m:
        return _positional(key, _pos_of(m, "a"), m.group("rest"))
    return None


def _distinct(t: str) -> bool:
    return bool(
        re.fullmatch(
            r"no (?:digit|digits) (?:is |are )?(?:repeated|repeats|recurs|appears twice)"
            r"|no repeated digits?"
            r"|(?:all )?(?:the )?digits (?:are )?(?:all )?(?:different|distinct)"
            r"|all digits (?:are )?(?:different|distinct)|digits all different",
            t,
        )
    )


def _sum_rule(key: str, m: re.Match[str]) -> DigitRule | None:
    """ "the first two digits sum to the third" / "... add up to 9"."""
    k = _COUNT.get(m.group(2)) or int(m.group(2))
    first = m.group(1) == "first"
    target = m.group(3).strip()
    ps: tuple[int, ...] = tuple(range(1, k + 1)) if first else tuple(-(i + 1) for i in range(k))
    if re.fullmatch(r"\d+", target):
        if not first:
            return None
        return _register(
            DigitRule(key, (_Spec(ps, _sum_const(operator.eq, int(target))),), False, ps)
        )
    pm = re.fullmatch(_pos_re("b", digit_optional=True), target)
    if pm is None or not first:
        return None
    p = _pos_of(pm, "b")
    return _register(DigitRule(key, (_Spec((*ps, p), _sum_is(operator.eq)),), False, (*ps, p)))


def _positional(key: str, p: Pos, rest: str) -> DigitRule | None:
    """ "digit 2 is 7", "the 3rd digit is odd", "the first digit is greater than the last",
    "the second digit is greater than the others", "digit 1 + digit 2 = digit 3"."""
    rest = rest.strip()
    m = re.fullmatch(
        r"(?:is )?the (largest|greatest|biggest|highest|smallest|lowest)(?: digit)?", rest
    )
    if m:
        op = ">" if m.group(1) in ("largest", "greatest", "biggest", "highest") else "<"
        return _register(DigitRule(key, (_Spec((p, "others"), _CMP[op]),), False, (p,)))
    plus = re.fullmatch(r"(?P<terms>(?:\+ " + _pos_re("x") + r" ?)+)(?P<rest>.+)", rest)
    if plus:
        terms = [_pos_of(x, "y") for x in re.finditer(_pos_re("y"), plus.group("terms"))]
        cw = _cmp_word(plus.group("rest"))
        if cw is not None:
            op, target = cw
            ps = (p, *terms)
            if re.fullmatch(r"\d+", target.strip()):
                test = _sum_const(_CMP[op], int(target))
                return _register(DigitRule(key, (_Spec(ps, test),), False, ps))
            tm = re.fullmatch(_pos_re("b", digit_optional=True), target.strip())
            if tm is not None:
                q = _pos_of(tm, "b")
                return _register(
                    DigitRule(key, (_Spec((*ps, q), _sum_is(_CMP[op])),), False, (*ps, q))
                )
        return None
    cw = _cmp_word(rest)
    if cw is not None:
        op, other = cw
        other = other.strip()
        if re.fullmatch(r"(?:all )?(?:the )?others|(?:every|each|any|all) other digits?", other):
            return _register(DigitRule(key, (_Spec((p, "others"), _CMP[op]),), False, (p,)))
        om = re.fullmatch(_pos_re("b", digit_optional=True), other)
        if om is not None:
            q = _pos_of(om, "b")
            return _register(DigitRule(key, (_Spec((p, q), _CMP[op]),), False, (p, q)))
    allowed = _digit_set(rest)
    if allowed is not None:
        return _register(DigitRule(key, (_Spec((p,), _in(allowed)),), False, (p,)))
    return None


def _register(rule: DigitRule) -> DigitRule:
    DIGIT_TESTS.setdefault(rule.key, rule.test)
    return rule
