"""Round-trip parser for zebra clue sentences (a test helper, written from the sentence
shapes in docs/zebra.md, not from text.py): a sentence of a puzzle is read back into the
meaning of a clue, so a test can check that every sentence says exactly its clue.

Object names are the bold ``**name**`` spans (names never repeat within a puzzle); the
rest of the sentence is matched against one pattern per clue shape and language.
The result is a *meaning* (``meaning_of_clue`` gives the same for a clue object): text
may legitimately reorder the two alternatives of an either-clue or drop "exclusive"
where both alternatives cannot hold anyway, so meanings compare atoms as sets.
"""

from __future__ import annotations

import re
from fractions import Fraction

from puzzleforge.zebra.categories import format_number
from puzzleforge.zebra.clues import Clue, EitherClue, GroupClue, IfThenClue, NotClue, OrderClue

OBJ = r"§(\d+)§"


def _compatible(a, b) -> bool:
    """Both pairings can hold: brute force over which entity owns each object (an
    independent check: no union-find, just try every entity labelling of the objects)."""
    objs = sorted({o for atom in (a, b) for o in atom})
    from itertools import product

    for labels in product(range(len(objs)), repeat=len(objs)):
        ent = dict(zip(objs, labels, strict=True))
        # two objects of one category may not share an entity
        seen = {}
        ok = True
        for o in objs:
            key = (o[0], ent[o])
            if key in seen:
                ok = False
                break
            seen[key] = o
        if ok and all(ent[x] == ent[y] for x, y in (a, b)):
            return True
    return False


def _atom(a) -> frozenset:
    return frozenset(tuple(o) for o in a)


def meaning_of_clue(p, clue: Clue) -> tuple:
    """What a clue states, in the form ``parse`` returns."""
    if isinstance(clue, NotClue):
        return ("not", tuple(clue.obj), frozenset(map(tuple, clue.others)))
    if isinstance(clue, IfThenClue):
        return ("ifthen", _atom(clue.p), _atom(clue.q), _atom(clue.r))
    if isinstance(clue, EitherClue):
        excl = clue.exclusive if _compatible(clue.p, clue.q) else None
        return ("either", frozenset({_atom(clue.p), _atom(clue.q)}), excl)
    if isinstance(clue, GroupClue):
        return ("group", tuple(clue.obj), clue.cat, clue.phrase)
    if isinstance(clue, OrderClue):
        d = format_number(Fraction(clue.d), p.lang) if clue.rel == "arith" else None
        oper = clue.oper if clue.rel == "arith" else None
        objs = tuple(map(tuple, clue.objs))
        if clue.rel == "nextto":
            objs = frozenset(objs)
        if clue.rel == "onebetween":
            objs = frozenset(objs)
        if clue.rel == "between":
            objs = (objs[0], frozenset(objs[1:]))
        return ("order", clue.rel, clue.cat, objs, oper, d)
    raise TypeError(clue)


def _skeleton(p, sentence: str) -> tuple[str, list[tuple[int, int]]]:
    names = {}
    for c, cat in enumerate(p.categories):
        for i, item in enumerate(cat.items):
            names[item] = (c, i)
    objs: list[tuple[int, int]] = []

    def sub(m: re.Match) -> str:
        objs.append(names[m.group(1)])
        return f"§{len(objs) - 1}§"

    return re.sub(r"\*\*(.+?)\*\*", sub, sentence), objs


def _cat(p, title: str) -> int:
    titles = [c.title for c in p.categories]
    assert title in titles, (title, titles)
    return titles.index(title)


EN_ORDER = {
    "chain": rf"^By (?P<t>.+?): {OBJ} is lower than {OBJ}, and {OBJ} is lower than {OBJ}\.$",
    "nextto": rf"^By (?P<t>.+?), {OBJ} is right next to {OBJ}\.$",
    "left1": rf"^By (?P<t>.+?), {OBJ} is directly left of {OBJ}\.$",
    "right1": rf"^By (?P<t>.+?), {OBJ} is directly right of {OBJ}\.$",
    "left": rf"^By (?P<t>.+?), {OBJ} is somewhere left of {OBJ}\.$",
    "right": rf"^By (?P<t>.+?), {OBJ} is somewhere right of {OBJ}\.$",
    "between": rf"^By (?P<t>.+?), {OBJ} is somewhere between {OBJ} and {OBJ}\.$",
    "onebetween": rf"^By (?P<t>.+?), there is exactly one position between {OBJ} and {OBJ}\.$",
    "end": rf"^By (?P<t>.+?), {OBJ} is at one of the two ends \(lowest or highest\)\.$",
}
PL_HEAD = r"^Pod względem kategorii „(?P<t>.+?)”"
PL_ORDER = {
    "nextto": rf"{PL_HEAD} obiekty {OBJ} i {OBJ} sąsiadują ze sobą\.$",
    "left1": rf"{PL_HEAD} obiekt {OBJ} stoi bezpośrednio przed obiektem {OBJ}\.$",
    "right1": rf"{PL_HEAD} obiekt {OBJ} stoi bezpośrednio za obiektem {OBJ}\.$",
    "left": rf"{PL_HEAD} obiekt {OBJ} stoi gdzieś wcześniej niż obiekt {OBJ}\.$",
    "right": rf"{PL_HEAD} obiekt {OBJ} stoi gdzieś dalej niż obiekt {OBJ}\.$",
    "between": rf"{PL_HEAD} obiekt {OBJ} stoi gdzieś pomiędzy obiektami {OBJ} i {OBJ}\.$",
    "onebetween": (
        rf"{PL_HEAD} pomiędzy obiektami {OBJ} i {OBJ} stoi dokładnie jeden inny "
        r"obiekt\.$"
    ),
    "end": rf"{PL_HEAD} obiekt {OBJ} stoi na jednym z dwóch końców \(pierwszy lub ostatni\)\.$",
}
NUM = r"(-?\d+(?:[.,]\d+)?)"


def _order_meaning(p, rel: str, t: str, objs: list, oper=None, d=None) -> tuple:
    cat = _cat(p, t)
    o = tuple(objs)
    if rel in ("nextto", "onebetween"):
        o = frozenset(o)
    if rel == "between":
        o = (o[0], frozenset(o[1:]))
    return ("order", rel, cat, o, oper, d)


def parse(p, sentence: str) -> tuple:
    """The meaning of one clue sentence of puzzle ``p`` (raises AssertionError when the
    sentence has no known shape)."""
    s, objs = _skeleton(p, sentence)
    ob = lambda m, *ix: [objs[int(m.group(i))] for i in ix]  # noqa: E731
    if p.lang == "pl":
        return _parse_pl(p, s, objs, ob)
    m = re.match(rf"^{OBJ} is not paired with {OBJ}\.$", s)
    if m:
        x, y = ob(m, 1, 2)
        return ("not", x, frozenset([y]))
    m = re.match(rf"^{OBJ} is paired with neither {OBJ} nor {OBJ}\.$", s)
    if m:
        x, y, z = ob(m, 1, 2, 3)
        return ("not", x, frozenset([y, z]))
    m = re.match(rf"^{OBJ} is paired with none of ((?:{OBJ}, )+{OBJ} and {OBJ})\.$", s)
    if m:
        ids = [int(i) for i in re.findall(r"§(\d+)§", m.group(2))]
        return ("not", objs[int(m.group(1))], frozenset(objs[i] for i in ids))
    m = re.match(
        rf"^If {OBJ} is paired with {OBJ}, then {OBJ} is paired with {OBJ}; "
        rf"otherwise {OBJ} is "
        rf"paired with {OBJ}\.$",
        s,
    )
    if m:
        a, b, c, d, e, f = ob(m, 1, 2, 3, 4, 5, 6)
        return ("ifthen", _atom((a, b)), _atom((c, d)), _atom((e, f)))
    m = re.match(rf"^{OBJ} is paired with either {OBJ} or {OBJ}\.$", s)
    if m:
        x, y, z = ob(m, 1, 2, 3)
        assert not _compatible((x, y), (x, z))
        return ("either", frozenset({_atom((x, y)), _atom((x, z))}), None)
    m = re.match(
        rf"^Either {OBJ} is paired with {OBJ} or {OBJ} is paired with {OBJ}"
        r"(, but not both)?\.$",
        s,
    )
    if m:
        a, b, c, d = ob(m, 1, 2, 3, 4)
        both = _compatible((a, b), (c, d))
        # "but not both" exactly when both could hold; without it both cannot
        assert both == bool(m.group(5)), sentence
        return ("either", frozenset({_atom((a, b)), _atom((c, d))}), True if both else None)
    m = re.match(rf"^{OBJ} is paired with {OBJ}, or {OBJ} is paired with {OBJ} \(or both\)\.$", s)
    if m:
        a, b, c, d = ob(m, 1, 2, 3, 4)
        assert _compatible((a, b), (c, d)), f"'(or both)' where both cannot hold: {sentence}"
        return ("either", frozenset({_atom((a, b)), _atom((c, d))}), False)
    m = re.match(rf"^{OBJ} is paired with (.+) \(category (.+)\)\.$", s)
    if m:
        return ("group", objs[int(m.group(1))], _cat(p, m.group(3)), m.group(2))
    m = re.match(
        rf"^By (?P<t>.+?): the value paired with {OBJ} is (.+?) more than the value "
        rf"paired with {OBJ}\.$",
        s,
    )
    if m:
        d = re.search(NUM, m.group(3)).group(1)
        return _order_meaning(
            p, "arith", m.group("t"), [objs[int(m.group(4))], objs[int(m.group(2))]], "+", d
        )
    m = re.match(
        rf"^By (?P<t>.+?): the value paired with {OBJ} is {NUM} times the value paired "
        rf"with {OBJ}\.$",
        s,
    )
    if m:
        return _order_meaning(
            p,
            "arith",
            m.group("t"),
            [objs[int(m.group(4))], objs[int(m.group(2))]],
            "*",
            m.group(3),
        )
    for rel, pat in EN_ORDER.items():
        m = re.match(pat, s)
        if m:
            ids = [int(g) for g in m.groups()[1:]]
            if rel == "chain":
                assert ids[1] == ids[2] or objs[ids[1]] == objs[ids[2]]
                ids = [ids[0], ids[1], ids[3]]
            return _order_meaning(p, rel, m.group("t"), [objs[i] for i in ids])
    raise AssertionError(f"no English clue shape matches: {sentence}")


def _parse_pl(p, s: str, objs: list, ob) -> tuple:
    m = re.match(rf"^{OBJ} i {OBJ} nie są parą\.$", s)
    if m:
        x, y = ob(m, 1, 2)
        return ("not", x, frozenset([y]))
    m = re.match(rf"^{OBJ} nie tworzy pary ((?:ani z obiektem {OBJ}, )+ani z obiektem {OBJ})\.$", s)
    if m:
        ids = [int(i) for i in re.findall(r"§(\d+)§", m.group(2))]
        return ("not", objs[int(m.group(1))], frozenset(objs[i] for i in ids))
    m = re.match(
        rf"^Jeśli {OBJ} i {OBJ} są parą, to {OBJ} i {OBJ} są parą; "
        r"w przeciwnym razie parą są "
        rf"{OBJ} i {OBJ}\.$",
        s,
    )
    if m:
        a, b, c, d, e, f = ob(m, 1, 2, 3, 4, 5, 6)
        return ("ifthen", _atom((a, b)), _atom((c, d)), _atom((e, f)))
    m = re.match(rf"^{OBJ} tworzy parę albo z obiektem {OBJ}, albo z obiektem {OBJ}\.$", s)
    if m:
        x, y, z = ob(m, 1, 2, 3)
        assert not _compatible((x, y), (x, z))
        return ("either", frozenset({_atom((x, y)), _atom((x, z))}), None)
    m = re.match(
        rf"^Albo {OBJ} i {OBJ} są parą, albo {OBJ} i {OBJ} są parą( \(dokładnie jedno z "
        rf"dwojga\))?\.$",
        s,
    )
    if m:
        a, b, c, d = ob(m, 1, 2, 3, 4)
        both = _compatible((a, b), (c, d))
        assert both == bool(m.group(5)), s
        return ("either", frozenset({_atom((a, b)), _atom((c, d))}), True if both else None)
    m = re.match(
        rf"^{OBJ} i {OBJ} są parą lub {OBJ} i {OBJ} są parą "
        r"\(co najmniej jedno z dwojga\)\.$",
        s,
    )
    if m:
        a, b, c, d = ob(m, 1, 2, 3, 4)
        assert _compatible((a, b), (c, d)), f"'co najmniej jedno' where both cannot hold: {s}"
        return ("either", frozenset({_atom((a, b)), _atom((c, d))}), False)
    m = re.match(rf"^{OBJ} tworzy parę z obiektem kategorii „(.+?)” z grupy „(.+?)”\.$", s)
    if m:
        return ("group", objs[int(m.group(1))], _cat(p, m.group(2)), m.group(3))
    m = re.match(
        rf"{PL_HEAD} obiekt {OBJ} stoi wcześniej niż obiekt {OBJ}, a obiekt {OBJ} "
        rf"wcześniej niż obiekt {OBJ}\.$",
        s,
    )
    if m:
        a, b, b2, c = ob(m, 2, 3, 4, 5)
        assert b == b2, s
        return _order_meaning(p, "chain", m.group("t"), [a, b, c])
    m = re.match(
        rf"{PL_HEAD} wartość w parze z obiektem {OBJ} jest o {NUM} większa niż wartość "
        rf"w parze z obiektem {OBJ}\.$",
        s,
    )
    if m:
        return _order_meaning(
            p,
            "arith",
            m.group("t"),
            [objs[int(m.group(4))], objs[int(m.group(2))]],
            "+",
            m.group(3),
        )
    m = re.match(
        rf"{PL_HEAD} wartość w parze z obiektem {OBJ} jest {NUM} (raz|razy|raza) większa "
        rf"niż wartość w parze z obiektem {OBJ}\.$",
        s,
    )
    if m:
        # "2 razy", "10 razy", but "1,5 raza" (a fraction takes the genitive singular)
        assert m.group(4) == ("raza" if "," in m.group(3) else "razy"), s
        return _order_meaning(
            p,
            "arith",
            m.group("t"),
            [objs[int(m.group(5))], objs[int(m.group(2))]],
            "*",
            m.group(3),
        )
    for rel, pat in PL_ORDER.items():
        m = re.match(pat, s)
        if m:
            ids = [int(g) for g in m.groups()[1:]]
            return _order_meaning(p, rel, m.group("t"), [objs[i] for i in ids])
    raise AssertionError(f"no Polish clue shape matches: {s}")
