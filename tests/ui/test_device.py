"""The display factory: luma cmdline names, dummy for tests, one-line errors."""

from __future__ import annotations

from unittest.mock import Mock

import pytest
from luma.core import cmdline
from luma.core.device import dummy

from companion.errors import ConfigError, DeviceError
from companion.ui.device import DisplaySettings, NullDisplay, ReconnectingDisplay, create_device
from tests.ui.conftest import FakeClock


def test_defaults_are_an_ssd1306_on_i2c_0x3c() -> None:
    settings = DisplaySettings()
    assert (settings.display, settings.interface, settings.i2c_port, settings.i2c_address) == (
        "ssd1306", "i2c", 1, 0x3C)


def test_settings_round_trip_through_lumas_own_parser() -> None:
    settings = DisplaySettings.from_mapping(
        {"display": "sh1106", "i2c_address": "0x3D", "rotate": 2, "i2c_port": "0"})
    args = cmdline.create_parser(description="t").parse_args(settings.luma_args())
    assert (args.display, args.interface, args.i2c_port, args.rotate) == ("sh1106", "i2c", 0, 2)
    assert int(args.i2c_address, 16) == 0x3D and (args.width, args.height) == (128, 64)


@pytest.mark.parametrize("values, word", [
    ({"display": "ssd9999"}, "display='ssd9999'"),
    ({"colour": 1}, "'colour'"),
    ({"i2c_address": "sixty"}, "i2c_address='sixty'"),
    ({"rotate": 5}, "rotate=5"),
    ({"rotate": 1}, "rotate=1 is not 0 or 2"),  # the screens are landscape only
    ({"rotate": 3}, "rotate=3 is not 0 or 2"),
    ({"interface": "spi"}, "interface='spi' is not supported: only i2c"),
])
def test_bad_settings_name_the_key(values: dict[str, object], word: str) -> None:
    with pytest.raises(ConfigError, match=word):
        DisplaySettings.from_mapping(values)


def test_dummy_device_for_tests() -> None:
    device = create_device(DisplaySettings(display="dummy"))
    assert isinstance(device, dummy) and device.mode == "1" and device.size == (128, 64)


def test_none_device_drops_frames() -> None:
    assert isinstance(create_device(DisplaySettings(display="none")), NullDisplay)


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106", "ssd1309"])
def test_panels_are_built_by_luma_on_the_configured_i2c_address(
        chip: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import luma.core.interface.serial as serial

    made: list[dict[str, object]] = []

    def fake_i2c(**kwargs: object) -> Mock:
        made.append(kwargs)
        return Mock(unsafe=True)

    monkeypatch.setattr(serial, "i2c", fake_i2c)
    device = create_device(DisplaySettings(display=chip, i2c_address=0x3D))
    assert type(device).__name__ == chip
    assert made == [{"port": 1, "address": "0x3d"}]


def test_a_missing_bus_is_a_one_line_device_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import luma.core.interface.serial as serial
    from luma.core.error import DeviceNotFoundError

    def no_bus(**kwargs: object) -> None:
        raise DeviceNotFoundError("I2C device not found: /dev/i2c-7")

    monkeypatch.setattr(serial, "i2c", no_bus)
    with pytest.raises(DeviceError, match=r"display ssd1306 on i2c port 7 address 0x3c: I2C device not found") as info:
        create_device(DisplaySettings(i2c_port=7))
    assert "\n" not in str(info.value)


def test_importing_the_ui_does_not_import_luma_or_gpiozero() -> None:
    import subprocess
    import sys

    code = ("import sys, companion.ui.device, companion.ui.buttons, companion.ui.controller;"
            "print(sorted(m for m in sys.modules if m.startswith(('luma', 'gpiozero'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


class Panels:
    """A factory for ReconnectingDisplay: no panel until ``present``, then luma dummies; counts attempts."""

    def __init__(self) -> None:
        self.present = False
        self.attempts = 0
        self.made: list[dummy] = []

    def __call__(self, settings: DisplaySettings) -> dummy:
        self.attempts += 1
        if not self.present:
            raise DeviceError("display ssd1306 on i2c port 1 address 0x3c: I2C device not found: /dev/i2c-1")
        self.made.append(dummy(width=128, height=64, mode="1"))
        return self.made[-1]


def a_picture(shade: int) -> object:
    from PIL import Image

    return Image.new("1", (128, 64), shade)


def test_a_panel_that_comes_later_gets_what_it_missed(clock: FakeClock) -> None:
    panels = Panels()
    display = ReconnectingDisplay(DisplaySettings(), retry_s=10.0, factory=panels, clock=clock)
    assert display.device is None and "I2C device not found" in (display.problem or "")
    display.contrast(64)
    display.display(a_picture(1))
    assert panels.attempts == 1  # looked for again only every retry_s, not at every frame
    panels.present = True
    clock.advance(10.0)
    display.display(a_picture(1))
    assert display.device is panels.made[0] and display.problem is None
    assert panels.made[0].image.getbbox() is not None  # the last picture is up at once


def test_a_panel_that_fails_is_dropped_and_found_again(clock: FakeClock) -> None:
    panels = Panels()
    panels.present = True
    display = ReconnectingDisplay(DisplaySettings(), retry_s=5.0, factory=panels, clock=clock)
    first = panels.made[0]
    first.display = Mock(side_effect=OSError(121, "Remote I/O error"))  # unplugged
    display.display(a_picture(0))  # no exception reaches the ui loop
    assert display.device is None and "Remote I/O error" in (display.problem or "")
    assert first.persist  # its exit hook will not write to a panel that is gone
    display.display(a_picture(1))
    assert len(panels.made) == 1
    clock.advance(5.0)
    display.display(a_picture(1))
    assert len(panels.made) == 2 and panels.made[1].image.getbbox() is not None
