"""Built-in operators that PuzzleClone specs call by name, and the Z3 names they may use.

Why one runtime object per puzzle: several operators carry state that the original tool
keeps in module globals (the symbol metadata behind ``get_p``/``get_desc``/``get_data``,
the letter counter of ``generate_letters``) or draw from the global ``random`` module.
Here all of it lives in a ``Runtime`` built for one generation attempt, and every random
draw goes through that attempt's ``random.Random``, so a puzzle is a pure function of
its seed. Behaviour follows the format's public documentation; the code is our own.
"""

from __future__ import annotations

import contextlib
import itertools
import random
from collections.abc import Callable
from collections.abc import Iterable as _Iterable
from functools import lru_cache
from typing import Any

import z3

from . import bounded, formulagen, mathexpr
from .allowlist import MODULE_VIEWS
from .boundedlib import ITERTOOLS_BOUNDED
from .fastz3 import FAST_EXPORTS
from .operatorfiles import set_active_rng
from .pureops import (  # noqa: F401 - event_count and _flatten_syms: read as operators.X (columnmode)
    MAX_OPERATOR_ITEMS,
    OperatorError,
    _bounded,
    _flatten_syms,
    build_system,
    event_count,
    find_always_TF_combined_events,
    find_always_TF_events,
    gen_event_count_condition,
    gen_multi_event_count_condition,
    generate_var_names,
    get_TF_events_for_each_solution,
    get_value,
    get_var_name,
    make_expr,
    to_hashable,
    to_unique,
)
from .solmodel import SolModel, solution_order_key, z3_to_py
from .wordlists import WORD_LISTS
from .z3names import z3_table

__all__ = [
    "Runtime",
    "OPERATOR_NAMES",
    "Z3_EXPORTS",
    "SolModel",
    "z3_to_py",
    "OperatorError",
    "solution_order_key",
]


#: The Z3 names a spec may use: an explicit table (spec/z3names.py), never ``dir(z3)``
#: minus a deny-list (z3 re-exports ctypes, global parameters and printing helpers).
Z3_EXPORTS: dict[str, Any] = z3_table(FAST_EXPORTS)


def _key(x: Any) -> Any:
    if isinstance(x, z3.AstRef):
        pid = getattr(x, "_pf_id", None)  # a symbol constant's cached AST id (symbols.py)
        if pid is None:  # a stored derived symbol's (``store``), else a C call
            pid = getattr(x, "_pf_ast", None)
        return ("z3", x.get_id() if pid is None else pid)
    if isinstance(x, (list, tuple)):
        return tuple(_key(e) for e in x)
    try:
        hash(x)
    except TypeError:
        return ("id", id(x))
    return x


#: Largest number of elements generate_random_list may draw in total before giving up.
MAX_RANDOM_LIST_WORK = 50_000_000


@lru_cache(maxsize=8)
def _faker_providers(locale: str) -> frozenset[str]:
    """Public method names of the locale's Faker providers: the names get_faker may call.

    Why a table: ``getattr(faker, name)`` also reaches the generator's own API
    (``seed``, ``seed_instance``, ``add_provider``, ``set_formatter`` ...), which changes
    shared state; provider methods only make values.
    """
    fk = _faker(locale)
    names: set[str] = set()
    for provider in fk.factories[0].get_providers():
        for name in dir(type(provider)):
            if not name.startswith("_") and callable(getattr(type(provider), name, None)):
                names.add(name)
    return frozenset(
        names
        - {
            "seed",
            "seed_instance",
            "seed_locale",
            "add_provider",
            "get_providers",
            "set_formatter",
            "set_arguments",
            "del_arguments",
            "get_formatter",
            "parse",
            "format",
            # bulk data makers (archives, images, documents): not names
            "binary",
            "zip",
            "tar",
            "image",
            "json",
            "json_bytes",
            "csv",
            "tsv",
            "psv",
            "dsv",
            "xml",
            "fixed_width",
        }
    )


@lru_cache(maxsize=8)
def _faker(locale: str) -> Any:
    from faker import Faker  # heavy import, first use only

    return Faker(locale)


def _count_combinations(n: int, k: int) -> int:
    """comb(n, k), capped just above MAX_SEQUENCE (cheap even for comb(40, 20))."""
    k = min(k, n - k)
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)
        if out > bounded.MAX_SEQUENCE:
            return bounded.MAX_SEQUENCE + 1
    return out


class Runtime:
    """Per-attempt state of the built-in operators (rng, symbol metadata, counters)."""

    def __init__(
        self, rng: random.Random, env: dict[str, Any], compile_lambda: Callable[[str], Any]
    ) -> None:
        self.rng = rng
        set_active_rng(rng)  # the rng trusted operator files draw from (operatorfiles.py)
        self.env = env
        self.sym_config: dict[Any, dict] = {}
        self.letters = 0
        self._compile_lambda = compile_lambda

    # ---- symbol metadata -------------------------------------------------------
    def store(self, sym: Any, conf: dict) -> None:
        key = _key(sym)
        if isinstance(sym, z3.AstRef) and getattr(sym, "_pf_id", None) is None:
            # a derived symbol (a Z3 term) is looked up by get_data/get_desc/get_p once per
            # use in every condition (47-map: ~60,000 lookups a puzzle); its AST id is
            # fixed while the object lives, so it is kept on it (not as ``_pf_id``, which
            # marks symbol constants for spec/columnmode.py)
            with contextlib.suppress(AttributeError):  # a wrapper class without a dict
                sym._pf_ast = key[1]
        self.sym_config[key] = conf

    def _lookup(self, sym: Any, field: str, what: str) -> Any:
        key = _key(sym)
        conf = self.sym_config.get(key)
        if conf is not None and field in conf:
            return conf[field]
        if isinstance(sym, (list, tuple)):
            return type(sym)(self._lookup(item, field, what) for item in sym)
        raise OperatorError(f"{what}: {sym} is not a symbol with recorded {field}")

    def get_p(self, sym: Any, p: str) -> Any:
        key = _key(sym)
        conf = self.sym_config.get(key)
        if conf is not None and "p" in conf:
            if p not in conf["p"]:
                raise OperatorError(
                    f"get_p: symbol {sym} has no source named '{p}' "
                    f"(sources: {', '.join(conf['p'])})"
                )
            return conf["p"][p]
        if isinstance(sym, (list, tuple)):
            return type(sym)(self.get_p(item, p) for item in sym)
        raise OperatorError(f"get_p: {sym} is not a defined symbol")

    def get_desc(self, sym: Any) -> Any:
        return self._lookup(sym, "desc", "get_desc")

    def get_data(self, cond: Any) -> Any:
        if hasattr(cond, "data") and not isinstance(cond, (list, tuple)):
            return cond.data
        return self._lookup(cond, "data", "get_data")

    # ---- random data -------------------------------------------------------------
    def generate_letters(self, n: int, lang: str = "en") -> Any:
        n = _bounded("generate_letters", n)
        if lang == "en":
            base = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[self.letters % 26]
            self.letters += 1
            return [f"{base}{i + 1}" for i in range(int(n))]
        return "甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳午未申酉戌亥"[: int(n)]

    def get_faker(
        self, num: int, provider_name: str, locale: str = "zh_CN", seed: Any = None
    ) -> list:
        num = _bounded("get_faker", num, 10_000)
        rng = random.Random(seed) if seed is not None else self.rng
        if provider_name in WORD_LISTS:
            words = WORD_LISTS[provider_name]
            if num > len(words):
                raise OperatorError(
                    f"get_faker: provider '{provider_name}' has only {len(words)} "
                    f"distinct values, {num} requested"
                )
            return rng.sample(list(words), num)
        if not isinstance(provider_name, str) or not isinstance(locale, str):
            raise OperatorError("get_faker: provider and locale must be strings")
        try:
            fk = _faker(locale)
        except (AttributeError, ImportError, ValueError, TypeError):
            raise OperatorError(f"get_faker: unknown locale {locale[:40]!r}") from None
        method = (
            getattr(fk, provider_name, None) if provider_name in _faker_providers(locale) else None
        )
        if method is None or not callable(method):
            raise OperatorError(f"get_faker: unknown provider '{provider_name}'")
        fk.seed_instance(rng.getrandbits(48))
        out: list = []
        seen: set = set()
        tries = 0
        while len(out) < num:
            tries += 1
            if tries > 200 + 50 * num:
                raise OperatorError(
                    f"get_faker: provider '{provider_name}' gave only {len(out)} "
                    f"distinct values, {num} requested"
                )
            value = method()
            if value not in seen:
                seen.add(value)
                out.append(value)
        return out

    def _conditions(self, cond: Any) -> list:
        out = []
        for c in cond or []:
            out.append(self._compile_lambda(c) if isinstance(c, str) else c)
        return out

    def generate_random_list(
        self, size: int, ele_type: str, ele_domain: Any, cond: Any = (), per_ele_domain: Any = None
    ) -> list:
        if not isinstance(size, int) or size <= 0:
            raise OperatorError("generate_random_list: size must be a positive integer")
        _bounded("generate_random_list size", size)
        if ele_type not in ("int", "bool", "float", "enum"):
            raise OperatorError(f"generate_random_list: unsupported element type {ele_type!r}")
        if per_ele_domain is not None and len(per_ele_domain) != size:
            raise OperatorError("generate_random_list: per_ele_domain length must match size")
        doms = [
            per_ele_domain[i]
            if per_ele_domain is not None and per_ele_domain[i] is not None
            else ele_domain
            for i in range(size)
        ]
        if ele_type in ("int", "float"):
            for d in doms:
                if len(d) < 2 or d[0] > d[1]:
                    raise OperatorError(f"generate_random_list: empty domain {list(d)}")
        funcs = self._conditions(cond)
        rng = self.rng
        for _ in range(min(200_000, max(1, MAX_RANDOM_LIST_WORK // size))):
            if ele_type == "int":
                lst: list = [rng.randint(d[0], d[1]) for d in doms]
            elif ele_type == "float":
                lst = [round(rng.uniform(d[0], d[1]), 2) for d in doms]
            else:
                lst = [rng.choice(list(d)) for d in doms]
            ok = True
            for f in funcs:
                try:
                    if not f(lst):
                        ok = False
                        break
                except Exception:  # noqa: BLE001 - a failing condition rejects the draw, as documented
                    ok = False
                    break
            if ok:
                return lst
        raise OperatorError(
            "generate_random_list: no list satisfied the conditions in 200000 draws"
        )

    def generate_random_list_with_total(
        self, size: int, ele_domain: Any, total: int, per_ele_domain: Any = None
    ) -> list:
        if not isinstance(size, int) or size <= 0:
            raise OperatorError("generate_random_list_with_total: size must be a positive integer")
        _bounded("generate_random_list_with_total size", size)
        lo_g, hi_g = int(ele_domain[0]), int(ele_domain[1])
        los, his = [], []
        for i in range(size):
            d = (
                per_ele_domain[i]
                if per_ele_domain is not None and per_ele_domain[i] is not None
                else (lo_g, hi_g)
            )
            lo, hi = int(d[0]), int(d[1])
            if lo > hi:
                raise OperatorError(f"generate_random_list_with_total: empty domain {list(d)}")
            los.append(lo)
            his.append(hi)
        total = int(total)
        if not sum(los) <= total <= sum(his):
            raise OperatorError(
                f"generate_random_list_with_total: total {total} is outside "
                f"[{sum(los)}, {sum(his)}]"
            )
        out = list(los)
        room = [hi - lo for lo, hi in zip(los, his, strict=False)]
        left = _bounded(
            "generate_random_list_with_total: total minus the minimums",
            total - sum(los),
            10_000_000,
        )
        # each unit goes to a slot chosen with probability proportional to its free room
        while left > 0:
            free = sum(room)
            r = self.rng.randrange(free)
            for i, w in enumerate(room):
                if r < w:
                    out[i] += 1
                    room[i] -= 1
                    break
                r -= w
            left -= 1
        return out

    def generate_formulas(
        self,
        formula_num: int,
        vars_num: int,
        is_cond: bool = False,
        allow_power: bool = True,
        max_depth: int = 5,
    ) -> list[str]:
        return formulagen.generate_formulas(
            self.rng,
            _bounded("generate_formulas", formula_num, 10_000),
            _bounded("generate_formulas vars_num", vars_num, 1000),
            is_cond,
            allow_power,
            _bounded("generate_formulas max_depth", max_depth, 30),
        )

    def generate_formula(
        self, vars_num: int, is_cond: bool = False, allow_power: bool = True, max_depth: int = 5
    ) -> str:
        """One serialized formula (the documented single-formula form of generate_formulas)."""
        return self.generate_formulas(1, vars_num, is_cond, allow_power, max_depth)[0]

    def choose(self, candidates: Any, group_size: int, group_num: int) -> list:
        items = _flatten_syms(candidates)
        group_num = _bounded("choose group_num", group_num)
        if isinstance(group_size, int) and 0 <= group_size <= len(items):
            _bounded(
                "choose: number of groups",
                _count_combinations(len(items), group_size),
                bounded.MAX_SEQUENCE,
            )
        combos = list(itertools.combinations(items, group_size))
        if not combos:
            return []
        if group_num <= len(combos):
            return self.rng.sample(combos, group_num)
        out: list = []
        while len(out) < group_num:
            out.extend(self.rng.sample(combos, len(combos)))
        out = out[:group_num]
        self.rng.shuffle(out)
        return out

    # ---- the table ---------------------------------------------------------------
    def table(self) -> dict[str, Any]:
        rng = self.rng
        return {
            "get_value": get_value,
            "get_faker": self.get_faker,
            "to_unique": to_unique,
            "generate_random_list": self.generate_random_list,
            "generate_random_list_with_total": self.generate_random_list_with_total,
            "generate_letters": self.generate_letters,
            "gen_event_count_condition": gen_event_count_condition,
            "gen_multi_event_count_condition": gen_multi_event_count_condition,
            "make_expr": make_expr,
            "get_desc": self.get_desc,
            "get_p": self.get_p,
            "get_data": self.get_data,
            "get_TF_events_for_each_solution": get_TF_events_for_each_solution,
            "find_always_TF_events": find_always_TF_events,
            "find_always_TF_combined_events": find_always_TF_combined_events,
            "get_formula_value": mathexpr.get_formula_value,
            "generate_var_names": generate_var_names,
            "generate_formulas": self.generate_formulas,
            "generate_formula": self.generate_formula,
            "build_system": build_system,
            "to_hashable": to_hashable,
            "get_var_name": get_var_name,
            "choose": self.choose,
            "randint": rng.randint,
            "uniform": rng.uniform,
            "sample": rng.sample,
            "choice": rng.choice,
            "shuffle": rng.shuffle,
            "random": rng,
            "itertools": _ITERTOOLS,
            "reduce": _reduce,
            "math": _MATH,
            "re": _RE,
            "product": _PRODUCT,
            "permutations": _PERMUTATIONS,
            "combinations": _COMBINATIONS,
            "Iterable": _Iterable,
        }


_ITERTOOLS = MODULE_VIEWS["itertools"]
_MATH = MODULE_VIEWS["math"]
_RE = MODULE_VIEWS["re"]
_PRODUCT = ITERTOOLS_BOUNDED["product"]
_PERMUTATIONS = ITERTOOLS_BOUNDED["permutations"]
_COMBINATIONS = ITERTOOLS_BOUNDED["combinations"]


def _reduce(*args: Any) -> Any:
    from functools import reduce

    return reduce(*args)


OPERATOR_NAMES: set[str] = set(Runtime(random.Random(0), {}, lambda s: None).table()) | set(
    Z3_EXPORTS
)
