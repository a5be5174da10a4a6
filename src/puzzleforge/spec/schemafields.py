"""The checking context of the spec loader and the field checkers every attribute shares.

Why a module of its own: spec/schema.py reads the format's attributes in order
(custom_operator, variables, symbols, conditions, ..., desc); what each of them needs
to check a value is the same: the YAML line of a field path, names defined so far,
expressions and templates compiled through spec/safe.py with every name checked,
mappings with known fields, the randomisation block (``Selection``) and ranges. An
error names the file, the field path, its line and what was expected.
"""

from __future__ import annotations

import ast
import keyword
from dataclasses import dataclass
from typing import Any

import yaml

from ..core.errors import InvalidSpec
from ..core.yamlio import load_yaml_node
from .operators import OPERATOR_NAMES
from .placeholders import template_tree
from .safe import SAFE_BUILTINS, SafeCode, compile_expr, compile_template

__all__ = ["IGNORED_FIELDS", "RESERVED", "Selection"]

#: Fields the original tool silently ignores; accepted and ignored here too.
IGNORED_FIELDS = {"init_cond"}

#: Names every expression may use besides spec names (set by the engine at run time).
RESERVED = {
    "_sym",
    "_ind",
    "_index",
    "_opt",
    "_model",
    "_solutions",
    "_value",
    "_sol",
    "_ans",
    "_sol_id",
    "conditions",
    "queries",
    "opt_num",
    "_domain",
    "_total",
    "_desc",
    "_num",
}


def _load_with_lines(text: str, file: str) -> tuple[Any, dict[tuple, int]]:
    data, node = load_yaml_node(
        text, file=file, expected="a YAML mapping of PuzzleClone attributes"
    )
    lines: dict[tuple, int] = {}

    def walk(n: Any, path: tuple) -> None:
        lines.setdefault(path, n.start_mark.line + 1)
        if isinstance(n, yaml.MappingNode):
            for k, v in n.value:
                key = k.value if isinstance(k, yaml.ScalarNode) else str(k)
                lines[path + (key,)] = k.start_mark.line + 1
                walk(v, path + (key,))
        elif isinstance(n, yaml.SequenceNode):
            for i, v in enumerate(n.value):
                walk(v, path + (i,))

    if node is not None:
        walk(node, ())
    return data, lines


@dataclass(frozen=True)
class Selection:
    """The randomisation block shared by derived symbols, dynamic conditions and options."""

    source: tuple[SafeCode, ...]
    amount: tuple[SafeCode, ...] | None
    order: tuple[bool, ...] | None
    duplicate: tuple[bool, ...] | None
    domain_cond: bool = True
    dim: int = 1
    dim_cond: tuple[tuple[int, ...], ...] = ()
    custom_cond: tuple[dict, ...] = ()


class _Ctx:
    """One spec's check in progress: its file, YAML lines, names defined so far, problems."""

    def __init__(self, file: str, lines: dict[tuple, int]) -> None:
        self.file, self.lines = file, lines
        self.defined: set[str] = set(SAFE_BUILTINS) | RESERVED | OPERATOR_NAMES
        self.problems: list[InvalidSpec] = []
        #: names the format defines implicitly, replaced by an engine-written expression
        self.aliases: dict[str, str] = {}

    def line(self, path: tuple) -> int | None:
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return None

    def where(self, path: tuple) -> str:
        return ".".join(str(p) for p in path)

    def error(self, path: tuple, message: str, expected: str | None = None) -> InvalidSpec:
        return InvalidSpec(
            message, file=self.file, field=self.where(path), line=self.line(path), expected=expected
        )

    def expr(
        self, value: Any, path: tuple, *, check_names: bool = True, extra: set[str] | None = None
    ) -> SafeCode:
        if isinstance(value, (bool, int, float)):
            value = repr(value)
        if not isinstance(value, str):
            raise self.error(
                path,
                f"expected an expression string, got {type(value).__name__}",
                "a Python expression as a string",
            )
        code = compile_expr(
            value,
            where=self.where(path),
            file=self.file,
            line=self.line(path),
            aliases=self.aliases,
        )
        if check_names:
            self.check_names(value, path, extra)
        return code

    def template(self, value: Any, path: tuple, *, extra: set[str] | None = None) -> SafeCode:
        if value is not None and not isinstance(value, (str, int, float)):
            raise self.error(
                path,
                f"expected a text template, got {type(value).__name__}",
                "a string (an f-string without the f)",
            )
        code = compile_template(
            value,
            where=self.where(path),
            file=self.file,
            line=self.line(path),
            aliases=self.aliases,
        )
        if value is not None and "{" in str(value):
            tree = template_tree(str(value), self.where(path), self.file, self.line(path))
            self._check_tree(tree, str(value), path, extra)
        return code

    def check_names(self, source: str, path: tuple, extra: set[str] | None = None) -> None:
        try:
            tree = ast.parse(source.strip(), mode="eval")
        except SyntaxError:
            return
        self._check_tree(tree, source, path, extra)

    def _check_tree(self, tree: ast.AST, source: str, path: tuple, extra: set[str] | None) -> None:
        bound: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                bound.add(node.id)
            elif isinstance(node, ast.arg):
                bound.add(node.arg)
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                name = node.id
                if (
                    name in bound
                    or name in self.defined
                    or name in self.aliases
                    or name == "__import__"
                    or (extra and name in extra)
                ):
                    continue  # (__import__ only survives compile_expr as __import__('datetime'))
                raise self.error(
                    path,
                    f"name '{name}' is used before it is defined "
                    f"(in: {' '.join(source.split())[:160]})",
                    "names defined by an earlier attribute (format order: custom_operator, "
                    "variables, symbols, conditions, post_generation, optimize, queries, desc), "
                    "a built-in operator or a reserved name",
                )

    def define(self, name: Any, path: tuple) -> str:
        if not isinstance(name, str) or not name.isidentifier():
            raise self.error(path, f"'{name}' is not a valid name", "a Python identifier")
        if keyword.iskeyword(name):
            raise self.error(
                path,
                f"name '{name}' clashes with a Python keyword",
                "a name that is not a Python reserved word",
            )
        if name.startswith("__"):
            raise self.error(path, f"name '{name}' is not allowed (dunder)", "a plain identifier")
        self.defined.add(name)
        return name


def _as_mapping(ctx: _Ctx, value: Any, path: tuple, what: str) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ctx.error(
            path, f"{what} must be a mapping, got {type(value).__name__}", f"a mapping of {what}"
        )
    return value


def _check_fields(ctx: _Ctx, value: Any, path: tuple, allowed: tuple[str, ...], what: str) -> dict:
    if not isinstance(value, dict):
        raise ctx.error(
            path,
            f"{what} must be a mapping, got {type(value).__name__}",
            f"a mapping with fields {', '.join(allowed)}",
        )
    for key in value:
        if key not in allowed and key not in IGNORED_FIELDS:
            raise ctx.error(
                path + (key,), f"unknown field '{key}' in {what}", "one of " + ", ".join(allowed)
            )
    return value


def _bool_list(ctx: _Ctx, value: Any, path: tuple, n: int) -> tuple[bool, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, bool) for v in value):
        raise ctx.error(path, "expected a list of true/false", "a list of booleans, one per source")
    if len(value) != n:
        raise ctx.error(
            path, f"has {len(value)} entries but there are {n} sources", "one entry per source"
        )
    return tuple(value)


def _custom_conds(
    ctx: _Ctx, value: Any, path: tuple, n_sources: int, extra: set[str]
) -> tuple[dict, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise ctx.error(path, "custom_cond must be a list", "a list of {scope, fields, constraint}")
    out = []
    for i, item in enumerate(value):
        p = path + (i,)
        _check_fields(ctx, item, p, ("scope", "fields", "constraint"), "custom_cond entry")
        scope = item.get("scope", "domain")
        if scope not in ("dim", "domain"):
            raise ctx.error(p + ("scope",), f"scope '{scope}' is not known", "'dim' or 'domain'")
        fields = item.get("fields")
        if fields is None:
            fields = list(range(n_sources))
        if not isinstance(fields, list) or not all(
            isinstance(f, int) and 0 <= f < n_sources for f in fields
        ):
            raise ctx.error(
                p + ("fields",),
                f"fields {fields!r} are not source indices",
                f"a list of integers in [0, {n_sources - 1}]",
            )
        constraint = item.get("constraint")
        code = None
        if constraint is not None and str(constraint).strip() != "None":
            code = ctx.expr(str(constraint), p + ("constraint",), extra=extra)
        out.append({"scope": scope, "fields": tuple(fields), "constraint": code})
    return tuple(out)


def _selection(
    ctx: _Ctx,
    d: dict,
    path: tuple,
    *,
    extra: set[str],
    option: bool = False,
    allow_dim: bool = True,
) -> Selection:
    src = d.get("source")
    if not isinstance(src, list) or not src:
        raise ctx.error(
            path + ("source",),
            "source must be a non-empty list",
            "a list of variable names or literal lists as strings",
        )
    sources = tuple(ctx.expr(s, path + ("source", i), extra=extra) for i, s in enumerate(src))
    n = len(sources)
    amount = d.get("amount")
    amounts = None
    if amount is not None:
        if not isinstance(amount, list) or len(amount) != n:
            raise ctx.error(
                path + ("amount",),
                "amount must be a list with one entry per source",
                f"a list of {n} counts",
            )
        amounts = tuple(
            ctx.expr(a, path + ("amount", i), extra=extra) for i, a in enumerate(amount)
        )
    dim = d.get("dim", 1)
    if not isinstance(dim, int) or isinstance(dim, bool) or dim < 1 or (not allow_dim and dim != 1):
        raise ctx.error(
            path + ("dim",),
            f"dim {dim!r} is not allowed here",
            "a positive integer (1 for conditions and options)",
        )
    dim_cond = d.get("dim_cond") or []
    if not isinstance(dim_cond, list) or not all(
        isinstance(g, list) and all(isinstance(i, int) and 0 <= i < n for i in g) for g in dim_cond
    ):
        raise ctx.error(
            path + ("dim_cond",),
            "dim_cond must be a list of lists of source indices",
            f"e.g. [[0, 1]] with indices in [0, {n - 1}]",
        )
    flat = [i for g in dim_cond for i in g]
    if len(flat) != len(set(flat)):
        raise ctx.error(
            path + ("dim_cond",), "dim_cond repeats a source index", "each index at most once"
        )
    domain_cond = d.get("domain_cond", True)
    if not isinstance(domain_cond, bool):
        raise ctx.error(path + ("domain_cond",), "domain_cond must be true or false", "a boolean")
    order = _bool_list(ctx, d.get("order"), path + ("order",), n)
    duplicate = _bool_list(ctx, d.get("duplicate"), path + ("duplicate",), n)
    if option:
        order = order if order is not None else tuple(i != 0 for i in range(n))
    return Selection(
        sources,
        amounts,
        order,
        duplicate,
        domain_cond,
        dim,
        tuple(tuple(g) for g in dim_cond),
        _custom_conds(ctx, d.get("custom_cond"), path + ("custom_cond",), n, extra),
    )


def _range_literal(ctx: _Ctx, value: Any, path: tuple) -> tuple[int, int] | None:
    if value is None:
        return None
    try:
        lo, hi = ast.literal_eval(str(value))
        return int(lo), int(hi)
    except (ValueError, SyntaxError, TypeError):
        raise ctx.error(
            path, f"'{value}' is not a range", 'a string "[min, max]" of integers'
        ) from None


def _split_range(ctx: _Ctx, text: Any, path: tuple) -> tuple[str, str]:
    """Split "[lo, hi]" at its top-level comma (expressions may contain commas)."""
    if not isinstance(text, str):
        text = str(text)
    s = text.strip()
    try:
        tree = ast.parse(s, mode="eval").body
    except SyntaxError:
        raise ctx.error(path, f"'{text}' is not a range", '"[min, max]"') from None
    if not isinstance(tree, (ast.List, ast.Tuple)) or len(tree.elts) != 2:
        raise ctx.error(path, f"'{text}' is not a two-element range", '"[min, max]"')
    return ast.unparse(tree.elts[0]), ast.unparse(tree.elts[1])


def _check_static_range(ctx: _Ctx, lo: str, hi: str, path: tuple) -> None:
    try:
        a, b = ast.literal_eval(lo), ast.literal_eval(hi)
    except (ValueError, SyntaxError):
        return
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and a > b:
        raise ctx.error(path, f"domain [{lo}, {hi}] is empty", "a range [min, max] with min <= max")
