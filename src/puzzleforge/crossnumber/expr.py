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

The language is implemented in three modules, one job each, and this one names them:
exprnodes.py (the AST, errors, ``Budget``, tree queries), exprparse.py (tokenizer and
parser), expreval.py (compilation to range-limited generators). Import from here.
"""

from __future__ import annotations

from .expreval import Compiled, compare, compile_expr
from .exprnodes import (
    FUNCTIONS,
    FUNCTIONS_N,
    Budget,
    BudgetExceeded,
    ExprSyntaxError,
    Node,
    Unbounded,
    count_other,
    has_generator,
    has_other,
    refs,
    substitute_other,
    to_text,
)
from .exprparse import parse

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
    "compare",
    "FUNCTIONS",
    "FUNCTIONS_N",
    "has_other",
    "count_other",
    "substitute_other",
    "to_text",
]
