"""puzzleforge: generate and solve verifiable logic puzzles.

Four engines (spec, grid, zebra, crossnumber) share one core: the Puzzle record, the
Family protocol and registry, stable seeding and one solver API over Z3 and SAT.
"""

from .api import families, generate, load_family, verify
from .core.errors import PuzzleForgeError
from .core.puzzle import Puzzle
from .dataset import create_dataset, list_datasets, score_answer

__version__ = "0.1.0"

__all__ = [
    "families",
    "generate",
    "verify",
    "load_family",
    "Puzzle",
    "PuzzleForgeError",
    "create_dataset",
    "score_answer",
    "list_datasets",
    "__version__",
]
