"""Bridges to other dataset tools (optional: each imports its tool only when called)."""
