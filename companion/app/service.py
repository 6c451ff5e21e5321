"""The installed service, as a command run beside it sees it: running? then pause it for a while.

The service holds the camera and the panel; only one program may use a
camera at a time. ``companion calibrate`` therefore pauses the service,
does its work and starts it again: :func:`paused`. Root may always do so;
a login user may when it is in the service's group (``mandala-companion``,
the admin group), which the polkit rule of ``hardware/install.sh`` lets
start and stop exactly this unit. Anyone else gets one line saying how.
On a machine without systemd (a laptop, CI) there is no service to pause.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from companion.errors import DeviceError

SERVICE = "mandala-companion.service"
ADMIN_GROUP = "mandala-companion"
"""The service user's own group: its members may read the journal and pause the service."""

log = logging.getLogger("companion.service")
Run = Callable[[Sequence[str]], subprocess.CompletedProcess[str]]


def systemctl(arguments: Sequence[str]) -> subprocess.CompletedProcess[str]:
    """Run systemctl; where there is none, answer as for a unit that is not there (exit 4)."""
    if shutil.which("systemctl") is None:
        return subprocess.CompletedProcess(list(arguments), 4, "", "no systemctl here")
    # --no-ask-password: polkit allows it by the rule, or refuses; never a password prompt mid-command.
    return subprocess.run(["systemctl", "--no-ask-password", *arguments], capture_output=True, text=True,
                          timeout=60, check=False)


def is_active(run: Run | None = None) -> bool:
    """True when the service is running (or starting); False too where there is no systemctl."""
    try:
        return (run or systemctl)(["is-active", "--quiet", SERVICE]).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


@contextmanager
def paused(why: str, *, restart: bool = True, run: Run | None = None) -> Iterator[bool]:
    """Stop the service for the block if it runs, and start it again after (unless ``restart`` is False).

    Yields whether it was running. Raises DeviceError, naming the way out,
    when it runs and may not be stopped by this user.
    """
    run = run or systemctl
    if not is_active(run):
        yield False
        return
    print(f"pausing {SERVICE} {why} ...", file=sys.stderr)
    stopped = run(["stop", SERVICE])
    if stopped.returncode != 0:
        reason = (stopped.stderr or stopped.stdout).strip().splitlines()
        raise DeviceError(f"{SERVICE} is running and holds the camera, and this user may not pause it "
                          f"({reason[0] if reason else f'systemctl exit {stopped.returncode}'}): run it with sudo, "
                          f"or join the admin group once: sudo usermod -aG {ADMIN_GROUP} $USER (then log in again)")
    try:
        yield True
    finally:
        if restart:
            started = run(["start", SERVICE])
            if started.returncode == 0:
                print(f"{SERVICE} started again", file=sys.stderr)
            else:
                print(f"{SERVICE} did not start again: sudo systemctl start {SERVICE}", file=sys.stderr)
        else:
            print(f"{SERVICE} stays stopped; start it again with: sudo systemctl start {SERVICE}",
                  file=sys.stderr)
