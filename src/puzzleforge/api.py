"""The Python API: the few calls a dataset builder needs, all through the registry.

They live in core/generation.py (so engines can use them without importing this module)
and are re-exported here unchanged.

>>> import puzzleforge
>>> "latin" in puzzleforge.families()
True
>>> p = puzzleforge.generate("latin", seed=3, n=4)
>>> puzzleforge.verify(p, p.answer)
1.0
"""

from __future__ import annotations

from .core.generation import families, generate, load_family, verify

__all__ = ["families", "generate", "verify", "load_family"]
