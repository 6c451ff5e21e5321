"""The ``[web]`` section of the configuration and ``--web HOST:PORT``: where the phone view listens.

Kept free of the server library: reading a configuration must not import it.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.errors import ConfigError

DEFAULT_PORT = 8080
PAIRING_SECONDS = 120.0
"""How long a pairing code stays on the panel, waiting to be typed on a phone."""


@dataclass(frozen=True, slots=True)
class WebSettings:
    listen: str = ""
    """``HOST:PORT`` to serve the phone view on; empty: the view is off and nothing listens."""
    controls: bool = True
    """Whether a phone may pair (with the code on the panel) to undo, accept, confirm and start a new game."""

    @property
    def enabled(self) -> bool:
        return bool(self.listen)

    @property
    def address(self) -> tuple[str, int]:
        return parse_listen(self.listen, "web.listen")

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> WebSettings:
        for key in values:
            if key not in ("listen", "controls"):
                raise ConfigError(f"web.{key}: unknown key (known: controls, listen)")
        listen = values.get("listen", "")
        if not isinstance(listen, str):
            raise ConfigError(f"web.listen: must be \"HOST:PORT\" or \"\" (off), got {listen!r}")
        if listen:
            parse_listen(listen, "web.listen")
        controls = values.get("controls", True)
        if not isinstance(controls, bool):
            raise ConfigError(f"web.controls: must be true or false, got {controls!r}")
        return cls(listen=listen, controls=controls)


def parse_listen(text: str, name: str = "--web") -> tuple[str, int]:
    """``"192.168.1.5:8080"``, ``"0.0.0.0:8080"``, ``"[::]:8080"``, ``":8080"`` (every address) -> (host, port).

    Port 0 asks the system for a free port (the log names it).
    """
    host, sep, port_text = text.rpartition(":")
    if not sep or not port_text.isdigit() or len(port_text) > 5 or not 0 <= int(port_text) <= 65535:
        raise ConfigError(f"{name}: {text!r} is not HOST:PORT with a port 0..65535 (e.g. 0.0.0.0:{DEFAULT_PORT})")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
        _check_ip(host, text, name)
    elif not host:
        host = "0.0.0.0"
    elif not _is_host_name(host):
        _check_ip(host, text, name)
    return host, int(port_text)


def _check_ip(host: str, text: str, name: str) -> None:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        raise ConfigError(f"{name}: {text!r}: {host!r} is not an IP address or host name") from None


def _is_host_name(host: str) -> bool:
    labels = host.split(".")
    return (not all(label.isdigit() for label in labels) and len(host) <= 253
            and all(label and len(label) <= 63 and label.replace("-", "").isalnum() and label.isascii()
                    and not label.startswith("-") for label in labels))


LOCAL_NETWORKS = "localhost link-local 10.0.0.0/8 172.16.0.0/12 192.168.0.0/16 fc00::/7"
"""Where the service may talk once the view is on: the machine itself and private (home) networks."""


def systemd_drop_in(settings: WebSettings) -> str:
    """The unit's drop-in (``mandala-companion.service.d/web.conf``) for these settings; "" when the view is off.

    The unit denies every IP address and IP socket; the view needs IP sockets
    and the players' phones, which are on the local network: the drop-in
    allows those and nothing else (IPAddressDeny=any stays).
    """
    if not settings.enabled:
        return ""
    return ("[Service]\n"
            "# Written by hardware/install.sh from [web] of config.toml: the phone view is on.\n"
            f"IPAddressAllow={LOCAL_NETWORKS}\n"
            "RestrictAddressFamilies=AF_INET AF_INET6\n")
