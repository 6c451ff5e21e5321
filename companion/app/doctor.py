"""``companion doctor``: check an installation the way a helpful friend would.

Each check returns findings: ``ok``, ``warn`` (works, but could be better),
or ``fail`` (the companion will not work), each problem with the exact
command that fixes it. Nothing here needs the hardware to be present: on a
machine without camera, OLED or GPIO every check says plainly what it did
not find. Hardware libraries are imported inside the checks.
"""

from __future__ import annotations

import grp
import importlib
import os
import pwd
import shutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from companion.app.config import Config, load_config
from companion.errors import CompanionError

Status = Literal["ok", "warn", "fail"]
SERVICE_USER = "mandala-companion"
DEVICE_GROUPS = ("video", "i2c", "gpio")
MIN_FREE_MB = 100
PANEL_ADDRESSES = (0x3C, 0x3D)
WIRING = "SDA to pin 3, SCL to pin 5, VCC to 3V3 (pin 1), GND to pin 6"
APT_PICAMERA2 = "sudo apt install -y --no-install-recommends python3-picamera2"


@dataclass(frozen=True, slots=True)
class Finding:
    area: str
    status: Status
    message: str
    fix: str = ""

    def lines(self) -> list[str]:
        head = f"{self.status.upper() if self.status != 'ok' else 'ok':<5} {self.area:<9} {self.message}"
        return [head, f"{'':16}fix: {self.fix}"] if self.fix else [head]


@dataclass(frozen=True, slots=True)
class Machine:
    """Where the checks look; tests point it at a temporary folder."""

    dev: Path = Path("/dev")
    user: str | None = None
    """The user the companion runs as: the service user when it exists, else whoever runs doctor."""
    i2c_probe: Callable[[int, int], bool | None] | None = None
    """(bus number, address) -> answered; None: cannot tell. Default: smbus2."""


def ok(area: str, message: str) -> Finding:
    return Finding(area, "ok", message)


def warn(area: str, message: str, fix: str = "") -> Finding:
    return Finding(area, "warn", message, fix)


def fail(area: str, message: str, fix: str = "") -> Finding:
    return Finding(area, "fail", message, fix)


# -- configuration ------------------------------------------------------------------------


def check_config(path: Path | None) -> tuple[Config, list[Finding]]:
    """The configuration, or the defaults when it is broken (so the other checks still run)."""
    try:
        config = load_config(path)
    except CompanionError as error:
        shown = path or Path("/etc/mandala-companion/config.toml")
        return Config(), [fail("config", str(error), f"edit {shown} (keys: docs/configuration.md); "
                                                     "the other checks use the defaults")]
    where = str(config.origin) if config.origin else "no config file: every value is its default"
    found = [ok("config", where)]
    if not config.layout.path.is_file():
        found.append(fail("layout", f"{config.layout.path}: no such layout file",
                          "set [layout] path in the config, or restore calibration/layouts/"))
    return config, found


# -- camera -------------------------------------------------------------------------------


def check_camera(config: Config, machine: Machine) -> list[Finding]:
    settings = config.camera
    videos = sorted(str(p) for p in machine.dev.glob("video*"))
    if settings.source == "path":
        path = Path(settings.device)
        if path.exists():
            return [ok("camera", f"frames from {path}")]
        return [fail("camera", f"{path}: no such folder of frames or video file", "set [camera] device")]
    if settings.source == "v4l2":
        return _check_v4l2(settings.device, videos)
    return _check_picamera2(videos)


def _check_picamera2(videos: list[str]) -> list[Finding]:
    try:
        picamera2 = importlib.import_module("picamera2")
    except ImportError as error:
        fix = (f"{APT_PICAMERA2}; the venv must see it: python3 -m venv --system-site-packages "
               "(hardware/install.sh does both)")
        found = [fail("camera", f"picamera2 cannot be imported ({error})", fix)]
        if videos:
            found.append(warn("camera", f"V4L2 devices exist: {', '.join(videos)}; a USB webcam?",
                              'for a webcam set source = "v4l2" in [camera]'))
        else:
            found.append(warn("camera", "no /dev/video* device either"))
        return found
    try:
        cameras = picamera2.Picamera2.global_camera_info()
    except Exception as error:  # libcamera can fail in many ways without a camera stack
        return [fail("camera", f"libcamera cannot list cameras ({error})", "rpicam-hello --list-cameras")]
    if not cameras:
        return [fail("camera", "picamera2 finds no camera",
                     "power off, reseat the ribbon cable (contacts toward the board), then: rpicam-hello "
                     "--list-cameras")]
    found = [ok("camera", f"{len(cameras)} camera(s): " + ", ".join(str(c.get("Model", "?")) for c in cameras))]
    found.extend(_sensor_modes(picamera2))
    return found


def _sensor_modes(picamera2: object) -> list[Finding]:
    try:
        camera = picamera2.Picamera2(0)  # type: ignore[attr-defined]
    except Exception as error:
        return [warn("camera", f"cannot open camera 0 to list its modes ({error}); is the service using it?",
                     "sudo systemctl stop mandala-companion, then run doctor again")]
    try:
        modes = [f"{m['size'][0]}x{m['size'][1]}@{m.get('fps', 0):.0f}" for m in camera.sensor_modes]
    finally:
        camera.close()
    return [ok("camera", "modes " + ", ".join(modes))]


def _check_v4l2(device: str, videos: list[str]) -> list[Finding]:
    if not videos:
        return [fail("camera", "no /dev/video* device", "plug the webcam in; v4l2-ctl --list-devices lists them")]
    from companion.app.camera import V4L2Source

    camera = V4L2Source(device)
    try:
        with camera:
            frame = camera.read()
    except CompanionError as error:
        return [fail("camera", str(error), "sudo usermod -aG video $USER (then log in again), or check the cable")]
    assert frame is not None
    height, width = frame.image.shape[:2]
    return [ok("camera", f"{camera.name} gives {width}x{height} frames")]


# -- display ------------------------------------------------------------------------------


def check_display(config: Config, machine: Machine) -> list[Finding]:
    settings = config.display
    if settings.display in ("none", "terminal", "dummy"):
        return [ok("display", f"display = {settings.display}: no panel to check")]
    if settings.interface != "i2c":
        return [warn("display", f"interface {settings.interface}: doctor checks only I2C panels")]
    bus = machine.dev / f"i2c-{settings.i2c_port}"
    if not bus.exists():
        return [fail("display", f"{bus} does not exist: I2C is off",
                     "sudo raspi-config nonint do_i2c 0 (then reboot if /dev/i2c-1 does not appear)")]
    if not os.access(bus, os.R_OK | os.W_OK):
        return [fail("display", f"{bus}: no permission", f"sudo usermod -aG i2c {_user_name(machine)}")]
    address = settings.i2c_address
    answer = (machine.i2c_probe or smbus_probe)(settings.i2c_port, address)
    if answer is None:
        return [warn("display", f"{bus} exists; cannot probe without smbus2",
                     f"i2cdetect -y {settings.i2c_port} should show {address:02x}")]
    if answer:
        return [ok("display", f"{settings.display} answers at {address:#04x} on {bus}")]
    other = [a for a in PANEL_ADDRESSES if a != address]
    return [fail("display", f"nothing answers at {address:#04x} on {bus}",
                 f"check the wiring ({WIRING}); i2cdetect -y {settings.i2c_port}; a panel at "
                 f"{other[0]:#04x} needs i2c_address = \"{other[0]:#04x}\" in [display]")]


def smbus_probe(port: int, address: int) -> bool | None:
    """True when a device acknowledges ``address``; None when smbus2 is missing."""
    try:
        smbus2 = importlib.import_module("smbus2")
    except ImportError:
        return None
    try:
        with smbus2.SMBus(port) as smbus:
            smbus.read_byte(address)
    except OSError:
        return False
    return True


# -- buttons ------------------------------------------------------------------------------


def check_buttons(config: Config, machine: Machine) -> list[Finding]:
    chips = sorted(machine.dev.glob("gpiochip*"))
    pins = ", ".join(f"{name} GPIO{pin}" for name, pin in config.buttons.pins().items())
    if not chips:
        return [fail("buttons", f"no /dev/gpiochip*: not a Raspberry Pi? (buttons {pins})")]
    if not all(os.access(chip, os.R_OK | os.W_OK) for chip in chips):
        return [fail("buttons", f"{chips[0]}: no permission", f"sudo usermod -aG gpio {_user_name(machine)}")]
    found = [ok("buttons", f"{len(chips)} GPIO chip(s); buttons {pins}")]
    try:
        importlib.import_module("lgpio")
    except ImportError:
        found.append(warn("buttons", "lgpio is missing (gpiozero's backend on a Pi 5)",
                          "sudo apt install -y python3-lgpio (the venv sees it with --system-site-packages)"))
    return found


def press_test(config: Config, ask: Callable[[str], str], wait_s: float = 10.0) -> list[Finding]:
    """Offer to press each button; only called when a person sits at a terminal."""
    if ask("Test the buttons now? Press each when asked [y/N] ").strip().lower() not in ("y", "yes"):
        return []
    from threading import Event

    from gpiozero import Button  # type: ignore[import-untyped]

    found = []
    for name, pin in config.buttons.pins().items():
        pressed = Event()
        with Button(pin, pull_up=True) as button:
            button.when_pressed = pressed.set
            print(f"  press {name} (GPIO{pin}) within {wait_s:g} s ...", flush=True)
            if pressed.wait(wait_s):
                found.append(ok("buttons", f"{name} on GPIO{pin} works"))
            else:
                found.append(fail("buttons", f"{name} on GPIO{pin}: no press seen",
                                  f"wire the button between GPIO{pin} and GND"))
    return found


# -- decoders, groups, disk ---------------------------------------------------------------


def check_decoders(config: Config) -> list[Finding]:
    found = []
    chosen = config.vision.decoder
    for name, module, fix in (("zxing", "zxingcpp", ".venv/bin/pip install zxing-cpp"),
                              ("pyzbar", "pyzbar.pyzbar", "sudo apt install -y libzbar0")):
        in_use = chosen.split("-")[0] == name
        try:
            importlib.import_module(module)
        except ImportError as error:  # pyzbar raises ImportError when libzbar0 is missing
            make = fail if in_use else warn
            found.append(make("decoder", f"{name} unavailable ({error})", fix))
            continue
        found.append(ok("decoder", f"{name} available" + (" (in use)" if in_use else "")))
    return found


def check_groups(machine: Machine) -> list[Finding]:
    user = _user_name(machine)
    try:
        entry = pwd.getpwnam(user)
    except KeyError:
        return [fail("groups", f"no user {user}", "sudo hardware/install.sh creates it")]
    if entry.pw_uid == 0:
        return [ok("groups", "running as root: every device is reachable (the service runs as "
                             f"{SERVICE_USER})")]
    member = {g.gr_name for g in grp.getgrall() if user in g.gr_mem} | {grp.getgrgid(entry.pw_gid).gr_name}
    missing = [g for g in DEVICE_GROUPS if g not in member]
    if not missing:
        return [ok("groups", f"{user} is in {', '.join(DEVICE_GROUPS)}")]
    absent = [g for g in missing if not _group_exists(g)]
    fix = f"sudo usermod -aG {','.join(missing)} {user}"
    if absent:
        fix = f"sudo groupadd --system {' '.join(absent)} && {fix}"
    return [fail("groups", f"{user} is not in {', '.join(missing)}", fix)]


def _group_exists(name: str) -> bool:
    try:
        grp.getgrnam(name)
    except KeyError:
        return False
    return True


def _user_name(machine: Machine) -> str:
    if machine.user:
        return machine.user
    try:
        pwd.getpwnam(SERVICE_USER)
    except KeyError:
        return pwd.getpwuid(os.getuid()).pw_name
    return SERVICE_USER


def check_state_dir(config: Config) -> list[Finding]:
    folder = config.state_dir
    existing = next((p for p in (folder, *folder.parents) if p.exists()), Path("/"))
    free_mb = shutil.disk_usage(existing).free // 2**20
    found = []
    if folder.exists():
        found.append(ok("journal", f"{folder} exists") if os.access(folder, os.W_OK)
                     else fail("journal", f"{folder}: not writable for this user",
                               f"sudo chown {SERVICE_USER}: {folder}"))
        found.extend(_journal_state(folder))
    else:
        found.append(warn("journal", f"{folder} does not exist yet (systemd makes it when the service starts)",
                          f"sudo install -d -o {SERVICE_USER} -g {SERVICE_USER} {folder}"))
    found.append(ok("disk", f"{free_mb} MB free for the journal") if free_mb >= MIN_FREE_MB
                 else fail("disk", f"only {free_mb} MB free on {existing}",
                           "sudo apt clean; sudo journalctl --vacuum-size=50M"))
    return found


def _journal_state(folder: Path) -> list[Finding]:
    from companion.app.journal import JOURNAL_FILE, Journal

    if not (folder / JOURNAL_FILE).exists():
        return []
    try:
        with Journal.read(folder) as journal:
            games = journal.games()
            findings = journal.findings
    except CompanionError as error:
        return [fail("journal", str(error))]
    running = sum(1 for g in games if g.running)
    return [ok("journal", f"{len(games)} game(s), {running} running"),
            *(warn("journal", finding) for finding in findings)]


# -- all ----------------------------------------------------------------------------------


def run_checks(config_path: Path | None, machine: Machine = Machine(),
               ask: Callable[[str], str] | None = None) -> list[Finding]:
    config, findings = check_config(config_path)
    groups: Iterable[Callable[[], list[Finding]]] = (
        lambda: check_camera(config, machine),
        lambda: check_display(config, machine),
        lambda: check_buttons(config, machine),
        lambda: check_decoders(config),
        lambda: check_groups(machine),
        lambda: check_state_dir(config),
    )
    for check in groups:
        findings.extend(check())
    buttons_present = any(f.area == "buttons" and f.status == "ok" for f in findings)
    if ask is not None and buttons_present:
        findings.extend(press_test(config, ask))
    return findings


def report(findings: list[Finding]) -> tuple[str, int]:
    """The text to print and the exit status (1 when anything failed)."""
    lines = [line for finding in findings for line in finding.lines()]
    failed = sum(1 for f in findings if f.status == "fail")
    warned = sum(1 for f in findings if f.status == "warn")
    if failed:
        lines.append(f"{failed} problem(s), {warned} warning(s): fix them with the commands above")
    else:
        lines.append("all good" + (f" ({warned} warning(s))" if warned else ""))
    return "\n".join(lines), 1 if failed else 0
