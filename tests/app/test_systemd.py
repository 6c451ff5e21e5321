"""The service unit: what it promises, and ``systemd-analyze verify`` on it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

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
    assert unit["DevicePolicy"] == ["closed"] and "PrivateDevices" not in unit
    allowed = {value.split()[0] for value in unit["DeviceAllow"]}
    assert {"char-i2c", "char-gpiochip", "char-video4linux", "char-media", "char-dma_heap"} <= allowed


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
