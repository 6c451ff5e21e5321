"""The service unit: what it promises, ``systemd-analyze verify`` on it, and its exposure rating."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.web.settings import LOCAL_NETWORKS, WebSettings, systemd_drop_in

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "mandala-companion.service"
EXEC = "/opt/mandala-companion/.venv/bin/companion"
SYSTEM_UNITS = Path("/usr/lib/systemd/system")


def settings() -> dict[str, list[str]]:
    """Key -> values (systemd keys may repeat), comments and sections left out."""
    found: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            found.setdefault(key, []).append(value)
    return found


def test_the_unit_promises_what_issue_6_asks() -> None:
    unit = settings()
    assert unit["Type"] == ["notify"] and unit["Restart"] == ["on-failure"]
    assert int(unit["WatchdogSec"][0]) > 0
    assert unit["ExecStart"] == [f"{EXEC} run --config /etc/mandala-companion/config.toml"]
    assert unit["User"] == ["mandala-companion"]
    assert set(unit["SupplementaryGroups"][0].split()) == {"video", "i2c", "gpio"}
    assert unit["StateDirectory"] == ["mandala-companion"] == unit["ConfigurationDirectory"]
    assert unit["WorkingDirectory"] == ["/var/lib/mandala-companion"]  # writable: lgpio's FIFOs



# The device rules: every node the companion opens, through the group that owns it on Raspberry Pi OS
# (udev rules of raspberrypi-sys-mods and systemd), and nothing else.
DEVICES = {
    # /proc/devices name: (nodes, the group that may open them, who opens them)
    "char-i2c": ("/dev/i2c-*", "i2c", "the OLED (luma.core, smbus2)"),
    "char-gpiochip": ("/dev/gpiochip*", "gpio", "the buttons, buzzer and LED (gpiozero on lgpio)"),
    "char-video4linux": ("/dev/video*", "video", "the CSI camera's ISP nodes (libcamera), USB webcams"),
    "char-media": ("/dev/media*", "video", "libcamera's media controller"),
    "char-dma_heap": ("/dev/dma_heap/*", "video", "libcamera's frame buffers"),
}


def test_the_devices_are_reachable_and_only_they() -> None:
    unit = settings()
    assert unit["DevicePolicy"] == ["closed"] and "PrivateDevices" not in unit
    rules = dict(value.split() for value in unit["DeviceAllow"])
    assert rules == dict.fromkeys(DEVICES, "rw")
    # A device the rules allow is of use only with its group (DevicePolicy is the second lock, not the first).
    assert {group for _, group, _ in DEVICES.values()} == set(unit["SupplementaryGroups"][0].split())
    # No node a Pi 5 lacks (it has no /dev/vchiq; libcamera does not use it on any Pi).
    assert not any(name.startswith("/dev/") for name in rules)
    # Writable only where the journal lives (lgpio's FIFOs go there too).
    assert unit["ProtectSystem"] == ["strict"] and "ReadWritePaths" not in unit


def test_no_network_now_and_a_drop_in_can_grant_it() -> None:
    unit = settings()
    assert unit["IPAddressDeny"] == ["any"] and unit["RestrictAddressFamilies"] == ["AF_UNIX AF_NETLINK"]
    # No network namespace: containers that cannot make one would fail the start (225/NETWORK).
    assert "PrivateNetwork" not in unit
    drop_in = web_drop_in()
    assert drop_in.splitlines() == ["[Service]", f"IPAddressAllow={LOCAL_NETWORKS}",
                                    "RestrictAddressFamilies=AF_INET AF_INET6"]
    # What the installer writes for a configuration with the view on (its comment aside).
    written = systemd_drop_in(WebSettings(listen="0.0.0.0:8080"))
    assert [line for line in written.splitlines() if not line.startswith("#")] == drop_in.splitlines()
    assert systemd_drop_in(WebSettings()) == ""


def web_drop_in() -> str:
    """The drop-in the unit's comment shows for a feature that needs the network (the web view)."""
    text = UNIT.read_text()
    block = text[text.index("web.conf:"):].splitlines()[1:]
    lines = []
    for line in block:
        if not line.startswith("#   "):
            break
        lines.append(line.removeprefix("#   "))
    return "\n".join(lines) + "\n"


def verify_root(tmp_path: Path, with_binary: bool = True) -> Path:
    """A root for ``systemd-analyze verify --root``: the system's units, ours, and a stand-in binary.

    The real binary lives only on an installed Pi; verify checks that
    ExecStart is executable, so the stand-in sits at the same path inside the root.
    """
    root = tmp_path / "root"
    shutil.copytree(SYSTEM_UNITS, root / "usr/lib/systemd/system", symlinks=True)
    (root / "lib").symlink_to("usr/lib")
    (root / "etc/systemd/system").mkdir(parents=True)
    shutil.copy(UNIT, root / "etc/systemd/system" / UNIT.name)
    if with_binary:
        binary = root / EXEC.lstrip("/")
        binary.parent.mkdir(parents=True)
        binary.write_text("#!/bin/sh\n")
        binary.chmod(0o755)
    return root


def verify(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["systemd-analyze", "verify", "--man=no", f"--root={root}",
                           f"/etc/systemd/system/{UNIT.name}"], capture_output=True, text=True, timeout=60)


needs_systemd = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None or not SYSTEM_UNITS.is_dir(),
    reason="systemd-analyze is not installed (apt-get install systemd)")


@needs_systemd
def test_systemd_analyze_verify_passes(tmp_path: Path) -> None:
    done = verify(verify_root(tmp_path))
    # verify exits 0 on unknown keys and bad values, only warning: so no output is allowed either.
    assert (done.returncode, done.stdout + done.stderr) == (0, "")


@needs_systemd
def test_verify_would_catch_a_broken_unit(tmp_path: Path) -> None:
    root = verify_root(tmp_path, with_binary=False)
    unit = root / "etc/systemd/system" / UNIT.name
    unit.write_text(unit.read_text().replace("WatchdogSec=", "WatchdgSec="))
    done = verify(root)
    assert "Unknown key 'WatchdgSec'" in done.stderr
    assert "is not executable" in done.stderr and done.returncode != 0


needs_offline_security = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None
    or "--offline" not in subprocess.run(["systemd-analyze", "--help"], capture_output=True, text=True).stdout,
    reason="systemd-analyze security --offline needs systemd 250 or later")


def exposure(unit: Path) -> float:
    done = subprocess.run(["systemd-analyze", "security", "--offline=true", "--no-pager", str(unit)],
                          capture_output=True, text=True, timeout=60)
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", done.stdout + done.stderr)
    assert match, done.stdout + done.stderr
    return float(match.group(1))


@needs_offline_security
def test_exposure_is_at_most_2() -> None:
    assert exposure(UNIT) <= 2.0


@needs_offline_security
def test_with_the_network_granted_by_a_drop_in_exposure_stays_at_most_2(tmp_path: Path) -> None:
    # systemd-analyze --offline reads one file: merge the drop-in's lines into a copy of the unit.
    merged = UNIT.read_text().replace("RestrictAddressFamilies=AF_UNIX AF_NETLINK\n", "")
    granted = [line for line in web_drop_in().splitlines()[1:] if not line.endswith("=")]
    unit = tmp_path / UNIT.name
    unit.write_text(merged.replace("[Install]", "\n".join(
        [*granted, "RestrictAddressFamilies=AF_UNIX AF_NETLINK"]) + "\n\n[Install]"))
    assert 1.0 <= exposure(unit) <= 2.0
