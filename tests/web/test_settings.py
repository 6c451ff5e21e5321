"""``[web]`` and ``--web HOST:PORT``: off by default, and a wrong address is one line naming it."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.config import parse_config
from companion.cli import main
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


def test_the_drop_in_command_follows_the_configuration(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[web]\nlisten = \"0.0.0.0:8080\"\n")
    assert main(["web", "drop-in", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert "IPAddressAllow=" in out and "RestrictAddressFamilies=AF_INET AF_INET6" in out
    config.write_text("[web]\ncontrols = false\n")
    assert main(["web", "drop-in", "--config", str(config)]) == 0
    assert capsys.readouterr().out == ""
    config.write_text("[web]\nlisten = \"nowhere\"\n")
    assert main(["web", "drop-in", "--config", str(config)]) == 2
