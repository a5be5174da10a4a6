"""One exception tree for everything a user can get wrong or a solver can run into.

Why: the CLI, the batch runner and the web app turn any ``PuzzleForgeError`` into one
clear paragraph (file, field path, YAML line, what was expected) instead of a traceback,
so every error raised on purpose anywhere in puzzleforge must be one of these.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "PuzzleForgeError",
    "ConfigError",
    "InvalidSpec",
    "InvalidDescription",
    "InvalidAnswer",
    "UnknownFamily",
    "Unsatisfiable",
    "AmbiguousPuzzle",
    "GenerationFailed",
    "SolverTimeout",
    "BackendUnavailable",
    "TrustRequired",
    "UnsafeExpression",
]


@dataclass(frozen=True)
class ErrorLocation:
    """Where an error sits: a file, a dotted field path inside it and a 1-based line."""

    file: str | None = None
    field: str | None = None
    line: int | None = None

    def render(self) -> str:
        parts = []
        if self.file:
            parts.append(str(self.file) + (f":{self.line}" if self.line else ""))
        elif self.line:
            parts.append(f"line {self.line}")
        if self.field:
            parts.append(f"field '{self.field}'")
        return ", ".join(parts)


class PuzzleForgeError(Exception):
    """Base of every deliberate puzzleforge error.

    The message is built so it can be printed alone: ``<where>: <what is wrong>.
    Expected <what>.`` Keyword fields are kept as attributes so a web page can point at
    the offending line.

    >>> str(PuzzleForgeError("domain is empty", file="a.yaml", field="variables.n", line=4,
    ...                      expected="a range [lo, hi] with lo <= hi"))
    "a.yaml:4, field 'variables.n': domain is empty. Expected a range [lo, hi] with lo <= hi."
    """

    kind = "error"
    #: True for an error no later item of a run can avoid, or whose outcome depends on
    #: machine load (a wall-clock safety net): the batch runner stops at it instead of
    #: counting it and going on with the next item.
    ends_run = False

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        field: str | None = None,
        line: int | None = None,
        expected: str | None = None,
        hint: str | None = None,
    ) -> None:
        self.problem = message
        self.location = ErrorLocation(str(file) if file is not None else None, field, line)
        self.expected = expected
        self.hint = hint
        super().__init__(self._compose())

    @property
    def file(self) -> str | None:
        return self.location.file

    @property
    def field(self) -> str | None:
        return self.location.field

    @property
    def line(self) -> int | None:
        return self.location.line

    def _compose(self) -> str:
        where = self.location.render()
        text = f"{where}: {self.problem}" if where else self.problem
        text = text.rstrip(".") + "."
        if self.expected:
            text += f" Expected {self.expected.rstrip('.')}."
        if self.hint:
            text += f" {self.hint.rstrip('.')}."
        return text

    def __reduce__(self) -> tuple:
        """Pickle with every attribute (a worker process sends its error to the parent;
        subclasses' own ``__init__`` arguments need not be replayed)."""
        return (_restore_error, (type(self), str(self), dict(self.__dict__)))

    def with_location(
        self, *, file: str | None = None, field: str | None = None, line: int | None = None
    ) -> PuzzleForgeError:
        """Return a copy of this error with missing location parts filled in."""
        new = self.__class__.__new__(self.__class__)
        PuzzleForgeError.__init__(
            new,
            self.problem,
            file=self.file or file,
            field=self.field or field,
            line=self.line or line,
            expected=self.expected,
            hint=self.hint,
        )
        for key, value in self.__dict__.items():
            new.__dict__.setdefault(key, value)
        return new


def _restore_error(cls: type[PuzzleForgeError], text: str, state: dict) -> PuzzleForgeError:
    """Rebuild a pickled ``PuzzleForgeError`` without calling its ``__init__``."""
    new = cls.__new__(cls)
    Exception.__init__(new, text)
    new.__dict__.update(state)
    return new


class ConfigError(PuzzleForgeError):
    """Parameters or settings that do not validate (lists every problem found)."""

    kind = "invalid parameters"


class InvalidSpec(PuzzleForgeError):
    """A puzzle spec (YAML, grid rules, puzzle file) that is malformed or inconsistent."""

    kind = "invalid spec"


class InvalidDescription(PuzzleForgeError):
    """A puzzle description / instance text that does not decode."""

    kind = "invalid puzzle description"


class InvalidAnswer(PuzzleForgeError):
    """An answer whose format cannot be read at all (scoring returns 0.0 instead where possible)."""

    kind = "invalid answer"


class UnknownFamily(PuzzleForgeError):
    kind = "unknown family"


class Unsatisfiable(PuzzleForgeError):
    """The puzzle (or the constraints of a spec) has no solution."""

    kind = "no solution"


class AmbiguousPuzzle(PuzzleForgeError):
    """The puzzle has more than one solution where exactly one was required."""

    kind = "more than one solution"


class GenerationFailed(PuzzleForgeError):
    """A generator gave up after a bounded number of attempts.

    ``reasons`` counts the rejections by reason so batch summaries can report them.
    """

    kind = "generation failed"

    def __init__(
        self, message: str, *, attempts: int = 0, reasons: dict[str, int] | None = None, **kw
    ) -> None:
        self.attempts = attempts
        self.reasons = dict(reasons or {})
        #: the last rejection in words, when one explains the failure (spec config replay)
        self.detail: str | None = None
        super().__init__(message, **kw)


class SolverTimeout(PuzzleForgeError):
    kind = "solver time limit"


class BackendUnavailable(PuzzleForgeError):
    """An optional component is not installed; the message carries the install hint."""

    kind = "backend unavailable"


class TrustRequired(PuzzleForgeError):
    """A spec wants to run Python code from a file but ``--trust`` was not given."""

    kind = "trust required"


class UnsafeExpression(InvalidSpec):
    """A spec expression uses something the whitelisting compiler refuses."""

    kind = "unsafe expression"
