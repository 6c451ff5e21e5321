"""Three buttons (A, B, C): edges in, presses out, commands by context.

Wiring (gpiozero ``Button`` defaults, ``pull_up=True``): each button connects
its GPIO to GND; A on GPIO17 (pin 11), B on GPIO27 (pin 13), C on GPIO22
(pin 15). See ``hardware/wiring.md``.

Debounce and the short/long decision are ours, in :class:`PressDetector`, a
pure function of edge timestamps: gpiozero's mock pins ignore
``bounce_time``, and a clock passed in keeps the tests free of sleeps.
gpiozero is imported only when real (or mock) pins are asked for.
"""

from __future__ import annotations

import enum
import queue
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from companion.errors import ConfigError

ButtonName = Literal["A", "B", "C"]
BUTTONS: tuple[ButtonName, ...] = ("A", "B", "C")
Clock = Callable[[], float]


class PressKind(enum.Enum):
    SHORT = "short"
    LONG = "long"


@dataclass(frozen=True, slots=True)
class Edge:
    """A raw level change of one button, as the pin reported it."""

    button: ButtonName
    pressed: bool
    at: float


@dataclass(frozen=True, slots=True)
class Press:
    button: ButtonName
    kind: PressKind = PressKind.SHORT

    def __str__(self) -> str:
        return self.button if self.kind is PressKind.SHORT else f"{self.button}-long"


@dataclass(frozen=True, slots=True)
class PressTiming:
    debounce_s: float = 0.03
    """Edges this soon after an accepted one are contact bounce."""
    long_s: float = 1.0
    """A press held this long is a long press, reported as soon as it is reached."""


@dataclass(slots=True)
class _ButtonTrack:
    level: bool = False
    """The accepted (debounced) level: True while pressed."""
    raw: bool = False
    changed_at: float = float("-inf")
    pressed_at: float = 0.0
    long_reported: bool = False


class PressDetector:
    """Debounce edges and turn them into short and long presses.

    An edge outside the lockout after the last accepted change is accepted at
    once (no added latency); edges inside it only update the raw level, and
    :meth:`poll` accepts that level when the lockout ends, so a bounce that
    ends in the other state is not lost. A short press is reported on release,
    a long one as soon as the hold time is reached (by :meth:`poll`) and not
    again on release.
    """

    def __init__(self, timing: PressTiming = PressTiming()) -> None:
        self.timing = timing
        self._tracks = {name: _ButtonTrack() for name in BUTTONS}

    def feed(self, edge: Edge) -> list[Press]:
        track = self._tracks[edge.button]
        track.raw = edge.pressed
        if edge.at - track.changed_at < self.timing.debounce_s:
            return []
        return self._accept(edge.button, track, edge.pressed, edge.at)

    def poll(self, now: float) -> list[Press]:
        presses: list[Press] = []
        for name, track in self._tracks.items():
            settled = now - track.changed_at >= self.timing.debounce_s
            if settled and track.raw != track.level:
                presses += self._accept(name, track, track.raw, now)
            if track.level and not track.long_reported and now - track.pressed_at >= self.timing.long_s:
                track.long_reported = True
                presses.append(Press(name, PressKind.LONG))
        return presses

    def _accept(self, name: ButtonName, track: _ButtonTrack, pressed: bool, at: float) -> list[Press]:
        if pressed == track.level:
            return []
        track.level, track.changed_at = pressed, at
        if pressed:
            track.pressed_at, track.long_reported = at, False
            return []
        if track.long_reported:
            return []
        held_long = at - track.pressed_at >= self.timing.long_s
        return [Press(name, PressKind.LONG if held_long else PressKind.SHORT)]

    def is_pressed(self, button: ButtonName) -> bool:
        return self._tracks[button].level


# --- what a press means where ---------------------------------------------------------


class Command(enum.Enum):
    NEXT_SCREEN = "next-screen"
    MENU = "menu"
    MENU_DOWN = "menu-down"
    BACK = "back"
    SELECT = "select"
    CONFIRM = "confirm"
    ACKNOWLEDGE = "acknowledge"
    SHOW_WARNINGS = "show-warnings"
    OVERRIDE = "override"
    UNDO = "undo"
    DISCARD_LESS = "discard-less"
    DISCARD_MORE = "discard-more"
    NEW_GAME = "new-game"
    FIRST_PLAYER = "first-player"
    BRIGHTNESS = "brightness"
    RESTART = "restart"
    POWER_OFF = "power-off"
    JOIN_START = "join-start"
    JOIN_LESS = "join-less"
    JOIN_MORE = "join-more"
    JOIN_NEXT = "join-next"
    JOIN_CANCEL = "join-cancel"
    CHOOSE_FIRST = "choose-first"
    CHOOSE_SECOND = "choose-second"
    SETUP_NEXT = "setup-next"
    SETUP_AGAIN = "setup-again"
    SETUP_CLOSE = "setup-close"


class Context(enum.Enum):
    """What the screen shows decides what a button means."""

    NORMAL = "normal"
    WARNING = "warning"
    DISCARD = "discard"
    MENU = "menu"
    SETUP = "setup"
    OVER = "over"
    CHOICE = "choice"
    JOIN = "join"
    JOIN_OFFER = "join-offer"
    SETUP_TASK = "setup-task"
    """Teaching the playmat or checking stickers, from the set-up menu."""


S, L = PressKind.SHORT, PressKind.LONG
_EVERYWHERE: dict[tuple[ButtonName, PressKind], Command] = {
    ("A", L): Command.MENU,
    ("B", L): Command.UNDO,
}
KEYMAP: dict[Context, dict[tuple[ButtonName, PressKind], Command]] = {
    Context.NORMAL: {**_EVERYWHERE, ("A", S): Command.NEXT_SCREEN,
                     ("B", S): Command.SHOW_WARNINGS, ("C", S): Command.BRIGHTNESS},
    Context.WARNING: {**_EVERYWHERE, ("A", S): Command.ACKNOWLEDGE, ("C", L): Command.OVERRIDE},
    Context.DISCARD: {**_EVERYWHERE, ("A", S): Command.DISCARD_LESS,
                      ("B", S): Command.DISCARD_MORE, ("C", S): Command.CONFIRM},
    Context.MENU: {("A", S): Command.MENU_DOWN, ("A", L): Command.BACK, ("B", S): Command.BACK,
                   ("C", S): Command.SELECT, ("C", L): Command.CONFIRM},
    Context.SETUP: {**_EVERYWHERE, ("A", S): Command.NEXT_SCREEN, ("C", S): Command.FIRST_PLAYER},
    Context.OVER: {**_EVERYWHERE, ("A", S): Command.NEXT_SCREEN, ("C", L): Command.NEW_GAME},
    Context.CHOICE: {**_EVERYWHERE, ("A", S): Command.CHOOSE_FIRST, ("B", S): Command.CHOOSE_SECOND},
    Context.JOIN_OFFER: {**_EVERYWHERE, ("A", S): Command.NEXT_SCREEN, ("C", L): Command.JOIN_START},
    Context.JOIN: {("A", S): Command.JOIN_LESS, ("B", S): Command.JOIN_MORE, ("C", S): Command.JOIN_NEXT,
                   ("B", L): Command.JOIN_CANCEL},
    Context.SETUP_TASK: {("A", S): Command.SETUP_NEXT, ("B", S): Command.SETUP_CLOSE, ("C", S): Command.SETUP_AGAIN},
}
"""Button meanings per context; the screens print the ones a stranger needs."""


def command_for(press: Press, context: Context) -> Command | None:
    return KEYMAP[context].get((press.button, press.kind))


# --- pins -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ButtonSettings:
    """BCM pin numbers; buzzer and LED are optional (None: not fitted)."""

    a: int = 17
    b: int = 27
    c: int = 22
    buzzer: int | None = None
    led: int | None = None
    timing: PressTiming = field(default_factory=PressTiming)

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> ButtonSettings:
        """Build from a configuration section; an unknown key or a bad pin is a ConfigError."""
        known = {"a", "b", "c", "buzzer", "led", "debounce_s", "long_s"}
        for key in values:
            if key not in known:
                raise ConfigError(f"buttons: unknown key {key!r} (known: {', '.join(sorted(known))})")
        default = cls()
        timing = PressTiming(**{k: _seconds(k, values[k]) for k in ("debounce_s", "long_s") if k in values})
        return cls(a=_pin("a", values.get("a", default.a)), b=_pin("b", values.get("b", default.b)),
                   c=_pin("c", values.get("c", default.c)),
                   buzzer=_optional_pin("buzzer", values.get("buzzer")),
                   led=_optional_pin("led", values.get("led")), timing=timing)

    def pins(self) -> dict[ButtonName, int]:
        return {"A": self.a, "B": self.b, "C": self.c}


def _seconds(key: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ConfigError(f"buttons: {key}={value!r} is not a number of seconds")
    try:
        seconds = float(value)
    except ValueError:
        raise ConfigError(f"buttons: {key}={value!r} is not a number of seconds") from None
    if not 0 < seconds <= 10:
        raise ConfigError(f"buttons: {key}={value!r} is not between 0 and 10 seconds")
    return seconds


def _optional_pin(key: str, value: object) -> int | None:
    return None if value is None else _pin(key, value)


def _pin(key: str, value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 27:
        raise ConfigError(f"buttons: {key}={value!r} is not a BCM GPIO number 0..27")
    return value


class GpioButtons:
    """The three buttons through gpiozero; edges are queued with the clock's time.

    gpiozero calls back on its own threads; the queue hands the edges to the
    main loop, so a press that comes while a frame is being drawn waits there
    and is handled on the next :meth:`poll`.
    """

    def __init__(self, settings: ButtonSettings = ButtonSettings(), *, clock: Clock = time.monotonic,
                 pin_factory: object | None = None) -> None:
        from gpiozero import Button  # type: ignore[import-untyped]  # lazy: gpiozero picks a pin factory on first use

        self.clock = clock
        self.detector = PressDetector(settings.timing)
        self._edges: queue.SimpleQueue[Edge] = queue.SimpleQueue()
        self._buttons = []
        for name, pin in settings.pins().items():
            button = Button(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
            button.when_pressed = self._callback(name, True)
            button.when_released = self._callback(name, False)
            self._buttons.append(button)

    def _callback(self, name: ButtonName, pressed: bool) -> Callable[[], None]:
        def on_edge() -> None:
            self._edges.put(Edge(name, pressed, self.clock()))

        return on_edge

    def edges(self) -> list[Edge]:
        drained: list[Edge] = []
        while True:
            try:
                drained.append(self._edges.get_nowait())
            except queue.Empty:
                return drained

    def poll(self, now: float | None = None) -> list[Press]:
        """Presses completed since the last poll, in order."""
        presses: list[Press] = []
        for edge in self.edges():
            presses += self.detector.feed(edge)
        return presses + self.detector.poll(self.clock() if now is None else now)

    def close(self) -> None:
        for button in self._buttons:
            button.close()

    def __enter__(self) -> GpioButtons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True, slots=True)
class SignalTiming:
    beep_s: float = 0.15
    """One short beep per new warning: heard across the table, not annoying."""
    blink_s: float = 0.15
    blinks: int = 3
    """A new warning flashes the LED this many times, then it stays lit while any warning is open."""


def led_level(open_warnings: bool, new_at: float | None, now: float, timing: SignalTiming = SignalTiming()) -> bool:
    """The LED: off without warnings; flashing for a moment after a new one; else lit."""
    if not open_warnings:
        return False
    if new_at is not None and 0 <= now - new_at < 2 * timing.blinks * timing.blink_s:
        return int((now - new_at) / timing.blink_s) % 2 == 0
    return True


class Signals:
    """Optional buzzer and LED (``buttons.buzzer``, ``buttons.led``): a beep and a flash on a new warning.

    :meth:`show` takes the open warnings (the display model's), :meth:`tick`
    drives the LED from the clock; both run in the runner's ui loop.
    """

    def __init__(self, settings: ButtonSettings, *, pin_factory: object | None = None,
                 timing: SignalTiming = SignalTiming()) -> None:
        from gpiozero import LED, Buzzer

        self.timing = timing
        self.buzzer = None if settings.buzzer is None else Buzzer(settings.buzzer, pin_factory=pin_factory)
        try:
            self.led = None if settings.led is None else LED(settings.led, pin_factory=pin_factory)
        except Exception:
            if self.buzzer is not None:
                self.buzzer.close()
            raise
        self._shown: frozenset[object] = frozenset()
        self._new_at: float | None = None
        self._lit = self._beeping = False

    def show(self, warnings: Iterable[object], now: float) -> None:
        current = frozenset(warnings)
        if current - self._shown:
            self._new_at = now
        self._shown = current
        self.tick(now)

    def tick(self, now: float) -> None:
        """Set both outputs for this moment (the ui loop calls it every few ms: no threads of gpiozero's)."""
        lit = led_level(bool(self._shown), self._new_at, now, self.timing)
        beeping = self._new_at is not None and 0 <= now - self._new_at < self.timing.beep_s
        if self.led is not None and lit != self._lit:
            self.led.value = lit
        if self.buzzer is not None and beeping != self._beeping:
            self.buzzer.value = beeping
        self._lit, self._beeping = lit, beeping

    def close(self) -> None:
        for device in (self.buzzer, self.led):
            if device is not None:
                device.close()
