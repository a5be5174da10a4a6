"""``python -m puzzleforge`` runs the CLI (the same as the ``puzzleforge`` command)."""

from puzzleforge.cli.main import main

if __name__ == "__main__":  # importing this module (doctest collection) must not run the CLI
    main()
