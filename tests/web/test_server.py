"""The phone view's server in process: the page, the live view, the journal's games, pairing and controls.

The server runs as ``companion run`` runs it (uvicorn in a thread on a port
of its own) and is asked over real HTTP.
"""

from __future__ import annotations

import json
import random
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from companion.app.config import parse_config
from companion.app.runner import make_web
from companion.cli import main
from companion.engine import Game, play_random_game
from companion.tracker.commands import AppAction, AppCommand
from companion.tracker.display import DisplayModel, TableWarning
from companion.tracker.tracker import TrackedEvent
from companion.web.live import PhoneView
from companion.web.settings import WebSettings
from tests.app.test_games_cmds import a_journal as games_journal

PAGE_BUDGET = 200_000


@pytest.fixture
def state(tmp_path: Path) -> Path:
    """A journal with a finished game and a running one (the one `companion games`' tests use)."""
    folder, _, _ = games_journal(tmp_path)
    return folder


@pytest.fixture
def view(state: Path) -> Iterator[tuple[PhoneView, str, list[AppCommand]]]:
    phone = PhoneView(WebSettings(listen="127.0.0.1:0"), state)
    sent: list[AppCommand] = []
    phone.send = sent.append
    phone.start()
    assert phone.address is not None
    try:
        yield phone, f"http://127.0.0.1:{phone.address[1]}", sent
    finally:
        phone.stop()


def get(url: str, token: str | None = None) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"} if token else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def post(url: str, body: dict[str, Any] | None = None, token: str | None = None) -> tuple[int, dict[str, Any]]:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    request = urllib.request.Request(url, data=json.dumps(body or {}).encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def printed(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(list(args)) == 0
    return capsys.readouterr().out


def test_api_game_is_exactly_what_games_show_json_prints(view: tuple[PhoneView, str, list[AppCommand]],
                                                         state: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, url, _ = view
    status, headers, body = get(url + "/api/game")
    assert status == 200 and headers["content-type"] == "application/json"
    assert body.decode() == printed(capsys, "games", "show", "--state-dir", str(state), "--json")
    assert get(url + "/api/games/1")[2].decode() == printed(capsys, "games", "show", "1", "--state-dir", str(state),
                                                            "--json")
    assert get(url + "/api/games")[2].decode() == printed(capsys, "games", "list", "--state-dir", str(state), "--json")
    status, headers, record = get(url + "/api/games/1/record")
    assert status == 200 and 'filename="mandala-game-1.jsonl"' in headers["content-disposition"]
    assert record.decode() == printed(capsys, "games", "export", "1", "--state-dir", str(state))
    status, _, missing = get(url + "/api/games/9")
    assert status == 404 and "no game 9" in json.loads(missing)["error"]


def test_the_page_is_ours_alone_and_small(view: tuple[PhoneView, str, list[AppCommand]]) -> None:
    _, url, _ = view
    status, headers, page = get(url + "/")
    assert status == 200 and b"/static/app.js" in page
    assert "default-src 'none'" in headers["content-security-policy"]
    total = len(page)
    for name in ("app.js", "style.css", "icon.svg"):
        status, _, body = get(f"{url}/static/{name}")
        assert status == 200
        total += len(body)
    assert total < PAGE_BUDGET
    assert b"http://" not in page and b"https://" not in page  # no asset from outside
    assert get(url + "/static/../server.py")[0] == 404


def a_session(game: Game | None, events: list[TrackedEvent], game_id: int | None = 2) -> SimpleNamespace:
    return SimpleNamespace(tracker=SimpleNamespace(game=game, events=events, frame=len(events)), game_id=game_id)


def test_the_live_view_and_its_stream(view: tuple[PhoneView, str, list[AppCommand]]) -> None:
    phone, url, _ = view
    game = play_random_game(random.Random(5))
    model = DisplayModel(phase="play", turn="p1", warnings=(TableWarning("color-rule", "Red can't go there.",
                                                                         "Take it back."),))
    with urllib.request.urlopen(url + "/api/events", timeout=10) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        phone.observe(a_session(game, []), model)  # type: ignore[arg-type]
        event = _next_event(stream)
        assert event["final"]["scores"] == {"p1": game.score(0).points, "p2": game.score(1).points}
        assert event["model"]["warnings"][0]["title"] == "RULE OF COLOR"
        assert event["warnings_seen"][0]["reason"] == "color-rule"
        phone.observe(a_session(game, [], game_id=3), model)  # type: ignore[arg-type]
        assert _next_event(stream)["game_id"] == 3
    assert json.loads(get(url + "/api/view")[2])["game_id"] == 3


def _next_event(stream: Any) -> dict[str, Any]:
    while True:
        line = stream.readline().decode()
        if line.startswith("data: "):
            data: dict[str, Any] = json.loads(line[len("data: "):])
            if data is not None:
                return data


def test_controls_refuse_without_pairing(view: tuple[PhoneView, str, list[AppCommand]]) -> None:
    phone, url, sent = view
    for action in ("undo", "accept", "confirm", "new-game", "power-off"):
        status, answer = post(f"{url}/api/control/{action}")
        assert status == 403 and "pair" in answer["error"]
        assert post(f"{url}/api/control/{action}", token="guessed")[0] == 403
    assert sent == []
    assert json.loads(get(url + "/api/pair/status")[2]) == {"paired": False, "controls": True}

    assert post(f"{url}/api/pair")[0] == 200
    code = phone.pairing_code()
    assert len(code) == 6
    assert post(f"{url}/api/pair/confirm", {"code": "x"})[0] == 403
    status, answer = post(f"{url}/api/pair/confirm", {"code": code})
    token = answer["token"]
    assert status == 200 and phone.pairing_code() == ""
    assert json.loads(get(url + "/api/pair/status", token)[2])["paired"] is True

    assert post(f"{url}/api/control/undo", token=token) == (202, {"sent": "undo"})
    assert post(f"{url}/api/control/accept", token=token)[0] == 409  # no warning on the table
    assert post(f"{url}/api/control/power-off", token=token)[0] == 404
    warning = TableWarning("color-rule", "Red can't go there.", "Take it back.", id="812-color-rule-R05")
    phone.model = DisplayModel(phase="play", turn="p1", warnings=(warning,))
    assert post(f"{url}/api/control/accept", {"warning": 0}, token=token)[0] == 202
    assert post(f"{url}/api/control/new-game", token=token)[0] == 202
    assert sent == [AppCommand(AppAction.UNDO), AppCommand(AppAction.OVERRIDE, warning_id="812-color-rule-R05"),
                    AppCommand(AppAction.NEW_GAME)]


def test_controls_off_in_the_configuration(state: Path) -> None:
    phone = PhoneView(WebSettings(listen="127.0.0.1:0", controls=False), state)
    phone.start()
    try:
        assert phone.address is not None
        url = f"http://127.0.0.1:{phone.address[1]}"
        assert post(url + "/api/pair")[0] == 403 and phone.pairing_code() == ""
    finally:
        phone.stop()


def test_nothing_is_built_to_listen_unless_the_view_is_on(tmp_path: Path) -> None:
    assert make_web(parse_config({})) is None
    assert make_web(parse_config({"web": {"listen": ""}})) is None
    assert make_web(parse_config({"web": {"listen": "127.0.0.1:0"}})) is not None


def test_a_taken_port_is_one_line(state: Path) -> None:
    first = PhoneView(WebSettings(listen="127.0.0.1:0"), state)
    first.start()
    try:
        assert first.address is not None
        second = PhoneView(WebSettings(listen=f"127.0.0.1:{first.address[1]}"), state)
        with pytest.raises(OSError, match="cannot listen there"):
            second.start()
    finally:
        first.stop()


def test_the_page_speaks_the_players_language(view: tuple[PhoneView, str, list[AppCommand]]) -> None:
    _, url, _ = view
    english = json.loads(get(url + "/api/strings")[2])
    assert english == {"language": "en", "rtl": False, "strings": {}}
    persian = json.loads(get(url + "/api/strings?language=fa")[2])
    assert persian["rtl"] and persian["strings"]["Mountain"] == "کوه"
    assert get(url + "/api/strings?language=de")[0] == 404
    # Every text the page asks for has its translation, in every language.
    script = (Path(__file__).resolve().parents[2] / "companion/web/static/app.js").read_text()
    page = (Path(__file__).resolve().parents[2] / "companion/web/static/index.html").read_text()
    wanted = set(re.findall(r'\btr\("((?:[^"\\]|\\.)*)"', script))
    wanted |= {json.loads(f'"{text}"') for text in wanted}
    wanted |= {text.strip() for text in re.findall(r'data-tr="">([^<]+)<', page)}
    wanted = {text for text in wanted if "\\u" not in text}
    assert len(wanted) > 40 and "Game over: {result} {one}\u2013{two}" in wanted
    for language in ("fa", "el", "ru"):
        strings = json.loads(get(f"{url}/api/strings?language={language}")[2])["strings"]
        assert not sorted(wanted - set(strings)), language
