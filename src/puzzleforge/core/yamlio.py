"""Bounded YAML loading: the one way puzzleforge reads a YAML file it did not write.

Why: YAML aliases let a 1 KB file stand for a structure of billions of nodes (the
"billion laughs" bomb); PyYAML builds it cheaply as shared objects, but every consumer that
walks it (line maps, JSON dumps, comparisons) then runs for hours. PyYAML also keeps the
last of two equal keys silently, which hides real mistakes in specs. This module:

* refuses files over ``max_bytes`` before reading them;
* counts alias uses and the nodes they add once expanded (linear time, memoised per
  node), and stops at a small budget with a clear error; refuses recursive aliases;
* limits nesting depth (PyYAML's composer recurses; a deep file would otherwise end in
  ``RecursionError``);
* refuses duplicate mapping keys, naming both lines;
* turns every failure (syntax, bad scalar such as a 100 000-digit integer) into one
  ``InvalidSpec`` paragraph naming the file and line.

Only ``yaml.SafeLoader`` constructors are used: no Python object tags.

>>> load_yaml("a: 1\\nb: [x, y]\\n", file="demo.yaml")
{'a': 1, 'b': ['x', 'y']}
>>> try:
...     load_yaml("a: 1\\na: 2\\n", file="demo.yaml")
... except InvalidSpec as exc:
...     print(exc)
demo.yaml:2: duplicate key 'a' (lines 1 and 2). Expected each key once per mapping.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .errors import InvalidSpec

__all__ = [
    "load_yaml",
    "load_yaml_node",
    "read_yaml_text",
    "MAX_YAML_BYTES",
    "MAX_ALIASES",
    "MAX_ALIAS_NODES",
    "MAX_DEPTH",
]

#: Largest YAML file read at all (a spec, a recipe, a crossnumber puzzle).
MAX_YAML_BYTES = 4 * 1024 * 1024
#: Most alias uses (``*name``) one document may contain.
MAX_ALIASES = 2_000
#: Most nodes all aliases together may add once expanded (a real file needs a few hundred).
MAX_ALIAS_NODES = 100_000
#: Deepest nesting of mappings and sequences.
MAX_DEPTH = 120


class _Budget(Exception):
    """Raised inside the loader when a bound is exceeded (turned into InvalidSpec)."""

    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.message, self.line = message, line


class _BoundedLoader(yaml.SafeLoader):
    """SafeLoader counting aliases and depth, refusing duplicate keys."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._aliases = 0
        self._depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            self._aliases += 1
            if self._aliases > MAX_ALIASES:
                mark = self.peek_event().start_mark
                raise _Budget(f"more than {MAX_ALIASES} alias uses (*name)", mark.line + 1)
            return super().compose_node(parent, index)
        self._depth += 1
        if self._depth > MAX_DEPTH:
            mark = self.peek_event().start_mark
            raise _Budget(f"nesting deeper than {MAX_DEPTH} levels", mark.line + 1)
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        if isinstance(node, yaml.MappingNode):
            seen: dict[Any, int] = {}
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue
                key = self.construct_object(key_node, deep=True)
                try:
                    first = seen.get(key)
                except TypeError:
                    continue  # unhashable key: PyYAML reports it itself
                line = key_node.start_mark.line + 1
                if first is not None:
                    raise _Budget(f"duplicate key '{key}' (lines {first} and {line})", line)
                seen[key] = line
        return super().construct_mapping(node, deep=deep)


def _check_expansion(root: Any) -> None:
    """Refuse recursive aliases and aliases that expand to more than MAX_ALIAS_NODES nodes."""
    sizes: dict[int, int] = {}
    distinct = 0
    # iterative post-order walk (no recursion, each distinct node visited once)
    stack: list[tuple[Any, bool]] = [(root, False)]
    open_ids: set[int] = set()
    while stack:
        node, done = stack.pop()
        nid = id(node)
        if done:
            open_ids.discard(nid)
            if isinstance(node, yaml.MappingNode):
                kids = [n for pair in node.value for n in pair]
            else:
                kids = list(node.value)
            sizes[nid] = 1 + sum(sizes[id(k)] for k in kids)
            continue
        if nid in sizes:
            continue
        if nid in open_ids:
            raise _Budget(
                "a recursive alias (a node that contains itself)", node.start_mark.line + 1
            )
        distinct += 1
        if isinstance(node, yaml.ScalarNode):
            sizes[nid] = 1
            continue
        open_ids.add(nid)
        stack.append((node, True))
        kids = (
            [n for pair in node.value for n in pair]
            if isinstance(node, yaml.MappingNode)
            else list(node.value)
        )
        for kid in kids:
            kid_id = id(kid)
            if kid_id in open_ids:
                raise _Budget(
                    "a recursive alias (a node that contains itself)", kid.start_mark.line + 1
                )
            if kid_id not in sizes:
                stack.append((kid, False))
    if sizes[id(root)] - distinct > MAX_ALIAS_NODES:
        raise _Budget(
            f"aliases expand to {sizes[id(root)]:,} nodes (at most "
            f"{MAX_ALIAS_NODES:,} may come from aliases): an alias bomb",
            None,
        )


def load_yaml_node(
    text: str, *, file: str | None, expected: str = "a YAML document"
) -> tuple[Any, Any]:
    """(data, root node) of one YAML document, with every bound checked.

    The node is returned for callers that map field paths to lines; walking it is bounded
    because its alias expansion was checked.
    """
    loader = None
    try:
        loader = _BoundedLoader(text)  # its reader refuses control characters at once
        node = loader.get_single_node()
        if node is None:
            return None, None
        _check_expansion(node)
        data = loader.construct_document(node)
        return data, node
    except _Budget as exc:
        raise InvalidSpec(
            exc.message, file=file, line=exc.line, expected=_expected_for(exc.message, expected)
        ) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise InvalidSpec(
            f"malformed YAML: {problem}",
            file=file,
            line=mark.line + 1 if mark is not None else None,
            expected=expected,
        ) from None
    except (ValueError, OverflowError, RecursionError, MemoryError) as exc:
        raise InvalidSpec(
            f"unreadable YAML value ({type(exc).__name__}: "
            f"{str(exc).splitlines()[0][:160] if str(exc) else 'too large'})",
            file=file,
            expected=expected,
        ) from None
    finally:
        if loader is not None:
            loader.dispose()


def _expected_for(message: str, expected: str) -> str:
    if message.startswith("duplicate key"):
        return "each key once per mapping"
    return f"{expected} without alias bombs or deep nesting"


def load_yaml(text: str, *, file: str | None, expected: str = "a YAML document") -> Any:
    """The data of one YAML document (bounded; see the module docstring)."""
    return load_yaml_node(text, file=file, expected=expected)[0]


def read_yaml_text(
    path: str | Path,
    *,
    max_bytes: int = MAX_YAML_BYTES,
    what: str = "YAML file",
    require_suffix: bool = True,
) -> str:
    """The text of a YAML file, refusing non-files, other suffixes and files over ``max_bytes``."""
    p = Path(path)
    if require_suffix and p.suffix.lower() not in (".yaml", ".yml"):
        raise InvalidSpec(
            f"{what} '{p}' does not end in .yaml or .yml",
            file=str(p),
            expected="a .yaml or .yml file",
        )
    try:
        if not p.is_file():
            raise InvalidSpec(
                f"cannot read {what}: not found or not a regular file",
                file=str(p),
                expected="an existing .yaml file",
            )
        size = p.stat().st_size
        if size > max_bytes:
            raise InvalidSpec(
                f"{what} is {size:,} bytes (limit {max_bytes:,})",
                file=str(p),
                expected="a smaller YAML file",
            )
        data = p.read_bytes()
    except OSError as exc:
        raise InvalidSpec(
            f"cannot read {what}: {exc.strerror or exc}",
            file=str(p),
            expected="a readable .yaml file",
        ) from None
    if len(data) > max_bytes:
        raise InvalidSpec(
            f"{what} is over {max_bytes:,} bytes", file=str(p), expected="a smaller YAML file"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidSpec(
            f"{what} is not UTF-8 text (byte {exc.start})",
            file=str(p),
            expected="a UTF-8 encoded YAML file",
        ) from None
