"""Configuration: defaults, every key documented, one-line errors naming the key or the line."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from companion.app import config as cfg
from companion.app.config import Config, load_config, parse_config
from companion.errors import ConfigError

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "hardware" / "config.example.toml"
DOCS = ROOT / "docs" / "configuration.md"
COMMENTED_KEY = re.compile(r"^# (\w+ = .+)$")


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def uncommented_example() -> str:
    return "\n".join(COMMENTED_KEY.sub(r"\1", line) for line in EXAMPLE.read_text().splitlines())


def test_no_file_means_defaults(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, ""), environ={})
    assert replace(config, origin=None) == Config()
    assert config.camera.source == "picamera2" and config.camera.resolution == (4608, 2592)
    assert config.buttons.pins() == {"A": 17, "B": 27, "C": 22}
    assert config.layout.path == ROOT / "calibration" / "layouts" / "mandala-playmat.json"
    assert config.state_dir == Path("/var/lib/mandala-companion")


def test_example_file_shows_the_defaults(tmp_path: Path) -> None:
    """Uncommenting every key of the example changes nothing: its values are the defaults."""
    text = uncommented_example()
    assert text.count(" = ") >= 20
    assert replace(load_config(write(tmp_path, text), environ={}), origin=None) == Config()


def test_docs_name_every_key_of_the_example() -> None:
    docs = DOCS.read_text(encoding="utf-8")
    section = ""
    for line in uncommented_example().splitlines():
        if line.startswith("["):
            section = line.strip("[]") + "."
        elif " = " in line and not line.startswith("#"):
            key = section + line.split(" = ")[0]
            assert f"`{key}`" in docs, f"docs/configuration.md does not document {key}"


def test_values_are_read(tmp_path: Path) -> None:
    path = write(tmp_path, """
state_dir = "/tmp/games"
[camera]
source = "v4l2"
device = 0
resolution = [1920, 1080]
fps = 5
focus = 1.6
lens = "wide"
exposure = "normal"
[display]
display = "sh1106"
i2c_address = "0x3D"
[buttons]
a = 5
long_s = 0.8
[tracker]
settle_s = 0.5
first_player = "p2"
[vision]
decoder = "pyzbar"
calibration = "/tmp/cal.json"
[logging]
level = "DEBUG"
""")
    config = load_config(path, environ={"STATE_DIRECTORY": "/ignored"})
    assert config.camera == cfg.CameraSettings("v4l2", "0", (1920, 1080), 5.0, 1.6, 0, "wide", "normal")
    assert (config.display.display, config.display.i2c_address) == ("sh1106", 0x3D)
    assert config.buttons.a == 5 and config.buttons.timing.long_s == 0.8
    assert config.tracker == cfg.TrackerSettings(0.5, "p2")
    assert config.vision.decoder == "pyzbar" and config.logging.level == "debug"
    assert config.vision.calibration == Path("/tmp/cal.json")
    assert config.state_dir == Path("/tmp/games") and config.origin == path


def test_state_directory_from_systemd(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, ""), environ={"STATE_DIRECTORY": "/var/lib/x:/var/lib/y"})
    assert config.state_dir == Path("/var/lib/x")


def test_relative_paths_start_at_the_project(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, '[camera]\nsource = "path"\ndevice = "frames"\n'
                                         '[layout]\npath = "calibration/other.json"\n'), environ={})
    assert config.camera.device == str(ROOT / "frames")
    assert config.layout.path == ROOT / "calibration" / "other.json"


def test_decoder_names_match_the_vision_package() -> None:
    from companion.vision.decoders import DECODERS, DEFAULT_DECODER

    assert cfg.VisionSettings().decoder == DEFAULT_DECODER
    for name in DECODERS:
        assert parse_config({"vision": {"decoder": name}}).vision.decoder == name


@pytest.mark.parametrize(("text", "named"), [
    ("colour = 1", "colour: unknown key"),
    ("camera = 3", "camera: must be a [camera] table"),
    ("[camera]\nsource = \"usb\"", "camera.source: 'usb' is not one of picamera2, v4l2, path"),
    ("[camera]\nfps = \"fast\"", "camera.fps: must be a number"),
    ("[camera]\nfps = -1", "camera.fps: must be 0 or between 0.1 and 240"),
    ("[camera]\nresolution = [1920]", "camera.resolution: must be [width, height]"),
    ("[camera]\nfocus = \"near\"", "camera.focus: must be \"auto\" or a lens position"),
    ("[camera]\nstart_frame = 1.5", "camera.start_frame: must be a whole number"),
    ("[camera]\nsource = \"path\"", "camera.device: source \"path\" needs"),
    ("[camera]\nzoom = 2", "camera.zoom: unknown key"),
    ("[display]\ndisplay = \"lcd\"", "display: display='lcd'"),
    ("[display]\nbrightness = 3", "display: unknown key 'brightness'"),
    ("[buttons]\na = 40", "buttons: a=40 is not a BCM GPIO number"),
    ("[buttons]\nlong_s = \"x\"", "buttons: long_s"),
    ("[tracker]\nfirst_player = \"p3\"", "tracker.first_player: 'p3' is not one of p1, p2"),
    ("[tracker]\nsettle_s = true", "tracker.settle_s: must be a number"),
    ("[vision]\ndecoder = \"opencv\"", "vision.decoder: 'opencv' is not one of zxing"),
    ("[vision]\ncalibration = 3", "vision.calibration: must be a file path"),
    ("[camera]\nlens = \"fisheye\"", "camera.lens: 'fisheye' is not one of standard, wide"),
    ("[camera]\nexposure = \"sport\"", "camera.exposure: 'sport' is not one of short, normal, long"),
    ("[logging]\nlevel = \"loud\"", "logging.level: 'loud' is not one of"),
    ("[layout]\npath = 3", "layout.path: must be a file path"),
    ("state_dir = \"\"", "state_dir: must be a folder path"),
])
def test_bad_values_are_one_line_errors_naming_the_key(tmp_path: Path, text: str, named: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_config(path, environ={})
    message = str(caught.value)
    assert message.startswith(f"{path}: ") and named in message
    assert "\n" not in message


def test_corrupted_file_names_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, '[camera]\nsource = "v4l2"\nfps = = 3\n')
    with pytest.raises(ConfigError, match=r"config\.toml: not valid TOML: .*line 3") as caught:
        load_config(path, environ={})
    assert "\n" not in str(caught.value)


def test_binary_garbage_and_missing_file(tmp_path: Path) -> None:
    garbage = tmp_path / "config.toml"
    garbage.write_bytes(b"\xff\xfe\x00[camera")
    with pytest.raises(ConfigError, match=r"config\.toml: "):
        load_config(garbage, environ={})
    with pytest.raises(ConfigError, match=r"absent\.toml: no such configuration file"):
        load_config(tmp_path / "absent.toml", environ={})


def test_errors_are_also_value_errors() -> None:
    with pytest.raises(ValueError, match=r"^config: camera\.fps"):
        parse_config({"camera": {"fps": "x"}})
