"""The text of one clue -> ``Part``s: number kinds, phrases, expressions, relations.

Why a module of its own: the phrase grammar ("multiple of D7", "digit sum 14",
"sum of two other entries", ``X | Y``) is the part of the file format that grows with
every published puzzle converted; the rest of the file reader only calls ``ClueParser``.
"""

from __future__ import annotations

import math
import re
from itertools import permutations
from typing import Any

from ..core.errors import InvalidSpec
from . import expr as ex
from . import kinds as nb
from .digitclues import parse_digit_rule, total_rule
from .modeltypes import Part, Rules

__all__ = ["ClueParser", "top_level_split", "MAX_ALTERNATIVES"]

#: Most choices of entries a clue part naming ``other`` may have (12 clues, 2 others: 110).
MAX_ALTERNATIVES = 5_000


class ClueParser:
    """Turns the text of one clue into Parts (number kinds, expressions, relations)."""

    def __init__(
        self, model_clues: list[str], variables: list[str], rules: Rules, file: str | None
    ) -> None:
        self.clue_names = model_clues
        self.variables = variables
        self.rules = rules
        self.file = file

    def parse(self, name: str, text: Any, fld: str, line: int | None) -> list[Part]:
        if text is None:
            return []
        items = text if isinstance(text, list) else str(text).split(";")
        parts: list[Part] = []
        for item in items:
            item = str(item).strip()
            if not item or item.lower() in ("unclued", "(unclued)", "-", "see other clue"):
                continue
            parts.extend(self.part(name, item, fld, line))
        return parts

    def _expr(self, text: str, fld, line) -> ex.Node:
        return ex.parse(
            text,
            clues=self.clue_names,
            variables=self.variables,
            field=fld,
            file=self.file,
            line=line,
            allow_other=True,
        )

    def _operand(self, text: str) -> str:
        """'a triangular' -> '#triangular'; anything else stays an expression."""
        t = re.sub(r"^(?:an?|the)\s+", "", text.strip(), flags=re.I)
        if re.fullmatch(r"(?:an)?other entry", t, flags=re.I):
            return "other"
        k = nb.canonical_kind(t) or (nb.canonical_kind(t[:-1]) if t.endswith("s") else None)
        if k is not None and not re.fullmatch(r"[A-Z]+", t):
            return "#" + k
        if re.fullmatch(r"power\s*(?:\(?\s*(?:exponent\s*)?>=\s*3\s*\)?)", t, re.I):
            return "#power3"
        return "(" + t + ")"

    def part(
        self, name: str, item: str, fld: str, line: int | None, *, words: bool = True
    ) -> list[Part]:
        """The parts of one conjunct; ``words=False`` inside ``X | Y`` alternatives, which
        must be expressions ("digit sum 14 | digit sum 15" stays a relation there)."""
        choices = top_level_split(item, "|")
        if len(choices) > 1:
            return [self._either(name, item, choices, fld, line)]
        low = item.lower().strip()
        kind = nb.canonical_kind(low) or (
            nb.canonical_kind(low[:-1]) if low.endswith("s") else None
        )
        if kind is not None and not re.fullmatch(r"[A-Z]+", item):
            return [Part("type", item, number_kind=kind)]
        m = re.fullmatch(r"power\s*(?:\(?\s*(?:exponent\s*)?>=\s*(\d+)\s*\)?)?", low)
        if m:
            e = int(m.group(1) or 2)
            if e not in (2, 3):
                raise InvalidSpec(
                    f"clue {name}: power with exponent >= {e} is not supported",
                    file=self.file,
                    field=fld,
                    line=line,
                    expected="power (exponent >= 2) or power >= 3",
                )
            return [Part("type", item, number_kind="power" if e == 2 else "power3")]
        m = re.fullmatch(r"product of (\d+) distinct primes?", low)
        if m:
            n = int(m.group(1))
            key = f"product{n}primes"
            if key not in nb.KINDS:

                def test(v: int, n: int = n) -> bool:
                    return nb.distinct_prime_product(v, n)

                nb.KINDS[key] = (test, nb._gen_filter(test), True)
            return [Part("type", item, number_kind=key)]
        if re.fullmatch(
            r"(?:the )?sum of (?:all )?(?:the )?digits(?: in the (?:grid|puzzle))?"
            r"|grid digit sum|#sumdigits",
            low,
        ):
            return [Part("griddigits", item)]
        rule = parse_digit_rule(item) if words else None
        if rule is not None:  # "all digits odd", "digit 2 is 7" (digitclues.py)
            return [Part("digits", item, number_kind=rule.key, digits=rule)]
        rewrites = [
            (r"(?:the )?sum of two (?:other )?entries", lambda g: "other + other"),
            (
                r"(?:the )?difference (?:of|between) two (?:other )?entries",
                lambda g: "other - other",
            ),
            (r"(?:the )?product of two (?:other )?entries", lambda g: "other * other"),
            (r"multiple of (.+)", lambda g: f"{self._operand(g[0])} * #multiplier"),
            (r"(?:divisor|factor) of (.+)", lambda g: f"{self._operand(g[0])} / #multiplier"),
            (r"half (?:of )?(.+)", lambda g: f"{self._operand(g[0])} / 2"),
            (r"twice (.+)", lambda g: f"2 * {self._operand(g[0])}"),
            (r"square of (.+)", lambda g: f"{self._operand(g[0])} ^ 2"),
            (r"cube of (.+)", lambda g: f"{self._operand(g[0])} ^ 3"),
            (r"(?:reverse|reversal) of (.+)", lambda g: f"$rev{self._operand(g[0])}"),
            (r"jumble of (.+)", lambda g: f"$jumble{self._operand(g[0])}"),
            (r"digit sum of (.+)", lambda g: f"$ds{self._operand(g[0])}"),
            (r"digit product of (.+)", lambda g: f"$dp{self._operand(g[0])}"),
            (r"(.+) raised to a power", lambda g: f"{self._operand(g[0])} ^ #multiplier"),
            (r"power of (.+)", lambda g: f"{self._operand(g[0])} ^ #multiplier"),
        ]
        for pat, build in rewrites:
            m = re.fullmatch(pat, item.strip(), flags=re.I)
            if m:
                parts = self.part(name, "= " + build(m.groups()), fld, line)
                for q in parts:
                    q.text = item  # explain steps with the words of the clue
                return parts
        conds = [
            (r"digit sum (?:is |= ?|equals? (?:to )?)?(.+)", "$ds({self}) = {x}"),
            (r"digit product (?:is |= ?|equals? (?:to )?)?(.+)", "$dp({self}) = {x}"),
            (r"(?:multiplicative )?persistence (?:is |= ?)?(.+)", "$mp({self}) = {x}"),
        ]
        for pat, tmpl in conds:
            m = re.fullmatch(pat, item.strip(), flags=re.I)
            number = m is not None and re.fullmatch(r"\d+", m.group(1).strip())
            if m and words and number and tmpl[:3] in ("$ds", "$dp"):
                # a number: a digit rule, narrowed on the cells (digitclues.total_rule)
                how = "sum" if tmpl.startswith("$ds") else "product"
                key = f"digit {how} {int(m.group(1))}"
                rule = total_rule(how, int(m.group(1)), key)
                return [Part("digits", f"{name} has {item}", number_kind=key, digits=rule)]
            if m:
                parts = self.part(name, tmpl.format(self=name, x=m.group(1)), fld, line)
                for q in parts:
                    q.text = f"{name} has {item}"
                return parts
        text = item[1:] if item.startswith("=") else item
        node = self._expr(text, fld, line)
        if ex.has_other(node):
            return [self._alternatives(name, item, node, fld, line)]
        return [self._node_part(name, item, node, fld, line)]

    def _either(self, name: str, item: str, choices: list[str], fld, line) -> Part:
        """``X | Y | Z``: at least one of the alternatives holds (Combinations: the entry
        is nCk, or the sum, or the product of the next k primes after N). Each is an
        expression for the value or a relation (a number kind is written ``= #prime``)."""
        alts: list[Part] = []
        for choice in choices:
            if not choice.strip():
                raise InvalidSpec(
                    f"clue {name}: an empty alternative in {item!r}",
                    file=self.file,
                    field=fld,
                    line=line,
                    expected="expressions separated by '|', such as 'A2 + 1 | A2 - 1'",
                )
            if parse_digit_rule(choice) is not None:
                raise InvalidSpec(
                    f"clue {name}: alternative {choice.strip()!r} of {item!r} is a phrase "
                    "about single digits, which '|' cannot join",
                    file=self.file,
                    field=fld,
                    line=line,
                    expected="expressions in each alternative, e.g. "
                    "'$digit(A1, 1) = 7 | $digit(A1, 1) = 9' for 'digit 1 is 7 or 9'",
                )
            for p in self.part(name, choice.strip(), fld, line, words=False):
                if p.kind == "alt":
                    alts.extend(p.alts)
                elif p.kind in ("value", "cond"):
                    alts.append(p)
                else:
                    raise InvalidSpec(
                        f"clue {name}: alternative {choice.strip()!r} of {item!r} is not an "
                        "expression",
                        file=self.file,
                        field=fld,
                        line=line,
                        expected="an expression or relation in each alternative "
                        "('= #prime' for a number kind)",
                    )
        return Part("alt", item, alts=alts)

    def _alternatives(self, name: str, item: str, node: ex.Node, fld, line) -> Part:
        """``other`` is the value of an entry other than this clue's; several ``other``s
        in one part are different entries. The part holds when one substitution of
        other clues holds (``Part('alt')``, propagated by constraints.AltCon)."""
        others = [c for c in self.clue_names if c != name]
        k = ex.count_other(node)
        n_alts = math.perm(len(others), k)
        if n_alts == 0 or n_alts > MAX_ALTERNATIVES:
            raise InvalidSpec(
                f"clue {name}: {item!r} mentions 'other' {k} times: "
                + (
                    f"there are only {len(others)} other clues"
                    if n_alts == 0
                    else f"{n_alts} ways to choose the entries (at most {MAX_ALTERNATIVES})"
                ),
                file=self.file,
                field=fld,
                line=line,
                expected="'other' (another entry's value) at most "
                + ("once or twice" if len(others) > 2 else "once")
                + " in a clue part",
            )
        alts = [
            self._node_part(name, item, ex.substitute_other(node, list(combo)), fld, line)
            for combo in permutations(others, k)
        ]
        return Part("alt", item, alts=alts)

    def _node_part(self, name: str, item: str, node: ex.Node, fld, line) -> Part:
        vs, cs = ex.refs(node)
        nt = self.rules.nontrivial
        if name in cs:
            if node.op != "cmp":
                raise InvalidSpec(
                    f"clue {name}: expression {item!r} mentions {name} itself but "
                    "is not a relation",
                    file=self.file,
                    field=fld,
                    line=line,
                    expected=f"a relation such as '{name} % 7 = 3', or an "
                    "expression for the value that does not mention the clue",
                )
            return Part("cond", item, cond=ex.compile_expr(node, nontrivial=nt))
        if node.op == "cmp":
            if any(o != "=" for o in node.ops):
                raise InvalidSpec(
                    f"clue {name}: comparison {item!r} does not mention {name}",
                    file=self.file,
                    field=fld,
                    line=line,
                    expected=f"'=' chains (value equals each side) or a relation "
                    f"that mentions {name}",
                )
            sides = [ex.compile_expr(a, nontrivial=nt) for a in node.args]
        else:
            sides = [ex.compile_expr(node, nontrivial=nt)]
        return Part("value", item, sides=sides)


def top_level_split(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` outside parentheses."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == sep and depth == 0:
            out.append(text[start:i])
            start = i + 1
    out.append(text[start:])
    return out
