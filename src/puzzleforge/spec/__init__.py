"""PuzzleClone YAML specs as puzzle families (see docs/spec.md)."""
