"""Fuzz: mutated PuzzleClone specs through ``spec check``, mutated replay configs through
``spec generate --config``, and random option values through the generate commands
(fuzzkit: exit 0/1/2/4, one paragraph, no traceback, bounded, only the output written)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from fuzzkit import (
    NASTY,
    assert_clean,
    assert_only_changed,
    fuzz_settings,
    mutated,
    run_cli,
    snapshot,
)
from hypothesis import given
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parents[2]
BASE = (REPO / "tests" / "spec" / "data" / "base.yaml").read_text(encoding="utf-8")
ENGINE = ["--cpu-limit", "20", "--memory-limit", "2048"]


@fuzz_settings(8, quick=4)
@given(data=st.data())
def test_mutated_specs(tmp_path: Path, data: st.DataObject) -> None:
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    path = folder / "s.yaml"
    path.write_text(data.draw(mutated(BASE)), encoding="utf-8")
    before = snapshot(folder)
    assert_clean(run_cli(["spec", "check", str(path)]))
    assert_only_changed(before, snapshot(folder))


@fuzz_settings(8, quick=4)
@given(
    value=st.one_of(st.integers(-(2**70), 2**70), NASTY, st.lists(st.integers(), max_size=3)),
    key=st.sampled_from(["n", "names", "_z3_seed", "nosuch", ""]),
)
def test_mutated_replay_configs(tmp_path: Path, value: object, key: str) -> None:
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    spec = folder / "s.yaml"
    spec.write_text(BASE, encoding="utf-8")
    config = folder / "c.json"
    config.write_text(json.dumps({"n": 3, "names": ["A", "B", "C"], key: value}), encoding="utf-8")
    out = folder / "o.jsonl"
    before = snapshot(folder)
    assert_clean(
        run_cli(["spec", "generate", str(spec), "--config", str(config), "-o", str(out), "-q"])
    )
    assert_only_changed(before, snapshot(folder), {"o.jsonl"})


OPTION_VALUES = st.one_of(st.integers(-5, 12).map(str), NASTY, st.just("2**70"))


@pytest.mark.parametrize("command", ["zebra", "grid", "crossnumber"])
@fuzz_settings(4, quick=2)
@given(data=st.data())
def test_random_generate_options(tmp_path: Path, data: st.DataObject, command: str) -> None:
    value = data.draw(OPTION_VALUES)
    if command == "zebra":
        option = data.draw(
            st.sampled_from(
                [
                    "-K",
                    "-k",
                    "--difficulty",
                    "--lang",
                    "--clues",
                    "--question",
                    "--style",
                    "--format",
                    "--seed",
                ]
            )
        )
        args = [*ENGINE, "zebra", "generate", option, value]
    elif command == "grid":
        genre = data.draw(st.sampled_from(["unruly", "sudoku", "nosuch", "starbattle"]))
        option = data.draw(
            st.sampled_from(
                ["--size", "--difficulty", "--density", "--stars", "--format", "--seed"]
            )
        )
        args = [*ENGINE, "grid", "generate", genre, option, value]
    else:
        option = data.draw(st.sampled_from(["--size", "--seed"]))
        args = [*ENGINE, "crossnumber", "generate", option, value]
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    before = snapshot(folder)
    assert_clean(run_cli(args))
    assert_only_changed(before, snapshot(folder))
