"""Fuzz: mutated grid instance texts and random puzz.link URLs through ``grid solve``,
``hint``, ``url``, ``smtlib`` (fuzzkit: exit 0/1/2/4, one paragraph, no traceback,
bounded, no other file changed)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from fuzzkit import assert_clean, assert_only_changed, fuzz_settings, mutated, run_cli, snapshot
from hypothesis import given
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parents[2]
ENGINE = ["--cpu-limit", "20", "--memory-limit", "2048"]
TEXTS = {
    "unruly": "unruly 6x6\n......\n.0.0.0\n....1.\n1..0..\n..11.1\n......\n",
    "sudoku": "sudoku 4x4\n1...\n..2.\n.3..\n...4\n",
    "nurikabe": "nurikabe 5x5\n2....\n.....\n..3..\n.....\n....1\n",
    "slitherlink": "slitherlink 4x4\n3..2\n.1..\n..0.\n2..3\n",
}
TEXTS.update(
    {
        p.name: p.read_text(encoding="utf-8")
        for p in sorted((REPO / "tests" / "grid" / "data").glob("*.txt"))
    }
)
URL_GENRES = [
    "nurikabe",
    "slither",
    "lightup",
    "sudoku",
    "starbattle",
    "masyu",
    "unruly",
    "akari",
    "binairo",
    "tents",
    "nonogram",
    "kurodoko",
    "nosuch",
    "",
]


@pytest.mark.parametrize("command", ["solve", "hint", "url", "smtlib"])
@fuzz_settings(4, quick=2)
@given(data=st.data(), name=st.sampled_from(sorted(TEXTS)))
def test_mutated_instance_texts(
    tmp_path: Path, data: st.DataObject, name: str, command: str
) -> None:
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    path = folder / "p.txt"
    path.write_text(data.draw(mutated(TEXTS[name])), encoding="utf-8")
    before = snapshot(folder)
    assert_clean(run_cli([*ENGINE, "grid", command, str(path)]))
    assert_only_changed(before, snapshot(folder))


@st.composite
def urls(draw: st.DrawFn) -> str:
    genre = draw(st.sampled_from(URL_GENRES))
    cols = draw(st.one_of(st.integers(0, 12), st.sampled_from(["", "x", "-1", "101", "9" * 30])))
    rows = draw(st.one_of(st.integers(0, 12), st.sampled_from(["", "a", "0"])))
    body = draw(st.text(alphabet="0123456789abcdefghijklmnopqrstuvwxyz.-_+/", max_size=60))
    host = draw(
        st.sampled_from(
            [
                "https://puzz.link/p?",
                "http://pzv.jp/p.html?",
                "puzz.link/p?",
                "https://puzz.link/p?v:/",
            ]
        )
    )
    return f"{host}{genre}/{cols}/{rows}/{body}"


@pytest.mark.parametrize("command", ["solve", "url", "hint"])
@fuzz_settings(5, quick=2)
@given(url=urls())
def test_random_puzzlink_urls(url: str, command: str) -> None:
    assert_clean(run_cli([*ENGINE, "grid", command, url]))
