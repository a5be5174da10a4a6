"""The clue expression language: tokenizer, parser, and range-limited evaluation.

Why a hand-written parser: clue expressions use puzzle algebra, not Python. ``AC+CD``
means ``A*C + C*D`` (single-letter variables, implicit multiplication), ``353√D21`` is
``353 * sqrt(D21)``, ``(IR)'`` is the reverse of ``I*R``, ``#squares`` (or the bare word
``square``) is a generator of every square, and ``^`` binds tighter than juxtaposition,
which binds tighter than ``*`` and ``/``. Nothing here uses ``eval``.

Evaluation follows the seed: an expression is a *generator* of values. A sub-expression
without generators has one value (or none: ``7/2``, ``√5``); one with generators yields
many, so every call carries an inclusive range ``[lo, hi]`` that is pushed down through
``+ - * / ^ √ '`` to bound the generators, and a work budget so a hopeless enumeration
is abandoned (and retried later, when other clues have narrowed things) instead of hanging.

Grammar (lowest precedence first)::

    chain   := sum (('=' | '<' | '>' | '<=' | '>=' | '!=') sum)*
    sum     := product (('+' | '-') product)*
    product := juxt (('*' | '/' | '%') juxt)*
    juxt    := unary (unary-not-starting-with-sign)*        # implicit multiplication
    unary   := '-' unary | '√' unary | power
    power   := postfix ('^' unary)?                          # right-associative
    postfix := primary ('!' | "'")*                          # factorial, reverse
    primary := NUMBER | VAR | CLUE | GEN | FUNC [ '(' args ')' | unary ] | '(' chain ')'
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from ..core.errors import InvalidSpec
from . import kinds as nb

__all__ = [
    "Node",
    "ExprSyntaxError",
    "Unbounded",
    "BudgetExceeded",
    "Budget",
    "parse",
    "refs",
    "has_generator",
    "Compiled",
    "compile_expr",
    "FUNCTIONS",
    "to_text",
]

MAX_FACTORIAL = 30
MAX_POW_BITS = 400


#: Deepest nesting of parentheses, signs and powers a clue expression may have.
MAX_NESTING = 100


class ExprSyntaxError(InvalidSpec):
    """A clue expression that does not parse; the message shows the position with a caret."""

    kind = "clue expression error"


class Unbounded(Exception):
    """A generator would be enumerated without a finite range (evaluation is deferred)."""


class BudgetExceeded(Exception):
    """Evaluation needed more work than allowed (the solver retries it later)."""


@dataclass
class Budget:
    left: int

    def spend(self, n: int = 1) -> None:
        self.left -= n
        if self.left < 0:
            raise BudgetExceeded()


# ------------------------------------------------------------------ AST


@dataclass(frozen=True)
class Node:
    """One AST node. ``op`` is one of: num, var, clue, gen, neg, sqrt, fact, rev, func,
    + - * / % ^ and cmp (``args`` then holds operands and ``ops`` the comparison operators)."""

    op: str
    args: tuple = ()
    value: object = None
    ops: tuple = ()
    pos: int = 0


FUNCTIONS = {
    "ds": "digit sum",
    "dp": "digit product",
    "dss": "sum of the squares of the digits",
    "rev": "reverse",
    "reverse": "reverse",
    "jumble": "another arrangement of the digits",
    "sqrt": "square root",
    "abs": "absolute value",
    "square": "the square",
    "cube": "the cube",
    "mp": "multiplicative persistence",
    "persistence": "multiplicative persistence",
}


def to_text(n: Node) -> str:
    """Readable form of an AST (used in step explanations)."""
    if n.op == "num":
        return str(n.value)
    if n.op in ("var", "clue"):
        return str(n.value)
    if n.op == "gen":
        return "#" + str(n.value)
    if n.op == "neg":
        return "-" + to_text(n.args[0])
    if n.op == "sqrt":
        return "√" + to_text(n.args[0])
    if n.op == "fact":
        return to_text(n.args[0]) + "!"
    if n.op == "rev":
        return to_text(n.args[0]) + "'"
    if n.op == "func":
        return f"${n.value}(" + ", ".join(to_text(a) for a in n.args) + ")"
    if n.op == "cmp":
        parts = [to_text(n.args[0])]
        for o, a in zip(n.ops, n.args[1:], strict=True):
            parts += [o, to_text(a)]
        return " ".join(parts)
    return "(" + to_text(n.args[0]) + f" {n.op} " + to_text(n.args[1]) + ")"


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
            elif name in FUNCTIONS:
                toks.append(_Tok("func", name, start))
            elif kind is not None:
                toks.append(_Tok("gen", kind, start))
            else:
                raise _syntax(
                    text,
                    start,
                    f"unknown function ${name}",
                    "one of " + ", ".join("$" + k for k in sorted(FUNCTIONS)),
                    field_name,
                    file,
                    line,
                )
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
    if low in FUNCTIONS:
        return f" (functions are written with a dollar sign: ${low}(...))"
    names = sorted(set(nb.KINDS) | set(FUNCTIONS))
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
            if t.text in ("/", "%") and _constant(right) == 0:
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
        return t.kind in ("var", "clue", "gen", "func", "macro") or (
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
) -> Node:
    """Parse one clue expression. Clue names and variable letters must be declared.

    >>> to_text(parse("AC+CD", variables="ACD"))
    '((A * C) + (C * D))'
    >>> to_text(parse("353√D21", clues=["D21"]))
    '(353 * √D21)'
    """
    text = str(text)
    toks = _tokenize(text, set(clues), set(variables), field, file, line)
    return _Parser(text, toks, field, file, line).parse()


def refs(node: Node) -> tuple[set[str], set[str]]:
    """(variables, clues) referenced by an expression."""
    vs: set[str] = set()
    cs: set[str] = set()

    def walk(n: Node) -> None:
        if n.op == "var":
            vs.add(n.value)  # type: ignore[arg-type]
        elif n.op == "clue":
            cs.add(n.value)  # type: ignore[arg-type]
        for a in n.args:
            walk(a)

    walk(node)
    return vs, cs


def has_generator(node: Node) -> bool:
    if node.op == "gen" or (node.op == "func" and node.value == "jumble"):
        return True
    return any(has_generator(a) for a in node.args)


# ------------------------------------------------------------------ evaluation

Env = dict
SV = Callable[[Env], "int | None"]
MV = Callable[[Env, "int | None", "int | None", Budget], Iterator[int]]


def _cdiv(a: int, b: int) -> int:
    return -((-a) // b)


def _in(v: int, lo: int | None, hi: int | None) -> bool:
    return (lo is None or v >= lo) and (hi is None or v <= hi)


def _ndigits(n: int) -> int:
    return len(str(abs(n)))


@dataclass
class Compiled:
    """An expression compiled to closures: ``values(env, lo, hi, budget)`` yields every
    value in range; ``single`` is set when the expression has no generator."""

    node: Node
    values: MV
    single: SV | None
    variables: frozenset[str] = field(default_factory=frozenset)
    clues: frozenset[str] = field(default_factory=frozenset)


def compile_expr(node: Node, *, nontrivial: bool = False) -> Compiled:
    """Compile an AST. ``nontrivial`` rejects operations whose result equals an operand
    (x*1, x+0, x^1, 1!, 2!) and reversals of palindromes, one-digit numbers and numbers
    ending in 0 -- the "every operation is non-trivial" rule of some puzzles."""
    c = _Compiler(nontrivial)
    vs, cs = refs(node)
    if node.op == "cmp":

        def relation(env, lo, hi, budget):
            raise Unbounded("a relation has no value")

        return Compiled(node, relation, None, frozenset(vs), frozenset(cs))
    single = c.sv(node) if not has_generator(node) else None
    return Compiled(node, c.mv(node), single, frozenset(vs), frozenset(cs))


class _Compiler:
    def __init__(self, nontrivial: bool) -> None:
        self.nt = nontrivial

    # -- single-valued -------------------------------------------------
    def sv(self, n: Node) -> SV:
        op, nt = n.op, self.nt
        if op == "num":
            v = n.value
            assert isinstance(v, int)  # the tokenizer makes every number an int
            return lambda env: v
        if op in ("var", "clue"):
            key = n.value
            return lambda env: env[key]
        if op == "cmp":
            raise Unbounded("comparison used as a value")
        if op in ("neg", "sqrt", "fact", "rev", "func"):
            a = self.sv(n.args[0])
            f = _unary_fn(op, n.value, nt)
            return lambda env: None if (x := a(env)) is None else f(x)
        if op == "^" and n.args[1].op == "/":
            return self._sv_fractional_power(n)
        a, b = self.sv(n.args[0]), self.sv(n.args[1])
        f2 = _binary_fn(op, nt)

        def binop(env):
            x = a(env)
            if x is None:
                return None
            y = b(env)
            if y is None:
                return None
            return f2(x, y)

        return binop

    def _sv_fractional_power(self, n: Node) -> SV:
        """``x^(p/q)`` read as normal algebra: the q-th root of x^p when that is a whole
        number (``9^(3/2)`` = 27), even when p/q itself is not whole; a whole p/q gives
        the ordinary power."""
        base = self.sv(n.args[0])
        num, den = self.sv(n.args[1].args[0]), self.sv(n.args[1].args[1])
        pw = _binary_fn("^", self.nt)

        def frac(env):
            x, p, q = base(env), num(env), den(env)
            if x is None or p is None or q is None or q <= 0 or p < 0 or x < 0:
                return None
            v = pw(x, p)
            if v is None:
                return None
            r = nb.iroot(v, q)
            if r**q != v or (self.nt and r == x):
                return None
            return r

        return frac

    # -- multi-valued --------------------------------------------------
    def mv(self, n: Node) -> MV:
        if not has_generator(n):
            s = self.sv(n)

            def one(env, lo, hi, budget):
                v = s(env)
                if v is not None and _in(v, lo, hi):
                    yield v

            return one
        op, nt = n.op, self.nt
        if op == "gen":
            kind = str(n.value)  # a number kind's name, e.g. "prime"

            def gen(env, lo, hi, budget):
                if hi is None:
                    raise Unbounded(f"#{kind} without an upper limit")
                lo2 = 0 if lo is None else max(lo, 0) if kind != "integer" else lo
                budget.spend(nb.generate_cost(kind, lo2, hi) // 4)
                for v in nb.generate(kind, lo2, hi):
                    budget.spend()
                    yield v

            return gen
        if op == "func" and n.value == "jumble":
            a = self.mv(n.args[0])

            def jum(env, lo, hi, budget):
                if has_generator(n.args[0]):
                    raise Unbounded("jumble of a generator")
                for x in a(env, None, None, budget):
                    for v in nb.jumbles(x):
                        budget.spend()
                        if _in(v, lo, hi):
                            yield v

            return jum
        if op == "neg":
            a = self.mv(n.args[0])
            return lambda env, lo, hi, budget: (
                -x for x in a(env, None if hi is None else -hi, None if lo is None else -lo, budget)
            )
        if op == "sqrt":
            a = self.mv(n.args[0])

            def sq(env, lo, hi, budget):
                l2 = None if lo is None else (max(lo, 0) ** 2)
                h2 = None if hi is None else (hi + 1) ** 2 - 1
                for x in a(env, l2, h2, budget):
                    if x >= 0:
                        r = math.isqrt(x)
                        if r * r == x and _in(r, lo, hi) and not (nt and r == x):
                            yield r

            return sq
        if op == "fact":
            a = self.mv(n.args[0])

            def fa(env, lo, hi, budget):
                for x in a(env, 0, MAX_FACTORIAL, budget):
                    v = nb.factorial(x)
                    if _in(v, lo, hi) and not (nt and v == x):
                        yield v

            return fa
        if op == "rev":
            a = self.mv(n.args[0])

            def rv(env, lo, hi, budget):
                if lo is not None and lo == hi and lo > 0:
                    t = nb.reverse_int(lo)
                    bounds = (t, t)
                elif hi is None:
                    raise Unbounded("reverse of a generator without limits")
                else:
                    dl = _ndigits(max(lo or 0, 0))
                    bounds = (10 ** (dl - 1) if dl > 1 else 0, 10 ** _ndigits(hi) - 1)
                for x in a(env, bounds[0], bounds[1], budget):
                    v = _rev(x, nt)
                    if v is not None and _in(v, lo, hi):
                        yield v

            return rv
        if op == "func":
            a = self.mv(n.args[0])
            f = _unary_fn("func", n.value, nt)

            def fn(env, lo, hi, budget):
                for x in a(env, None, None, budget):
                    v = f(x)
                    if v is not None and _in(v, lo, hi):
                        yield v

            return fn
        return self._mv_binary(n)

    def _mv_binary(self, n: Node) -> MV:
        op, nt = n.op, self.nt
        A, B = n.args
        ga, gb = has_generator(A), has_generator(B)
        ma, mb = self.mv(A), self.mv(B)
        f2 = _binary_fn(op, nt)

        def emit(x, y, lo, hi):
            v = f2(x, y)
            if v is not None and _in(v, lo, hi):
                return v
            return None

        def sub(x, d):
            return None if x is None else x - d

        def gen_first_ranges(lo, hi, other, gen_is_left):
            """Range of the generator side given one value of the other side."""
            if op == "+":
                return sub(lo, other), sub(hi, other)
            if op == "-":
                if gen_is_left:
                    return (None if lo is None else lo + other), (
                        None if hi is None else hi + other
                    )
                return (None if hi is None else other - hi), (None if lo is None else other - lo)
            if op == "*":
                if other == 0:
                    return None
                if other > 0:
                    return (None if lo is None else _cdiv(lo, other)), (
                        None if hi is None else hi // other
                    )
                return (None if hi is None else _cdiv(hi, other)), (
                    None if lo is None else lo // other
                )
            if op == "/":
                if gen_is_left:
                    if other <= 0:
                        return None
                    return (None if lo is None else lo * other), (
                        None if hi is None else hi * other + other - 1
                    )
                if other <= 0:
                    return (None, None) if other < 0 else None
                lo1 = (
                    1 if lo is None or lo <= 0 else max(1, _cdiv(other, hi)) if hi and hi > 0 else 1
                )
                hi1 = other if lo is None or lo <= 0 else other // lo
                return lo1, hi1
            if op == "^":
                if gen_is_left:
                    if other <= 0:
                        return None
                    root_lo = None if lo is None or lo <= 0 else nb.iroot(lo - 1, other) + 1
                    root_hi = None if hi is None or hi < 0 else nb.iroot(hi, other)
                    return root_lo, root_hi
                if other >= 2 and hi is not None and hi >= 1:
                    return 0, int(math.log(hi, other)) + 1
                if other in (0, 1):
                    return 0, 3
                raise Unbounded("exponent generator without limits")
            raise Unbounded(f"generator under '{op}'")

        def values(env, lo, hi, budget):
            if ga and gb and op == "*" and lo is not None and lo == hi and lo > 0:
                # one target: try its divisors instead of enumerating both sides
                for d in nb.divisors(lo):
                    budget.spend()
                    if (
                        any(True for _ in ma(env, d, d, budget))
                        and any(True for _ in mb(env, lo // d, lo // d, budget))
                        and emit(d, lo // d, lo, hi) is not None
                    ):
                        yield lo
                        return
                return
            if ga and gb:
                if op not in ("+", "*") or hi is None:
                    raise Unbounded(f"generators on both sides of '{op}'")
                for x in ma(env, 0 if op == "+" else 1, hi, budget):
                    rng = gen_first_ranges(lo, hi, x, False)
                    if rng is None:
                        continue
                    for y in mb(env, rng[0], rng[1], budget):
                        v = emit(x, y, lo, hi)
                        if v is not None:
                            yield v
                return
            if ga:
                for y in mb(env, None, None, budget):
                    rng = gen_first_ranges(lo, hi, y, True)
                    if rng is None:
                        continue
                    for x in ma(env, rng[0], rng[1], budget):
                        v = emit(x, y, lo, hi)
                        if v is not None:
                            yield v
            else:
                for x in ma(env, None, None, budget):
                    rng = gen_first_ranges(lo, hi, x, False)
                    if rng is None:
                        continue
                    for y in mb(env, rng[0], rng[1], budget):
                        v = emit(x, y, lo, hi)
                        if v is not None:
                            yield v

        return values


def _rev(x: int, nt: bool) -> int | None:
    if x < 0:
        return None
    if nt and (x < 10 or x % 10 == 0 or nb.is_palindrome(x)):
        return None
    return nb.reverse_int(x)


def _unary_fn(op: str, name, nt: bool) -> Callable[[int], int | None]:
    if op == "neg":
        return lambda x: -x
    if op == "sqrt":

        def sq(x):
            if x < 0:
                return None
            r = math.isqrt(x)
            return r if r * r == x and not (nt and r == x) else None

        return sq
    if op == "fact":

        def fa(x):
            if x < 0 or x > MAX_FACTORIAL:
                return None
            v = nb.factorial(x)
            return None if nt and v == x else v

        return fa
    if op == "rev":
        return lambda x: _rev(x, nt)
    table = {
        "ds": lambda x: nb.digits_sum(x),
        "dp": lambda x: nb.digits_product(x),
        "dss": lambda x: sum(int(d) ** 2 for d in str(abs(x))),
        "abs": abs,
        "square": lambda x: x * x,
        "cube": lambda x: x**3,
        "mp": nb.persistence,
        "persistence": nb.persistence,
        "sqrt": _unary_fn("sqrt", None, nt),
        "jumble": lambda x: None,
    }
    return table[name]


def _binary_fn(op: str, nt: bool) -> Callable[[int, int], int | None]:
    def chk(f):
        if not nt:
            return f

        def g(x, y):
            v = f(x, y)
            return None if v is None or v in (x, y) else v

        return g

    if op == "+":
        return chk(lambda x, y: x + y)
    if op == "-":
        return chk(lambda x, y: x - y)
    if op == "*":
        return chk(lambda x, y: x * y)
    if op == "/":
        return chk(lambda x, y: x // y if y != 0 and x % y == 0 else None)
    if op == "%":
        return chk(lambda x, y: x % y if y > 0 else None)
    if op == "^":

        def pw(x, y):
            if y < 0:
                return None
            if abs(x) > 1 and y * abs(x).bit_length() > MAX_POW_BITS:
                return None
            return x**y

        return chk(pw)
    raise ValueError(op)


def compare(op: str, a: int, b: int) -> bool:
    return {"=": a == b, "<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b, "!=": a != b}[op]
