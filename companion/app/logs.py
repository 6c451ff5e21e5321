"""Logging to stderr with levels, the way journald understands them.

Under systemd (``$JOURNAL_STREAM`` set) each line starts with the syslog
priority ``<N>``, which journald turns into the entry's priority
(``journalctl -p warning`` works) and strips; journald adds the time, so we
don't. In a terminal the line carries the time and the level name instead.

A crash (an exception that is a bug) goes to a file of its own
(:func:`write_crash_log`), and ``companion`` ends with one line naming it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TextIO

SYSLOG_PRIORITY = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4, logging.ERROR: 3, logging.CRITICAL: 2}


class JournaldFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        priority = SYSLOG_PRIORITY.get(record.levelno, 6)
        # A traceback is several lines; each gets the prefix so none loses its priority.
        return "\n".join(f"<{priority}>{line}" for line in super().format(record).splitlines())


def setup_logging(level: str = "info", stream: TextIO | None = None,
                  environ: Mapping[str, str] | None = None) -> logging.Logger:
    """Configure the ``companion`` logger once (calling again replaces its handler)."""
    env = os.environ if environ is None else environ
    handler = logging.StreamHandler(sys.stderr if stream is None else stream)
    if env.get("JOURNAL_STREAM"):
        handler.setFormatter(JournaldFormatter("%(name)s: %(message)s"))
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s", "%H:%M:%S"))
    logger = logging.getLogger("companion")
    for old in list(logger.handlers):
        logger.removeHandler(old)
    logger.addHandler(handler)
    logger.setLevel(level.upper())
    logger.propagate = False
    return logger


# -- crashes ------------------------------------------------------------------------------

CRASH_LOGS_KEPT = 20


def crash_log_folders(environ: Mapping[str, str] | None = None) -> list[Path]:
    """Where a crash's traceback may go, best first: systemd's LogsDirectory= or StateDirectory=,
    the user's state folder, the temporary folder."""
    env = os.environ if environ is None else environ
    folders = [Path(env[name].split(":")[0]) for name in ("LOGS_DIRECTORY", "STATE_DIRECTORY") if env.get(name)]
    state_home = env.get("XDG_STATE_HOME") or (str(Path(env["HOME"]) / ".local" / "state") if env.get("HOME") else "")
    if state_home:
        folders.append(Path(state_home) / "mandala-companion")
    folders.append(Path(tempfile.gettempdir()))
    return folders


def write_crash_log(text: str, environ: Mapping[str, str] | None = None) -> Path | None:
    """Write ``text`` (the command line and the traceback) to a new file; its path, or None if nowhere would do.

    Old crash logs beyond the newest CRASH_LOGS_KEPT are removed, so a crash
    that repeats (a service restarted by systemd) cannot fill the disk.
    """
    stamp = time.strftime("%Y%m%dT%H%M%S")
    for folder in crash_log_folders(environ):
        path = folder / f"companion-crash-{stamp}-{os.getpid()}.log"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        except OSError:
            continue
        old = sorted(folder.glob("companion-crash-*.log"), key=lambda p: p.stat().st_mtime)[:-CRASH_LOGS_KEPT]
        for stale in old:
            with contextlib.suppress(OSError):
                stale.unlink()
        return path
    return None
