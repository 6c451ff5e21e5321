"""Buttons: our debounce and short/long logic, on gpiozero's MockFactory pins."""

from __future__ import annotations

from collections.abc import Iterator
from threading import Event

import pytest
from gpiozero.pins.mock import MockFactory

from companion.errors import ConfigError
from companion.ui.buttons import (
    ButtonSettings,
    Command,
    Context,
    Edge,
    GpioButtons,
    Press,
    PressDetector,
    PressKind,
    PressTiming,
    Signals,
    SignalTiming,
    command_for,
    led_level,
)
from tests.ui.conftest import FakeClock

SHORT_A = Press("A", PressKind.SHORT)
LONG_A = Press("A", PressKind.LONG)


# --- the pure detector ---


def test_tap_is_one_short_press_on_release() -> None:
    detector = PressDetector()
    assert detector.feed(Edge("A", True, 10.0)) == []
    assert detector.feed(Edge("A", False, 10.2)) == [SHORT_A]


def test_hold_reports_long_once_when_reached_not_again_on_release() -> None:
    detector = PressDetector(PressTiming(long_s=1.0))
    detector.feed(Edge("A", True, 10.0))
    assert detector.poll(10.5) == []
    assert detector.poll(11.0) == [LONG_A]
    assert detector.poll(11.5) == []
    assert detector.feed(Edge("A", False, 12.0)) == []


def test_long_release_without_poll_is_still_long() -> None:
    detector = PressDetector(PressTiming(long_s=1.0))
    detector.feed(Edge("B", True, 0.0))
    assert detector.feed(Edge("B", False, 1.5)) == [Press("B", PressKind.LONG)]


def test_contact_bounce_gives_one_press() -> None:
    detector = PressDetector(PressTiming(debounce_s=0.03))
    presses = []
    for at, level in [(1.000, True), (1.004, False), (1.007, True), (1.010, False), (1.012, True)]:
        presses += detector.feed(Edge("C", level, at))
    presses += detector.poll(1.100)
    for at, level in [(1.200, False), (1.203, True), (1.206, False)]:
        presses += detector.feed(Edge("C", level, at))
    presses += detector.poll(1.300)
    assert presses == [Press("C", PressKind.SHORT)]


def test_a_bounce_that_ends_released_is_resolved_by_poll() -> None:
    # A 10 ms tap: the release falls inside the lockout, yet the button must not stick down.
    detector = PressDetector(PressTiming(debounce_s=0.03))
    detector.feed(Edge("A", True, 5.00))
    assert detector.feed(Edge("A", False, 5.01)) == []
    assert detector.is_pressed("A")
    assert detector.poll(5.05) == [SHORT_A]
    assert not detector.is_pressed("A")


def test_buttons_are_independent() -> None:
    detector = PressDetector()
    detector.feed(Edge("A", True, 0.0))
    detector.feed(Edge("B", True, 0.01))
    assert detector.feed(Edge("B", False, 0.2)) == [Press("B")]
    assert detector.feed(Edge("A", False, 0.3)) == [SHORT_A]


# --- gpiozero pins (MockFactory) ---


@pytest.fixture
def buttons(mock_factory: MockFactory, clock: FakeClock) -> Iterator[GpioButtons]:
    with GpioButtons(clock=clock) as gpio:
        yield gpio


def press_pin(factory: MockFactory, gpio: int) -> None:
    factory.pin(gpio).drive_low()  # buttons pull up: pressed connects the pin to GND


def release_pin(factory: MockFactory, gpio: int) -> None:
    factory.pin(gpio).drive_high()


def test_press_on_the_mock_pin(mock_factory: MockFactory, buttons: GpioButtons,
                               clock: FakeClock) -> None:
    press_pin(mock_factory, 17)
    clock.advance(0.15)
    release_pin(mock_factory, 17)
    assert buttons.poll() == [SHORT_A]
    assert buttons.poll() == []


def test_default_pins_are_17_27_22(mock_factory: MockFactory, buttons: GpioButtons,
                                   clock: FakeClock) -> None:
    for gpio in (17, 27, 22):
        press_pin(mock_factory, gpio)
        clock.advance(0.1)
        release_pin(mock_factory, gpio)
        clock.advance(0.1)
    assert [p.button for p in buttons.poll()] == ["A", "B", "C"]


def test_long_press_on_the_mock_pin(mock_factory: MockFactory, buttons: GpioButtons,
                                    clock: FakeClock) -> None:
    press_pin(mock_factory, 22)
    clock.advance(0.5)
    assert buttons.poll() == []
    clock.advance(0.6)
    assert buttons.poll() == [Press("C", PressKind.LONG)]
    release_pin(mock_factory, 22)
    assert buttons.poll() == []


def test_bounce_on_the_mock_pin(mock_factory: MockFactory, buttons: GpioButtons,
                                clock: FakeClock) -> None:
    # MockPin ignores bounce_time, so every bounce reaches our callbacks.
    for _ in range(3):
        press_pin(mock_factory, 27)
        clock.advance(0.003)
        release_pin(mock_factory, 27)
        clock.advance(0.003)
    press_pin(mock_factory, 27)
    clock.advance(0.2)
    release_pin(mock_factory, 27)
    clock.advance(0.002)
    press_pin(mock_factory, 27)
    clock.advance(0.002)
    release_pin(mock_factory, 27)
    clock.advance(0.1)
    assert buttons.poll() == [Press("B")]


def test_configured_pins(mock_factory: MockFactory, clock: FakeClock) -> None:
    with GpioButtons(ButtonSettings(a=5, b=6, c=13), clock=clock) as gpio:
        press_pin(mock_factory, 6)
        clock.advance(0.1)
        release_pin(mock_factory, 6)
        assert gpio.poll() == [Press("B")]


def test_a_press_during_a_redraw_is_kept_for_the_next_loop(
        mock_factory: MockFactory, buttons: GpioButtons, clock: FakeClock) -> None:
    """The main loop draws; meanwhile gpiozero's callback queues the edges."""
    drawn = Event()

    def slow_redraw() -> None:
        press_pin(mock_factory, 17)  # arrives while the frame is being sent
        clock.advance(0.12)
        release_pin(mock_factory, 17)
        drawn.set()

    assert buttons.poll() == []
    slow_redraw()
    assert drawn.wait(1)
    assert buttons.poll() == [SHORT_A]


# --- settings and keymap ---


def test_settings_from_mapping() -> None:
    settings = ButtonSettings.from_mapping({"a": 5, "led": 12, "long_s": 2})
    assert (settings.a, settings.b, settings.led, settings.timing.long_s) == (5, 27, 12, 2.0)


@pytest.mark.parametrize("values, word", [({"d": 4}, "'d'"), ({"a": 40}, "a=40"),
                                          ({"b": "x"}, "b='x'"), ({"long_s": "soon"}, "long_s='soon'"),
                                          ({"debounce_s": 0}, "debounce_s=0")])
def test_bad_settings_name_the_key(values: dict[str, object], word: str) -> None:
    with pytest.raises(ConfigError, match=word):
        ButtonSettings.from_mapping(values)


def test_keymap_depends_on_the_screen() -> None:
    assert command_for(SHORT_A, Context.NORMAL) is Command.NEXT_SCREEN
    assert command_for(SHORT_A, Context.WARNING) is Command.ACKNOWLEDGE
    assert command_for(Press("C", PressKind.LONG), Context.WARNING) is Command.OVERRIDE
    assert command_for(SHORT_A, Context.DISCARD) is Command.DISCARD_LESS
    assert command_for(Press("B", PressKind.LONG), Context.NORMAL) is Command.UNDO
    assert command_for(Press("C"), Context.WARNING) is None  # a tap never overrides


# --- buzzer and LED ---


def test_a_new_warning_beeps_once_and_flashes_the_led_which_then_stays_lit(mock_factory: MockFactory) -> None:
    signals = Signals(ButtonSettings(buzzer=18, led=23), timing=SignalTiming(beep_s=0.1, blink_s=0.1, blinks=3))
    led, buzzer = mock_factory.pin(23), mock_factory.pin(18)
    try:
        signals.show(["color-rule"], now=10.0)
        assert led.state and buzzer.state  # the first flash, the beep
        signals.tick(10.15)
        assert not led.state and not buzzer.state  # between flashes; the beep is over
        signals.tick(10.25)
        assert led.state and not buzzer.state
        signals.show(["color-rule"], now=11.0)  # the same warning still open: lit, no second beep
        assert led.state and not buzzer.state
        signals.show(["color-rule", "moved-card"], now=12.0)
        assert buzzer.state
        signals.show([], now=12.05)  # put right: dark at once
        assert not led.state
        signals.tick(12.2)
        assert not buzzer.state
        beeps = [after for (_, before), (_, after) in zip(buzzer.states, buzzer.states[1:], strict=False)
                 if after and not before]
        assert len(beeps) == 2
    finally:
        signals.close()


def test_led_level_is_a_pure_function_of_the_clock() -> None:
    timing = SignalTiming(blink_s=0.5, blinks=2)
    assert [led_level(True, 0.0, t, timing) for t in (0.0, 0.6, 1.1, 1.6, 2.0, 9.0)] == [
        True, False, True, False, True, True]
    assert led_level(False, 0.0, 0.0, timing) is False
    assert led_level(True, None, 5.0, timing) is True


def test_signals_are_optional(mock_factory: MockFactory) -> None:
    signals = Signals(ButtonSettings())
    signals.show(["x"], now=0.0)  # nothing fitted: nothing happens, nothing fails
    assert signals.led is None and signals.buzzer is None
