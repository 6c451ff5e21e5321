"""A few calls of the W3C WebDriver protocol, enough to drive Debian's chromium through chromedriver.

chromedriver speaks plain JSON over HTTP; these twenty lines spare the tests
a client library (selenium and its dependencies) for the handful of calls
the phone view's acceptance test makes.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import time
import urllib.request
from typing import Any

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Browser:
    """A headless chromium session: open a page, run a script in it."""

    def __init__(self) -> None:
        assert CHROMIUM and CHROMEDRIVER
        port = free_port()
        self.driver = subprocess.Popen([CHROMEDRIVER, f"--port={port}"], stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL)
        self.url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 20
        while True:
            try:
                self._call("GET", "/status")
                break
            except OSError:
                if time.monotonic() > deadline:
                    self.driver.kill()
                    raise
                time.sleep(0.1)
        options = {"binary": CHROMIUM, "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                                                "--disable-dev-shm-usage", "--window-size=420,900"]}
        answer = self._call("POST", "/session", {"capabilities": {"alwaysMatch": {"goog:chromeOptions": options}}})
        self.session = f"/session/{answer['sessionId']}"

    def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as answer:
            return json.loads(answer.read())["value"]

    def open(self, url: str) -> None:
        self._call("POST", self.session + "/url", {"url": url})

    def run(self, script: str, *args: Any) -> Any:
        """The value of ``script`` (a function body: ``return ...``) run in the page."""
        return self._call("POST", self.session + "/execute/sync", {"script": script, "args": list(args)})

    def close(self) -> None:
        try:
            self._call("DELETE", self.session)
        finally:
            self.driver.terminate()
            self.driver.wait(10)
