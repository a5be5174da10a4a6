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
import pytest


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_serve_binds_loopback_and_serves_pages(tmp_path: Path) -> None:
    port = _free_port()
    (tmp_path / "a.jsonl").write_text('{"family": "x", "question": "q", "answer": "a"}\n')
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "puzzleforge.cli.main",
            "serve",
            "--port",
            str(port),
            "--data",
            str(tmp_path),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                response = httpx.get(f"http://127.0.0.1:{port}/", timeout=2)
                break
            except httpx.TransportError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"serve did not start: {proc.stdout.read()}") from None
                time.sleep(0.2)
        assert response.status_code == 200 and "<title>puzzleforge</title>" in response.text
        files = httpx.get(f"http://127.0.0.1:{port}/api/datasets/files", timeout=5).json()
        assert [f["name"] for f in files["files"]] == ["a.jsonl"]
        # bound to loopback only: the listening socket's address is 127.0.0.1
        listening = subprocess.run(
            ["ss", "-ltnH", f"sport = :{port}"], capture_output=True, text=True
        )
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


STUCK_SERVER = """
import sys, threading, time
from puzzleforge.cli.serve_command import bind_socket, serve_app
from puzzleforge.web import WebSettings, create_app

app = create_app(WebSettings())
# two job threads that never return (what a solver stuck in C code looks like to the server)
app.state.jobs.submit("stuck", lambda progress: threading.Event().wait())
app.state.jobs.submit("stuck", lambda progress: time.sleep(10**6))
sock = bind_socket("127.0.0.1", int(sys.argv[1]))
print("ready", flush=True)
serve_app(app, sock)
"""


def _wait_ready(proc: subprocess.Popen, port: int) -> None:
    assert proc.stdout.readline().strip() == "ready"
    deadline = time.monotonic() + 30
    while True:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=2)
            return
        except httpx.TransportError:
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_serve_stops_on_a_signal_even_with_stuck_job_threads(sig: int) -> None:
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-c", STUCK_SERVER, str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_ready(proc, port)
        proc.send_signal(sig)
        code = proc.wait(timeout=60)  # a bound against hanging, not a timing assertion
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert code in (0, -signal.SIGTERM), (code, proc.stderr.read())
    assert "Traceback" not in proc.stderr.read()


def test_a_busy_port_gives_one_clear_line_and_no_url() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "puzzleforge.cli.main", "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 2
    assert "http://" not in done.stdout and done.stdout == ""
    assert done.stderr.strip().count("\n") == 0, done.stderr
    assert f"cannot listen on 127.0.0.1:{port}: the port is already in use" in done.stderr
    assert "Expected a free port" in done.stderr
