"""The clue expression language's shared vocabulary: its AST, errors, work budget, queries.

Why a module of its own (split from crossnumber/expr.py): the parser (exprparse.py)
builds these nodes and the evaluator (expreval.py) compiles them; both, and the solver,
raise and catch the same errors and spend the same ``Budget``, so these live below both.
crossnumber/expr.py describes the language and re-exports the public names.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import InvalidSpec

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
    other (another entry's value, replaced by a clue before compiling), + - * / % ^ and
    cmp (``args`` then holds operands and ``ops`` the comparison operators)."""

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

#: Functions of several arguments, ``$gcd(A1, D1)``: name -> (arity, meaning).
FUNCTIONS_N = {
    "gcd": (2, "greatest common divisor (highest common factor)"),
    "hcf": (2, "highest common factor (the same as $gcd)"),
    "lcm": (2, "least common multiple"),
    "choose": (2, "binomial coefficient n choose k"),
    "nextprimesum": (2, "the sum of the k primes that follow n: $nextprimesum(n, k)"),
    "nextprimeproduct": (2, "the product of the k primes that follow n"),
    "countdigits": (3, "how many digits of x lie between lo and hi: $countdigits(x, lo, hi)"),
    "digit": (2, "the k-th digit of x from the left, $digit(x, 1); $digit(x, -1) is the last"),
}

#: Words for "the value of another entry" (expanded by the model into one alternative
#: per other clue; see model._ClueParser and constraints.AltCon).
OTHER_WORDS = ("other", "another")


def to_text(n: Node) -> str:
    """Readable form of an AST (used in step explanations)."""
    if n.op == "num":
        return str(n.value)
    if n.op in ("var", "clue"):
        return str(n.value)
    if n.op == "gen":
        return "#" + str(n.value)
    if n.op == "other":
        return "other"
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


def has_other(node: Node) -> bool:
    """Does the expression mention ``other`` (the value of another entry)?"""
    return node.op == "other" or any(has_other(a) for a in node.args)


def count_other(node: Node) -> int:
    return (node.op == "other") + sum(count_other(a) for a in node.args)


def substitute_other(node: Node, names: list[str]) -> Node:
    """The expression with its ``other`` nodes replaced, left to right, by these clues."""
    it = iter(names)

    def walk(n: Node) -> Node:
        if n.op == "other":
            return Node("clue", value=next(it), pos=n.pos)
        if not n.args:
            return n
        return Node(n.op, tuple(walk(a) for a in n.args), n.value, n.ops, n.pos)

    return walk(node)
