"""Published instances solve to their published solutions, uniquely; fewer clues are
detected as ambiguous.

Sources (data only; cited per instance):
- SmilingWayne/PuzzleSolver, docs/puzzles/<genre>.md @c0e8a32 (examples with their
  "Solution Output"; the slitherlink example is Janko Slitherlink 421).
- robx/pzprjs (the puzz.link code base), tests/script/test_<genre>.js: each file gives a
  puzz.link URL and, as the entry marked null, a completed correct board.
- bac0id/solve-takuzu-puzzle README (a 0h h1 board and its solution).
- The README example of a public futoshiki solver ("python solve_futoshiki.py puzzle1.txt").
"""

from __future__ import annotations

import pytest

from puzzleforge.grid import api
from puzzleforge.grid.genres import get_genre
from puzzleforge.grid.puzzlink import decode_url
from puzzleforge.grid.topology import Cell, Edge

PUBLISHED = {
    # SmilingWayne/PuzzleSolver docs/puzzles/sudoku.md
    "sudoku": (
        """sudoku 9x9
21.4...36
8.......5
..53.98..
6.49.71..
....3....
..75.46.2
..62.35..
5.......9
93...5.27
""",
        """219458736
843176295
765329841
624987153
158632974
397514682
476293518
582741369
931865427""",
    ),
    # SmilingWayne/PuzzleSolver docs/puzzles/binairo.md (1 = white -> 0, 2 = black -> 1). Its
    # published solution repeats rows, so it is an Unruly instance (no distinct-rows rule).
    "unruly": (
        """unruly 8x8
....1...
..01.0.0
.0......
.01.0.01
..1.....
.0....11
1...00..
..1...01
""",
        """01101100
01011010
10010011
10100101
01101100
10010011
11010010
00101101""",
    ),
    # bac0id/solve-takuzu-puzzle README (0h h1: Y -> 0, B -> 1), distinct rows and columns.
    "binairo": (
        """binairo 6x6
.0..10
.10..1
......
10.01.
1.....
....11
""",
        """100110
010101
011001
101010
110100
001011""",
    ),
    # futoshiki solver README example ('^': upper < lower, 'v': upper > lower)
    "futoshiki": (
        """futoshiki 5x5
. .>. . .
- - - v -
. . . . .
- - - - v
. . .<. .
- - - - -
. . .>. .
^ - - v ^
.<. . .>.
""",
        """14325
53214
21453
32541
45132""",
    ),
    # SmilingWayne/PuzzleSolver docs/puzzles/skyscraper.md (clue lines: top, bottom, left, right)
    "skyscrapers": (
        """skyscrapers 5x5
  . 3 3 . .
1 . . . . . 3
4 . . . . . 2
3 . . . . . 3
2 . . . . . .
. . . . . . 1
  . 2 2 2 1
""",
        """53142
12354
34521
45213
21435""",
    ),
    # SmilingWayne/PuzzleSolver docs/puzzles/kakurasu.md (row sums 6 3 8 10 5, column sums 8 12 11 4 4)
    "kakurasu": (
        """kakurasu 5x5
. . . . . 6
. . . . . 3
. . . . . 8
. . . . . 10
. . . . . 5
8 12 11 4 4
""",
        """10001
00100
11001
11110
01100""",
    ),
    # SmilingWayne/PuzzleSolver docs/puzzles/starbattle.md
    "starbattle": (
        """starbattle 6x6 stars=1
abbbbb
aaaabb
abbbbf
acdcef
acdcee
acccee
""",
        """000100
100000
000001
001000
000010
010000""",
    ),
    # SmilingWayne/PuzzleSolver docs/puzzles/akari.md ('x' walls written '#')
    "lightup": (
        """lightup 8x8
........
..0..2..
.1....2.
...01...
...##...
.1....1.
..1..1..
........
""",
        """00010000
10001010
00000001
01000100
00100010
00010000
01001000
00000010""",
    ),
    # SmilingWayne/PuzzleSolver docs/puzzles/nonogram.md (first ten lines are columns)
    "nonogram": (
        """nonogram 10x10
rows
6
8
2 3 2
1 2 2 1
2 2 2 1
2 2 2 1
2 2 2 1
1 2 2
8
6
cols
6
2 3 1
2 2
7 2
10
3 3
2 4 2
2 4 2
2 2
6
""",
        """0011111100
0111111110
1101110011
1001101101
1101101101
1101101101
1101101101
1000110011
0111111110
0011111100""",
    ),
}


@pytest.mark.parametrize("genre", sorted(PUBLISHED))
def test_published_instance_solves_uniquely(genre: str) -> None:
    text, answer = PUBLISHED[genre]
    g, inst = api.parse_puzzle(text)
    status, sols = g.compile(inst).is_unique(inst.clues)
    assert status == "unique"
    assert g.score(answer, g.answer_text(inst, sols[0])) == 1.0
    # the text format round-trips
    assert g.format(g.parse(g.format(inst))) == g.format(inst)


def test_binairo_rows_rule_rejects_the_unruly_instance() -> None:
    text, _ = PUBLISHED["unruly"]
    inst = get_genre("binairo").parse(text.replace("unruly", "binairo", 1))
    assert api.count(inst, 2) == 0  # its only Unruly solution repeats rows


# --- SmilingWayne/PuzzleSolver docs/puzzles/slitherlink.md (Janko Slitherlink 421) -------
SLITHER = """slitherlink 10x10
.11.1....1
.11..1111.
.11...11.1
11..1..1.1
111..1111.
..1..1..1.
.1.1...11.
.111.11...
11..111111
...11...1.
"""
# per cell: 4 bits top, left, bottom, right ('-' = 0), as published
SLITHER_WALLS = """2 2 2 2 2 - 1 13 6 2
12 8 8 8 9 4 1 4 8 9
6 2 2 - 1 4 1 4 - 1
8 8 9 4 1 6 3 4 - 1
2 2 1 6 - 8 8 2 2 3
12 9 4 9 6 2 1 12 8 10
6 1 6 2 10 11 5 4 1 13
9 4 8 8 8 8 1 6 3 5
1 4 2 2 2 2 2 8 8 1
1 7 12 8 8 8 9 6 2 3"""


def test_slitherlink_janko_421() -> None:
    g, inst = api.parse_puzzle(SLITHER)
    status, sols = g.compile(inst).is_unique(inst.clues)
    assert status == "unique"
    expected = set()
    for r, row in enumerate(SLITHER_WALLS.splitlines()):
        for c, tok in enumerate(row.split()):
            bits = 0 if tok == "-" else int(tok)
            for bit, e in (
                (8, Edge("h", r, c)),
                (4, Edge("v", r, c)),
                (2, Edge("h", r + 1, c)),
                (1, Edge("v", r, c + 1)),
            ):
                if bits & bit:
                    expected.add(e)
    assert {e for e, v in sols[0]["line"].items() if v} == expected


# --- SmilingWayne/PuzzleSolver docs/puzzles/masyu.md ------------------------------------
MASYU = """masyu 6x6
......
.....w
.b.wb.
.bw.b.
w.....
......
"""
MASYU_DIRS = """se sw - - se sw
ns ns - - ns ns
ns ne ew ew nw ns
ns se ew ew sw ns
ns ns - - ns ns
ne nw - - ne nw"""


def test_masyu_published() -> None:
    g, inst = api.parse_puzzle(MASYU)
    status, sols = g.compile(inst).is_unique(inst.clues)
    assert status == "unique"
    for r, row in enumerate(MASYU_DIRS.splitlines()):
        for c, tok in enumerate(row.split()):
            want = frozenset() if tok == "-" else frozenset(tok.upper())
            assert g._dirs(inst, sols[0], Cell(r, c)) == want, (r, c)


# --- robx/pzprjs tests/script/test_*.js: URL + completed board ---------------------------
def _rows(board: str, n: int) -> list[list[str]]:
    rows = [r.split() for r in board.strip("/").split("/")]
    return rows[:n], rows[n:]


def test_pzprjs_sudoku() -> None:
    inst = decode_url("https://puzz.link/p?sudoku/4/4/g1k23k3g")
    q, a = _rows(". 1 . . /. . . 2 /3 . . . /. . 3 . /2 . 4 3 /4 3 1 . /. 4 2 1 /1 2 . 4 /", 4)
    want = ["".join(a[r][c] if a[r][c] != "." else q[r][c] for c in range(4)) for r in range(4)]
    sol = api.require_unique(inst)
    assert api.answer_text(inst, sol).splitlines() == want


def test_pzprjs_nurikabe() -> None:
    inst = decode_url("https://puzz.link/p?nurikabe/5/5/g5k2o1k3g")
    board, _ = _rows("+ 5 # # # /+ # 2 + # /+ # # # # /+ # 1 # . /# # # 3 . /", 5)
    sol = api.require_unique(inst)
    assert api.answer_text(inst, sol).splitlines() == [
        "".join("1" if t == "#" else "0" for t in row) for row in board
    ]


def test_pzprjs_lightup() -> None:
    inst = decode_url("https://puzz.link/p?lightup/6/6/nekcakbl")
    board, _ = _rows(
        ". . # . . . /. # 4 # . . /. . # . 2 # /+ 0 . . # . /# + . 1 . . /. . . # . . /", 6
    )
    sol = api.require_unique(inst)
    assert api.answer_text(inst, sol).splitlines() == [
        "".join("1" if t == "#" else "0" for t in row) for row in board
    ]


def test_pzprjs_slither() -> None:
    inst = decode_url("https://puzz.link/p?slither/5/5/cbcbcddad")
    board = (
        "1 -1 0 -1 -1 1 /1 1 -1 1 -1 1 /1 1 1 0 0 1 /1 1 1 1 1 1 /-1 -1 -1 0 1 1 /"
        "1 1 1 1 1 /-1 1 1 -1 -1 /0 -1 1 0 0 /0 0 0 1 0 /1 -1 1 -1 0 /-1 0 -1 0 1 /"
    )
    rows = [r.split() for r in board.strip("/").split("/")]
    want = {Edge("v", r, c) for r in range(5) for c in range(6) if rows[r][c] == "1"}
    want |= {Edge("h", r, c) for r in range(6) for c in range(5) if rows[5 + r][c] == "1"}
    sol = api.require_unique(inst)
    assert {e for e, v in sol["line"].items() if v} == want


def test_pzprjs_mashu() -> None:
    inst = decode_url("https://puzz.link/p?mashu/6/6/1063000i3000")
    board = (
        "1 1 1 0 1 /0 1 1 -1 0 /0 0 1 1 0 /0 1 -1 1 1 /1 1 0 0 0 /0 0 1 0 0 /"
        "1 0 0 1 1 1 /1 1 0 0 1 1 /1 1 1 -1 0 1 /1 -1 0 1 0 0 /0 0 1 1 0 0 /"
    )
    rows = [r.split() for r in board.strip("/").split("/")]
    want = {Edge("v", r, c + 1) for r in range(6) for c in range(5) if rows[r][c] == "1"}
    want |= {Edge("h", r + 1, c) for r in range(5) for c in range(6) if rows[6 + r][c] == "1"}
    sol = api.require_unique(inst)
    assert {e for e, v in sol["link"].items() if v} == want


# --- ambiguity is detected ---------------------------------------------------------------
@pytest.mark.parametrize(
    "genre",
    [
        "sudoku",
        "unruly",
        "binairo",
        "futoshiki",
        "skyscrapers",
        "kakurasu",
        "lightup",
        "masyu",
        "slitherlink",
    ],
)
def test_fewer_clues_give_several_solutions(genre: str) -> None:
    text = (
        PUBLISHED[genre][0]
        if genre in PUBLISHED
        else {"masyu": MASYU, "slitherlink": SLITHER}[genre]
    )
    g, inst = api.parse_puzzle(text)
    full = {k: dict(v) for k, v in inst.clues.items()}
    inst.clues = {k: {} for k in full}
    assert api.count(inst, 3) >= 2
    status, sols = g.compile(inst).is_unique(inst.clues)
    assert status == "multiple" and sols[0] != sols[1]


def test_starbattle_and_nonogram_ambiguity() -> None:
    sb = get_genre("starbattle").parse(
        "starbattle 5x5 stars=1\naaaaa\nbbbbb\nccccc\nddddd\neeeee\n"
    )
    assert api.count(sb, 3) >= 2
    nono = get_genre("nonogram").parse("nonogram 4x4\nrows\n1\n1\n1\n1\ncols\n1\n1\n1\n1\n")
    assert api.count(nono, 30) == 24  # the permutation matrices
    nuri = decode_url("https://puzz.link/p?nurikabe/5/5/g5k2o1k3g")
    nuri.clues["number"].pop(Cell(0, 1))  # drop the 5: no solution remains (island sizes)
    assert api.count(nuri, 2) == 0
