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

O = r"§(\d+)§"


def _compatible(a, b) -> bool:
    """Both pairings can hold: brute force over which entity owns each object (an
    independent check: no union-find, just try every entity labelling of the objects)."""
    objs = sorted({o for atom in (a, b) for o in atom})
    from itertools import product
    for labels in product(range(len(objs)), repeat=len(objs)):
        ent = dict(zip(objs, labels))
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
    "chain": rf"^By (?P<t>.+?): {O} is lower than {O}, and {O} is lower than {O}\.$",
    "nextto": rf"^By (?P<t>.+?), {O} is right next to {O}\.$",
    "left1": rf"^By (?P<t>.+?), {O} is directly left of {O}\.$",
    "right1": rf"^By (?P<t>.+?), {O} is directly right of {O}\.$",
    "left": rf"^By (?P<t>.+?), {O} is somewhere left of {O}\.$",
    "right": rf"^By (?P<t>.+?), {O} is somewhere right of {O}\.$",
    "between": rf"^By (?P<t>.+?), {O} is somewhere between {O} and {O}\.$",
    "onebetween": rf"^By (?P<t>.+?), there is exactly one position between {O} and {O}\.$",
    "end": rf"^By (?P<t>.+?), {O} is at one of the two ends \(lowest or highest\)\.$",
}
PL_HEAD = r"^Pod względem kategorii „(?P<t>.+?)”"
PL_ORDER = {
    "nextto": rf"{PL_HEAD} obiekty {O} i {O} sąsiadują ze sobą\.$",
    "left1": rf"{PL_HEAD} obiekt {O} stoi bezpośrednio przed obiektem {O}\.$",
    "right1": rf"{PL_HEAD} obiekt {O} stoi bezpośrednio za obiektem {O}\.$",
    "left": rf"{PL_HEAD} obiekt {O} stoi gdzieś wcześniej niż obiekt {O}\.$",
    "right": rf"{PL_HEAD} obiekt {O} stoi gdzieś dalej niż obiekt {O}\.$",
    "between": rf"{PL_HEAD} obiekt {O} stoi gdzieś pomiędzy obiektami {O} i {O}\.$",
    "onebetween": rf"{PL_HEAD} pomiędzy obiektami {O} i {O} stoi dokładnie jeden inny obiekt\.$",
    "end": rf"{PL_HEAD} obiekt {O} stoi na jednym z dwóch końców \(pierwszy lub ostatni\)\.$",
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
    m = re.match(rf"^{O} is not paired with {O}\.$", s)
    if m:
        x, y = ob(m, 1, 2)
        return ("not", x, frozenset([y]))
    m = re.match(rf"^{O} is paired with neither {O} nor {O}\.$", s)
    if m:
        x, y, z = ob(m, 1, 2, 3)
        return ("not", x, frozenset([y, z]))
    m = re.match(rf"^{O} is paired with none of ((?:{O}, )+{O} and {O})\.$", s)
    if m:
        ids = [int(i) for i in re.findall(r"§(\d+)§", m.group(2))]
        return ("not", objs[int(m.group(1))], frozenset(objs[i] for i in ids))
    m = re.match(rf"^If {O} is paired with {O}, then {O} is paired with {O}; otherwise {O} is "
                 rf"paired with {O}\.$", s)
    if m:
        a, b, c, d, e, f = ob(m, 1, 2, 3, 4, 5, 6)
        return ("ifthen", _atom((a, b)), _atom((c, d)), _atom((e, f)))
    m = re.match(rf"^{O} is paired with either {O} or {O}\.$", s)
    if m:
        x, y, z = ob(m, 1, 2, 3)
        assert not _compatible((x, y), (x, z))
        return ("either", frozenset({_atom((x, y)), _atom((x, z))}), None)
    m = re.match(rf"^Either {O} is paired with {O} or {O} is paired with {O}(, but not both)?\.$",
                 s)
    if m:
        a, b, c, d = ob(m, 1, 2, 3, 4)
        both = _compatible((a, b), (c, d))
        # "but not both" exactly when both could hold; without it both cannot
        assert both == bool(m.group(5)), sentence
        return ("either", frozenset({_atom((a, b)), _atom((c, d))}), True if both else None)
    m = re.match(rf"^{O} is paired with {O}, or {O} is paired with {O} \(or both\)\.$", s)
    if m:
        a, b, c, d = ob(m, 1, 2, 3, 4)
        assert _compatible((a, b), (c, d)), f"'(or both)' where both cannot hold: {sentence}"
        return ("either", frozenset({_atom((a, b)), _atom((c, d))}), False)
    m = re.match(rf"^{O} is paired with (.+) \(category (.+)\)\.$", s)
    if m:
        return ("group", objs[int(m.group(1))], _cat(p, m.group(3)), m.group(2))
    m = re.match(rf"^By (?P<t>.+?): the value paired with {O} is (.+?) more than the value "
                 rf"paired with {O}\.$", s)
    if m:
        d = re.search(NUM, m.group(3)).group(1)
        return _order_meaning(p, "arith", m.group("t"),
                              [objs[int(m.group(4))], objs[int(m.group(2))]], "+", d)
    m = re.match(rf"^By (?P<t>.+?): the value paired with {O} is {NUM} times the value paired "
                 rf"with {O}\.$", s)
    if m:
        return _order_meaning(p, "arith", m.group("t"),
                              [objs[int(m.group(4))], objs[int(m.group(2))]], "*", m.group(3))
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
    m = re.match(rf"^{O} i {O} nie są parą\.$", s)
    if m:
        x, y = ob(m, 1, 2)
        return ("not", x, frozenset([y]))
    m = re.match(rf"^{O} nie tworzy pary ((?:ani z obiektem {O}, )+ani z obiektem {O})\.$", s)
    if m:
        ids = [int(i) for i in re.findall(r"§(\d+)§", m.group(2))]
        return ("not", objs[int(m.group(1))], frozenset(objs[i] for i in ids))
    m = re.match(rf"^Jeśli {O} i {O} są parą, to {O} i {O} są parą; w przeciwnym razie parą są "
                 rf"{O} i {O}\.$", s)
    if m:
        a, b, c, d, e, f = ob(m, 1, 2, 3, 4, 5, 6)
        return ("ifthen", _atom((a, b)), _atom((c, d)), _atom((e, f)))
    m = re.match(rf"^{O} tworzy parę albo z obiektem {O}, albo z obiektem {O}\.$", s)
    if m:
        x, y, z = ob(m, 1, 2, 3)
        assert not _compatible((x, y), (x, z))
        return ("either", frozenset({_atom((x, y)), _atom((x, z))}), None)
    m = re.match(rf"^Albo {O} i {O} są parą, albo {O} i {O} są parą( \(dokładnie jedno z "
                 rf"dwojga\))?\.$", s)
    if m:
        a, b, c, d = ob(m, 1, 2, 3, 4)
        both = _compatible((a, b), (c, d))
        assert both == bool(m.group(5)), s
        return ("either", frozenset({_atom((a, b)), _atom((c, d))}), True if both else None)
    m = re.match(rf"^{O} i {O} są parą lub {O} i {O} są parą \(co najmniej jedno z dwojga\)\.$",
                 s)
    if m:
        a, b, c, d = ob(m, 1, 2, 3, 4)
        assert _compatible((a, b), (c, d)), f"'co najmniej jedno' where both cannot hold: {s}"
        return ("either", frozenset({_atom((a, b)), _atom((c, d))}), False)
    m = re.match(rf"^{O} tworzy parę z obiektem kategorii „(.+?)” z grupy „(.+?)”\.$", s)
    if m:
        return ("group", objs[int(m.group(1))], _cat(p, m.group(2)), m.group(3))
    m = re.match(rf"{PL_HEAD} obiekt {O} stoi wcześniej niż obiekt {O}, a obiekt {O} "
                 rf"wcześniej niż obiekt {O}\.$", s)
    if m:
        a, b, b2, c = ob(m, 2, 3, 4, 5)
        assert b == b2, s
        return _order_meaning(p, "chain", m.group("t"), [a, b, c])
    m = re.match(rf"{PL_HEAD} wartość w parze z obiektem {O} jest o {NUM} większa niż wartość "
                 rf"w parze z obiektem {O}\.$", s)
    if m:
        return _order_meaning(p, "arith", m.group("t"),
                              [objs[int(m.group(4))], objs[int(m.group(2))]], "+", m.group(3))
    m = re.match(rf"{PL_HEAD} wartość w parze z obiektem {O} jest {NUM} (raz|razy|raza) większa "
                 rf"niż wartość w parze z obiektem {O}\.$", s)
    if m:
        # "2 razy", "10 razy", but "1,5 raza" (a fraction takes the genitive singular)
        assert m.group(4) == ("raza" if "," in m.group(3) else "razy"), s
        return _order_meaning(p, "arith", m.group("t"),
                              [objs[int(m.group(5))], objs[int(m.group(2))]], "*", m.group(3))
    for rel, pat in PL_ORDER.items():
        m = re.match(pat, s)
        if m:
            ids = [int(g) for g in m.groups()[1:]]
            return _order_meaning(p, rel, m.group("t"), [objs[i] for i in ids])
    raise AssertionError(f"no Polish clue shape matches: {s}")

