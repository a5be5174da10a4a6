"""The clue expression language's tokenizer and parser (grammar: crossnumber/expr.py).

Why a module of its own (split from crossnumber/expr.py): reading puzzle algebra
(single-letter variables, implicit multiplication, ``√``, ``'`` for reversal, words split
into known variables, clue names and functions, a caret under the error) is a job of its
own, separate from evaluating the tree it builds (expreval.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from . import kinds as nb
from .exprnodes import (
    FUNCTIONS,
    FUNCTIONS_N,
    MAX_NESTING,
    OTHER_WORDS,
    ExprSyntaxError,
    Node,
    has_generator,
    has_other,
    to_text,
)

# ------------------------------------------------------------------ tokenizer

_TOKEN_RE = re.compile(
    r"\s*(?:(?P<num>\d+)|(?P<word>[A-Za-z_][A-Za-z0-9_]*)|(?P<gen>#[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<func>\$[A-Za-z_][A-Za-z0-9_]*)|(?P<op><=|>=|!=|≠|[-+*/%^()=<>!'’,√×÷]))"
)


@dataclass
class _Tok:
    kind: str  # num var clue gen func op end
    text: str
    pos: int


def _tokenize(
    text: str,
    clues: set[str],
    variables: set[str],
    field_name: str | None,
    file: str | None,
    line: int | None,
    allow_other: bool = False,
) -> list[_Tok]:
    toks: list[_Tok] = []
    i = 0
    clue_by_len = sorted(clues, key=len, reverse=True)
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        m = _TOKEN_RE.match(text, i)
        if not m or m.end() == i:
            raise _syntax(
                text,
                i,
                f"unexpected character {text[i]!r}",
                "a number, a variable, a clue name, an operator or a parenthesis",
                field_name,
                file,
                line,
            )
        start = m.start(m.lastgroup or 0)
        if m.group("num"):
            toks.append(_Tok("num", m.group("num"), start))
        elif m.group("gen"):
            name = m.group("gen")[1:]
            if nb.canonical_kind(name) is None:
                raise _syntax(
                    text,
                    start,
                    f"unknown generator #{name}",
                    "one of " + ", ".join("#" + k for k in sorted(nb.KINDS)),
                    field_name,
                    file,
                    line,
                )
            toks.append(_Tok("gen", nb.canonical_kind(name) or name, start))
        elif m.group("func"):
            name = m.group("func")[1:].lower()
            kind = nb.canonical_kind(name)
            if name == "multiple" or name == "power" or name == "divisor":
                toks.append(_Tok("macro", name, start))
            elif name in FUNCTIONS or name in FUNCTIONS_N:
                toks.append(_Tok("func", "gcd" if name == "hcf" else name, start))
            elif kind is not None:
                toks.append(_Tok("gen", kind, start))
            else:
                raise _syntax(
                    text,
                    start,
                    f"unknown function ${name}",
                    "one of " + ", ".join("$" + k for k in sorted({*FUNCTIONS, *FUNCTIONS_N})),
                    field_name,
                    file,
                    line,
                )
        elif (
            m.group("word")
            and m.group("word").lower() in OTHER_WORDS
            and not all(ch in variables for ch in m.group("word"))
        ):
            if not allow_other:
                raise _syntax(
                    text,
                    start,
                    f"{m.group('word')!r} (the value of another entry) is only allowed in clues",
                    "a number, a variable, a clue name or a number kind",
                    field_name,
                    file,
                    line,
                )
            toks.append(_Tok("other", m.group("word"), start))
        elif m.group("word"):
            toks.extend(
                _split_word(
                    text, start, m.group("word"), clue_by_len, variables, field_name, file, line
                )
            )
        else:
            op = m.group("op")
            op = {"≠": "!=", "’": "'", "×": "*", "÷": "/"}.get(op, op)
            toks.append(_Tok("op", op, start))
        i = m.end()
    toks.append(_Tok("end", "", len(text)))
    return toks


def _split_word(
    text: str,
    start: int,
    word: str,
    clue_by_len: list[str],
    variables: set[str],
    field_name,
    file,
    line,
) -> list[_Tok]:
    """Split a run like ``AC`` / ``A14`` / ``Triangular`` / ``IR`` into tokens."""
    out: list[_Tok] = []
    all_vars = all(ch in variables for ch in word)
    if not all_vars and len(word) > 1 and nb.canonical_kind(word) is not None:
        return [_Tok("gen", nb.canonical_kind(word) or word, start)]
    if not all_vars and word.lower() in ("sqrt",):
        return [_Tok("op", "√", start)]
    j = 0
    while j < len(word):
        rest = word[j:]
        hit = next(
            (
                c
                for c in clue_by_len
                if rest.startswith(c) and (len(rest) == len(c) or not rest[len(c)].isdigit())
            ),
            None,
        )
        if hit is not None:
            out.append(_Tok("clue", hit, start + j))
            j += len(hit)
            continue
        ch = word[j]
        if ch.isdigit():
            k = j
            while k < len(word) and word[k].isdigit():
                k += 1
            out.append(_Tok("num", word[j:k], start + j))
            j = k
            continue
        if ch in variables:
            out.append(_Tok("var", ch, start + j))
            j += 1
            continue
        if len(word) > 1 and any(c.islower() for c in word):
            # a word, not a run of variable letters: blame the whole word ("Cubee", not 'u')
            raise _syntax(
                text,
                start,
                f"undefined name {word!r}{_suggest(word)}",
                "a declared variable (single letter), a clue name ("
                + ", ".join(sorted(clue_by_len)[:6])
                + ("..." if len(clue_by_len) > 6 else "")
                + ") or a number kind such as square",
                field_name,
                file,
                line,
            )
        raise _syntax(
            text,
            start + j,
            f"undefined name {rest!r}"
            if len(word) > 1 and j == 0
            else f"undefined variable {ch!r}",
            "a declared variable (single letter), a clue name ("
            + ", ".join(sorted(clue_by_len)[:6])
            + ("..." if len(clue_by_len) > 6 else "")
            + ") or a number kind such as square",
            field_name,
            file,
            line,
        )
    return out


def _suggest(word: str) -> str:
    """' (did you mean 'square'?)' for a near miss of a number kind or function, else ''."""
    import difflib

    low = word.lower()
    if low in FUNCTIONS or low in FUNCTIONS_N:
        return f" (functions are written with a dollar sign: ${low}(...))"
    names = sorted(set(nb.KINDS) | set(FUNCTIONS) | set(FUNCTIONS_N))
    close = difflib.get_close_matches(low, names, n=1, cutoff=0.75)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _syntax(text: str, pos: int, problem: str, expected: str, field_name, file, line):
    caret = text + "\n" + " " * pos + "^"
    return ExprSyntaxError(
        f"{problem} at position {pos + 1} of expression:\n{caret}\n",
        expected=expected,
        field=field_name,
        file=file,
        line=line,
    )


# ------------------------------------------------------------------ parser


class _Parser:
    def __init__(self, text: str, toks: list[_Tok], field_name, file, line) -> None:
        self.text, self.toks, self.i = text, toks, 0
        self.depth = 0
        self.field_name, self.file, self.line = field_name, file, line

    def peek(self) -> _Tok:
        return self.toks[self.i]

    def take(self) -> _Tok:
        t = self.toks[self.i]
        self.i += 1
        return t

    def error(self, expected: str, tok: _Tok | None = None):
        tok = tok or self.peek()
        found = "end of expression" if tok.kind == "end" else repr(tok.text)
        return _syntax(
            self.text,
            tok.pos,
            f"unexpected {found}",
            expected,
            self.field_name,
            self.file,
            self.line,
        )

    def is_op(self, *ops: str) -> bool:
        t = self.peek()
        return t.kind == "op" and t.text in ops

    def parse(self) -> Node:
        node = self.chain()
        if self.peek().kind != "end":
            raise self.error("an operator or the end of the expression")
        return node

    def chain(self) -> Node:
        first = self.sum()
        operands, ops = [first], []
        while self.is_op("=", "<", ">", "<=", ">=", "!="):
            ops.append(self.take().text)
            operands.append(self.sum())
        if not ops:
            return first
        return Node("cmp", tuple(operands), ops=tuple(ops), pos=first.pos)

    def sum(self) -> Node:
        node = self.product()
        while self.is_op("+", "-"):
            t = self.take()
            node = Node(t.text, (node, self.product()), pos=t.pos)
        return node

    def product(self) -> Node:
        node = self.juxt()
        while self.is_op("*", "/", "%"):
            t = self.take()
            right = self.juxt()
            if t.text in ("/", "%") and _always_zero(right):
                raise _syntax(
                    self.text,
                    t.pos,
                    "division by zero"
                    + ("" if right.op == "num" else f" ({to_text(right)} is always 0)"),
                    "a divisor that can be non-zero",
                    self.field_name,
                    self.file,
                    self.line,
                )
            node = Node(t.text, (node, right), pos=t.pos)
        return node

    def _starts_primary(self) -> bool:
        t = self.peek()
        return t.kind in ("var", "clue", "gen", "func", "macro", "other") or (
            t.kind == "op" and t.text in ("(", "√")
        )

    def juxt(self) -> Node:
        node = self.unary()
        while self._starts_primary():
            pos = self.peek().pos
            node = Node("*", (node, self.unary()), pos=pos)
        return node

    def unary(self) -> Node:
        # every nesting (parentheses, signs, powers) passes here: bound it so a deep
        # expression is a clear error, not a RecursionError in a later stage
        self.depth += 1
        try:
            if self.depth > MAX_NESTING:
                raise _syntax(
                    self.text,
                    self.peek().pos,
                    f"the expression is nested more than {MAX_NESTING} levels deep",
                    "a flatter expression",
                    self.field_name,
                    self.file,
                    self.line,
                )
            return self._unary()
        finally:
            self.depth -= 1

    def _unary(self) -> Node:
        t = self.peek()
        if t.kind == "op" and t.text == "-":
            self.take()
            return Node("neg", (self.unary(),), pos=t.pos)
        if t.kind == "op" and t.text == "+":
            self.take()
            return self.unary()
        if t.kind == "op" and t.text == "√":
            self.take()
            return Node("sqrt", (self.unary(),), pos=t.pos)
        return self.power()

    def power(self) -> Node:
        base = self.postfix()
        if self.is_op("^"):
            t = self.take()
            return Node("^", (base, self.unary()), pos=t.pos)
        return base

    def postfix(self) -> Node:
        node = self.primary()
        while self.is_op("!", "'"):
            t = self.take()
            node = Node("fact" if t.text == "!" else "rev", (node,), pos=t.pos)
        return node

    def primary(self) -> Node:
        t = self.peek()
        if t.kind == "num":
            self.take()
            return Node("num", value=int(t.text), pos=t.pos)
        if t.kind == "var":
            self.take()
            return Node("var", value=t.text, pos=t.pos)
        if t.kind == "clue":
            self.take()
            return Node("clue", value=t.text, pos=t.pos)
        if t.kind == "gen":
            self.take()
            return Node("gen", value=t.text, pos=t.pos)
        if t.kind == "other":
            self.take()
            return Node("other", pos=t.pos)
        if t.kind in ("func", "macro"):
            self.take()
            if self.is_op("("):
                self.take()
                args = [self.chain()]
                while self.is_op(","):
                    self.take()
                    args.append(self.chain())
                if not self.is_op(")"):
                    raise self.error("',' or ')' closing the argument list")
                self.take()
            else:
                if not (self._starts_primary() or self.peek().kind == "num"):
                    raise self.error(f"an argument after ${t.text}")
                args = [self.unary()]
            if t.kind == "macro":
                return _macro(t.text, args[0], t.pos)
            if t.text in FUNCTIONS_N:
                arity = FUNCTIONS_N[t.text][0]
                if len(args) != arity:
                    raise self.error(f"{arity} arguments in parentheses for ${t.text}", t)
                return Node("func", tuple(args), value=t.text, pos=t.pos)
            if len(args) != 1:
                raise self.error(f"exactly one argument for ${t.text}", t)
            if t.text in ("rev", "reverse"):
                return Node("rev", (args[0],), pos=t.pos)
            if t.text == "sqrt":
                return Node("sqrt", (args[0],), pos=t.pos)
            return Node("func", (args[0],), value=t.text, pos=t.pos)
        if t.kind == "op" and t.text == "(":
            self.take()
            node = self.chain()
            if not self.is_op(")"):
                raise self.error("')' closing the parenthesis")
            self.take()
            return node
        raise self.error(
            "a number, variable, clue name, generator (#primes), function ($ds) or '('"
        )


def _constant(node: Node) -> int | None:
    """The value of an expression made of numbers only (None when it has any unknown)."""
    if node.op == "num":
        return node.value if isinstance(node.value, int) else None
    if node.op == "neg":
        v = _constant(node.args[0])
        return None if v is None else -v
    if node.op in ("+", "-", "*"):
        a, b = _constant(node.args[0]), _constant(node.args[1])
        if a is None or b is None:
            return None
        return a + b if node.op == "+" else a - b if node.op == "-" else a * b
    return None


def _always_zero(node: Node) -> bool:
    """True when ``node`` is 0 wherever it has a value, whatever its unknowns are: a
    constant 0, ``X - X``, ``0 * X``, ``0 / X``, ``X % 1``, ``X % X`` (a divisor that can
    never be non-zero: ``A1 / (D2 - D2)`` is a mistake in the file, not a clue that
    merely has no solution)."""
    value = _constant(node)
    if value is not None:
        return value == 0
    op, args = node.op, node.args
    if op == "neg":
        return _always_zero(args[0])
    if op == "-":
        return _same(args[0], args[1])
    if op == "*":
        return _always_zero(args[0]) or _always_zero(args[1])
    if op == "/":
        return _always_zero(args[0])
    if op == "%":
        return _always_zero(args[0]) or _constant(args[1]) in (1, -1) or _same(args[0], args[1])
    return False


def _same(a: Node, b: Node) -> bool:
    """Do ``a`` and ``b`` always have the same value? (Written alike, and without
    generators or ``other``, each of which may stand for a different value each time.)"""
    return (
        to_text(a) == to_text(b)
        and not has_generator(a)
        and not has_other(a)
        and not has_generator(b)
        and not has_other(b)
    )


def _macro(name: str, arg: Node, pos: int) -> Node:
    """``$multiple X`` = X * k (k >= 2), ``$divisor X`` = X / k, ``$power X`` = X ^ k."""
    k = Node("gen", value="multiplier", pos=pos)
    op = {"multiple": "*", "divisor": "/", "power": "^"}[name]
    return Node(op, (arg, k), pos=pos)


def parse(
    text: str,
    *,
    clues: Iterable[str] = (),
    variables: Iterable[str] = (),
    field: str | None = None,
    file: str | None = None,
    line: int | None = None,
    allow_other: bool = False,
) -> Node:
    """Parse one clue expression. Clue names and variable letters must be declared;
    ``other`` (another entry's value) only where ``allow_other`` (clues, not grid rules).

    >>> to_text(parse("AC+CD", variables="ACD"))
    '((A * C) + (C * D))'
    >>> to_text(parse("353√D21", clues=["D21"]))
    '(353 * √D21)'
    """
    text = str(text)
    toks = _tokenize(text, set(clues), set(variables), field, file, line, allow_other)
    return _Parser(text, toks, field, file, line).parse()
