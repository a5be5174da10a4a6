"""Fuzz: mutated JSONL and Parquet datasets, answers and zebra records through
``verify``, ``show``, ``score`` and ``zebra solve`` (fuzzkit: exit 0/1/2/4, one
paragraph, no traceback, bounded, nothing changed but the declared output)."""

from __future__ import annotations

import json
import tempfile
from functools import lru_cache
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

ENGINE = ["--cpu-limit", "20", "--memory-limit", "2048"]


@lru_cache(maxsize=1)
def records() -> list[dict]:
    import puzzleforge

    out = [
        puzzleforge.generate("latin", seed=1, n=4).to_record(),
        puzzleforge.generate("zebra", seed=1, K=3, k=3).to_record(),
        puzzleforge.generate("crossnumber", seed=1, mode="file").to_record(),
    ]
    return [json.loads(json.dumps(r)) for r in out]


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats()
    | st.text(max_size=10)
    | NASTY,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)


@st.composite
def mutated_record(draw: st.DrawFn) -> dict:
    rec = json.loads(json.dumps(draw(st.sampled_from(records()))))
    for _ in range(draw(st.integers(1, 3))):
        holder = rec
        if draw(st.booleans()) and isinstance(rec.get("meta"), dict):
            holder = rec["meta"]
        if draw(st.booleans()) and isinstance(rec.get("params"), dict):
            holder = rec["params"]
        keys = sorted(holder) or ["x"]
        key = draw(st.sampled_from(keys))
        if draw(st.booleans()):
            holder.pop(key, None)
        else:
            holder[key] = draw(JSON_VALUES)
    return rec


@pytest.mark.parametrize("command", ["verify", "show", "zebra"])
@fuzz_settings(4, quick=2)
@given(rec=mutated_record())
def test_mutated_records(tmp_path: Path, rec: dict, command: str) -> None:
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    path = folder / "d.jsonl"
    path.write_text(json.dumps(rec, default=str) + "\n", encoding="utf-8")
    before = snapshot(folder)
    if command == "zebra":
        args = [*ENGINE, "zebra", "solve", str(path)]
    else:
        args = [command, str(path)] + (
            ["--workers", "1", "--audit-seconds", "5"] if command == "verify" else []
        )
    assert_clean(run_cli(args))
    assert_only_changed(before, snapshot(folder))


@fuzz_settings(8, quick=4)
@given(data=st.data())
def test_mutated_jsonl_text(tmp_path: Path, data: st.DataObject) -> None:
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    path = folder / "d.jsonl"
    text = "".join(json.dumps(r) + "\n" for r in records())
    path.write_text(data.draw(mutated(text)), encoding="utf-8")
    answers = folder / "answers.jsonl"
    answers.write_text(data.draw(mutated('{"id": "x", "answer": "1"}\n')), encoding="utf-8")
    before = snapshot(folder)
    out = run_cli(["score", str(path), str(answers), "--json", "-"])
    assert_clean(out)
    assert_only_changed(before, snapshot(folder))


@fuzz_settings(8, quick=4)
@given(data=st.data())
def test_corrupt_parquet(tmp_path: Path, data: st.DataObject) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    path = folder / "d.parquet"
    table = pa.Table.from_pylist(
        [
            {k: json.dumps(v) if isinstance(v, (dict, list)) else v for k, v in r.items()}
            for r in records()[:1]
        ]
    )
    pq.write_table(table, path)
    raw = bytearray(path.read_bytes())
    for _ in range(data.draw(st.integers(1, 6))):
        i = data.draw(st.integers(0, len(raw) - 1))
        raw[i] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(0, len(raw)))
    path.write_bytes(bytes(raw[:cut] if data.draw(st.booleans()) else raw))
    before = snapshot(folder)
    assert_clean(run_cli(["verify", str(path), "--workers", "1"]))
    assert_only_changed(before, snapshot(folder))
