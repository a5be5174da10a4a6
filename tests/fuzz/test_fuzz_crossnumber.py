"""Fuzz: mutated cross-number puzzle files and answers through ``crossnumber solve``,
``show``, ``check`` (fuzzkit: exit 0/1/2/4, one paragraph, no traceback, bounded, no
other file changed)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from fuzzkit import assert_clean, assert_only_changed, fuzz_settings, mutated, run_cli, snapshot
from hypothesis import given
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parents[2]
PUZZLES = {
    p.name: p.read_text(encoding="utf-8")
    for p in sorted((REPO / "examples" / "crossnumber").glob("*.yaml"))
}
ENGINE = ["--cpu-limit", "20", "--memory-limit", "2048"]


@pytest.mark.parametrize("command", ["solve", "show", "check"])
@fuzz_settings(4, quick=2)
@given(data=st.data(), name=st.sampled_from(sorted(PUZZLES)))
def test_mutated_puzzle_files(tmp_path: Path, data: st.DataObject, name: str, command: str) -> None:
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    path = folder / name
    path.write_text(data.draw(mutated(PUZZLES[name])), encoding="utf-8")
    before = snapshot(folder)
    args = [*ENGINE, "crossnumber", command, str(path)]
    if command == "solve":
        args += ["--time-limit", "5"]
    if command == "check":
        args.append(
            data.draw(
                st.one_of(
                    st.text(max_size=30),
                    st.sampled_from(
                        ["455451/173096", "A1=4554,D2=57", "-", "A1=", "=", "/", "Z9=1"]
                    ),
                )
            )
        )
    assert_clean(run_cli(args, stdin=""))
    assert_only_changed(before, snapshot(folder))


FIELDS = st.fixed_dictionaries(
    {
        "max": st.one_of(
            st.integers(-10, 10**12), st.sampled_from(["'10**18'", "abc", "[]", "1.5"])
        ),
        "domain": st.sampled_from(
            [
                "primes",
                "squares",
                "0..9",
                "9..0",
                "0..99999999",
                "[2, 3]",
                "cubes",
                "nosuchkind",
                "''",
                "1-6",
                "[]",
                "{}",
            ]
        ),
        "clue": st.text(alphabet="ABCD+-*/%^!()0123456789 $=;<>", max_size=20),
    }
)


@fuzz_settings(10, quick=5)
@given(fields=FIELDS)
def test_random_variable_fields(tmp_path: Path, fields: dict) -> None:
    text = PUZZLES["abcd.yaml"].replace(
        "  domain: primes\n  max: 2000\n", f"  domain: {fields['domain']}\n  max: {fields['max']}\n"
    )
    text = text.replace("  A4: A+A+A\n", f"  A4: {fields['clue']!r}\n")
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    path = folder / "f.yaml"
    path.write_text(text, encoding="utf-8")
    assert_clean(run_cli([*ENGINE, "crossnumber", "solve", str(path), "--time-limit", "5"]))
