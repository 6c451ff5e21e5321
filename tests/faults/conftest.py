"""Helpers of the fault suite: the companion as a subprocess, small file systems that fill up or turn read-only."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Outcome:
    status: int
    out: str
    err: str
    peak_mb: float

    def one_line(self) -> str:
        """The single line a failing command prints; fails the test on a traceback or more lines."""
        assert "Traceback" not in self.err, self.err
        lines = self.err.splitlines()
        assert len(lines) == 1, self.err
        return lines[0]


def companion(*args: str | Path, env: dict[str, str] | None = None, timeout: float = 60,
              measure: bool = False) -> Outcome:
    """``python -m companion ARGS`` as people run it: exit status, output and (``measure``) its peak memory.

    Linux starts a child's peak resident size (``ru_maxrss``) at its parent's
    size when it forks, and this test process is large; so with ``measure``
    the companion is started by a small launcher process, which reports it.
    """
    command = [sys.executable, "-m", "companion", *map(str, args)]
    if measure:
        command = [sys.executable, "-c", LAUNCHER, *command]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})
    err, peak = done.stderr, 0.0
    if measure:
        err, _, last = done.stderr.rstrip("\n").rpartition("\n")
        err, peak = (err + "\n" if err else ""), float(last.removeprefix("peak_mb "))
    return Outcome(done.returncode, done.stdout, err, peak)


@pytest.fixture
def here(capsys: pytest.CaptureFixture[str]) -> Callable[..., Outcome]:
    """``companion ARGS`` in this process (what ``python -m companion`` exits with is what main returns):
    much quicker than a new interpreter, for the cases where the process itself is not what is tested."""
    from companion.cli import main

    def call(*args: str | Path) -> Outcome:
        capsys.readouterr()
        status = main([str(arg) for arg in args])
        captured = capsys.readouterr()
        return Outcome(status, captured.out, captured.err, 0.0)

    return call


LAUNCHER = """
import os, sys
pid = os.posix_spawn(sys.argv[1], sys.argv[1:], os.environ)
_, status, usage = os.wait4(pid, 0)
print(f"peak_mb {usage.ru_maxrss / 1024}", file=sys.stderr)
sys.exit(os.waitstatus_to_exitcode(status))
"""


@contextmanager
def small_disk(size_kb: int) -> Iterator[Path]:
    """A tmpfs of ``size_kb`` mounted for the test (root only); skips the test where mounting is not allowed."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("a full or read-only disk needs a tmpfs, and mounting one needs root")
    point = Path("/tmp") / f"companion-faults-{uuid.uuid4().hex[:8]}"
    point.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kb}k,mode=0755", "tmpfs", str(point)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        point.rmdir()
        pytest.skip(f"cannot mount a tmpfs here ({mounted.stderr.strip()})")
    try:
        yield point
    finally:
        subprocess.run(["umount", "-l", str(point)], capture_output=True)
        point.rmdir()


def remount_read_only(point: Path) -> None:
    subprocess.run(["mount", "-o", "remount,ro", str(point)], check=True, capture_output=True)


def fill(folder: Path) -> None:
    """Use up every free byte of the file system that holds ``folder``."""
    with open(folder / "filler", "wb", buffering=0) as stream:
        for size in (64 * 1024, 4096, 1):  # big pieces, then the last few bytes
            try:
                while True:
                    stream.write(bytes(size))
            except OSError:
                pass


@contextmanager
def in_memory(fallback: Path) -> Iterator[Path]:
    """A folder in memory when the machine has /dev/shm, else ``fallback``: the suite opens hundreds of
    journals, each open syncs to disk a few times (seconds on a busy disk), and what is tested is the same
    on any file system."""
    memory = Path("/dev/shm")
    if not (memory.is_dir() and os.access(memory, os.W_OK)):
        yield fallback
        return
    folder = memory / f"companion-faults-{uuid.uuid4().hex[:8]}"
    folder.mkdir()
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def scratch(tmp_path: Path) -> Iterator[Path]:
    with in_memory(tmp_path) as folder:
        yield folder
