"""The display device factory: luma.oled panels, luma's dummy, or the terminal.

Settings use the names ``luma.core.cmdline`` gives them (``display``,
``interface``, ``i2c_port``, ``i2c_address``, ``width``, ``height``,
``rotate``), so a luma config file and ours say the same thing. Real panels
are built through ``cmdline.create_device`` exactly as luma's own examples do;
luma is imported only when a device is asked for, so a machine without I2C
imports this module fine.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from companion.errors import ConfigError, DeviceError

log = logging.getLogger("companion.display")

PANELS = ("ssd1306", "sh1106", "ssd1309")
"""luma.oled chips we support: SSD1306 (most 0.96" panels), SH1106 (1.3"), SSD1309 (2.42")."""
PSEUDO = ("dummy", "terminal", "none")
ROTATIONS = (0, 2)
"""Half turns only: a quarter turn would need portrait screens, which are not drawn."""
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
    language: str = "en"
    """The screens' language: en, fa, el or ru (companion/ui/i18n.py)."""

    def __post_init__(self) -> None:
        from companion.ui.i18n import check_language

        check_language(self.language)
        if self.display not in PANELS + PSEUDO:
            raise ConfigError(f"display: display={self.display!r} is not one of {PANELS + PSEUDO}")
        if self.interface != "i2c":
            # SPI panels would need spidev, the spi device group and DC/RST wiring: not built, so not offered.
            raise ConfigError(f"display: interface={self.interface!r} is not supported: only i2c panels are "
                              "(hardware/wiring.md)")
        if self.rotate not in ROTATIONS:
            raise ConfigError(f"display: rotate={self.rotate!r} is not 0 or 2 (the screens are drawn "
                              "128x64 landscape; 2 turns them upside down)")
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


class ReconnectingDisplay:
    """A panel that may be absent, unplugged or come later: the service runs on either way.

    Every call goes to the panel when there is one. When there is none (it
    never answered, or a write failed) the call is remembered instead, and
    the panel is looked for again every ``retry_s``; when it answers, it is
    given the last brightness, power state and picture at once, so it shows
    what it would have shown all along. ``problem`` says why there is no
    panel (None while there is one).
    """

    def __init__(self, settings: DisplaySettings, *, retry_s: float = 10.0,
                 factory: Callable[[DisplaySettings], Any] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.settings, self.retry_s, self.clock = settings, retry_s, clock
        self._factory = factory or create_device
        self.device: Any = None
        self.problem: str | None = None
        self.persist = False
        self._image: Any = None
        self._contrast: int | None = None
        self._shown = True
        self._next_try = float("-inf")
        self._connect()

    @property
    def image(self) -> Any:
        """The last picture asked for, shown or not (what the panel shows once it answers)."""
        return self._image

    # -- what luma devices offer ------------------------------------------------------

    def display(self, image: Any) -> None:
        self._image = image
        self._send("display", image)

    def contrast(self, level: int) -> None:
        self._contrast = level
        self._send("contrast", level)

    def show(self) -> None:
        self._shown = True
        self._send("show")

    def hide(self) -> None:
        self._shown = False
        self._send("hide")

    def cleanup(self) -> None:
        if self.device is not None:
            self.device.persist = self.persist
            self._call("cleanup")

    # -- finding the panel ------------------------------------------------------------

    def _send(self, method: str, *args: Any) -> None:
        if self.device is None:
            self._connect()  # a panel found now gets everything remembered, this call included
        else:
            self._call(method, *args)

    def _connect(self) -> bool:
        """Look for the panel (when a try is due); True when there is one."""
        if self.device is not None:
            return True
        now = self.clock()
        if now < self._next_try:
            return False
        self._next_try = now + self.retry_s
        try:
            device = self._factory(self.settings)
        except DeviceError as error:
            self._absent(str(error))
            return False
        self.device = device
        if self.problem is not None:
            log.warning("display %s answers again", self.settings.display)
        self.problem = None
        return self._replay()

    def _replay(self) -> bool:
        """Give a panel just found the brightness, power state and picture it missed."""
        if self._contrast is not None and not self._call("contrast", self._contrast):
            return False
        if not self._call("show" if self._shown else "hide"):
            return False
        return self._image is None or self._call("display", self._image)

    def _absent(self, why: str) -> None:
        if why != self.problem:
            log.error("display not available (%s): running without it, looking again every %g s; "
                      "`companion doctor` helps", why, self.retry_s)
        self.problem = why

    def _call(self, method: str, *args: Any) -> bool:
        """Call the panel; one that fails is dropped, and looked for again later."""
        device = self.device
        if device is None:
            return False
        try:
            getattr(device, method)(*args)
        except _device_errors() as error:
            self.device = None
            device.persist = True  # luma's exit hook would write to a panel that is gone
            self._next_try = self.clock() + self.retry_s
            first_line = str(error).splitlines()[0] if str(error) else type(error).__name__
            self._absent(f"display {self.settings.display}: {first_line}")
            return False
        return True


def _device_errors() -> tuple[type[BaseException], ...]:
    """What a panel that is gone raises: OSError from the bus, luma's own errors, ours."""
    from luma.core.error import Error as LumaError

    return (OSError, DeviceError, LumaError)
