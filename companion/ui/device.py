"""The display device factory: luma.oled panels, luma's dummy, or the terminal.

Settings use the names ``luma.core.cmdline`` gives them (``display``,
``interface``, ``i2c_port``, ``i2c_address``, ``width``, ``height``,
``rotate``), so a luma config file and ours say the same thing. Real panels
are built through ``cmdline.create_device`` exactly as luma's own examples do;
luma is imported only when a device is asked for, so a machine without I2C
imports this module fine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from companion.errors import ConfigError, DeviceError

PANELS = ("ssd1306", "sh1106", "ssd1309")
"""luma.oled chips we support: SSD1306 (most 0.96" panels), SH1106 (1.3"), SSD1309 (2.42")."""
PSEUDO = ("dummy", "terminal", "none")
"""dummy: luma's in-memory device (tests); terminal: the OLED emulation; none: draw nothing."""


@dataclass(frozen=True, slots=True)
class DisplaySettings:
    display: str = "ssd1306"
    interface: str = "i2c"
    i2c_port: int = 1
    i2c_address: int = 0x3C
    width: int = 128
    height: int = 64
    rotate: int = 0

    def __post_init__(self) -> None:
        if self.display not in PANELS + PSEUDO:
            raise ConfigError(f"display: display={self.display!r} is not one of {PANELS + PSEUDO}")
        if self.interface not in ("i2c", "spi"):
            raise ConfigError(f"display: interface={self.interface!r} is not i2c or spi")
        if self.rotate not in (0, 1, 2, 3):
            raise ConfigError(f"display: rotate={self.rotate!r} is not 0..3")
        if not 0x03 <= self.i2c_address <= 0x77:
            raise ConfigError(f"display: i2c_address={self.i2c_address:#x} is not a 7-bit address")

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> DisplaySettings:
        """From a configuration section; ``i2c_address`` may be ``"0x3C"`` or an int."""
        types = {f.name: f.type for f in fields(cls)}
        parsed: dict[str, Any] = {}
        for key, value in values.items():
            if key not in types:
                raise ConfigError(f"display: unknown key {key!r} (known: {', '.join(types)})")
            parsed[key] = _parse(key, value, str(types[key]))
        return cls(**parsed)

    def luma_args(self) -> list[str]:
        """The same settings as luma.core.cmdline arguments."""
        return ["--display", self.display, "--interface", self.interface,
                "--i2c-port", str(self.i2c_port), "--i2c-address", f"{self.i2c_address:#04x}",
                "--width", str(self.width), "--height", str(self.height),
                "--rotate", str(self.rotate)]


def _parse(key: str, value: object, kind: str) -> object:
    if kind == "str":
        return str(value)
    if isinstance(value, bool):
        raise ConfigError(f"display: {key}={value!r} is not a number")
    if isinstance(value, int):
        return value
    try:
        return int(str(value), 0)  # "0x3C", "60", "1"
    except ValueError:
        raise ConfigError(f"display: {key}={value!r} is not a number") from None


def create_device(settings: DisplaySettings = DisplaySettings()) -> Any:
    """Build the device; raises DeviceError (one line) when the panel cannot be reached."""
    if settings.display == "dummy":
        from luma.core.device import dummy  # type: ignore[import-untyped]

        return dummy(width=settings.width, height=settings.height, rotate=settings.rotate, mode="1")
    if settings.display == "terminal":
        from companion.ui.terminal import TerminalDisplay

        return TerminalDisplay()
    if settings.display == "none":
        return NullDisplay()
    return _create_panel(settings)


def _create_panel(settings: DisplaySettings) -> Any:
    from luma.core import cmdline  # type: ignore[import-untyped]
    from luma.core.error import (  # type: ignore[import-untyped]
         DeviceAddressError,
        DeviceNotFoundError,
        DevicePermissionError,
    )

    args = cmdline.create_parser(description="companion display").parse_args(settings.luma_args())
    try:
        return cmdline.create_device(args)
    except (DeviceNotFoundError, DevicePermissionError, DeviceAddressError, OSError) as error:
        where = f"{settings.interface} port {settings.i2c_port} address {settings.i2c_address:#04x}"
        first_line = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise DeviceError(f"display {settings.display} on {where}: {first_line}") from error


class NullDisplay:
    """Accepts frames and drops them (``--display none``); keeps the last for inspection."""

    def __init__(self) -> None:
        self.image: object | None = None

    def display(self, image: object) -> None:
        self.image = image

    def contrast(self, level: int) -> None:
        pass

    def show(self) -> None:
        pass

    def hide(self) -> None:
        pass

    def cleanup(self) -> None:
        pass
