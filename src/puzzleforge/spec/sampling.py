"""Stage 2 of an attempt: sample variables and symbols (and the selections they draw).

Functions over the attempt's state (spec/attempt.py ``Attempt``): they share its
namespace (``env``), its ``random.Random`` and its config (replay) state; every random
draw comes from the attempt's generator, in the format's attribute order, so a puzzle
is a function of its seed. The conditions (stage 3) are in spec/conditions.py.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .configcodec import encode_value, parse_index
from .outcome import ExprFailure, Rejection, ev
from .replaycheck import check_replayed_variable, missing_value
from .safe import SafeCode
from .schema import Selection
from .selection import SelectionImpossible, as_config, select_indices
from .symbols import SymbolDict

if TYPE_CHECKING:
    from .attempt import Attempt

__all__ = ["sample_variables", "sample_symbols", "sources_of", "select", "values_at"]

_MISSING = object()


def sample_variables(a: Attempt) -> None:
    """Every variable: replayed from the config, computed from its formula, or drawn."""
    for name, kind_code in a.spec.operators.items():
        kind, code = kind_code
        a.env[name] = ev(code, a.env) if kind == "lambda" else a.file_ops[name]
    for name, v in a.spec.variables.items():
        found, value = a.from_config(name)
        if "formula" not in v and a.replay is not None:
            if found:
                check_replayed_variable(name, v, value, a.env)
            elif name not in a.use_spec_vars:
                raise missing_value(name)
        if found and v.get("diff_factor") and "formula" not in v:
            _position(a, name, v, value)
        if not found:
            if "formula" in v:
                value = ev(v["formula"], a.env)
            elif v["type"] in ("int",):
                lo, hi = ev(v["lo"], a.env), ev(v["hi"], a.env)
                try:
                    lo, hi = int(lo), int(hi)
                except (TypeError, ValueError) as exc:
                    raise ExprFailure(v["lo"], exc) from None
                if lo > hi:
                    raise Rejection("empty variable domain", f"{name}: [{lo}, {hi}]")
                value = a.rng.randint(lo, hi)
            elif v["type"] in ("float", "real"):
                lo, hi = ev(v["lo"], a.env), ev(v["hi"], a.env)
                if lo > hi:
                    raise Rejection("empty variable domain", f"{name}: [{lo}, {hi}]")
                value = a.rng.uniform(lo, hi)
            else:
                choices = list(ev(v["choices"], a.env))
                if not choices:
                    raise Rejection("empty variable domain", name)
                value = choices[0] if len(choices) == 1 else a.rng.choice(choices)
        if not found and v.get("diff_factor") and "formula" not in v:
            _position(a, name, v, value)
        a.env[name] = value
        a.config[name] = encode_value(value)


def _position(a: Attempt, name: str, v: dict, value: Any) -> None:
    """Where ``value`` sits in its domain (0..1), for the difficulty score."""
    try:
        if "lo" in v:
            lo, hi = float(ev(v["lo"], a.env)), float(ev(v["hi"], a.env))
            pos = 0.5 if hi <= lo else (float(value) - lo) / (hi - lo)
        else:
            choices = list(ev(v["choices"], a.env))
            pos = 0.5 if len(choices) < 2 else choices.index(value) / (len(choices) - 1)
    except (ExprFailure, ValueError, TypeError):
        return
    a.var_pos[name] = (min(1.0, max(0.0, pos)), float(v["diff_factor"]))


# ---- selections (also used by spec/questions.py for choice options) -----------------


def sources_of(a: Attempt, sel: Selection) -> list[list]:
    """The selection's source lists, evaluated in the attempt's namespace."""
    out = []
    for code in sel.source:
        src = ev(code, a.env)
        out.append(list(src.to_list()) if isinstance(src, SymbolDict) else list(src))
    return out


def amounts_of(a: Attempt, sel: Selection) -> list[int]:
    """How many items each source contributes per selected entry (1 each by default)."""
    if sel.amount is None:
        return [1] * len(sel.source)
    out = []
    for code in sel.amount:
        v = ev(code, a.env)
        try:
            out.append(int(v))
        except (TypeError, ValueError) as exc:
            raise ExprFailure(code, exc) from None
    return out


def select(a: Attempt, sel: Selection, sources: list[list], domain: int, *, option: bool = False,
           accept: Any = None) -> list:
    """``domain`` entries drawn from ``sources`` with the attempt's generator
    (spec/selection.py)."""
    if domain <= 0:
        return []
    amounts = amounts_of(a, sel)
    env = a.env

    def resolve(code: SafeCode) -> Any:
        return ev(code, env)

    try:
        return select_indices(
            a.rng, [len(s) for s in sources], amounts, domain,
            domain_cond=True if option else sel.domain_cond, dim=sel.dim, dim_cond=sel.dim_cond,
            custom_cond=sel.custom_cond, order=sel.order, duplicate=sel.duplicate, resolve=resolve,
            accept=accept)
    except SelectionImpossible as exc:
        raise Rejection("random selection impossible", str(exc)) from None


def values_at(sources: list[list], item: list) -> list:
    """The source values at one selected entry's indices."""
    return [[src[i] for i in idx] for src, idx in zip(sources, item, strict=False)]


def sample_symbols(a: Attempt) -> None:
    """Defined symbols (Z3 constants), derived symbols and dynamic symbol pools."""
    for name, s in a.spec.symbols.items():
        a.check_time()
        if s["kind"] == "defined":
            srcs = []
            for sname, code in zip(s["source_names"], s["source"], strict=False):
                val = ev(code, a.env)
                srcs.append((sname, list(val.to_list()) if isinstance(val, SymbolDict) else list(val)))
            sym = SymbolDict(name, srcs, s["attr"], s["types"], a.z3s)
            a.env[name] = sym
            for v in dict.values(sym):
                if isinstance(v, dict):
                    a.sym_consts.extend(v.values())
                else:
                    a.sym_consts.append(v)
            for key in sym._keys:
                parts = sym.key_parts(key)
                value = dict.__getitem__(sym, key)
                templates = s["desc"] or []
                if s["attr"] is None:
                    d = _render_sym_desc(a, templates[0] if templates else None, parts)
                    a.rt.store(value, {"p": parts, "desc": d, "type": s["types"][0]})
                else:
                    for i, attr in enumerate(s["attr"]):
                        d = _render_sym_desc(a, templates[i] if i < len(templates) else None, parts)
                        a.rt.store(value[attr], {"p": parts, "desc": d, "type": s["types"][i]})
        elif s["kind"] == "derived":
            found, pool = a.from_config(name)
            syms: list = []
            vals: list = []
            descs: list = []
            _, last_pool = _derived(a, name, s, syms, descs, vals, 0,
                                    pool["pool"] if found and isinstance(pool, dict) else None)
            a.config[name] = {"pool": last_pool}
            a.env[name] = syms
            a.rt.store(syms, {"desc": descs, "data": vals})
        else:
            found, stored = a.from_config(name)
            total = int(ev(s["total"], a.env))
            if found and isinstance(stored, dict) and "pool_domain" in stored:
                pool_domain = [int(x) for x in stored["pool_domain"]]
                pools = stored.get("pool", [])
            else:
                per = []
                for t in s["templates"]:
                    rng_ = None
                    if t["domain_raw"] is not None:
                        d = ev(t["domain"], a.env)
                        rng_ = list(d) if isinstance(d, (list, tuple)) else [int(d), int(d)]
                    per.append(rng_)
                try:
                    pool_domain = a.rt.generate_random_list_with_total(len(s["templates"]), [0, total], total, per)
                except Exception as exc:  # noqa: BLE001
                    raise Rejection("random selection impossible", str(exc)) from None
                pools = None
            entry = {"pool_domain": pool_domain, "pool": []}
            syms, descs, vals = [], [], []
            index = 0
            for i, t in enumerate(s["templates"]):
                index, last_pool = _derived(a, name, t, syms, descs, vals, index,
                                            pools[i] if pools is not None and i < len(pools) else None,
                                            domain=pool_domain[i])
                entry["pool"].append(last_pool)
            a.config[name] = entry
            a.env[name] = syms
            a.rt.store(syms, {"desc": descs, "data": vals})


def _render_sym_desc(a: Attempt, code: SafeCode | None, parts: dict) -> Any:
    if code is None:
        return None
    env = a.env
    saved = {}
    for k, v in parts.items():
        key = "_" + str(k)
        saved[key] = env.get(key, _MISSING)
        env[key] = v
    try:
        return ev(code, env)
    except ExprFailure:
        return code.source  # the original keeps a defined symbol's desc as a raw template
    finally:
        for key, old in saved.items():
            if old is _MISSING:
                env.pop(key, None)
            else:
                env[key] = old


def _derived(a: Attempt, name: str, t: dict, syms: list, descs: list, vals: list, index: int,
             stored_pool: Any, domain: int | None = None) -> tuple[int, Any]:
    """Draw (or replay) one derived-symbol template's entries; (next index, its pool config)."""
    sel: Selection = t["selection"]
    sources = sources_of(a, sel)
    if domain is None:
        domain = int(ev(t["domain"], a.env)) if t["domain"] is not None else 1
    if stored_pool is not None:
        indices = parse_index(stored_pool)
    else:
        indices = select(a, sel, sources, domain)
    last_pool = as_config(indices)
    env = a.env
    for item in indices:
        env["_index"] = index
        if sel.dim == 1:
            v = values_at(sources, item)
            env["_sym"] = v if t["has_amount"] else [x[0] for x in v]
            env["_ind"] = item if t["has_amount"] else [x[0] for x in item]
            s = ev(t["formula"], env)
            d = ev(t["desc"], env)
            syms.append(s)
            descs.append(d)
            vals.append(v)
            a.rt.store(s, {"desc": d, "data": env["_sym"]})
        else:
            ss, dd, vv = [], [], []
            for dim_item in item:
                v = values_at(sources, dim_item)
                env["_sym"] = v if t["has_amount"] else [x[0] for x in v]
                env["_ind"] = dim_item if t["has_amount"] else [x[0] for x in dim_item]
                s = ev(t["formula"], env)
                d = ev(t["desc"], env)
                ss.append(s)
                dd.append(d)
                vv.append(v)
                a.rt.store(s, {"desc": d, "data": env["_sym"]})
            syms.append(ss)
            descs.append(dd)
            vals.append(vv)
        index += 1
    return index, last_pool
