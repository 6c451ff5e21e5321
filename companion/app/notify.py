"""sd_notify without dependencies: tell systemd we are ready, alive, stopping.

The protocol is one datagram of ``KEY=VALUE`` lines to the AF_UNIX socket
named by ``$NOTIFY_SOCKET`` (a leading ``@`` is the abstract namespace).
Outside systemd the variable is unset and every call does nothing, so the
same code runs from a terminal. Failures to send are swallowed and reported
as False: a missing watchdog ping must never crash the game; systemd will
restart us if pings stop for real.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping


def notify(message: str, environ: Mapping[str, str] | None = None) -> bool:
    """Send ``message`` to systemd; True when it was sent."""
    address = (os.environ if environ is None else environ).get("NOTIFY_SOCKET", "")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            # Never wait for systemd: a full socket queue would freeze the ui loop that pings.
            sock.setblocking(False)
            sock.connect(address)
            sock.sendall(message.encode("utf-8"))
    except OSError:  # BlockingIOError included: a message systemd cannot take now is dropped
        return False
    return True


def ready(status: str = "", environ: Mapping[str, str] | None = None) -> bool:
    """Start-up is done: systemd moves the unit from "activating" to "active"."""
    return notify("READY=1" + (f"\nSTATUS={_one_line(status)}" if status else ""), environ)


def watchdog(environ: Mapping[str, str] | None = None) -> bool:
    """I am alive: send after a frame was processed and the screen updated."""
    return notify("WATCHDOG=1", environ)


def stopping(environ: Mapping[str, str] | None = None) -> bool:
    return notify("STOPPING=1", environ)


def status(text: str, environ: Mapping[str, str] | None = None) -> bool:
    """One line shown by ``systemctl status``."""
    return notify(f"STATUS={_one_line(text)}", environ)


def watchdog_interval(environ: Mapping[str, str] | None = None) -> float | None:
    """Seconds between pings (half of WatchdogSec=), or None when no watchdog watches us."""
    env = os.environ if environ is None else environ
    pid = env.get("WATCHDOG_PID")
    if pid and pid != str(os.getpid()):
        return None  # the watchdog is meant for another process (we were forked or exec'd from it)
    try:
        usec = int(env.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    return usec / 2_000_000 if usec > 0 else None


def _one_line(text: str) -> str:
    return " ".join(text.split())
