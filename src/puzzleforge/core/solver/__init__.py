"""One solver API over Z3 and SAT: solve, enumerate (projected, bounded), count, is_unique.

Every operation takes a time limit; expiry is reported in the result (``Status.TIMEOUT``),
never a hang.
"""

from .encodings import at_least_k, at_least_one, at_most_k, at_most_one, exactly_k, exactly_one
from .pool import VarPool
from .results import Count, Enumeration, SolveResult, Status, Uniqueness
from .session import BACKENDS, Session, open_session

__all__ = [
    "VarPool",
    "Session",
    "open_session",
    "BACKENDS",
    "Status",
    "SolveResult",
    "Enumeration",
    "Count",
    "Uniqueness",
    "at_most_one",
    "at_least_one",
    "exactly_one",
    "at_most_k",
    "at_least_k",
    "exactly_k",
]
