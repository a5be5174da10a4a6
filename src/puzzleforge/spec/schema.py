"""Load a PuzzleClone YAML spec into checked, compiled, immutable parts.

Why a schema of our own (and not a pydantic model): every error must name the spec
file, the field path and the YAML line, and every expression must be compiled exactly
once, through the whitelisting compiler, when the spec is loaded. The format's attribute
order (custom_operator, variables, symbols, conditions, ..., desc) is also the scope
order: a name used before the attribute that defines it is reported here, not at
generation time.
"""
from __future__ import annotations

import ast
import hashlib
import keyword
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..core.errors import InvalidSpec
from ..core.yamlio import load_yaml_node, read_yaml_text
from .operators import OPERATOR_NAMES
from .safe import SAFE_BUILTINS, SafeCode, _template_tree, compile_expr, compile_template

__all__ = ["Spec", "load_spec", "parse_spec_text", "Selection", "ChoiceTemplate"]

TOP_FIELDS = ("custom_operator", "variables", "vars", "symbols", "conditions", "calc_solution",
              "max_solution", "post_generation", "optimize", "queries", "desc")
#: Fields the original tool silently ignores; accepted and ignored here too.
IGNORED_FIELDS = {"init_cond"}

#: Names every expression may use besides spec names (set by the engine at run time).
RESERVED = {
    "_sym", "_ind", "_index", "_opt", "_model", "_solutions", "_value", "_sol", "_ans",
    "_sol_id", "conditions", "queries", "opt_num", "_domain", "_total", "_desc", "_num",
}


def _load_with_lines(text: str, file: str) -> tuple[Any, dict[tuple, int]]:
    data, node = load_yaml_node(text, file=file,
                                expected="a YAML mapping of PuzzleClone attributes")
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


@dataclass(frozen=True)
class ChoiceTemplate:
    selection: Selection
    cond: str
    opt_formula: SafeCode
    opt_text: SafeCode
    count_range: tuple[int, int] | None = None


@dataclass
class Spec:
    """A loaded spec: every part in format order, every expression compiled."""

    path: str
    root: Path
    operators: dict[str, tuple[str, Any]] = field(default_factory=dict)
    variables: dict[str, dict] = field(default_factory=dict)
    symbols: dict[str, dict] = field(default_factory=dict)
    conditions: dict[str, dict] = field(default_factory=dict)
    calc_solution: bool = True
    max_solution: int = 6000
    post_generation: dict | None = None
    optimize: dict | None = None
    queries: dict[str, dict] = field(default_factory=dict)
    desc: SafeCode | None = None
    raw: dict = field(default_factory=dict)
    lines: dict = field(default_factory=dict)
    #: sha256 of the spec's text: records carry it so verify can tell a changed spec file
    digest: str = ""


class _Ctx:
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
        return InvalidSpec(message, file=self.file, field=self.where(path), line=self.line(path),
                           expected=expected)

    def expr(self, value: Any, path: tuple, *, check_names: bool = True,
             extra: set[str] | None = None) -> SafeCode:
        if isinstance(value, bool) or isinstance(value, (int, float)):
            value = repr(value)
        if not isinstance(value, str):
            raise self.error(path, f"expected an expression string, got {type(value).__name__}",
                             "a Python expression as a string")
        code = compile_expr(value, where=self.where(path), file=self.file, line=self.line(path),
                            aliases=self.aliases)
        if check_names:
            self.check_names(value, path, extra)
        return code

    def template(self, value: Any, path: tuple, *, extra: set[str] | None = None) -> SafeCode:
        if value is not None and not isinstance(value, (str, int, float)):
            raise self.error(path, f"expected a text template, got {type(value).__name__}",
                             "a string (an f-string without the f)")
        code = compile_template(value, where=self.where(path), file=self.file, line=self.line(path),
                                aliases=self.aliases)
        if value is not None and "{" in str(value):
            tree = _template_tree(str(value), self.where(path), self.file, self.line(path))
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
                if name in bound or name in self.defined or name in self.aliases or \
                        name == "__import__" or (extra and name in extra):
                    continue  # (__import__ only survives compile_expr as __import__('datetime'))
                raise self.error(
                    path, f"name '{name}' is used before it is defined (in: {' '.join(source.split())[:160]})",
                    "names defined by an earlier attribute (format order: custom_operator, "
                    "variables, symbols, conditions, post_generation, optimize, queries, desc), "
                    "a built-in operator or a reserved name")

    def define(self, name: Any, path: tuple) -> str:
        if not isinstance(name, str) or not name.isidentifier():
            raise self.error(path, f"'{name}' is not a valid name", "a Python identifier")
        if keyword.iskeyword(name):
            raise self.error(path, f"name '{name}' clashes with a Python keyword",
                             "a name that is not a Python reserved word")
        if name.startswith("__"):
            raise self.error(path, f"name '{name}' is not allowed (dunder)", "a plain identifier")
        self.defined.add(name)
        return name


def _as_mapping(ctx: _Ctx, value: Any, path: tuple, what: str) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ctx.error(path, f"{what} must be a mapping, got {type(value).__name__}",
                        f"a mapping of {what}")
    return value


def _check_fields(ctx: _Ctx, value: Any, path: tuple, allowed: tuple[str, ...], what: str) -> dict:
    if not isinstance(value, dict):
        raise ctx.error(path, f"{what} must be a mapping, got {type(value).__name__}",
                        f"a mapping with fields {', '.join(allowed)}")
    for key in value:
        if key not in allowed and key not in IGNORED_FIELDS:
            raise ctx.error(path + (key,), f"unknown field '{key}' in {what}",
                            "one of " + ", ".join(allowed))
    return value


def _bool_list(ctx: _Ctx, value: Any, path: tuple, n: int) -> tuple[bool, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, bool) for v in value):
        raise ctx.error(path, "expected a list of true/false", "a list of booleans, one per source")
    if len(value) != n:
        raise ctx.error(path, f"has {len(value)} entries but there are {n} sources",
                        "one entry per source")
    return tuple(value)


def _custom_conds(ctx: _Ctx, value: Any, path: tuple, n_sources: int, extra: set[str]) -> tuple[dict, ...]:
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
        if not isinstance(fields, list) or not all(isinstance(f, int) and 0 <= f < n_sources for f in fields):
            raise ctx.error(p + ("fields",), f"fields {fields!r} are not source indices",
                            f"a list of integers in [0, {n_sources - 1}]")
        constraint = item.get("constraint")
        code = None
        if constraint is not None and str(constraint).strip() != "None":
            code = ctx.expr(str(constraint), p + ("constraint",), extra=extra)
        out.append({"scope": scope, "fields": tuple(fields), "constraint": code})
    return tuple(out)


def _selection(ctx: _Ctx, d: dict, path: tuple, *, extra: set[str], option: bool = False,
               allow_dim: bool = True) -> Selection:
    src = d.get("source")
    if not isinstance(src, list) or not src:
        raise ctx.error(path + ("source",), "source must be a non-empty list",
                        "a list of variable names or literal lists as strings")
    sources = tuple(ctx.expr(s, path + ("source", i), extra=extra) for i, s in enumerate(src))
    n = len(sources)
    amount = d.get("amount")
    amounts = None
    if amount is not None:
        if not isinstance(amount, list) or len(amount) != n:
            raise ctx.error(path + ("amount",), "amount must be a list with one entry per source",
                            f"a list of {n} counts")
        amounts = tuple(ctx.expr(a, path + ("amount", i), extra=extra) for i, a in enumerate(amount))
    dim = d.get("dim", 1)
    if not isinstance(dim, int) or isinstance(dim, bool) or dim < 1 or (not allow_dim and dim != 1):
        raise ctx.error(path + ("dim",), f"dim {dim!r} is not allowed here",
                        "a positive integer (1 for conditions and options)")
    dim_cond = d.get("dim_cond") or []
    if not isinstance(dim_cond, list) or not all(
            isinstance(g, list) and all(isinstance(i, int) and 0 <= i < n for i in g) for g in dim_cond):
        raise ctx.error(path + ("dim_cond",), "dim_cond must be a list of lists of source indices",
                        f"e.g. [[0, 1]] with indices in [0, {n - 1}]")
    flat = [i for g in dim_cond for i in g]
    if len(flat) != len(set(flat)):
        raise ctx.error(path + ("dim_cond",), "dim_cond repeats a source index", "each index at most once")
    domain_cond = d.get("domain_cond", True)
    if not isinstance(domain_cond, bool):
        raise ctx.error(path + ("domain_cond",), "domain_cond must be true or false", "a boolean")
    order = _bool_list(ctx, d.get("order"), path + ("order",), n)
    duplicate = _bool_list(ctx, d.get("duplicate"), path + ("duplicate",), n)
    if option:
        order = order if order is not None else tuple(i != 0 for i in range(n))
    return Selection(sources, amounts, order, duplicate, domain_cond, dim,
                     tuple(tuple(g) for g in dim_cond),
                     _custom_conds(ctx, d.get("custom_cond"), path + ("custom_cond",), n, extra))


def _range_literal(ctx: _Ctx, value: Any, path: tuple) -> tuple[int, int] | None:
    if value is None:
        return None
    try:
        lo, hi = ast.literal_eval(str(value))
        return int(lo), int(hi)
    except (ValueError, SyntaxError, TypeError):
        raise ctx.error(path, f"'{value}' is not a range", "a string \"[min, max]\" of integers") from None


def _split_range(ctx: _Ctx, text: Any, path: tuple) -> tuple[str, str]:
    """Split "[lo, hi]" at its top-level comma (expressions may contain commas)."""
    if not isinstance(text, str):
        text = str(text)
    s = text.strip()
    try:
        tree = ast.parse(s, mode="eval").body
    except SyntaxError:
        raise ctx.error(path, f"'{text}' is not a range", "\"[min, max]\"") from None
    if not isinstance(tree, (ast.List, ast.Tuple)) or len(tree.elts) != 2:
        raise ctx.error(path, f"'{text}' is not a two-element range", "\"[min, max]\"")
    return ast.unparse(tree.elts[0]), ast.unparse(tree.elts[1])


def _check_static_range(ctx: _Ctx, lo: str, hi: str, path: tuple) -> None:
    try:
        a, b = ast.literal_eval(lo), ast.literal_eval(hi)
    except (ValueError, SyntaxError):
        return
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and a > b:
        raise ctx.error(path, f"domain [{lo}, {hi}] is empty", "a range [min, max] with min <= max")


def parse_spec_text(text: str, file: str, root: Path | None = None) -> Spec:
    data, lines = _load_with_lines(text, file)
    ctx = _Ctx(file, lines)
    if not isinstance(data, dict):
        raise InvalidSpec("a spec must be a YAML mapping", file=file, line=1,
                          expected="a mapping with variables, symbols, conditions, queries, desc")
    for key in data:
        if key not in TOP_FIELDS:
            raise ctx.error((key,), f"unknown attribute '{key}'", "one of " + ", ".join(TOP_FIELDS))
    if "variables" in data and "vars" in data:
        raise ctx.error(("vars",), "both 'variables' and its alias 'vars' are given", "only one of them")
    spec = Spec(path=file, root=root or Path.cwd(), raw=data, lines=lines,
                digest=hashlib.sha256(text.encode("utf-8")).hexdigest())

    # custom_operator
    for name, value in _as_mapping(ctx, data.get("custom_operator"), ("custom_operator",), "operators").items():
        p = ("custom_operator", name)
        ctx.define(name, p)
        if not isinstance(value, str):
            raise ctx.error(p, "an operator must be a lambda string or a .py path",
                            "\"lambda x: ...\" or \"customs/file.py\"")
        if value.strip().endswith(".py") and not value.strip().startswith("lambda"):
            spec.operators[name] = ("file", value.strip())
        else:
            spec.operators[name] = ("lambda", ctx.expr(value, p, check_names=False))
    for name, (kind, code) in spec.operators.items():
        if kind == "lambda":
            ctx.check_names(code.source, ("custom_operator", name))

    # variables
    vkey = "vars" if "vars" in data else "variables"
    for name, v in _as_mapping(ctx, data.get(vkey), (vkey,), "variables").items():
        p = (vkey, name)
        if name in ctx.defined and name not in RESERVED and name not in SAFE_BUILTINS:
            raise ctx.error(p, f"variable '{name}' is defined twice", "unique names")
        _check_fields(ctx, v, p, ("type", "domain", "formula", "diff_factor"), f"variable '{name}'")
        entry: dict[str, Any] = {"diff_factor": v.get("diff_factor", 0) or 0}
        if not isinstance(entry["diff_factor"], (int, float)) or isinstance(entry["diff_factor"], bool):
            raise ctx.error(p + ("diff_factor",), "diff_factor must be a number", "an integer")
        if v.get("formula") is not None:
            if v.get("type") or v.get("domain"):
                raise ctx.error(p, "formula cannot be combined with type/domain",
                                "either formula, or type and domain")
            entry["formula"] = ctx.expr(v["formula"], p + ("formula",))
        else:
            vtype = str(v.get("type", "")).lower()
            if vtype not in ("int", "float", "real", "bool", "enum"):
                raise ctx.error(p + ("type",), f"type '{v.get('type')}' is not a variable type",
                                "int, float, bool or enum (or a formula)")
            entry["type"] = vtype
            dom = v.get("domain")
            if dom is None and vtype != "bool":
                raise ctx.error(p, "type without domain", "both type and domain, or a formula")
            if vtype in ("int", "float", "real"):
                lo, hi = _split_range(ctx, dom, p + ("domain",))
                _check_static_range(ctx, lo, hi, p + ("domain",))
                entry["lo"] = ctx.expr(lo, p + ("domain",))
                entry["hi"] = ctx.expr(hi, p + ("domain",))
            else:
                entry["choices"] = ctx.expr(dom if dom is not None else "[True, False]", p + ("domain",))
        ctx.define(name, p)
        spec.variables[name] = entry

    # symbols
    for name, s in _as_mapping(ctx, data.get("symbols"), ("symbols",), "symbols").items():
        p = ("symbols", name)
        if not isinstance(s, dict):
            raise ctx.error(p, "a symbol must be a mapping", "a DefinedSymbol, DerivedSymbol or DerivedSymbols")
        if "type" in s:
            _check_fields(ctx, s, p, ("source", "attr", "type", "desc"), f"symbol '{name}'")
            attr = s.get("attr")
            types = s["type"]
            desc = s.get("desc")
            if attr is None:
                if not isinstance(types, str):
                    raise ctx.error(p + ("type",), "without attr, type must be one type", "e.g. bool")
                if isinstance(desc, list):
                    raise ctx.error(p + ("desc",), "without attr, desc must be one string", "a string")
                tlist = [types]
            else:
                if not isinstance(attr, list) or not all(isinstance(a, str) for a in attr):
                    raise ctx.error(p + ("attr",), "attr must be a list of names", "a list of strings")
                if not isinstance(types, list) or len(types) != len(attr):
                    raise ctx.error(p + ("type",), "with attr, type must be a list as long as attr",
                                    f"{len(attr)} types")
                if desc is not None and not isinstance(desc, list):
                    raise ctx.error(p + ("desc",), "with attr, desc must be a list", "a list of strings")
                tlist = list(types)
            for i, t in enumerate(tlist):
                tl = str(t).lower()
                if tl not in ("int", "bool", "float", "real", "enum", "bitvec") and not (
                        tl.startswith("bv") and tl[2:].isdigit()):
                    raise ctx.error(p + ("type",), f"symbol type '{t}' is not known", "int, bool, float or enum")
            src = s.get("source")
            if not isinstance(src, list) or not src or not all(isinstance(x, str) for x in src):
                raise ctx.error(p + ("source",), "source must be a non-empty list of names",
                                "a list of variable names")
            srcs = tuple(ctx.expr(x, p + ("source", i)) for i, x in enumerate(src))
            descs = None
            if desc is not None:
                dl = desc if isinstance(desc, list) else [desc]
                extra = {"_" + str(x) for x in src}
                descs = [ctx.template(d, p + ("desc", i), extra=extra) for i, d in enumerate(dl)]
            spec.symbols[name] = {"kind": "defined", "source_names": list(src), "source": srcs,
                                  "attr": attr, "types": [str(t).lower() for t in tlist],
                                  "desc": descs}
        elif "templates" in s or "total" in s:
            _check_fields(ctx, s, p, ("total", "templates"), f"symbol '{name}'")
            tpls = s.get("templates")
            if not isinstance(tpls, list) or not tpls:
                raise ctx.error(p + ("templates",), "templates must be a non-empty list", "a list of DerivedSymbol")
            total = ctx.expr(s.get("total"), p + ("total",))
            out = []
            for i, t in enumerate(tpls):
                out.append(_derived(ctx, t, p + ("templates", i), name))
            spec.symbols[name] = {"kind": "multi", "total": total, "templates": out}
        else:
            spec.symbols[name] = dict(_derived(ctx, s, p, name), kind="derived")
        ctx.define(name, p)

    # conditions
    for name, c in _as_mapping(ctx, data.get("conditions"), ("conditions",), "conditions").items():
        p = ("conditions", name)
        ctx.define(name, p)
        if not isinstance(c, dict):
            raise ctx.error(p, "a condition must be a mapping", "formula and optional desc")
        if "formula" not in c:
            raise ctx.error(p, "condition without formula", "a formula")
        if "source" in c:
            _check_fields(ctx, c, p, ("formula", "desc", "source", "amount", "order", "duplicate",
                                      "domain", "domain_cond", "custom_cond"), f"condition '{name}'")
            # The original tool never passes order/duplicate of a dynamic condition to its
            # sampler (permutations without repetition always); specs rely on that meaning,
            # and some write lists of the wrong length there (never read, so not checked).
            sel = _selection(ctx, {k: v for k, v in c.items() if k not in ("order", "duplicate")},
                             p, extra=set(), allow_dim=False)
            dom = c.get("domain")
            lohi = None
            if dom is not None:
                lo, hi = _split_range(ctx, dom, p + ("domain",))
                _check_static_range(ctx, lo, hi, p + ("domain",))
                lohi = (ctx.expr(lo, p + ("domain",)), ctx.expr(hi, p + ("domain",)))
            spec.conditions[name] = {"kind": "dynamic", "selection": sel, "domain": lohi,
                                     "formula": ctx.expr(c["formula"], p + ("formula",)),
                                     "desc": ctx.template(c.get("desc"), p + ("desc",)),
                                     "has_amount": c.get("amount") is not None}
        else:
            _check_fields(ctx, c, p, ("formula", "desc"), f"condition '{name}'")
            spec.conditions[name] = {"kind": "static",
                                     "formula": ctx.expr(c["formula"], p + ("formula",)),
                                     "desc": ctx.template(c.get("desc"), p + ("desc",))}

    # ``extra_conditions``: the descriptions of the dynamic ("extra") conditions, in order.
    # Older versions of the format named the dynamic conditions so and specs still write
    # {extra_conditions} in desc; a spec name of its own takes precedence.
    if "extra_conditions" not in ctx.defined:
        dyn = [n for n, c in spec.conditions.items() if c["kind"] == "dynamic"]
        ctx.aliases["extra_conditions"] = "''.join([" + ", ".join(f"str({n})" for n in dyn) + "])"

    cs = data.get("calc_solution", True)
    if not isinstance(cs, bool):
        raise ctx.error(("calc_solution",), "calc_solution must be true or false", "a boolean")
    spec.calc_solution = cs
    ms = data.get("max_solution", 6000)
    if not isinstance(ms, int) or isinstance(ms, bool) or ms < 1:
        raise ctx.error(("max_solution",), f"max_solution {ms!r} is not a positive integer", "an integer >= 1")
    spec.max_solution = ms

    pg = data.get("post_generation")
    if pg is not None:
        p = ("post_generation",)
        _check_fields(ctx, pg, p, ("post_gen_vars", "post_gen_conditions"), "post_generation")
        pvars = {}
        for name, val in _as_mapping(ctx, pg.get("post_gen_vars"), p + ("post_gen_vars",), "post_gen_vars").items():
            pvars[name] = ctx.expr(val, p + ("post_gen_vars", name))
            ctx.define(name, p + ("post_gen_vars", name))
        pconds = {}
        for name, c in _as_mapping(ctx, pg.get("post_gen_conditions"), p + ("post_gen_conditions",),
                                   "post_gen_conditions").items():
            cp = p + ("post_gen_conditions", name)
            ctx.define(name, cp)
            if isinstance(c, str):
                c = {"formula": c}
            _check_fields(ctx, c, cp, ("formula", "desc"), f"post-generation condition '{name}'")
            pconds[name] = {"formula": ctx.expr(c.get("formula"), cp + ("formula",)),
                            "desc": ctx.template(c.get("desc"), cp + ("desc",))}
        spec.post_generation = {"vars": pvars, "conditions": pconds}
        # ``post_gen_conditions``: the original's running text of the post-generation
        # conditions' descriptions, each followed by ';' (empty ones skipped)
        if "post_gen_conditions" not in ctx.defined:
            names = ", ".join(f"str({n})" for n in pconds)
            ctx.aliases["post_gen_conditions"] = f"''.join([t + ';' for t in [{names}] if t != ''])"

    opt = data.get("optimize")
    if opt is not None:
        p = ("optimize",)
        _check_fields(ctx, opt, p, ("type", "formula"), "optimize")
        if "formula" not in opt or "type" not in opt:
            raise ctx.error(p, "optimize needs type and formula", "type: minimize|maximize and a formula")
        spec.optimize = {"type": ctx.template(opt["type"], p + ("type",)),
                         "formula": ctx.expr(opt["formula"], p + ("formula",))}

    qnames = []
    for name, q in _as_mapping(ctx, data.get("queries"), ("queries",), "queries").items():
        p = ("queries", name)
        ctx.define(name, p)
        qnames.append(name)
        spec.queries[name] = _query(ctx, q, p, name)

    spec.desc = ctx.template(data.get("desc", ""), ("desc",))
    return spec


def _derived(ctx: _Ctx, t: Any, p: tuple, name: str) -> dict:
    _check_fields(ctx, t, p, ("source", "amount", "order", "duplicate", "domain", "domain_cond",
                              "dim", "dim_cond", "custom_cond", "formula", "desc"),
                  f"derived symbol '{name}'")
    sel = _selection(ctx, t, p, extra=set())
    if t.get("formula") is None:
        raise ctx.error(p + ("formula",), "derived symbol without formula", "a formula using _sym")
    dom = t.get("domain")
    return {"selection": sel,
            "domain": ctx.expr(dom, p + ("domain",)) if dom is not None else None,
            "domain_raw": dom,
            "formula": ctx.expr(t["formula"], p + ("formula",)),
            "desc": ctx.template(t.get("desc", ""), p + ("desc",)),
            "has_amount": t.get("amount") is not None}


_CHOICE_FIELDS = ("source", "amount", "order", "duplicate", "cond", "opt_formula", "opt_text",
                  "custom_cond", "domain", "dim")


def _choice_template(ctx: _Ctx, t: dict, p: tuple) -> ChoiceTemplate:
    cond = t.get("cond", "any")
    if cond not in ("any", "all"):
        raise ctx.error(p + ("cond",), f"cond '{cond}' is not known", "'any' or 'all'")
    if "opt_formula" not in t:
        raise ctx.error(p, "option template without opt_formula", "an opt_formula using _opt and _model")
    sel = _selection(ctx, t, p, extra=set(), option=True, allow_dim=False)
    return ChoiceTemplate(sel, cond, ctx.expr(t["opt_formula"], p + ("opt_formula",)),
                          ctx.template(t.get("opt_text", ""), p + ("opt_text",)),
                          _range_literal(ctx, t.get("domain"), p + ("domain",)))


def _query(ctx: _Ctx, q: Any, p: tuple, name: str) -> dict:
    if not isinstance(q, dict):
        raise ctx.error(p, "a query must be a mapping", "an open or choice question")
    base = ("desc", "query_type", "select_type", "opt_num")
    if "source" in q or "templates" in q:
        if "templates" in q:
            _check_fields(ctx, q, p, base + ("templates",), f"query '{name}'")
            tl = q["templates"]
            if not isinstance(tl, list) or not tl:
                raise ctx.error(p + ("templates",), "templates must be a non-empty list", "option templates")
            tpls = []
            for i, t in enumerate(tl):
                _check_fields(ctx, t, p + ("templates", i), _CHOICE_FIELDS, "option template")
                tpls.append(_choice_template(ctx, t, p + ("templates", i)))
        else:
            _check_fields(ctx, q, p, base + _CHOICE_FIELDS, f"query '{name}'")
            tpls = [_choice_template(ctx, q, p)]
        qt = q.get("query_type", "single_choice")
        if qt not in ("single_choice", "multiple_choice"):
            raise ctx.error(p + ("query_type",), f"query_type '{qt}' is not known",
                            "single_choice or multiple_choice")
        st = q.get("select_type", True)
        if not isinstance(st, bool):
            raise ctx.error(p + ("select_type",), "select_type must be true or false", "a boolean")
        on = q.get("opt_num", 4)
        if on is None:
            on = 4
        if not isinstance(on, int) or isinstance(on, bool) or not 2 <= on <= 26:
            raise ctx.error(p + ("opt_num",), f"opt_num {on!r} is not allowed", "an integer in [2, 26]")
        return {"kind": "choice", "desc": ctx.template(q.get("desc", ""), p + ("desc",)),
                "query_type": qt, "select_type": st, "opt_num": on, "templates": tpls,
                "multi": "templates" in q}
    _check_fields(ctx, q, p, ("desc", "ans_formula", "ans_text", "ans_assertion"), f"query '{name}'")
    if "ans_formula" not in q or "ans_text" not in q:
        raise ctx.error(p, "open question needs ans_formula and ans_text",
                        "ans_formula, ans_text (and optional ans_assertion)")
    return {"kind": "open", "desc": ctx.template(q.get("desc", ""), p + ("desc",)),
            "ans_formula": ctx.expr(q["ans_formula"], p + ("ans_formula",)),
            "ans_text": ctx.expr(q["ans_text"], p + ("ans_text",)),
            "ans_assertion": ctx.expr(q.get("ans_assertion", "len(_solutions) == 1"),
                                      p + ("ans_assertion",))}


def load_spec(path: str | Path) -> Spec:
    """Read and check a spec file (every error names file, field and line)."""
    text = read_yaml_text(path, what="spec", require_suffix=False)
    return parse_spec_text(text, str(path), root=Path.cwd())
