"""Pairing a phone for the controls: a code shown on the OLED (or in the log), typed on the phone.

Reading the view needs nothing: anyone on the network may watch. The
controls (undo, accept, confirm, new game) change the game, so a phone
gets them only after proving it is at the table: it asks for a code, the
companion shows six digits on its panel (and logs them, for a companion
without a panel) for :data:`~companion.web.settings.PAIRING_SECONDS`, and
the phone sends them back. A right code gives the phone a token (kept in
its browser, sent with each control); a code is void after
:data:`MAX_TRIES` wrong guesses, and tokens live in memory only, so a
restart of the companion unpairs every phone.
"""

from __future__ import annotations

import hmac
import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from companion.web.settings import PAIRING_SECONDS

log = logging.getLogger("companion.web")

MAX_TRIES = 5
"""Wrong codes before the code is void (a million codes: five guesses are a 1 in 200,000 chance)."""
MAX_PHONES = 8
"""Tokens kept; pairing a ninth phone unpairs the one paired longest ago."""


class Pairing:
    """Thread-safe: the web server asks and confirms; the run loop reads the code to show it."""

    def __init__(self, enabled: bool = True, clock: Callable[[], float] = time.monotonic,
                 seconds: float = PAIRING_SECONDS) -> None:
        self.enabled = enabled
        self.clock, self.seconds = clock, seconds
        self._lock = threading.Lock()
        self._code = ""
        self._until = 0.0
        self._tries = 0
        self._tokens: OrderedDict[str, None] = OrderedDict()

    def ask(self) -> float:
        """Show a code (a new one unless one is showing); the seconds it stays up. 0: controls are off."""
        if not self.enabled:
            return 0.0
        with self._lock:
            now = self.clock()
            if not self._code or now >= self._until:
                self._code = f"{secrets.randbelow(10**6):06d}"
                self._until, self._tries = now + self.seconds, 0
                log.warning("phone view: pairing code %s (type it on the phone within %d s)",
                            self._code, round(self.seconds))
            return self._until - now

    def code(self) -> str:
        """The code to show now, "" when none is waiting."""
        with self._lock:
            if self._code and self.clock() >= self._until:
                self._code = ""
            return self._code

    def confirm(self, typed: str) -> str | None:
        """A token for the phone when ``typed`` is the code showing; None otherwise."""
        with self._lock:
            if not self._code or self.clock() >= self._until:
                self._code = ""
                return None
            if not hmac.compare_digest(typed.strip().encode(), self._code.encode()):
                self._tries += 1
                if self._tries >= MAX_TRIES:
                    log.warning("phone view: %d wrong pairing codes, the code is void", self._tries)
                    self._code = ""
                return None
            self._code = ""
            token = secrets.token_urlsafe(24)
            self._tokens[token] = None
            while len(self._tokens) > MAX_PHONES:
                self._tokens.popitem(last=False)
            log.info("phone view: a phone paired (%d paired)", len(self._tokens))
            return token

    def allows(self, token: str | None) -> bool:
        if not token or not self.enabled:
            return False
        with self._lock:
            return any(hmac.compare_digest(token.encode(), known.encode()) for known in self._tokens)
