"""The web assets really ship in the package: build it with setuptools and look."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
WEB = REPO / "src" / "puzzleforge" / "web"


def test_templates_and_static_files_are_in_the_built_package(tmp_path: Path) -> None:
    shutil.copy(REPO / "pyproject.toml", tmp_path)
    shutil.copy(REPO / "README.md", tmp_path)
    shutil.copytree(
        REPO / "src", tmp_path / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info")
    )
    out = tmp_path / "build-lib"
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import setuptools; setuptools.setup()",
            "-q",
            "build_py",
            "--build-lib",
            str(out),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    wanted = sorted(
        p.relative_to(WEB).as_posix()
        for p in WEB.rglob("*")
        if p.is_file() and p.suffix in (".html", ".js", ".css", ".svg")
    )
    assert wanted, "no assets found in the source tree"
    built = out / "puzzleforge" / "web"
    missing = [name for name in wanted if not (built / name).is_file()]
    assert not missing, f"not packaged: {missing}"


def test_assets_reference_nothing_outside_the_server() -> None:
    for path in WEB.rglob("*"):
        if path.suffix in (".html", ".js", ".css"):
            # the SVG namespace name is an identifier, never fetched
            text = path.read_text(encoding="utf-8").replace("http://www.w3.org/2000/svg", "")
            assert "http://" not in text and "https://" not in text, path.name
            assert "//cdn" not in text and "@import" not in text, path.name
