"""sd_notify datagrams and journald-friendly log lines."""

from __future__ import annotations

import io
import logging
import os
import socket
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.app import notify
from companion.app.logs import setup_logging


@pytest.fixture
def systemd_socket() -> Iterator[tuple[socket.socket, dict[str, str]]]:
    # AF_UNIX paths are limited to 108 bytes: pytest's tmp_path can be longer.
    with tempfile.TemporaryDirectory(prefix="sdn") as folder:
        path = str(Path(folder) / "notify")
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
            server.bind(path)
            server.settimeout(5)
            yield server, {"NOTIFY_SOCKET": path}


def test_messages_reach_the_socket(systemd_socket: tuple[socket.socket, dict[str, str]]) -> None:
    server, env = systemd_socket
    assert notify.ready("watching the table", env)
    assert server.recv(4096) == b"READY=1\nSTATUS=watching the table"
    assert notify.watchdog(env) and server.recv(4096) == b"WATCHDOG=1"
    assert notify.status("camera\nlost", env) and server.recv(4096) == b"STATUS=camera lost"
    assert notify.stopping(env) and server.recv(4096) == b"STOPPING=1"


def test_abstract_namespace_socket() -> None:
    name = f"companion-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind("\0" + name)
        server.settimeout(5)
        assert notify.watchdog({"NOTIFY_SOCKET": "@" + name})
        assert server.recv(100) == b"WATCHDOG=1"


def test_outside_systemd_nothing_happens_and_nothing_breaks(tmp_path: Path) -> None:
    assert notify.ready(environ={}) is False
    assert notify.watchdog({"NOTIFY_SOCKET": str(tmp_path / "gone")}) is False


def test_watchdog_interval() -> None:
    assert notify.watchdog_interval({}) is None
    assert notify.watchdog_interval({"WATCHDOG_USEC": "30000000"}) == 15.0
    assert notify.watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}) == 15.0
    assert notify.watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}) is None
    assert notify.watchdog_interval({"WATCHDOG_USEC": "soon"}) is None


def test_journald_lines_carry_the_priority() -> None:
    stream = io.StringIO()
    logger = setup_logging("info", stream, environ={"JOURNAL_STREAM": "8:1234"})
    logger.getChild("camera").warning("camera lost")
    logger.debug("not shown at info")
    logging.getLogger("companion.journal").error("disk full")
    assert stream.getvalue().splitlines() == ["<4>companion.camera: camera lost", "<3>companion.journal: disk full"]


def test_terminal_lines_carry_the_level_name() -> None:
    stream = io.StringIO()
    setup_logging("DEBUG", stream, environ={}).debug("frame 3")
    assert " DEBUG   companion: frame 3" in stream.getvalue()
