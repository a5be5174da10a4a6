"""Safe output: only regular files are written, atomically; nothing is destroyed or left behind.

Through the real CLI where a user meets it (``generate``, ``spec generate``, ``grid generate``),
plus the AtomicOutput building block and the pool workers' parent-death rule.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from puzzleforge.core.errors import ConfigError, GenerationFailed
from puzzleforge.core.safeoutput import AtomicOutput, StreamOutput, write_atomic

BASE_SPEC = Path(__file__).parent.parent / "spec" / "data" / "base.yaml"


def cli(cwd: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "300"}  # usage errors on one line
    return subprocess.run(
        [sys.executable, "-m", "puzzleforge.cli.main", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


def assert_clear_error(done: subprocess.CompletedProcess, *needles: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr and "internal" not in done.stderr, done.stderr
    for needle in needles:
        assert needle in done.stderr, (needle, done.stderr)


def failing_spec(folder: Path) -> Path:
    """base.yaml with a condition no assignment satisfies: every attempt is rejected."""
    text = BASE_SPEC.read_text().replace(
        "formula: gen_event_count_condition(s, 'equal', 1)",
        'formula: "Not(s[names[0]] == s[names[0]])"',
    )
    path = folder / "never.yaml"
    path.write_text(text)
    return path


# -- what sits at the path is not a regular file -------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ("generate", "latin", "-n", "2", "--param", "n=4", "--workers", "1", "--out"),
        ("spec", "generate", str(BASE_SPEC), "-n", "1", "--out"),
        ("grid", "generate", "unruly", "--size", "4x4", "--out"),
    ],
)
def test_a_fifo_at_the_output_path_is_refused_and_left_alone(tmp_path: Path, command) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    done = cli(tmp_path, *command, str(fifo))
    assert_clear_error(done, "pipe.jsonl' is a FIFO (named pipe)", "--out")
    assert fifo.is_fifo()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe.jsonl"]


def test_a_device_behind_a_symlink_and_a_directory_are_refused(tmp_path: Path) -> None:
    link = tmp_path / "null.jsonl"
    link.symlink_to("/dev/null")
    done = cli(tmp_path, "spec", "generate", str(BASE_SPEC), "--out", str(link))
    assert_clear_error(done, "is a character device")
    (tmp_path / "folder.jsonl").mkdir()
    done = cli(tmp_path, "generate", "latin", "-n", "2", "--out", "folder.jsonl")
    assert_clear_error(done, "folder.jsonl' is a directory")
    assert link.is_symlink() and (tmp_path / "folder.jsonl").is_dir()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder.jsonl", "null.jsonl"]


# -- an existing file survives a failed run -------------------------------------------------


def test_spec_generate_that_fails_leaves_the_existing_file_untouched(tmp_path: Path) -> None:
    out = tmp_path / "o.jsonl"
    out.write_text("precious\n")
    done = cli(
        tmp_path,
        "spec",
        "generate",
        str(failing_spec(tmp_path)),
        "--attempts",
        "3",
        "-n",
        "2",
        "--out",
        "o.jsonl",
    )
    # spec generate is the batch runner: a failed item is replaced by the next index, until
    # 20 in a row failed; a run that wrote no record leaves no journal or job file either
    assert_clear_error(
        done, "family 'spec:never' failed 20 items in a row (rejects: generation_failed 20"
    )
    assert out.read_text() == "precious\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["never.yaml", "o.jsonl"]


def test_spec_generate_replaces_the_file_only_when_complete(tmp_path: Path) -> None:
    out = tmp_path / "o.jsonl"
    out.write_text("old\n")
    os.chmod(out, 0o640)
    # base.yaml has one puzzle: --no-dedupe keeps the second copy (as spec generate did)
    done = cli(
        tmp_path, "spec", "generate", str(BASE_SPEC), "-n", "2", "--out", "o.jsonl", "--no-dedupe"
    )
    assert done.returncode == 0, done.stderr
    assert out.read_text().count("\n") == 2 and '"family":"spec:base"' in out.read_text()
    assert oct(out.stat().st_mode & 0o777) == "0o640"
    # the batch runner's files beside it, as `puzzleforge generate` writes them
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "README.md",
        "o.job.json",
        "o.jsonl",
        "o.summary.json",
    ]


def test_batch_run_that_fails_keeps_the_old_dataset_and_its_records_apart(tmp_path: Path) -> None:
    sys.path.insert(0, str(Path(__file__).parent.parent / "batch"))
    from puzzleforge.batch import BatchJob, Component, run_batch

    out = tmp_path / "d.jsonl"
    run_batch(BatchJob((Component("latin", 4, {"n": "4"}),), seed=1), out, workers=1)
    before = out.read_bytes()
    job = BatchJob((Component("batch_fake_families:sometimes_slow", 10, {"distinct": 3}),), seed=1)
    with pytest.raises(GenerationFailed) as err:
        run_batch(job, out, workers=1)
    assert out.read_bytes() == before
    assert (tmp_path / "d.jsonl.partial").read_bytes().count(b"\n") == 3
    assert f"{out} was left as it was" in str(err.value)
    assert not (tmp_path / "d.lock").exists()


@pytest.mark.parametrize(
    "bad",
    [
        ("--backend", "foo"),
        ("--timeout-per-item", "nan"),
        ("--timeout-per-item", "inf"),
        ("--chunk-size", "-3"),
        ("--workers", "0"),
        ("--max-attempts", "0"),
        ("-n", "0"),
    ],
)
def test_a_failed_start_leaves_nothing_behind(tmp_path: Path, bad: tuple[str, str]) -> None:
    (tmp_path / "d.jsonl").write_text("precious\n")
    args = ["generate", "latin", "--param", "n=4", "--out", "d.jsonl", *bad]
    if bad[0] != "-n":
        args += ["-n", "3"]
    done = cli(tmp_path, *args)
    assert_clear_error(done, bad[0])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.jsonl"]
    assert (tmp_path / "d.jsonl").read_text() == "precious\n"


def test_a_successful_run_leaves_only_its_files(tmp_path: Path) -> None:
    done = cli(
        tmp_path,
        "generate",
        "latin",
        "-n",
        "3",
        "--param",
        "n=4",
        "--out",
        "d.jsonl",
        "--workers",
        "1",
        "--quiet",
    )
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "README.md",
        "d.job.json",
        "d.jsonl",
        "d.summary.json",
    ]


# -- the building block ----------------------------------------------------------------------


def test_atomic_output_follows_a_symlink_and_keeps_the_link(tmp_path: Path) -> None:
    target = tmp_path / "real.txt"
    target.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    write_atomic(link, "new")
    assert link.is_symlink() and target.read_text() == "new"


def test_a_second_writer_of_the_same_output_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "x.jsonl"
    with AtomicOutput(out) as first:
        first.write("a\n")
        with (
            pytest.raises(ConfigError, match="another puzzleforge run is writing"),
            AtomicOutput(out),
        ):
            pass
    assert out.read_text() == "a\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.jsonl"]


def test_stream_output_keeps_records_of_an_unfinished_run_beside_the_original(
    tmp_path: Path,
) -> None:
    out = tmp_path / "x.jsonl"
    out.write_text("old\n")
    stream = StreamOutput(out)
    stream.write("r1\n")
    assert stream.close() is True
    assert out.read_text() == "old\n" and (tmp_path / "x.jsonl.partial").read_text() == "r1\n"
    empty = StreamOutput(out)  # a new run truncates the stale partial
    assert empty.close() is False
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.jsonl"]


# -- pool workers die with the CLI -------------------------------------------------------------


def _descendants(pid: int) -> set[int]:
    found: set[int] = set()
    todo = [pid]
    while todo:
        current = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{current}/task")
        except FileNotFoundError:
            continue
        for task in tasks:
            try:
                children = Path(f"/proc/{current}/task/{task}/children").read_text().split()
            except FileNotFoundError:
                continue
            for child in map(int, children):
                if child not in found:
                    found.add(child)
                    todo.append(child)
    return found


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_pool_workers_die_when_generate_is_killed(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "puzzleforge.cli.main",
            "generate",
            "latin",
            "-n",
            "100000",
            "--param",
            "n=9",
            "--workers",
            "2",
            "--chunk-size",
            "50",
            "--out",
            "k.jsonl",
            "--quiet",
        ],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    journal = tmp_path / "k.jsonl.partial"
    try:
        deadline = time.monotonic() + 120
        while not (journal.exists() and journal.stat().st_size > 0):
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        workers = _descendants(proc.pid)
        assert workers
        proc.send_signal(signal.SIGKILL)  # only the CLI, not its process group
        proc.wait(timeout=30)
        deadline = time.monotonic() + 60
        while any(_running(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [w for w in workers if _running(w)]
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
