"""Stage 5 of an attempt: open queries, choice options and the problem text.

Functions over the attempt's state (spec/attempt.py ``Attempt``): options are sampled
with the selection stage's functions (spec/sampling.py) and checked against the
solutions the backend stage left in the namespace (``_solutions``), so a query never
runs a solver ita.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .answers import choice_format, infer_format
from .configcodec import parse_index
from .outcome import Rejection, ev
from .sampling import select, sources_of, values_at
from .selection import as_config
from .symbols import CondText

if TYPE_CHECKING:
    from .attempt import Attempt

__all__ = ["ask_queries", "problem_text"]


def ask_queries(a: Attempt) -> list[dict]:
    """Answer every query; sets ``a.answers`` and returns one detail dict per query."""
    env = a.env
    queries_text = ""
    answers: list[str] = []
    details: list[dict] = []
    a.config["_queries"] = {}
    for cnt, (name, q) in enumerate(a.spec.queries.items(), start=1):
        a.check_time()
        if q["kind"] == "open":
            ans = ev(q["ans_formula"], env)
            env["_ans"] = ans
            ok = ev(q["ans_assertion"], env)
            if not ok:
                raise Rejection("answer assertion false", f"{name}: {q['ans_assertion'].source}")
            desc = (ev(q["desc"], env) or "") + "\n"
            env[name] = CondText(desc)
            queries_text += f"{cnt}. " + desc
            text = str(ev(q["ans_text"], env))
            answers.append(text)
            details.append(
                {
                    "query": name,
                    "kind": "open",
                    "answer": text,
                    "format": infer_format(q["ans_formula"].source, q["ans_text"].source, text),
                }
            )
            env["queries"] = queries_text
            continue
        desc = CondText((ev(q["desc"], env) or "") + "\n")
        env[name] = desc
        opts, texts, letters = _choice(a, name, q)
        full = desc + "\n".join(texts) + "\n"
        env[name] = CondText(full)
        queries_text += f"{cnt}. " + full + "\n"
        answers.append(letters)
        details.append(
            {
                "query": name,
                "kind": q["query_type"],
                "answer": letters,
                "options": len(texts),
                "format": choice_format(q["query_type"]),
            }
        )
        env["queries"] = queries_text
    env["queries"] = queries_text
    a.answers = answers
    return details


def _valid(a: Attempt, tpl: Any, opt: list, solutions: Any) -> bool:
    env = a.env
    env["_opt"] = opt
    sols = solutions if isinstance(solutions, list) else [solutions]
    code = tpl.opt_formula
    if tpl.cond == "all":
        for m in sols:
            env["_model"] = m
            if not ev(code, env):
                return False
        return True
    for m in sols:
        env["_model"] = m
        if ev(code, env):
            return True
    return False


def _options_for(a: Attempt, tpl: Any, sources: list[list], count: int, want: bool) -> list:
    if count <= 0:
        return []
    solutions = a.env.get("_solutions", [])

    def accept(item: list) -> bool:
        return _valid(a, tpl, values_at(sources, item[0]), solutions) == want

    idx = select(a, tpl.selection, sources, count, option=True, accept=accept)
    return idx


def _choice(a: Attempt, name: str, q: dict) -> tuple[list, list, str]:
    env = a.env
    opt_num = q["opt_num"]
    env["opt_num"] = opt_num
    tpls = q["templates"]
    select_type = q["select_type"]
    found, stored = a.from_config("_queries")
    stored_q = stored.get(name) if found and isinstance(stored, dict) else None
    multi = q["query_type"] == "multiple_choice"
    if stored_q is not None and "pool" in stored_q:
        entries = []
        for e in stored_q["pool"]:
            if isinstance(e, dict):
                entries.append((int(e["template_id"]), parse_index(e["config"])))
            else:
                entries.append((0, parse_index(e)))
        cfg = dict(stored_q)
    else:
        n_t = len(tpls)
        if q["multi"]:
            per = [list(t.count_range) if t.count_range else None for t in tpls]
            try:
                pool_domain = a.rt.generate_random_list_with_total(n_t, [0, opt_num], opt_num, per)
            except Exception as exc:  # noqa: BLE001
                raise Rejection("option generation failed", str(exc)) from None
        else:
            pool_domain = [opt_num]
        if multi:
            n_right = a.rng.randint(1, opt_num) if select_type else a.rng.randint(0, opt_num - 1)
        else:
            n_right = 1 if select_type else opt_num - 1
        try:
            wrong_split = a.rt.generate_random_list_with_total(
                n_t, [0, opt_num], opt_num - n_right, [[0, v] for v in pool_domain]
            )
        except Exception as exc:  # noqa: BLE001
            raise Rejection("option generation failed", str(exc)) from None
        right_split = [d - w for d, w in zip(pool_domain, wrong_split, strict=False)]
        rights, wrongs = [], []
        for i, t in enumerate(tpls):
            sources = sources_of(a, t.selection)
            try:
                r = _options_for(a, t, sources, right_split[i], True)
                w = _options_for(a, t, sources, wrong_split[i], False)
            except Rejection as exc:
                raise Rejection("not enough options", f"{name}: {exc.detail}") from None
            rights += [(i, x) for x in r]
            wrongs += [(i, x) for x in w]
        correct, incorrect = (rights, wrongs) if select_type else (wrongs, rights)
        if multi:
            entries = correct + incorrect
            a.rng.shuffle(entries)
        else:
            pos = a.rng.randint(0, opt_num - 1)
            entries = incorrect[:pos] + correct + incorrect[pos:]
        cfg = {
            "pool_domain": pool_domain,
            "pool": [
                {"template_id": i, "config": as_config(x)} if q["multi"] else as_config(x)
                for i, x in entries
            ],
        }
        if q["multi"]:  # the original's reader needs the per-template counts too
            cfg = {
                "pool_domain": pool_domain,
                "pool_correct_num": right_split,
                "pool_incorrect_num": wrong_split,
                "pool": cfg["pool"],
            }
    a.config["_queries"][name] = cfg
    texts, letters = [], ""
    solutions = env.get("_solutions", [])
    src_cache: dict[int, list] = {}
    for k, (tid, item) in enumerate(entries):
        t = tpls[tid]
        if tid not in src_cache:
            src_cache[tid] = sources_of(a, t.selection)
        opt = values_at(src_cache[tid], item)
        valid = _valid(a, t, opt, solutions)
        if valid == select_type:
            letters += chr(65 + k)
        env["_opt"] = opt
        env["_index"] = k
        texts.append(chr(65 + k) + ". " + str(ev(t.opt_text, env)))
    if not multi and len(letters) != 1:
        raise Rejection("option check failed", f"{name}: {len(letters)} correct options")
    if multi and not letters:
        raise Rejection("option check failed", f"{name}: no correct option")
    return entries, texts, letters


def problem_text(a: Attempt) -> str:
    """The problem text: the spec's ``desc`` template in the final namespace."""
    return str(ev(a.spec.desc, a.env))  # type: ignore[arg-type]
