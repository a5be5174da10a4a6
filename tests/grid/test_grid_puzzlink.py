"""puzz.link URLs: decode known URLs (robx/pzprjs tests/script), round-trip generated ones."""
from __future__ import annotations

import pytest

from puzzleforge.core.errors import InvalidDescription
from puzzleforge.grid import api
from puzzleforge.grid.genres import get_genre
from puzzleforge.grid.puzzlink import decode_url, encode_url


@pytest.mark.parametrize("genre", ["sudoku", "nurikabe", "lightup", "slitherlink", "masyu", "starbattle"])
def test_round_trip_generated(genre: str) -> None:
    g = get_genre(genre)
    inst, _, _ = api.generate(genre, "6x6", 4)
    url = encode_url(inst)
    assert url.startswith("https://puzz.link/p?")
    back = decode_url(url)
    assert g.format(back) == g.format(inst)


def test_known_urls_decode_to_their_boards() -> None:
    # robx/pzprjs tests/script/test_lightup.js and test_slither.js
    light = decode_url("https://puzz.link/p?lightup/6/6/nekcakbl")
    assert get_genre("lightup").format(light).splitlines()[1:] == [
        "......", "..4...", "....2.", ".0....", "...1..", "......"]
    slither = decode_url("http://pzv.jp/p.html?slither/5/5/cbcbcddad")
    assert get_genre("slitherlink").format(slither).splitlines()[1:] == [
        "2..1.", ".2..1", "..2..", "3..3.", ".0..3"]


def test_unsupported_urls_are_clear() -> None:
    with pytest.raises(InvalidDescription, match="puzz.link genre 'chess' is not supported"):
        decode_url("https://puzz.link/p?chess/8/8/abc")
    inst, _, _ = api.generate("unruly", "6x6", 1)
    with pytest.raises(InvalidDescription, match="puzz.link has no unruly"):
        encode_url(inst)
