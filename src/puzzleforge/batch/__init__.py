"""Many puzzles at once: local process pool or Ray, JSONL/Parquet, resume, dedupe, recipes.

Everything goes through the Family protocol and the registry, so every family (spec
files, zebra, grid genres, crossnumber) works unchanged. See docs/datasets.md.
"""

from .job import BatchJob, Component, Split
from .recipes import is_recipe, load_recipe
from .runner import run_batch
from .summary import ProgressState, Summary

__all__ = [
    "BatchJob",
    "Component",
    "Split",
    "run_batch",
    "load_recipe",
    "is_recipe",
    "Summary",
    "ProgressState",
]
