"""Acceptance of the phone view: a real headless browser watches ``companion run --web`` follow a game.

One short simulated game (seed 153, 36 moves, one illegal card the players
take back) is rendered at 2304x1296, the smallest size at which the default
16 mm stickers still read, and fed to ``companion run --camera FRAMES
--display none --web 127.0.0.1:PORT`` as fast as it goes. Debian's
chromium, driven through chromedriver, keeps the page open the whole time:
the page must change as frames arrive (without reloading), show the same
scores, turn and warnings as the companion's own answers whenever it shows
the same state, and at the end the same as ``GET /api/game``, which is what
``companion games show --json`` prints once the run is over.

The browser comes with ``./dev test`` (chromium and chromium-driver); without
it these tests are skipped and say so. About 40 s on one core (the render
half of it), so they are marked ``slow``.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.app.journal import Journal
from tests.web.webdriver import CHROMEDRIVER, CHROMIUM, Browser, free_port

ROOT = Path(__file__).resolve().parents[2]
COMPANION = [sys.executable, "-m", "companion"]
SEED, FPS = 153, 4.0

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER),
                       reason="no chromium/chromedriver: `./dev test` installs them (apt chromium chromium-driver)"),
]

PAGE_STATE = """
const text = (id) => { const node = document.getElementById(id); return node ? node.textContent : null; };
if (window.__mark === undefined) window.__mark = Math.random();
return {
  mark: window.__mark,
  seq: Number(document.body.dataset.seq || 0),
  phase: text("phase"),
  turn: document.getElementById("turn").dataset.player || null,
  scores: {p1: text("score-p1"), p2: text("score-p2")},
  warnings: [...document.querySelectorAll("#warnings li")].map((li) => li.dataset.reason),
  warned: [...document.querySelectorAll("#warned li")].map((li) => li.dataset.reason),
  history: document.querySelectorAll("#history li").length,
  link: document.getElementById("link").dataset.state,
};
"""


@pytest.fixture(scope="module")
def frames(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from companion.engine import play_random_game
    from companion.sim.frames import write_game
    from companion.sim.game import script_game
    from companion.sim.scene import SceneOptions
    from companion.vision.layout import load_layout

    out = tmp_path_factory.mktemp("game153-small")
    layout = load_layout()
    script = script_game(play_random_game(random.Random(SEED), first_player=0), layout, seed=SEED)
    assert script.injections, "the game should lay an illegal card, for a warning"
    write_game(out, script, layout, FPS, SceneOptions(resolution=(2304, 1296)))
    return out / "frames"


@pytest.fixture
def browser() -> Iterator[Browser]:
    session = Browser()
    try:
        yield session
    finally:
        session.close()


def fetch(url: str) -> tuple[dict[str, str], bytes]:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return dict(answer.headers), answer.read()


def wait_listening(url: str, process: subprocess.Popen[str], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert process.poll() is None, "companion run ended before it served the view"
        try:
            fetch(url + "/api/view")
            return
        except (OSError, urllib.error.URLError):
            time.sleep(0.05)
    raise AssertionError("the phone view never answered")


def shown_as_the_api_says(page: dict[str, Any], view: dict[str, Any]) -> None:
    """The page's scores, turn and warnings are the view's (the same state: same sequence number)."""
    final = view["final"]
    if final is not None:
        assert page["scores"] == {name: str(score) for name, score in final["scores"].items()}
        assert page["turn"] == final["turn"]
    assert page["warnings"] == [warning["reason"] for warning in view["model"]["warnings"]]
    assert page["warned"] == [warning["reason"] for warning in view["warnings_seen"]]


def test_the_page_follows_the_game_as_frames_arrive(frames: Path, browser: Browser, tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    state = tmp_path / "state"
    state.mkdir()
    run = subprocess.Popen([*COMPANION, "run", "--camera", str(frames), "--fps", "0", "--recorded-fps", str(FPS),
                            "--display", "none", "--state-dir", str(state), "--web", f"127.0.0.1:{port}",
                            "--web-linger", "120"], cwd=ROOT, stderr=(tmp_path / "run.log").open("w"), text=True)
    try:
        wait_listening(url, run)
        browser.open(url + "/")
        seen_seqs: set[int] = set()
        compared = 0
        page: dict[str, Any] = {}
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            headers, body = fetch(url + "/api/view")
            page, view = browser.run(PAGE_STATE), json.loads(body)
            seen_seqs.add(page["seq"])
            if page["seq"] == int(headers["x-view-seq"]) and page["seq"]:
                shown_as_the_api_says(page, view)
                compared += 1
                if view["final"] and view["final"]["winner"]:
                    break  # over, and every cup card revealed
            time.sleep(0.2)
        assert page.get("phase") == "over", f"the page never showed the end: {page}"
        # The page was never reloaded, and it changed many times as the frames came in.
        assert browser.run(PAGE_STATE)["mark"] == page["mark"]
        assert len(seen_seqs) >= 10 and compared >= 5, (sorted(seen_seqs), compared)
        assert page["link"] == "live"

        # At the end: the page shows what GET /api/game says.
        _, body = fetch(url + "/api/game")
        game = json.loads(body)
        final = game["final"]
        page = browser.run(PAGE_STATE)
        assert final["phase"] == "over" and final["winner"] == "p2"
        assert page["scores"] == {name: str(score) for name, score in final["scores"].items()}
        assert page["turn"] == final["turn"]
        assert page["history"] == len(game["record"]) - 1
        with Journal.read(state) as journal:
            latest = journal.latest()
            assert latest is not None
            warned = [json.loads(entry.line)["reason"] for entry in latest.entries if entry.kind == "warning"]
        assert warned and page["warned"] == warned  # the illegal card, as the journal keeps it

        run.send_signal(signal.SIGTERM)
        assert run.wait(timeout=30) == 0
    finally:
        if run.poll() is None:
            run.kill()
            run.wait(timeout=30)
    errors = (tmp_path / "run.log").read_text()
    assert "Traceback" not in errors, errors[-3000:]

    # GET /api/game equals `companion games show --json` at the end of the run.
    shown = subprocess.run([*COMPANION, "games", "show", "--state-dir", str(state), "--json"], cwd=ROOT,
                           capture_output=True, text=True, timeout=60, check=True)
    assert body.decode() == shown.stdout


def sockets_of(pid: int) -> int:
    count = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            count += os.readlink(fd).startswith("socket:")
        except OSError:
            continue  # closed meanwhile
    return count


@pytest.mark.parametrize("web", [False, True])
def test_nothing_listens_unless_the_view_is_on(frames: Path, tmp_path: Path, web: bool) -> None:
    """The process holds no socket at all without --web (and a listening one with it: the check can fail)."""
    port = free_port()
    last = len(list(frames.iterdir()))
    args = [*COMPANION, "run", "--camera", str(frames), "--start-frame", str(last - 12), "--fps", "4",
            "--display", "none", "--state-dir", str(tmp_path)]
    if web:
        args += ["--web", f"127.0.0.1:{port}"]
    run = subprocess.Popen(args, cwd=ROOT, stderr=subprocess.PIPE, text=True)
    try:
        if web:
            wait_listening(f"http://127.0.0.1:{port}", run)
        else:
            time.sleep(2.0)
            assert run.poll() is None, "the run ended before it could be looked at"
        held = sockets_of(run.pid)
        listening = subprocess.run(["ss", "-ltnp"], capture_output=True, text=True).stdout if web else ""
    finally:
        run.wait(timeout=60)
        errors = run.stderr.read() if run.stderr else ""
    assert run.returncode == 0, errors[-2000:]
    if web:
        assert held >= 1 and (not listening or f":{port}" in listening)
    else:
        assert held == 0
