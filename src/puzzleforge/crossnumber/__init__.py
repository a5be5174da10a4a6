"""Cross-number puzzles: declarative puzzle files, the clue language, an explaining solver.

Modules: ``grid`` (block and barred ASCII grids), ``kinds`` (number kinds: tests and
generators), ``expr`` (the clue expression language), ``model`` (puzzle files -> Model),
``constraints`` and ``solver`` (propagation + search), ``steps`` (the step log), ``api``
(what the CLI, the family and the web app call), ``family``, ``generate``, ``cli``.
See docs/crossnumber.md.
"""
