"""Load a PuzzleClone YAML spec into checked, compiled, immutable parts.

Why a schema of our own (and not a pydantic model): every error must name the spec
file, the field path and the YAML line, and every expression must be compiled exactly
once, through the whitelisting compiler, when the spec is loaded. The format's attribute
order (custom_operator, variables, symbols, conditions, ..., desc) is also the scope
order: a name used before the attribute that defines it is reported here, not at
generation time.

The per-attribute checkers that are a job of their own live beside it: the checking
context and shared field checkers in spec/schemafields.py, the questions (open and
choice queries, option templates) in spec/schemaqueries.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.digests import sha256
from ..core.errors import InvalidSpec
from ..core.yamlio import read_yaml_text
from .safe import SAFE_BUILTINS, SafeCode
from .schemafields import (
    RESERVED,
    Selection,
    _as_mapping,
    _check_fields,
    _check_static_range,
    _Ctx,
    _load_with_lines,
    _selection,
    _split_range,
)
from .schemaqueries import ChoiceTemplate, parse_query

__all__ = ["Spec", "load_spec", "parse_spec_text", "Selection", "ChoiceTemplate"]

TOP_FIELDS = (
    "custom_operator",
    "variables",
    "vars",
    "symbols",
    "conditions",
    "calc_solution",
    "max_solution",
    "post_generation",
    "optimize",
    "queries",
    "desc",
)


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


def parse_spec_text(text: str, file: str, root: Path | None = None) -> Spec:
    data, lines = _load_with_lines(text, file)
    ctx = _Ctx(file, lines)
    if not isinstance(data, dict):
        raise InvalidSpec(
            "a spec must be a YAML mapping",
            file=file,
            line=1,
            expected="a mapping with variables, symbols, conditions, queries, desc",
        )
    for key in data:
        if key not in TOP_FIELDS:
            raise ctx.error((key,), f"unknown attribute '{key}'", "one of " + ", ".join(TOP_FIELDS))
    if "variables" in data and "vars" in data:
        raise ctx.error(
            ("vars",), "both 'variables' and its alias 'vars' are given", "only one of them"
        )
    spec = Spec(
        path=file,
        root=root or Path.cwd(),
        raw=data,
        lines=lines,
        digest=sha256(text.encode("utf-8")).hexdigest(),
    )

    # custom_operator
    for name, value in _as_mapping(
        ctx, data.get("custom_operator"), ("custom_operator",), "operators"
    ).items():
        p: tuple = ("custom_operator", name)
        ctx.define(name, p)
        if not isinstance(value, str):
            raise ctx.error(
                p,
                "an operator must be a lambda string or a .py path",
                '"lambda x: ..." or "customs/file.py"',
            )
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
        if not isinstance(entry["diff_factor"], (int, float)) or isinstance(
            entry["diff_factor"], bool
        ):
            raise ctx.error(p + ("diff_factor",), "diff_factor must be a number", "an integer")
        if v.get("formula") is not None:
            if v.get("type") or v.get("domain"):
                raise ctx.error(
                    p,
                    "formula cannot be combined with type/domain",
                    "either formula, or type and domain",
                )
            entry["formula"] = ctx.expr(v["formula"], p + ("formula",))
        else:
            vtype = str(v.get("type", "")).lower()
            if vtype not in ("int", "float", "real", "bool", "enum"):
                raise ctx.error(
                    p + ("type",),
                    f"type '{v.get('type')}' is not a variable type",
                    "int, float, bool or enum (or a formula)",
                )
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
                entry["choices"] = ctx.expr(
                    dom if dom is not None else "[True, False]", p + ("domain",)
                )
        ctx.define(name, p)
        spec.variables[name] = entry

    # symbols
    for name, s in _as_mapping(ctx, data.get("symbols"), ("symbols",), "symbols").items():
        p = ("symbols", name)
        if not isinstance(s, dict):
            raise ctx.error(
                p, "a symbol must be a mapping", "a DefinedSymbol, DerivedSymbol or DerivedSymbols"
            )
        if "type" in s:
            _check_fields(ctx, s, p, ("source", "attr", "type", "desc"), f"symbol '{name}'")
            attr = s.get("attr")
            types = s["type"]
            desc = s.get("desc")
            if attr is None:
                if not isinstance(types, str):
                    raise ctx.error(
                        p + ("type",), "without attr, type must be one type", "e.g. bool"
                    )
                if isinstance(desc, list):
                    raise ctx.error(
                        p + ("desc",), "without attr, desc must be one string", "a string"
                    )
                tlist = [types]
            else:
                if not isinstance(attr, list) or not all(isinstance(a, str) for a in attr):
                    raise ctx.error(
                        p + ("attr",), "attr must be a list of names", "a list of strings"
                    )
                if not isinstance(types, list) or len(types) != len(attr):
                    raise ctx.error(
                        p + ("type",),
                        "with attr, type must be a list as long as attr",
                        f"{len(attr)} types",
                    )
                if desc is not None and not isinstance(desc, list):
                    raise ctx.error(
                        p + ("desc",), "with attr, desc must be a list", "a list of strings"
                    )
                tlist = list(types)
            for t in tlist:
                tl = str(t).lower()
                if tl not in ("int", "bool", "float", "real", "enum", "bitvec") and not (
                    tl.startswith("bv") and tl[2:].isdigit()
                ):
                    raise ctx.error(
                        p + ("type",), f"symbol type '{t}' is not known", "int, bool, float or enum"
                    )
            src = s.get("source")
            if not isinstance(src, list) or not src or not all(isinstance(x, str) for x in src):
                raise ctx.error(
                    p + ("source",),
                    "source must be a non-empty list of names",
                    "a list of variable names",
                )
            srcs = tuple(ctx.expr(x, p + ("source", i)) for i, x in enumerate(src))
            descs = None
            if desc is not None:
                dl = desc if isinstance(desc, list) else [desc]
                extra = {"_" + str(x) for x in src}
                descs = [ctx.template(d, p + ("desc", i), extra=extra) for i, d in enumerate(dl)]
            spec.symbols[name] = {
                "kind": "defined",
                "source_names": list(src),
                "source": srcs,
                "attr": attr,
                "types": [str(t).lower() for t in tlist],
                "desc": descs,
            }
        elif "templates" in s or "total" in s:
            _check_fields(ctx, s, p, ("total", "templates"), f"symbol '{name}'")
            tpls = s.get("templates")
            if not isinstance(tpls, list) or not tpls:
                raise ctx.error(
                    p + ("templates",),
                    "templates must be a non-empty list",
                    "a list of DerivedSymbol",
                )
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
            _check_fields(
                ctx,
                c,
                p,
                (
                    "formula",
                    "desc",
                    "source",
                    "amount",
                    "order",
                    "duplicate",
                    "domain",
                    "domain_cond",
                    "custom_cond",
                ),
                f"condition '{name}'",
            )
            # The original tool never passes order/duplicate of a dynamic condition to its
            # sampler (permutations without repetition always); specs rely on that meaning,
            # and some write lists of the wrong length there (never read, so not checked).
            sel = _selection(
                ctx,
                {k: v for k, v in c.items() if k not in ("order", "duplicate")},
                p,
                extra=set(),
                allow_dim=False,
            )
            dom = c.get("domain")
            lohi = None
            if dom is not None:
                lo, hi = _split_range(ctx, dom, p + ("domain",))
                _check_static_range(ctx, lo, hi, p + ("domain",))
                lohi = (ctx.expr(lo, p + ("domain",)), ctx.expr(hi, p + ("domain",)))
            spec.conditions[name] = {
                "kind": "dynamic",
                "selection": sel,
                "domain": lohi,
                "formula": ctx.expr(c["formula"], p + ("formula",)),
                "desc": ctx.template(c.get("desc"), p + ("desc",)),
                "has_amount": c.get("amount") is not None,
            }
        else:
            _check_fields(ctx, c, p, ("formula", "desc"), f"condition '{name}'")
            spec.conditions[name] = {
                "kind": "static",
                "formula": ctx.expr(c["formula"], p + ("formula",)),
                "desc": ctx.template(c.get("desc"), p + ("desc",)),
            }

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
        raise ctx.error(
            ("max_solution",), f"max_solution {ms!r} is not a positive integer", "an integer >= 1"
        )
    spec.max_solution = ms

    pg = data.get("post_generation")
    if pg is not None:
        p = ("post_generation",)
        _check_fields(ctx, pg, p, ("post_gen_vars", "post_gen_conditions"), "post_generation")
        pvars = {}
        for name, val in _as_mapping(
            ctx, pg.get("post_gen_vars"), p + ("post_gen_vars",), "post_gen_vars"
        ).items():
            pvars[name] = ctx.expr(val, p + ("post_gen_vars", name))
            ctx.define(name, p + ("post_gen_vars", name))
        pconds = {}
        for name, c in _as_mapping(
            ctx, pg.get("post_gen_conditions"), p + ("post_gen_conditions",), "post_gen_conditions"
        ).items():
            cp = p + ("post_gen_conditions", name)
            ctx.define(name, cp)
            if isinstance(c, str):
                c = {"formula": c}
            _check_fields(ctx, c, cp, ("formula", "desc"), f"post-generation condition '{name}'")
            pconds[name] = {
                "formula": ctx.expr(c.get("formula"), cp + ("formula",)),
                "desc": ctx.template(c.get("desc"), cp + ("desc",)),
            }
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
            raise ctx.error(
                p, "optimize needs type and formula", "type: minimize|maximize and a formula"
            )
        spec.optimize = {
            "type": ctx.template(opt["type"], p + ("type",)),
            "formula": ctx.expr(opt["formula"], p + ("formula",)),
        }

    qnames = []
    for name, q in _as_mapping(ctx, data.get("queries"), ("queries",), "queries").items():
        p = ("queries", name)
        ctx.define(name, p)
        qnames.append(name)
        spec.queries[name] = parse_query(ctx, q, p, name)

    spec.desc = ctx.template(data.get("desc", ""), ("desc",))
    return spec


def _derived(ctx: _Ctx, t: Any, p: tuple, name: str) -> dict:
    _check_fields(
        ctx,
        t,
        p,
        (
            "source",
            "amount",
            "order",
            "duplicate",
            "domain",
            "domain_cond",
            "dim",
            "dim_cond",
            "custom_cond",
            "formula",
            "desc",
        ),
        f"derived symbol '{name}'",
    )
    sel = _selection(ctx, t, p, extra=set())
    if t.get("formula") is None:
        raise ctx.error(p + ("formula",), "derived symbol without formula", "a formula using _sym")
    dom = t.get("domain")
    return {
        "selection": sel,
        "domain": ctx.expr(dom, p + ("domain",)) if dom is not None else None,
        "domain_raw": dom,
        "formula": ctx.expr(t["formula"], p + ("formula",)),
        "desc": ctx.template(t.get("desc", ""), p + ("desc",)),
        "has_amount": t.get("amount") is not None,
    }


def load_spec(path: str | Path) -> Spec:
    """Read and check a spec file (every error names file, field and line)."""
    text = read_yaml_text(path, what="spec", require_suffix=False)
    return parse_spec_text(text, str(path), root=Path.cwd())
