"""The ``queries`` attribute of a spec: open questions and choice questions.

Why a module of its own (split from spec/schema.py): a query is the largest single
attribute of the format, with two shapes (an open question with ``ans_formula`` and
``ans_text``; a single or multiple choice question whose options come from one or more
option templates, each a selection of its own), and its checks change with the question
kinds, independently of variables, symbols and conditions. spec/schema.py calls
``parse_query`` in format order, with the same checking context.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .safe import SafeCode
from .schemafields import Selection, _check_fields, _Ctx, _range_literal, _selection

__all__ = ["ChoiceTemplate", "parse_query"]


@dataclass(frozen=True)
class ChoiceTemplate:
    """One option template of a choice query: how options are drawn and judged."""

    selection: Selection
    cond: str
    opt_formula: SafeCode
    opt_text: SafeCode
    count_range: tuple[int, int] | None = None


_CHOICE_FIELDS = (
    "source",
    "amount",
    "order",
    "duplicate",
    "cond",
    "opt_formula",
    "opt_text",
    "custom_cond",
    "domain",
    "dim",
)


def _choice_template(ctx: _Ctx, t: dict, p: tuple) -> ChoiceTemplate:
    cond = t.get("cond", "any")
    if cond not in ("any", "all"):
        raise ctx.error(p + ("cond",), f"cond '{cond}' is not known", "'any' or 'all'")
    if "opt_formula" not in t:
        raise ctx.error(
            p, "option template without opt_formula", "an opt_formula using _opt and _model"
        )
    sel = _selection(ctx, t, p, extra=set(), option=True, allow_dim=False)
    return ChoiceTemplate(
        sel,
        cond,
        ctx.expr(t["opt_formula"], p + ("opt_formula",)),
        ctx.template(t.get("opt_text", ""), p + ("opt_text",)),
        _range_literal(ctx, t.get("domain"), p + ("domain",)),
    )


def parse_query(ctx: _Ctx, q: Any, p: tuple, name: str) -> dict:
    """One entry of ``queries``: an open question or a choice question (with templates)."""
    if not isinstance(q, dict):
        raise ctx.error(p, "a query must be a mapping", "an open or choice question")
    base = ("desc", "query_type", "select_type", "opt_num")
    if "source" in q or "templates" in q:
        if "templates" in q:
            _check_fields(ctx, q, p, base + ("templates",), f"query '{name}'")
            tl = q["templates"]
            if not isinstance(tl, list) or not tl:
                raise ctx.error(
                    p + ("templates",), "templates must be a non-empty list", "option templates"
                )
            tpls = []
            for i, t in enumerate(tl):
                _check_fields(ctx, t, p + ("templates", i), _CHOICE_FIELDS, "option template")
                tpls.append(_choice_template(ctx, t, p + ("templates", i)))
        else:
            _check_fields(ctx, q, p, base + _CHOICE_FIELDS, f"query '{name}'")
            tpls = [_choice_template(ctx, q, p)]
        qt = q.get("query_type", "single_choice")
        if qt not in ("single_choice", "multiple_choice"):
            raise ctx.error(
                p + ("query_type",),
                f"query_type '{qt}' is not known",
                "single_choice or multiple_choice",
            )
        st = q.get("select_type", True)
        if not isinstance(st, bool):
            raise ctx.error(p + ("select_type",), "select_type must be true or false", "a boolean")
        on = q.get("opt_num", 4)
        if on is None:
            on = 4
        if not isinstance(on, int) or isinstance(on, bool) or not 2 <= on <= 26:
            raise ctx.error(
                p + ("opt_num",), f"opt_num {on!r} is not allowed", "an integer in [2, 26]"
            )
        return {
            "kind": "choice",
            "desc": ctx.template(q.get("desc", ""), p + ("desc",)),
            "query_type": qt,
            "select_type": st,
            "opt_num": on,
            "templates": tpls,
            "multi": "templates" in q,
        }
    _check_fields(
        ctx, q, p, ("desc", "ans_formula", "ans_text", "ans_assertion"), f"query '{name}'"
    )
    if "ans_formula" not in q or "ans_text" not in q:
        raise ctx.error(
            p,
            "open question needs ans_formula and ans_text",
            "ans_formula, ans_text (and optional ans_assertion)",
        )
    return {
        "kind": "open",
        "desc": ctx.template(q.get("desc", ""), p + ("desc",)),
        "ans_formula": ctx.expr(q["ans_formula"], p + ("ans_formula",)),
        "ans_text": ctx.expr(q["ans_text"], p + ("ans_text",)),
        "ans_assertion": ctx.expr(
            q.get("ans_assertion", "len(_solutions) == 1"), p + ("ans_assertion",)
        ),
    }
