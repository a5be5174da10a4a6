"""Kept for callers that import ``puzzleforge.grid.puzzlink`` (the web app, tests): the
codec lives in ``puzzleforge.grid.formats.puzzlink`` with its packings beside it."""

from __future__ import annotations

from .formats.puzzlink import PUZZLINK_GENRES, URL_NAME, decode_url, encode_url, has_url

__all__ = ["decode_url", "encode_url", "PUZZLINK_GENRES", "URL_NAME", "has_url"]
