"""puzz.link URLs: real URLs from robx/pzprjs decode and solve to the board given there;
generated and random instances survive encode -> decode for every genre puzz.link has."""

from __future__ import annotations

import random

import pytest

from puzzleforge.core.errors import InvalidDescription
from puzzleforge.grid import api
from puzzleforge.grid.formats.packing import (
    UNKNOWN,
    dec_4cell,
    dec_border,
    dec_circle,
    dec_number16,
    enc_4cell,
    enc_border,
    enc_circle,
    enc_number16,
)
from puzzleforge.grid.genre import Instance, concrete
from puzzleforge.grid.genres import get_genre
from puzzleforge.grid.puzzlink import PUZZLINK_GENRES, URL_NAME, decode_url, encode_url
from puzzleforge.grid.topology import Cell

URL_GENRES = sorted(URL_NAME)


def _same(a: Instance, b: Instance) -> bool:
    g = get_genre(a.genre)
    return a.genre == b.genre and g.format(a) == g.format(b)


# -- generated puzzles ---------------------------------------------------------------------
@pytest.mark.parametrize("genre", URL_GENRES)
@pytest.mark.parametrize("size", ["6x6", "8x8"])
def test_round_trip_generated(genre: str, size: str) -> None:
    if genre == "sudoku" and size == "8x8":
        size = "9x9"
    inst, _, _ = api.generate(genre, size, 4)
    if genre == "nonogram":
        inst.clues = {"given": {}}  # puzz.link nonograms carry the runs only (see below)
    url = encode_url(inst)
    assert url.startswith(f"https://puzz.link/p?{URL_NAME[genre]}/{inst.cols}/{inst.rows}/")
    back = decode_url(url)
    assert _same(back, inst)
    assert encode_url(back) == url


def test_nonogram_givens_are_refused_not_dropped() -> None:
    inst = get_genre("nonogram").parse(
        "nonogram 4x4\nrows\n1\n1\n1\n1\ncols\n1\n1\n1\n1\ngivens\n#...\n....\n....\n....\n"
    )
    with pytest.raises(InvalidDescription, match="1 given cells"):
        encode_url(inst)


# -- random data at odd sizes: every packing path (skips over 20, 2- and 3-digit numbers) ----
def _random_instance(genre: str, rows: int, cols: int, rng: random.Random) -> Instance:
    g = concrete(rows, cols)
    cells = g.cells()
    inst = Instance(genre, rows, cols)

    def pick(p: float) -> list:
        return [c for c in cells if rng.random() < p]

    if genre == "sudoku":
        inst.clues = {"given": {c: rng.randint(1, rows) for c in pick(0.2)}}
    elif genre == "nurikabe":
        inst.clues = {
            "number": {c: rng.choice([1, 5, 15, 16, 200, 255, 256, 4000]) for c in pick(0.1)}
        }
    elif genre == "lightup":
        walls = set(pick(0.3))
        inst.data = {"wall": {c: c in walls for c in cells}}
        inst.clues = {"number": {c: rng.randint(0, 4) for c in sorted(walls) if rng.random() < 0.5}}
    elif genre == "slitherlink":
        inst.clues = {"number": {c: rng.randint(0, 3) for c in pick(0.3)}}
    elif genre == "masyu":
        inst.clues = {"pearl": {c: rng.choice("WB") for c in pick(0.25)}}
    elif genre == "starbattle":
        inst.opts = {"stars": rng.randint(1, 3)}
        inst.data = {
            "region": {c: (c.r // 2) * 10 + c.c // 3 for c in cells}
        }  # rectangles, ids in reading order
        ids: dict = {}
        inst.data["region"] = {
            c: ids.setdefault(v, len(ids)) for c, v in sorted(inst.data["region"].items())
        }
    elif genre == "skyscrapers":
        n = rows
        inst.clues = {
            "view": {line: rng.randint(1, n) for line in g.sight_lines() if rng.random() < 0.4},
            "given": {c: rng.randint(1, n) for c in pick(0.1)},
        }
    elif genre == "nonogram":
        runs = {}
        for line in g.rows() + g.cols():
            picture = [rng.random() < 0.5 for _ in line.items]
            from puzzleforge.grid.genres.nonogram import line_runs

            runs[line] = line_runs(picture)
        inst.data = {"runs": runs}
        inst.clues = {"given": {}}
    return inst


@pytest.mark.parametrize("genre", URL_GENRES)
def test_round_trip_random_data(genre: str) -> None:
    rng = random.Random(7)
    sizes = (
        [(5, 5), (9, 9), (12, 12)]
        if genre in ("sudoku", "skyscrapers")
        else [(3, 5), (7, 4), (12, 12), (25, 30)]
    )
    for rows, cols in sizes:
        for _ in range(3):
            inst = _random_instance(genre, rows, cols, rng)
            back = decode_url(encode_url(inst))
            assert (back.data, back.clues, back.opts.get("stars")) == (
                inst.data,
                inst.clues,
                inst.opts.get("stars"),
            ), (genre, rows, cols)


def test_packings_round_trip_and_consume_exactly() -> None:
    vals = [None] * 23 + [3, 16, None, 300, UNKNOWN] + [None] * 41 + [15]
    text = enc_number16(vals)
    assert text == "zi3-10g+12c.zzgf" and dec_number16(text, len(vals)) == (vals, len(text))
    # a second field may follow without a separator (Skyscrapers: outside clues, then cells)
    assert dec_number16(text + "1", len(vals)) == (vals, len(text))
    cells4 = [0, None, 4, None, None, 1, UNKNOWN] + [None] * 25 + [2]
    assert dec_4cell(enc_4cell(cells4), len(cells4))[0] == cells4
    circles = [0, 1, 2, 2, 2, 1, 0]
    assert dec_circle(enc_circle(circles), 7)[0] == circles
    vb, hb = (
        [1, 0, 0, 1, 1, 0],
        [0, 1, 1, 1],
    )  # 2 rows x 4 columns: 6 vertical, 4 horizontal borders
    text = enc_border(vb, hb)
    assert text == "j0e" and dec_border(text + "zz", 2, 4) == (vb, hb, 3)


# -- real URLs (robx/pzprjs, test/script/<genre>.js: 'url' and the board marked null) -------
def test_pzprjs_skyscrapers_both_names() -> None:
    # robx/pzprjs test/script/skyscrapers.js (and test/script/building.js, its older name)
    for url in (
        "https://puzz.link/p?skyscrapers/4/4/k13h4j3g",
        "http://pzv.jp/p.html?building/4/4/k13h4j3g",
    ):
        inst = decode_url(url)
        assert inst.genre == "skyscrapers"
        sol = api.require_unique(inst)
        assert api.answer_text(inst, sol).splitlines() == ["2143", "1234", "4312", "3421"]
        assert encode_url(inst) == "https://puzz.link/p?skyscrapers/4/4/k13h4j3g"


def test_pzprjs_nonogram() -> None:
    # robx/pzprjs test/script/nonogram.js
    url = "https://puzz.link/p?nonogram/6/6/12g1111h11112j12g11g21j11g3h"
    inst = decode_url(url)
    g = concrete(6, 6)
    assert inst.data["runs"][g.row(0)] == (2, 1) and inst.data["runs"][g.col(1)] == (1, 1, 1)
    assert inst.data["runs"][g.row(3)] == () and inst.data["runs"][g.col(5)] == ()
    sol = api.require_unique(inst)
    assert api.answer_text(inst, sol).splitlines() == [
        "110100",
        "100010",
        "010110",
        "000000",
        "100010",
        "011100",
    ]
    assert encode_url(inst) == url


def test_pzprjs_starbattle() -> None:
    # robx/pzprjs test/script/starbattle.js (regions 0 0 0 1 1 1 / 0 1 1 1 2 2 / ...)
    inst = decode_url("https://puzz.link/p?starbattle/6/6/1/4ilbhgdnmhou")
    regions = "000111/011122/033442/553342/544442/522222"
    assert [
        "".join(str(inst.data["region"][Cell(r, c)]) for c in range(6)) for r in range(6)
    ] == regions.split("/")
    sol = api.require_unique(inst)
    assert api.answer_text(inst, sol).splitlines() == [
        "010000",
        "000100",
        "000001",
        "001000",
        "000010",
        "100000",
    ]
    assert encode_url(inst) == "https://puzz.link/p?starbattle/6/6/1/4ilbhgdnmhou"


@pytest.mark.parametrize(
    "a, b",
    [
        ("lightup/6/6/nekcakbl", "akari/6/6/nekcakbl"),
        ("akari/6/6/nekcakbl", "bijutsukan/6/6/nekcakbl"),
        ("mashu/6/6/1063000i3000", "pearl/6/6/1063000i3000"),
        ("mashu/6/6/1063000i3000", "masyu/6/6/1063000i3000"),
        ("slither/5/5/cbcbcddad", "slitherlink/5/5/cbcbcddad"),
        ("skyscrapers/4/4/k13h4j3g", "skyscraper/4/4/k13h4j3g"),
    ],
)
def test_aliases_decode_alike(a: str, b: str) -> None:
    # URLs of robx/pzprjs test/script/{lightup,mashu,slither,skyscrapers}.js under each alias
    # that pzprjs's variety.js lists for the genre
    assert _same(decode_url("https://puzz.link/p?" + a), decode_url("https://puzz.link/p?" + b))


def test_every_alias_is_a_known_genre() -> None:
    assert set(PUZZLINK_GENRES.values()) == set(URL_NAME)
    assert all(PUZZLINK_GENRES[name] == genre for genre, name in URL_NAME.items())


def test_flags_before_the_size_are_skipped() -> None:
    assert _same(
        decode_url("https://puzz.link/p?sudoku/v:/4/4/g1k23k3g"),
        decode_url("puzz.link/p?sudoku/4/4/g1k23k3g"),
    )


def test_cli_solves_urls_of_new_genres() -> None:
    from typer.testing import CliRunner

    from puzzleforge.cli.main import app

    runner = CliRunner()
    res = runner.invoke(
        app, ["grid", "solve", "https://puzz.link/p?nonogram/6/6/12g1111h11112j12g11g21j11g3h"]
    )
    assert (
        res.exit_code == 0
        and "nonogram 6x6: unique solution" in res.output
        and "011100" in res.output
    )
    res = runner.invoke(app, ["grid", "url", "https://puzz.link/p?building/4/4/k13h4j3g"])
    assert res.exit_code == 0 and res.output.startswith("skyscrapers 4x4")


def test_unsupported_urls_are_clear() -> None:
    with pytest.raises(InvalidDescription, match="puzz.link genre 'chess' is not supported"):
        decode_url("https://puzz.link/p?chess/8/8/abc")
    with pytest.raises(InvalidDescription, match="bad size"):
        decode_url("https://puzz.link/p?sudoku/x/4/abc")
    with pytest.raises(InvalidDescription, match="star count"):
        decode_url("https://puzz.link/p?starbattle/6/6/")
    with pytest.raises(InvalidDescription, match="'\\?' clue"):
        decode_url("https://puzz.link/p?skyscrapers/4/4/.u")
    with pytest.raises(InvalidDescription, match="character '!'"):
        decode_url("https://puzz.link/p?sudoku/4/4/!")
    for genre in ("unruly", "binairo", "futoshiki", "kakurasu"):
        inst, _, _ = api.generate(genre, "6x6", 1)
        with pytest.raises(InvalidDescription, match=f"puzz.link has no {genre}.*Janko"):
            encode_url(inst)


def test_garbage_data_gives_an_instance_or_a_clear_error() -> None:
    rng = random.Random(3)
    alphabet = "0123456789abcdefghijklmnopqrstuvwxyz.-+!/"
    for name in sorted(PUZZLINK_GENRES):
        for _ in range(40):
            data = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
            extra = "2/" if name == "starbattle" else ""
            try:
                inst = decode_url(f"https://puzz.link/p?{name}/5/5/{extra}{data}")
            except InvalidDescription:
                continue
            assert inst.rows == inst.cols == 5 and inst.genre == PUZZLINK_GENRES[name]
