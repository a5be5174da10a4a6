"""Janko text: real janko.at data parses and solves to its published solution; every
genre with a Janko layout survives write -> read; both layouts, saved pages, the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from puzzleforge.cli.main import app
from puzzleforge.core.errors import InvalidDescription
from puzzleforge.grid import api
from puzzleforge.grid.formats.detect import detect_format, read_any
from puzzleforge.grid.formats.janko import read_doc
from puzzleforge.grid.formats.janko_genres import format_janko, parse_janko
from puzzleforge.grid.genre import concrete
from puzzleforge.grid.genres import get_genre
from puzzleforge.grid.topology import Cell, Edge

DATA = Path(__file__).parent / "data"
JANKO_GENRES = [
    "sudoku",
    "unruly",
    "binairo",
    "futoshiki",
    "kakurasu",
    "skyscrapers",
    "lightup",
    "nurikabe",
    "slitherlink",
    "masyu",
    "starbattle",
]


def _unique(inst):
    status, sols = api.is_unique(inst)
    assert status == "unique"
    return sols[0]


# -- real janko.at data ----------------------------------------------------------------------
def test_janko_sudoku_375_old_layout_solves_to_its_solution() -> None:
    # janko.at Sudoku 375 (see tests/grid/data/README.md)
    inst, published = parse_janko((DATA / "janko_sudoku_375.txt").read_text())
    assert (inst.genre, inst.rows, inst.opts["box"]) == ("sudoku", 4, (2, 2))
    assert inst.clues["given"] == {Cell(0, 2): 3, Cell(0, 3): 1, Cell(3, 0): 1, Cell(3, 1): 4}
    sol = _unique(inst)
    assert (
        published
        == get_genre("sudoku").answer_grid(inst, sol)
        == [list("4231"), list("3142"), list("2314"), list("1423")]
    )


def test_janko_kakurasu_007_is_unique() -> None:
    # janko.at Kakurasu 007 (see tests/grid/data/README.md)
    inst, published = parse_janko((DATA / "janko_kakurasu_007.txt").read_text())
    g = concrete(5, 5)
    assert inst.clues["sum"][g.row(0)] == 7 and inst.clues["sum"][g.col(0)] == 10
    assert published is None
    sol = _unique(inst)
    assert api.answer_text(inst, sol).splitlines() == ["00110", "11000", "10010", "01001", "10100"]


def test_both_layouts_read_alike() -> None:
    old = (DATA / "janko_sudoku_375.txt").read_text()
    inst, sol = parse_janko(old)
    new = format_janko(inst, _unique(inst))
    assert new.startswith(
        "[setup]\npuzzle sudoku\nsize 4\npatternx 2\npatterny 2\n[problem]\n- - 3 1\n"
    )
    inst2, sol2 = parse_janko(new)
    assert (inst2.clues, inst2.opts, sol2) == (inst.clues, inst.opts, sol)
    assert read_doc(old).sections["moves"][0][0].startswith("Z2;")


def test_saved_page_is_accepted() -> None:
    body = (DATA / "janko_sudoku_375.txt").read_text()
    page = (
        "<!DOCTYPE html><html><head><title>Sudoku 375</title></head><body><div id='puzzle'></div>\n"
        f'<script id="data" type="application/x-janko">\n{body}</script>\n</body></html>\n'
    )
    assert detect_format(page) == "janko"
    g, inst, sol = read_any(page)
    assert g.id == "sudoku" and sol[0] == list("4231")


def test_futoshiki_janko_spellings() -> None:
    # the futoshiki of tests/grid/test_grid_published.py written with Janko's other sign
    # spellings: » « across, V A down (A: the upper cell is smaller)
    g, ours = api.parse_puzzle(
        "futoshiki 4x4\n.<. . .\n- ^ - -\n. . .>.\nv - - -\n. . . .\n- - - -\n1 . . .\n"
    )
    text = (
        format_janko(ours)
        .replace(" < ", " « ")
        .replace(" > ", " » ")
        .replace(" ^ ", " A ")
        .replace("\nv ", "\nV ")
    )
    assert "«" in text and "»" in text and "A" in text and "\nV " in text
    inst, _ = parse_janko(text)
    assert inst.clues == ours.clues
    assert inst.clues["rel"] == {
        Edge("v", 0, 1): "<",
        Edge("h", 1, 1): "<",
        Edge("v", 1, 3): ">",
        Edge("h", 2, 0): ">",
    }


def test_skyscrapers_frame_layout() -> None:
    # clues around an (n+2) x (n+2) problem grid: robx/pzprjs test/script/skyscrapers.js's
    # 4x4 board (W clue 4 on row 1, E clue 3 on row 2, S clues 1 and 3 on columns 1, 2)
    text = (
        "[setup]\npuzzle skyscrapers\nsize 4\n[problem]\n- - - - - -\n- - - - - -\n4 - - - - -\n"
        "- - - - - 3\n- - - - - -\n- - 1 3 - -\n[end]\n"
    )
    inst, _ = parse_janko(text)
    sol = _unique(inst)
    assert api.answer_text(inst, sol).splitlines() == ["2143", "1234", "4312", "3421"]
    again, _ = parse_janko(format_janko(inst))  # written with [clabels]/[rlabels]
    assert again.clues == inst.clues


# -- every genre: write -> read --------------------------------------------------------------
@pytest.mark.parametrize("genre", JANKO_GENRES)
@pytest.mark.parametrize("size", ["6x6", "8x8"])
def test_round_trip_generated(genre: str, size: str) -> None:
    if genre == "sudoku" and size == "8x8":
        size = "9x9"
    inst, sol, _ = api.generate(genre, size, 11)
    g = get_genre(genre)
    text = format_janko(inst, sol)
    back, published = parse_janko(text)
    assert g.format(back) == g.format(inst)
    if published is not None:
        assert published == g.answer_grid(inst, sol)
    assert format_janko(back, sol) == text


def test_nonogram_has_no_janko_layout_but_a_url() -> None:
    inst, _, _ = api.generate("nonogram", "6x6", 1)
    with pytest.raises(InvalidDescription, match="no Janko layout for nonogram"):
        format_janko(inst)


# -- errors ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, message",
    [
        ("[setup]\npuzzle sudoku\nsize 4\n[end]\n", "without a \\[problem\\]"),
        ("[setup]\npuzzle sudoku\nsize 4\n[problem]\n- - 3\n[end]\n", "has 1 rows of 3 tokens"),
        (
            "[setup]\npuzzle hashi\nsize 2\n[problem]\n- -\n- -\n[end]\n",
            "'hashi' is not one of our genres",
        ),
        ("[setup]\npuzzle binairo\nsize 2\n[problem]\n0 7\n- -\n[end]\n", "binairo token '7'"),
        ("[setup]\npuzzle kakurasu\nsize 2\n[problem]\n- -\n- -\n[end]\n", "without \\[rlabels\\]"),
        ("- - -\n[setup]\n", "before any \\[section\\]"),
        ("[setup]\npuzzle sudoku\nsize four\n[problem]\n-\n[end]\n", "whole number"),
    ],
)
def test_errors_are_clear(text: str, message: str) -> None:
    with pytest.raises(InvalidDescription, match=message):
        parse_janko(text)


def test_genre_override_for_unnamed_text() -> None:
    text = "[setup]\nsize 4\n[problem]\n- 1 - -\n- - - 2\n3 - - -\n- - 3 -\n[end]\n"
    with pytest.raises(InvalidDescription, match="not one of our genres"):
        parse_janko(text)
    inst, _ = parse_janko(text, "sudoku")
    assert inst.clues["given"][Cell(1, 3)] == 2


# -- CLI and detection -----------------------------------------------------------------------
def test_detect_format() -> None:
    assert detect_format("https://puzz.link/p?sudoku/4/4/g1k23k3g") == "url"
    assert detect_format("sudoku 4x4\n....\n") == "text"
    assert detect_format("begin\npuzzle sudoku\n") == "janko"
    assert detect_format("\n[setup]\npuzzle akari\n") == "janko"


def test_cli_solves_janko_files_and_checks_their_solution(tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["grid", "solve", str(DATA / "janko_sudoku_375.txt")])
    assert res.exit_code == 0, res.output
    assert (
        "sudoku 4x4: unique solution" in res.output
        and "the solution given in the Janko text matches" in res.output
    )
    wrong = (
        (DATA / "janko_sudoku_375.txt")
        .read_text()
        .replace("solution\n4 2 3 1", "solution\n4 2 1 3")
    )
    (tmp_path / "wrong.txt").write_text(wrong)
    res = runner.invoke(app, ["grid", "solve", str(tmp_path / "wrong.txt"), "--format", "janko"])
    assert res.exit_code == 0 and "DIFFERS" in res.output
    unnamed = tmp_path / "unnamed.txt"
    unnamed.write_text("[setup]\nsize 4\n[problem]\n- 1 - -\n- - - 2\n3 - - -\n- - 3 -\n[end]\n")
    res = runner.invoke(app, ["grid", "solve", str(unnamed), "--genre", "sudoku"])
    assert res.exit_code == 0 and "unique solution" in res.output


def test_cli_generate_janko_then_solve_and_url(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "k.txt"
    res = runner.invoke(
        app,
        [
            "grid",
            "generate",
            "kakurasu",
            "--size",
            "6x6",
            "--seed",
            "3",
            "--format",
            "janko",
            "--out",
            str(out),
        ],
    )
    assert res.exit_code == 0, res.output
    assert out.read_text().startswith("[setup]\npuzzle kakurasu\nsize 6\n")
    res = runner.invoke(app, ["grid", "solve", str(out)])
    assert "kakurasu 6x6: unique solution" in res.output and "matches" in res.output
    res = runner.invoke(app, ["grid", "url", str(out)])
    assert res.exit_code != 0 and "puzz.link has no kakurasu" in res.output
    sky = tmp_path / "s.txt"
    runner.invoke(
        app,
        [
            "grid",
            "generate",
            "skyscrapers",
            "--size",
            "5",
            "--seed",
            "2",
            "--format",
            "janko",
            "--out",
            str(sky),
        ],
    )
    res = runner.invoke(app, ["grid", "url", str(sky)])
    assert res.exit_code == 0 and res.output.startswith("https://puzz.link/p?skyscrapers/5/5/")
    res = runner.invoke(app, ["grid", "generate", "sudoku", "--size", "4x4", "--format", "url"])
    assert res.exit_code == 0 and res.output.startswith("https://puzz.link/p?sudoku/4/4/")
    res = runner.invoke(app, ["grid", "generate", "sudoku", "--format", "pdf"])
    assert res.exit_code != 0 and "text, janko or url" in res.output


def test_garbage_gives_an_instance_or_a_clear_error() -> None:
    import random

    rng = random.Random(5)
    tokens = ["-", "0", "1", "3", "9", "x", "w", "b", "<", ">", "^", "v", "»", "A", "?", "12"]
    for genre in JANKO_GENRES:
        for _ in range(30):
            n = rng.randint(1, 5)
            rows = [
                " ".join(rng.choice(tokens) for _ in range(rng.choice([n, n, 2 * n - 1])))
                for _ in range(n)
            ]
            text = (
                f"[setup]\npuzzle {genre}\nsize {n}\n[problem]\n"
                + "\n".join(rows)
                + "\n[areas]\n"
                + "\n".join(" ".join(["1"] * n) for _ in range(n))
                + f"\n[rlabels]\n{' '.join(['1'] * n)}\n[clabels]\n{' '.join(['2'] * n)}\n[end]\n"
            )
            try:
                inst, _ = parse_janko(text)
            except InvalidDescription:
                continue
            assert inst.genre == genre and inst.rows == n
