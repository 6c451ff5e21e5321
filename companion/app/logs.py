"""Logging to stderr with levels, the way journald understands them.

Under systemd (``$JOURNAL_STREAM`` set) each line starts with the syslog
priority ``<N>``, which journald turns into the entry's priority
(``journalctl -p warning`` works) and strips; journald adds the time, so we
don't. In a terminal the line carries the time and the level name instead.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping
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
