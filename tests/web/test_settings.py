"""``[web]`` and ``--web HOST:PORT``: off by default, and a wrong address is one line naming it."""

from __future__ import annotations

import pytest

from companion.app.config import parse_config
from companion.errors import ConfigError
from companion.web.settings import WebSettings, parse_listen


def test_the_view_is_off_by_default() -> None:
    config = parse_config({})
    assert config.web == WebSettings() and not config.web.enabled


@pytest.mark.parametrize(("text", "address"), [
    ("0.0.0.0:8080", ("0.0.0.0", 8080)), (":8080", ("0.0.0.0", 8080)), ("[::]:80", ("::", 80)),
    ("127.0.0.1:0", ("127.0.0.1", 0)), ("mandala.local:8080", ("mandala.local", 8080)),
])
def test_addresses(text: str, address: tuple[str, int]) -> None:
    assert parse_listen(text) == address


@pytest.mark.parametrize("text", ["8080", "host:", "host:70000", "1.2.3:80", "a b:80", "[nope]:80", "host:-1"])
def test_wrong_addresses_name_the_option(text: str) -> None:
    with pytest.raises(ConfigError, match="--web"):
        parse_listen(text)


@pytest.mark.parametrize(("section", "message"), [
    ({"listen": 8080}, "web.listen: must be"), ({"listen": "x:y"}, "web.listen: 'x:y'"),
    ({"controls": "yes"}, "web.controls"), ({"port": 1}, "web.port: unknown key"),
])
def test_configuration_errors(section: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_config({"web": section})


def test_configured() -> None:
    web = parse_config({"web": {"listen": "0.0.0.0:8080", "controls": False}}).web
    assert web.enabled and web.address == ("0.0.0.0", 8080) and not web.controls
