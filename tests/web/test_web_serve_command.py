"""``puzzleforge serve`` as a user runs it: a real process answering on 127.0.0.1."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_serve_binds_loopback_and_serves_pages(tmp_path: Path) -> None:
    port = _free_port()
    (tmp_path / "a.jsonl").write_text('{"family": "x", "question": "q", "answer": "a"}\n')
    proc = subprocess.Popen(
        [sys.executable, "-m", "puzzleforge.cli.main", "serve", "--port", str(port),
         "--data", str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                response = httpx.get(f"http://127.0.0.1:{port}/", timeout=2)
                break
            except httpx.TransportError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"serve did not start: {proc.stdout.read()}")
                time.sleep(0.2)
        assert response.status_code == 200 and "<title>puzzleforge</title>" in response.text
        files = httpx.get(f"http://127.0.0.1:{port}/api/datasets/files", timeout=5).json()
        assert [f["name"] for f in files["files"]] == ["a.jsonl"]
        # bound to loopback only: the listening socket's address is 127.0.0.1
        listening = subprocess.run(["ss", "-ltnH", f"sport = :{port}"], capture_output=True,
                                   text=True)
        if listening.returncode == 0 and listening.stdout.strip():
            local = {line.split()[3] for line in listening.stdout.strip().splitlines()}
            assert local == {f"127.0.0.1:{port}"}
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
    assert f"http://127.0.0.1:{port}/" in proc.stdout.read()
