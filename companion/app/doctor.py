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
    boot_config: Path = Path("/boot/firmware/config.txt")
    os_release: Path = Path("/etc/os-release")
    model: Path = Path("/proc/device-tree/model")
    service_state: Callable[[], str] | None = None
    """``systemctl is-active`` of the service ("active", "failed", ...; "" without systemd). Default: ask."""
    unit_file: Path = Path("/etc/systemd/system/mandala-companion.service")
    """Where hardware/install.sh puts the service unit: there when the companion is installed as a service."""

    @property
    def on_pi(self) -> bool:
        """A Raspberry Pi: the camera module, the panel on I2C and the GPIO buttons are for it."""
        return self.pi_model is not None and "Raspberry Pi" in self.pi_model

    @property
    def service_installed(self) -> bool:
        return self.unit_file.exists()

    @property
    def release(self) -> str:
        """The Debian codename (bookworm, trixie, ...), "" when unknown."""
        try:
            for line in self.os_release.read_text(encoding="utf-8").splitlines():
                if line.startswith("VERSION_CODENAME="):
                    return line.split("=", 1)[1].strip().strip('"')
        except OSError:
            pass
        return ""

    @property
    def pi_model(self) -> str | None:
        try:
            return self.model.read_bytes().rstrip(b"\0").decode("utf-8", "replace") or None
        except OSError:
            return None


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


# -- system and service ----------------------------------------------------------------


RELEASES = ("bookworm", "trixie")
"""Raspberry Pi OS releases hardware/install.sh knows (package names differ between them)."""


def check_system(machine: Machine) -> list[Finding]:
    found = []
    model = machine.pi_model
    release = machine.release or "unknown"
    if model is not None and "Raspberry Pi" in model:
        found.append(ok("system", f"{model}, Raspberry Pi OS {release}"))
    else:
        found.append(ok("system", f"not a Raspberry Pi ({release}): camera, panel and buttons are for a Pi"))
    if model is not None and release not in RELEASES:
        found.append(warn("system", f"release {release}: hardware/install.sh knows {' and '.join(RELEASES)}",
                          "install Raspberry Pi OS (64-bit) Bookworm or Trixie"))
    from companion.app.camera import PICAMERA2_MIN_VERSION, picamera2_too_old, picamera2_version

    version = picamera2_version()
    if version is not None and version < PICAMERA2_MIN_VERSION:
        message = picamera2_too_old(version)
        found.append(fail("camera", message.split(";")[0], message.split("; ", 1)[1]))
    return found


def check_service(machine: Machine) -> list[Finding]:
    from companion.app.service import SERVICE

    state = (machine.service_state or _service_state)()
    if not state:
        return []  # no systemd here: nothing runs as a service
    if not machine.service_installed and state not in ("active", "activating", "reloading", "failed"):
        if not machine.on_pi:
            return [ok("service", f"{SERVICE} is not installed: on this machine, run `companion run` by hand "
                                  "(the service is for the Pi)")]
        return [warn("service", f"{SERVICE} is not installed", "sudo hardware/install.sh")]
    if state in ("active", "activating", "reloading"):
        return [ok("service", f"{SERVICE} is {state}")]
    if state == "failed":
        return [fail("service", f"{SERVICE} failed",
                     f"journalctl -u {SERVICE} -n 50 says why; then sudo systemctl reset-failed {SERVICE} && "
                     f"sudo systemctl start {SERVICE}")]
    return [warn("service", f"{SERVICE} is {state} (not installed, or stopped)",
                 f"sudo systemctl start {SERVICE}, or install it: sudo hardware/install.sh")]


def _service_state() -> str:
    import subprocess

    from companion.app.service import SERVICE

    if shutil.which("systemctl") is None:
        return ""
    try:
        done = subprocess.run(["systemctl", "is-active", SERVICE], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip()


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
    return _check_picamera2(videos, on_pi=machine.on_pi)


def _camera_off_pi(videos: list[str]) -> list[Finding]:
    """source = "picamera2" on a machine that is no Pi: the Pi camera stack does not exist here."""
    if videos:
        return [fail("camera", f"source picamera2 is the Raspberry Pi camera; this is no Pi, but it has "
                               f"{', '.join(videos)} (a webcam?)",
                     'set source = "v4l2" in [camera] (and device, e.g. "/dev/video0")')]
    return [fail("camera", "source picamera2 is the Raspberry Pi camera; this is no Pi and has no /dev/video* "
                           "either", 'plug in a webcam and set source = "v4l2" in [camera], or replay frames: '
                                     'source = "path" and device = FOLDER')]


def _check_picamera2(videos: list[str], on_pi: bool = False) -> list[Finding]:
    try:
        picamera2 = importlib.import_module("picamera2")
    except ImportError as error:
        if not on_pi:
            return _camera_off_pi(videos)
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
        fix = ("power off, reseat the ribbon cable (contacts toward the board; a Pi 5 needs the 22-to-15-pin "
               "camera cable), power on (a camera connected while running is found only after a reboot), then: "
               "rpicam-hello --list-cameras") if on_pi else "this is no Pi: set [camera] source = \"path\" or \"v4l2\""
        return [fail("camera", "picamera2 finds no camera (the service shows \"camera not found\" and keeps "
                     "looking)", fix)]
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
        if settings.i2c_port == 1 and _i2c_switched_on(machine.boot_config):
            return [fail("display", f"{bus} does not exist yet: I2C is switched on in {machine.boot_config} "
                                    "but not loaded", "sudo reboot (once, after the install)")]
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


def _i2c_switched_on(boot_config: Path) -> bool:
    try:
        lines = boot_config.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return False
    return any(line.strip().replace(" ", "") == "dtparam=i2c_arm=on" for line in lines)


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
    display = config.display.display
    if display == "terminal":
        return [ok("buttons", "display = terminal: the keys a, b and c are the buttons")]
    if display in ("none", "dummy"):
        return [ok("buttons", f"display = {display}: no panel, so no buttons are used")]
    chips = sorted(machine.dev.glob("gpiochip*"))
    pins = ", ".join(f"{name} GPIO{pin}" for name, pin in config.buttons.pins().items())
    if not chips:
        if machine.on_pi:
            return [fail("buttons", f"no /dev/gpiochip* although this is a {machine.pi_model} (buttons {pins})",
                         "every Pi kernel makes them: is this a container or an emulator? On the Pi itself: "
                         "sudo apt full-upgrade, reboot")]
        return [fail("buttons", f"no GPIO here (no /dev/gpiochip*): the buttons are for a Pi (buttons {pins})",
                     'on this machine set display = "terminal" in [display]: the keys a, b, c are the buttons')]
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


def check_decoders(config: Config, machine: Machine = Machine()) -> list[Finding]:
    found = []
    chosen = config.vision.decoder
    zbar = "libzbar0t64" if machine.release == "trixie" else "libzbar0"  # Trixie's 64-bit time name
    for name, module, fix in (("zxing", "zxingcpp", ".venv/bin/pip install zxing-cpp"),
                              ("pyzbar", "pyzbar.pyzbar", f"sudo apt install -y {zbar}")):
        in_use = chosen.split("-")[0] == name
        try:
            importlib.import_module(module)
        except ImportError as error:  # pyzbar raises ImportError when libzbar0 is missing
            make = fail if in_use else warn
            found.append(make("decoder", f"{name} unavailable ({error})", fix))
            continue
        found.append(ok("decoder", f"{name} available" + (" (in use)" if in_use else "")))
    return found


def check_groups(machine: Machine, config: Config | None = None) -> list[Finding]:
    user = _user_name(machine)
    try:
        entry = pwd.getpwnam(user)
    except KeyError:
        return [fail("groups", f"no user {user}", "sudo hardware/install.sh creates it")]
    if entry.pw_uid == 0:
        return [ok("groups", "running as root: every device is reachable (the service runs as "
                             f"{SERVICE_USER})")]
    # Off a Pi there is no I2C panel nor GPIO: only a webcam's group matters.
    needed = DEVICE_GROUPS if machine.on_pi else ("video",) if _uses_webcam(config) else ()
    if not needed:
        return [ok("groups", "no device groups needed on this machine (no Pi camera, panel or GPIO)")]
    missing = [g for g in needed if g not in _groups_of(entry)]
    found = _admin_group(user)
    if not missing:
        return [ok("groups", f"{user} is in {', '.join(needed)}"), *found]
    absent = [g for g in missing if not _group_exists(g)]
    fix = f"sudo usermod -aG {','.join(missing)} {user}"
    if absent:
        fix = f"sudo groupadd --system {' '.join(absent)} && {fix}"
    return [fail("groups", f"{user} is not in {', '.join(missing)}", fix), *found]


def _uses_webcam(config: Config | None) -> bool:
    return config is not None and config.camera.source == "v4l2"


def _groups_of(entry: pwd.struct_passwd) -> set[str]:
    return {g.gr_name for g in grp.getgrall() if entry.pw_name in g.gr_mem} | {grp.getgrgid(entry.pw_gid).gr_name}


def _admin_group(service_user: str) -> list[Finding]:
    """The person running doctor beside the service: may they read the journal and calibrate?"""
    from companion.app.service import ADMIN_GROUP

    me = pwd.getpwuid(os.getuid())
    if me.pw_uid == 0 or me.pw_name == service_user or service_user != SERVICE_USER:
        return []
    if _group_exists(ADMIN_GROUP) and grp.getgrnam(ADMIN_GROUP).gr_gid in os.getgroups():
        return [ok("groups", f"you ({me.pw_name}) are in the admin group {ADMIN_GROUP}")]
    if ADMIN_GROUP in _groups_of(me):
        return [warn("groups", f"you ({me.pw_name}) joined {ADMIN_GROUP} but this login started before",
                     "log out and in again (or: newgrp mandala-companion)")]
    return [warn("groups", f"you ({me.pw_name}) are not in the admin group {ADMIN_GROUP}: games list and "
                 "calibrate need it", f"sudo usermod -aG {ADMIN_GROUP} {me.pw_name}, then log in again")]


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
                     else fail("journal", f"{folder}: not writable for this user", _state_dir_fix(folder)))
        found.extend(_journal_state(folder))
    elif _user_exists(SERVICE_USER):
        found.append(warn("journal", f"{folder} does not exist yet (systemd makes it when the service starts)",
                          "sudo systemctl start mandala-companion"))
    else:
        found.append(warn("journal", f"{folder} does not exist: the companion is not installed as a service here",
                          "run it with a folder of your own: companion run --state-dir ~/mandala "
                          "(on a Pi, sudo hardware/install.sh makes the service and its folder)"))
    found.append(ok("disk", f"{free_mb} MB free for the journal") if free_mb >= MIN_FREE_MB
                 else fail("disk", f"only {free_mb} MB free on {existing}",
                           "sudo apt clean; sudo journalctl --vacuum-size=50M"))
    return found


def _state_dir_fix(folder: Path) -> str:
    from companion.app.service import ADMIN_GROUP

    me = pwd.getpwuid(os.getuid()).pw_name
    try:
        group = grp.getgrgid(folder.stat().st_gid).gr_name
    except (KeyError, OSError):
        group = ""
    if group == ADMIN_GROUP and me != SERVICE_USER:
        return f"sudo usermod -aG {ADMIN_GROUP} {me}, then log in again (members read the journal)"
    return f"sudo chown {SERVICE_USER if _user_exists(SERVICE_USER) else me}: {folder}"


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


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
        lambda: check_system(machine),
        lambda: check_service(machine),
        lambda: check_camera(config, machine),
        lambda: check_display(config, machine),
        lambda: check_buttons(config, machine),
        lambda: check_decoders(config, machine),
        lambda: check_groups(machine, config),
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
