"""Bounded YAML loading (core/yamlio.py): bombs fail fast, duplicates name both lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from puzzleforge.core.errors import InvalidSpec
from puzzleforge.core.yamlio import (
    MAX_ALIAS_NODES,
    MAX_ALIASES,
    MAX_DEPTH,
    load_yaml,
    load_yaml_node,
    read_yaml_text,
)


def _bomb(levels: int = 9, width: int = 9) -> str:
    """The classic "billion laughs" document: width**levels leaves from a few hundred bytes."""
    text = "a: &a [" + ", ".join(['"lol"'] * width) + "]\n"
    prev = "a"
    for i in range(1, levels):
        name = f"l{i}"
        text += f"{name}: &{name} [" + ", ".join([f"*{prev}"] * width) + "]\n"
        prev = name
    return text


def test_plain_documents_load_like_safe_load() -> None:
    assert load_yaml("a: 1\nb: [x, 2.5, true]\nc: {d: null}\n", file="f.yaml") == {
        "a": 1,
        "b": ["x", 2.5, True],
        "c": {"d": None},
    }
    assert load_yaml("", file="f.yaml") is None


def test_small_aliases_and_merge_keys_still_work() -> None:
    text = "base: &b {x: 1, y: 2}\nitem:\n  <<: *b\n  y: 3\nlist: [*b, *b]\n"
    assert load_yaml(text, file="f.yaml") == {
        "base": {"x": 1, "y": 2},
        "item": {"x": 1, "y": 3},
        "list": [{"x": 1, "y": 2}, {"x": 1, "y": 2}],
    }


def test_one_kilobyte_alias_bomb_is_refused() -> None:
    text = _bomb()
    assert len(text) < 1024
    with pytest.raises(InvalidSpec) as info:
        load_yaml(text, file="bomb.yaml")
    # expanded size of the level-k list: itself plus 9 copies of level k-1 (level 0: 9 scalars);
    # the document: the top mapping plus 9 key scalars plus the 9 lists
    sizes = [10]
    for _ in range(8):
        sizes.append(1 + 9 * sizes[-1])
    expanded = 1 + 9 + sum(sizes)
    assert str(info.value) == (
        f"bomb.yaml: aliases expand to {expanded:,} nodes (at most {MAX_ALIAS_NODES:,} may "
        "come from aliases): an alias bomb. Expected a YAML document without alias bombs or "
        "deep nesting."
    )


def test_many_aliases_are_refused() -> None:
    text = "a: &a 1\nb: [" + ", ".join(["*a"] * (MAX_ALIASES + 1)) + "]\n"
    with pytest.raises(InvalidSpec) as info:
        load_yaml(text, file="f.yaml")
    assert f"more than {MAX_ALIASES} alias uses" in str(info.value)
    assert info.value.line == 2


def test_recursive_alias_is_refused() -> None:
    with pytest.raises(InvalidSpec) as info:
        load_yaml("a: &a [1, *a]\n", file="f.yaml")
    assert "recursive alias" in str(info.value) and info.value.line == 1


def test_deep_nesting_is_refused_without_recursion_error() -> None:
    depth = MAX_DEPTH + 1
    with pytest.raises(InvalidSpec) as info:
        load_yaml("[" * depth + "]" * depth, file="f.yaml")
    assert f"nesting deeper than {MAX_DEPTH} levels" in str(info.value)
    with pytest.raises(InvalidSpec):
        load_yaml("[" * 5000 + "]" * 5000, file="f.yaml")


def test_duplicate_keys_name_both_lines() -> None:
    with pytest.raises(InvalidSpec) as info:
        load_yaml("top:\n  a: 1\n  b: 2\n  a: 3\n", file="dup.yaml")
    assert str(info.value) == (
        "dup.yaml:4: duplicate key 'a' (lines 2 and 4). Expected each key once per mapping."
    )


def test_huge_integer_scalar_is_a_clear_error() -> None:
    with pytest.raises(InvalidSpec) as info:
        load_yaml("n: " + "9" * 20000 + "\n", file="f.yaml")
    assert "unreadable YAML value" in str(info.value)


def test_python_tags_are_refused() -> None:
    with pytest.raises(InvalidSpec) as info:
        load_yaml("x: !!python/object/apply:os.system ['echo hi']\n", file="f.yaml")
    assert "malformed YAML" in str(info.value) and info.value.line == 1


def test_node_lines_are_kept() -> None:
    data, node = load_yaml_node("a: 1\nb:\n  - x\n", file="f.yaml")
    assert data == {"a": 1, "b": ["x"]}
    assert [k.start_mark.line + 1 for k, _ in node.value] == [1, 2]


def test_read_yaml_text_checks_suffix_kind_and_size(tmp_path: Path) -> None:
    good = tmp_path / "ok.yaml"
    good.write_text("a: 1\n", encoding="utf-8")
    assert read_yaml_text(good) == "a: 1\n"
    other = tmp_path / "ok.py"
    other.write_text("a: 1\n", encoding="utf-8")
    with pytest.raises(InvalidSpec, match="does not end in .yaml or .yml"):
        read_yaml_text(other)
    assert read_yaml_text(other, require_suffix=False) == "a: 1\n"
    with pytest.raises(InvalidSpec, match="not found or not a regular file"):
        read_yaml_text(tmp_path / "missing.yaml")
    folder = tmp_path / "dir.yaml"
    folder.mkdir()
    with pytest.raises(InvalidSpec, match="not found or not a regular file"):
        read_yaml_text(folder)
    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * 101)
    with pytest.raises(InvalidSpec, match=r"is 101 bytes \(limit 100\)"):
        read_yaml_text(big, max_bytes=100)
    binary = tmp_path / "bin.yaml"
    binary.write_bytes(b"a: \xff\n")
    with pytest.raises(InvalidSpec, match="not UTF-8"):
        read_yaml_text(binary)


def test_bombs_through_every_loader(tmp_path: Path) -> None:
    """Specs, crossnumber puzzle files and recipes all go through the bounded loader."""
    from puzzleforge.batch.recipes import load_recipe
    from puzzleforge.crossnumber.model import load_model
    from puzzleforge.spec.schema import load_spec

    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(_bomb(), encoding="utf-8")
    for loader in (load_spec, load_model, load_recipe):
        with pytest.raises(InvalidSpec, match="alias bomb"):
            loader(bomb)
    dup = tmp_path / "dup.yaml"
    dup.write_text("components: []\ncomponents: []\n", encoding="utf-8")
    for loader in (load_spec, load_model, load_recipe):
        with pytest.raises(InvalidSpec, match=r"duplicate key 'components' \(lines 1 and 2\)"):
            loader(dup)
