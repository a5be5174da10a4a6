"""The ``puzzleforge`` command (a midend: it only talks to the registry and engine CLIs)."""
