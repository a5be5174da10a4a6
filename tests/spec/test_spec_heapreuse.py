"""spec/heapreuse.py: glibc keeps freed heap for the next Z3 context, once per process, opt-out."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from puzzleforge.spec.heapreuse import keep_freed_heap

_PROBE = "from puzzleforge.spec.heapreuse import keep_freed_heap as k; print(k(), k())"


def _probe(env_value: str | None) -> str:
    env = dict(os.environ)
    env.pop("PUZZLEFORGE_SPEC_HEAP_REUSE", None)
    if env_value is not None:
        env["PUZZLEFORGE_SPEC_HEAP_REUSE"] = env_value
    out = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_opt_out_leaves_the_allocator_alone() -> None:
    assert _probe("0") == "False False"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc only")
def test_applied_once_on_glibc() -> None:
    import platform

    if platform.libc_ver()[0] != "glibc":
        pytest.skip("not glibc")
    assert _probe(None) == "True True"
    # in this process too, and idempotent: on unless this process opted out
    in_force = os.environ.get("PUZZLEFORGE_SPEC_HEAP_REUSE", "1") != "0"
    assert keep_freed_heap() is in_force
    assert keep_freed_heap() is in_force
