"""Helpers of the fault suite: the companion as a subprocess, small file systems that fill up or turn read-only."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
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


def companion(*args: str | Path, env: dict[str, str] | None = None, timeout: float = 60) -> Outcome:
    """``python -m companion ARGS`` as people run it: exit status, output, and its own peak memory."""
    child = subprocess.Popen([sys.executable, "-m", "companion", *map(str, args)], cwd=ROOT, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, **(env or {})})
    streams: dict[str, str] = {}
    readers = [threading.Thread(target=lambda name=name, pipe=pipe: streams.__setitem__(name, pipe.read()))
               for name, pipe in (("out", child.stdout), ("err", child.stderr))]
    for reader in readers:
        reader.start()
    timer = threading.Timer(timeout, child.kill)
    timer.start()
    _, status, usage = os.wait4(child.pid, 0)  # not Popen.wait: wait4 gives this child's own ru_maxrss
    timer.cancel()
    child.returncode = os.waitstatus_to_exitcode(status)
    for reader in readers:
        reader.join()
    return Outcome(child.returncode, streams["out"], streams["err"], usage.ru_maxrss / 1024)


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
    with open(folder / "filler", "wb") as stream:
        chunk = bytes(64 * 1024)
        try:
            while True:
                stream.write(chunk)
                stream.flush()
        except OSError:
            pass
        try:
            while True:  # the last few bytes, one by one
                stream.write(b"\0")
                stream.flush()
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
