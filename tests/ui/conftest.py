"""Fixtures for the ui tests: a gpiozero mock pin factory, a fake clock, a fake panel."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from PIL import Image


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    """Swap in gpiozero's MockFactory and restore the previous factory afterwards."""
    saved = Device.pin_factory
    Device.pin_factory = MockFactory()
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = saved


class FakeClock:
    """A clock the test moves by hand: press logic gets exact timestamps, no sleeps."""

    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


class FakePanel:
    """Records what the controller sends to a panel."""

    def __init__(self) -> None:
        self.frames: list[Image.Image] = []
        self.calls: list[str] = []

    def display(self, image: Image.Image) -> None:
        self.frames.append(image.copy())
        self.calls.append("display")

    def contrast(self, level: int) -> None:
        self.calls.append(f"contrast {level}")

    def show(self) -> None:
        self.calls.append("show")

    def hide(self) -> None:
        self.calls.append("hide")


@pytest.fixture
def panel() -> FakePanel:
    return FakePanel()
