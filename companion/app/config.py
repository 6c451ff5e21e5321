"""The configuration file: TOML, read once at start, frozen afterwards.

Every key has a default, so an empty or missing file is a working
configuration (a Camera Module 3 and an SSD1306 on I2C bus 1). Any problem
is one :class:`~companion.errors.ConfigError` line that names the file and
the key (``config.toml: camera.fps: ...``) or, for broken TOML, the line.

Nothing passes that the companion could not honour: every number is finite
and within a range (NaN compares false with everything, so a plain range
check would let ``fps = nan`` through and silently stop tracking), strings
hold no NUL, the display has the size the screens are drawn for, and no GPIO
pin serves two things. The file itself is read within
:mod:`companion.limits` (size, nesting, number length; a FIFO is refused
rather than waited on).

The ``display`` and ``buttons`` sections are parsed by the screens' own
settings classes (:mod:`companion.ui.device`, :mod:`companion.ui.buttons`)
so the keys mean the same everywhere. docs/configuration.md lists every key.
"""

from __future__ import annotations

import math
import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Literal, TypeVar

from companion.errors import ConfigError, LimitError
from companion.limits import MAX_CONFIG_BYTES, check_toml, read_bytes
from companion.ui.buttons import ButtonSettings
from companion.ui.device import PANELS, DisplaySettings
from companion.web.settings import WebSettings

DEFAULT_CONFIG = Path("/etc/mandala-companion/config.toml")
DEFAULT_STATE_DIR = Path("/var/lib/mandala-companion")
PROJECT_DIR = Path(__file__).resolve().parents[2]
"""The checkout (``/opt/mandala-companion`` on a Pi); relative paths in the file resolve against it."""
DEFAULT_LAYOUT = Path("calibration/layouts/mandala-playmat.json")

CameraSource = Literal["picamera2", "v4l2", "path"]
CAMERA_SOURCES: tuple[CameraSource, ...] = ("picamera2", "v4l2", "path")
CAMERA_LENSES = ("standard", "wide")
"""The Camera Module 3 lenses (companion/vision/lens.py has their starting intrinsics)."""
EXPOSURE_MODES = ("short", "normal", "long")
"""libcamera's automatic exposure profiles (AeExposureMode); short keeps motion blur down."""
LOG_LEVELS = ("debug", "info", "warning", "error")
CM3_FULL = (4608, 2592)
"""Camera Module 3 full resolution: 16 mm stickers need it (hardware/camera.md)."""
FPS_RANGE = (0.1, 240.0)
"""Frames per second a camera is asked for, or files are paced or were recorded at (0: as fast as possible)."""
SETTLE_RANGE = (0.0, 60.0)
"""Seconds the table must stay still before a change counts as a move."""


@dataclass(frozen=True, slots=True)
class CameraSettings:
    source: CameraSource = "picamera2"
    device: str = ""
    """picamera2: camera number ("" = 0); v4l2: /dev/videoN or its number; path: a folder of frames or a video."""
    resolution: tuple[int, int] = CM3_FULL
    fps: float = 10.0
    """Frames per second asked of the camera; for a path, the pacing (0: as fast as possible)."""
    focus: float | Literal["auto"] = "auto"
    """Lens position in dioptres (1 / metres; 0 = infinity), or "auto": one autofocus sweep at start, then held."""
    start_frame: int = 0
    """path only: skip this many frames, as a camera would show the table as it is now."""
    lens: str = "standard"
    """Which Camera Module 3 lens: its starting intrinsics until companion calibrate measured the lens."""
    exposure: str = "short"
    """picamera2: the automatic exposure profile; "short" keeps exposures short in room light (hardware/camera.md)."""


@dataclass(frozen=True, slots=True)
class LayoutSettings:
    path: Path = PROJECT_DIR / DEFAULT_LAYOUT


@dataclass(frozen=True, slots=True)
class TrackerSettings:
    settle_s: float = 1.0
    """How long the table must stay still before a change counts as a move."""
    first_player: Literal["p1", "p2"] = "p1"


@dataclass(frozen=True, slots=True)
class GameSettings:
    ruleset: str = "mandala"
    """Which game the table plays (interfaces.md section 10): mandala (the official game) or mountains; its
    playmat (``calibration/layouts/<ruleset>-playmat.json``) is the default layout."""


@dataclass(frozen=True, slots=True)
class VisionSettings:
    decoder: str = "zxing"
    calibration: Path | None = None
    """The calibration whose lens model vision maps through; None: STATE_DIR/calibration.json when it has one."""


@dataclass(frozen=True, slots=True)
class LoggingSettings:
    level: str = "info"


@dataclass(frozen=True, slots=True)
class Config:
    camera: CameraSettings = field(default_factory=CameraSettings)
    display: DisplaySettings = field(default_factory=DisplaySettings)
    buttons: ButtonSettings = field(default_factory=ButtonSettings)
    layout: LayoutSettings = field(default_factory=LayoutSettings)
    tracker: TrackerSettings = field(default_factory=TrackerSettings)
    vision: VisionSettings = field(default_factory=VisionSettings)
    logging: LoggingSettings = field(default_factory=LoggingSettings)
    game: GameSettings = field(default_factory=GameSettings)
    web: WebSettings = field(default_factory=WebSettings)
    """The phone view (docs/web.md): off unless ``listen`` is set."""
    state_dir: Path = DEFAULT_STATE_DIR
    origin: Path | None = None
    """The file this was read from; None when every value is a default."""


SECTIONS = ("camera", "display", "buttons", "layout", "tracker", "vision", "logging", "game", "web")
TOP_LEVEL_KEYS = ("state_dir", "ruleset")
"""``ruleset`` at the top level is the same as ``[game] ruleset`` (interfaces.md section 10 names the key)."""


# -- loading ---------------------------------------------------------------------------


def load_config(path: Path | None = None, environ: Mapping[str, str] | None = None) -> Config:
    """Read ``path``, or /etc/mandala-companion/config.toml when it exists, else all defaults.

    The state directory is, first to last: the file's ``state_dir``,
    ``$STATE_DIRECTORY`` (set by systemd's StateDirectory=), /var/lib/mandala-companion.
    """
    env = os.environ if environ is None else environ
    if path is None and not DEFAULT_CONFIG.exists():
        return parse_config({}, None, env)
    source = DEFAULT_CONFIG if path is None else path
    return parse_config(read_toml(source), source, env)


def read_toml(path: Path) -> dict[str, Any]:
    try:
        text = read_bytes(path, MAX_CONFIG_BYTES).decode("utf-8")
        check_toml(text)
        return tomllib.loads(text)
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such configuration file") from None
    except tomllib.TOMLDecodeError as error:
        # The message already says "(at line N, column M)".
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    except UnicodeDecodeError as error:
        raise ConfigError(f"{path}: not UTF-8 text (byte {error.start})") from None
    except LimitError as error:
        raise ConfigError(f"{path}: {error}") from None
    except (RecursionError, ValueError) as error:  # check_toml fences these off; the last fence
        raise ConfigError(f"{path}: cannot be read ({type(error).__name__})") from None
    except OSError as error:
        raise ConfigError(f"{path}: cannot read ({error.strerror})") from None


def parse_config(data: Mapping[str, Any], origin: Path | None = None,
                 environ: Mapping[str, str] | None = None) -> Config:
    """Validate a decoded TOML document; errors name ``origin`` and the key."""
    env = os.environ if environ is None else environ
    prefix = f"{origin}: " if origin else "config: "
    try:
        return _build(data, origin, env)
    except ConfigError as error:
        raise ConfigError(prefix + str(error)) from None


def _build(data: Mapping[str, Any], origin: Path | None, env: Mapping[str, str]) -> Config:
    _refuse_nul(data, "")
    for key, value in data.items():
        if key in SECTIONS:
            if not isinstance(value, dict):
                raise ConfigError(f"{key}: must be a [{key}] table, got {value!r}")
        elif key not in TOP_LEVEL_KEYS:
            raise ConfigError(f"{key}: unknown key (known: {', '.join((*TOP_LEVEL_KEYS, *SECTIONS))})")
    def section(name: str) -> dict[str, Any]:
        return dict(data.get(name, {}))

    display = _delegate("display", section("display"), DisplaySettings.from_mapping)
    buttons = _delegate("buttons", section("buttons"), ButtonSettings.from_mapping)
    _check_display(display)
    _check_pins(buttons, display)
    game = _game(section("game"), data.get("ruleset"))
    return Config(
        camera=_camera(section("camera")),
        display=display,
        buttons=buttons,
        layout=LayoutSettings(_path(section("layout"), "layout.path", _default_layout(game.ruleset))),
        tracker=_tracker(section("tracker")),
        vision=_vision(section("vision")),
        logging=LoggingSettings(_choice(_only(section("logging"), "logging", {"level"}), "logging.level",
                                        LOG_LEVELS, "info", lower=True)),
        game=game,
        web=_delegate("web", section("web"), WebSettings.from_mapping),
        state_dir=_state_dir(data, env),
        origin=origin,
    )


T = TypeVar("T")


def _delegate(name: str, values: dict[str, Any], build: Callable[[Mapping[str, Any]], T]) -> T:
    """The screens' parsers say "display: ..."; make any slip there a ConfigError too."""
    try:
        return build(values)
    except ConfigError:
        raise
    except (TypeError, ValueError) as error:
        raise ConfigError(f"{name}: {error}") from None


def _only(values: Mapping[str, Any], name: str, known: set[str]) -> Mapping[str, Any]:
    for key in values:
        if key not in known:
            raise ConfigError(f"{name}.{key}: unknown key (known: {', '.join(sorted(known))})")
    return values


def _camera(values: dict[str, Any]) -> CameraSettings:
    known = {"source", "device", "resolution", "fps", "focus", "start_frame", "lens", "exposure"}
    _only(values, "camera", known)
    default = CameraSettings()
    source = _choice(values, "camera.source", CAMERA_SOURCES, default.source)
    device = _string(values, "camera.device", default.device)
    if source == "path" and not device:
        raise ConfigError("camera.device: source \"path\" needs the folder of frames or the video file")
    if source == "picamera2" and device and not device.isdigit():
        raise ConfigError(f"camera.device: picamera2 takes a camera number, got {device!r}")
    return CameraSettings(
        source=source,  # type: ignore[arg-type]  # checked by _choice
        device=str(PROJECT_DIR / device) if source == "path" and not Path(device).is_absolute() else device,
        resolution=_resolution(values, "camera.resolution", default.resolution),
        fps=_number(values, "camera.fps", default.fps, FPS_RANGE, zero=True),
        focus=_focus(values, default.focus),
        start_frame=int(_number(values, "camera.start_frame", default.start_frame, (0, 10**9), integer=True)),
        lens=_choice(values, "camera.lens", CAMERA_LENSES, default.lens),
        exposure=_choice(values, "camera.exposure", EXPOSURE_MODES, default.exposure),
    )


def _tracker(values: dict[str, Any]) -> TrackerSettings:
    _only(values, "tracker", {"settle_s", "first_player"})
    default = TrackerSettings()
    return TrackerSettings(
        settle_s=_number(values, "tracker.settle_s", default.settle_s, SETTLE_RANGE),
        first_player=_choice(values, "tracker.first_player", ("p1", "p2"), default.first_player),  # type: ignore[arg-type]
    )


def _game(values: dict[str, Any], top: object = None) -> GameSettings:
    from companion.engine.rulesets import RULESETS

    _only(values, "game", {"ruleset"})
    if top is not None:
        chosen = _choice({"ruleset": top}, "ruleset", tuple(RULESETS), GameSettings().ruleset)
        if values.get("ruleset", chosen) != chosen:
            raise ConfigError(f"ruleset {chosen!r} and game.ruleset {values['ruleset']!r} disagree: give one")
        values = {**values, "ruleset": chosen}
    return GameSettings(ruleset=_choice(values, "game.ruleset", tuple(RULESETS), GameSettings().ruleset))


def _default_layout(ruleset: str) -> Path:
    """The ruleset's shipped playmat (the official one's path stays the one it always was)."""
    return LayoutSettings().path if ruleset == GameSettings().ruleset else PROJECT_DIR / DEFAULT_LAYOUT.with_name(
        f"{ruleset}-playmat.json")


def with_ruleset(config: Config, ruleset: str) -> Config:
    """The configuration for another ruleset (``run --ruleset``): its playmat too, unless a layout was named."""
    from dataclasses import replace

    layout = config.layout
    if layout.path == _default_layout(config.game.ruleset):
        layout = LayoutSettings(_default_layout(ruleset))
    return replace(config, game=GameSettings(ruleset), layout=layout)


def _vision(values: dict[str, Any]) -> VisionSettings:
    _only(values, "vision", {"decoder", "calibration"})
    calibration = None
    if "calibration" in values:
        calibration = _path({"calibration": values["calibration"]}, "vision.calibration", Path())
    if "decoder" not in values:
        return VisionSettings(calibration=calibration)  # reading a config stays free of numpy
    from companion.vision.decoders import DECODERS

    return VisionSettings(_choice(values, "vision.decoder", tuple(DECODERS), VisionSettings().decoder), calibration)


def _state_dir(data: Mapping[str, Any], env: Mapping[str, str]) -> Path:
    if "state_dir" in data:
        value = data["state_dir"]
        if not isinstance(value, str) or not value:
            raise ConfigError(f"state_dir: must be a folder path, got {value!r}")
        return Path(value)
    # systemd may list several folders separated by colons; ours is the first.
    from_systemd = env.get("STATE_DIRECTORY", "").split(":")[0]
    return Path(from_systemd) if from_systemd else DEFAULT_STATE_DIR


# -- values ----------------------------------------------------------------------------


def _key(dotted: str) -> str:
    return dotted.rsplit(".", 1)[-1]


def _choice(values: Mapping[str, Any], dotted: str, choices: tuple[str, ...], default: str,
            lower: bool = False) -> str:
    value = values.get(_key(dotted), default)
    text = value.lower() if lower and isinstance(value, str) else value
    if text not in choices:
        raise ConfigError(f"{dotted}: {value!r} is not one of {', '.join(choices)}")
    return str(text)


def _string(values: Mapping[str, Any], dotted: str, default: str) -> str:
    value = values.get(_key(dotted), default)
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)  # device = 0 means /dev/video0
    if not isinstance(value, str):
        raise ConfigError(f"{dotted}: must be a string, got {value!r}")
    return value


def _number(values: Mapping[str, Any], dotted: str, default: float, bounds: tuple[float, float], *,
            integer: bool = False, zero: bool = False) -> float:
    value = values.get(_key(dotted), default)
    wrong_type = isinstance(value, bool) or not isinstance(value, int if integer else int | float)
    if wrong_type:
        kind = "a whole number" if integer else "a number"
        raise ConfigError(f"{dotted}: must be {kind}, got {_shown(value)}")
    return check_number(dotted, value, bounds, zero=zero)


def check_number(name: str, value: float, bounds: tuple[float, float], *, zero: bool = False) -> float:
    """``value`` when finite and within ``bounds`` (or exactly 0 with ``zero``); else a ConfigError naming ``name``.

    NaN and infinities never pass (a NaN compares false with every bound); the
    command line's numbers go through here too.
    """
    if not math.isfinite(value):
        raise ConfigError(f"{name}: must be a finite number, got {value!r}")
    low, high = bounds
    if not (low <= value <= high or (zero and value == 0)):
        raise ConfigError(f"{name}: must be {'0 or ' if zero else ''}between {low:g} and {high:g}, got {_shown(value)}")
    return float(value)


def _shown(value: object) -> str:
    """A value as the message shows it: short, whatever the file held (its numbers are short: limits.py)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _refuse_nul(value: object, dotted: str) -> None:
    """No string of the file holds a NUL: no path, device or name can (open() would raise)."""
    if isinstance(value, str) and "\0" in value:
        raise ConfigError(f"{dotted or 'key'}: contains a NUL character, which no path or name may hold")
    if isinstance(value, dict):
        for key, item in value.items():
            _refuse_nul(key, dotted)
            _refuse_nul(item, f"{dotted}.{key}" if dotted else str(key))
    elif isinstance(value, list):
        for item in value:
            _refuse_nul(item, dotted)


def _check_display(display: DisplaySettings) -> None:
    """A panel must have the size the screens are drawn for: luma refuses other images (an AssertionError)."""
    if not 0 <= display.i2c_port <= 99:
        raise ConfigError(f"display: i2c_port={_shown(display.i2c_port)} is not an I2C bus number 0..99")
    if display.display not in (*PANELS, "dummy"):
        return  # the terminal and "none" draw at the screens' size whatever is set
    from companion.ui.screens import SIZE

    if (display.width, display.height) != SIZE:
        raise ConfigError(f"display: width={_shown(display.width)}, height={_shown(display.height)}: the screens "
                          f"are drawn for {SIZE[0]}x{SIZE[1]} panels (the 0.96\" and 1.3\" OLEDs); leave width and "
                          f"height out, or set {SIZE[0]} and {SIZE[1]}")


I2C_PINS = {0: (0, 1), 1: (2, 3)}
"""BCM GPIOs of the Pi's I2C buses (SDA, SCL) on the header."""


def _check_pins(buttons: ButtonSettings, display: DisplaySettings) -> None:
    """Each button, the buzzer and the LED on a GPIO of its own, none on the display's I2C pins."""
    pins = {f"buttons.{f.name}": getattr(buttons, f.name) for f in fields(buttons)}
    taken: dict[int, str] = {}
    if display.display in PANELS and display.interface == "i2c":
        for role, pin in zip(("SDA", "SCL"), I2C_PINS.get(display.i2c_port, ()), strict=False):
            taken[pin] = f"the display's I2C {role} (bus {display.i2c_port})"
    for key, pin in pins.items():
        if not isinstance(pin, int) or isinstance(pin, bool):
            continue  # not fitted (None), or not a pin (the press timing)
        if pin in taken:
            raise ConfigError(f"{key}: GPIO {pin} is already {taken[pin]}; each needs a pin of its own")
        taken[pin] = key


def _resolution(values: Mapping[str, Any], dotted: str, default: tuple[int, int]) -> tuple[int, int]:
    value = values.get(_key(dotted), list(default))
    valid = (isinstance(value, list) and len(value) == 2
             and all(isinstance(v, int) and not isinstance(v, bool) and 16 <= v <= 16384 for v in value))
    if not valid:
        raise ConfigError(f"{dotted}: must be [width, height] in pixels, got {value!r}")
    return int(value[0]), int(value[1])


def _focus(values: Mapping[str, Any], default: float | Literal["auto"]) -> float | Literal["auto"]:
    value = values.get("focus", default)
    if value == "auto":
        return "auto"
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0.0 <= value <= 32.0:
        raise ConfigError(f"camera.focus: must be \"auto\" or a lens position in dioptres 0..32, got {_shown(value)}")
    return float(value)


def _path(values: Mapping[str, Any], dotted: str, default: Path) -> Path:
    _only(values, dotted.split(".")[0], {_key(dotted)})
    value = values.get(_key(dotted))
    if value is None:
        return default
    if not isinstance(value, str) or not value:
        raise ConfigError(f"{dotted}: must be a file path, got {value!r}")
    path = Path(value)
    return path if path.is_absolute() else PROJECT_DIR / path
