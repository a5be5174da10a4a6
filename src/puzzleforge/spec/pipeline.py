"""Compatibility re-export: the attempt pipeline now lives in attempt.py (orchestration),
sampling.py (variables, symbols, conditions), solving.py (solver, enumeration, optimize)
and questions.py (queries, options, text)."""
from __future__ import annotations

from .attempt import (
                      Attempt,
                      AttemptResult,
                      ExprFailure,
                      Rejection,
                      decode_value,
                      encode_value,
                      ev,
                      run_attempt,
)

__all__ = ["Attempt", "run_attempt", "Rejection", "ExprFailure", "AttemptResult", "ev",
           "encode_value", "decode_value"]
