"""``companion doctor`` here (no hardware) and on a pretend Pi made of files in a temporary /dev."""

from __future__ import annotations

import json
import sys
import types
from dataclasses import replace
from pathlib import Path
from typing import ClassVar

import cv2
import numpy as np
import pytest

from companion.app import doctor
from companion.app.config import parse_config
from companion.app.doctor import Finding, Machine, report, run_checks
from companion.cli import main


def config_file(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(f'state_dir = "{tmp_path / "state"}"\n{body}', encoding="utf-8")
    return path


def pretend_pi(tmp_path: Path) -> Path:
    dev = tmp_path / "dev"
    dev.mkdir()
    for name in ("i2c-1", "gpiochip0", "video0"):
        (dev / name).write_text("")
    return dev


def by_area(findings: list[Finding], area: str) -> list[Finding]:
    return [f for f in findings if f.area == area]


def test_here_without_hardware_every_problem_has_a_fix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["doctor", "--no-input", "--config", str(config_file(tmp_path, ""))])
    out = capsys.readouterr().out
    assert status == 1
    assert "FAIL  camera    source picamera2 is the Raspberry Pi camera; this is no Pi" in out
    assert "python3-picamera2" not in out  # no such package off Raspberry Pi OS
    assert out.rstrip().endswith("fix them with the commands above")


def pretend_pi_model(tmp_path: Path) -> Path:
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")
    return model


def test_on_a_pi_without_picamera2_the_fix_is_the_apt_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)
    machine = Machine(dev=pretend_pi(tmp_path), model=pretend_pi_model(tmp_path))
    found = doctor.check_camera(parse_config({}), machine)
    assert found[0].message.startswith("picamera2 cannot be imported")
    assert found[0].fix.startswith("sudo apt install -y --no-install-recommends python3-picamera2")
    assert "--system-site-packages" in found[0].fix


def test_off_a_pi_the_advice_fits_a_laptop(tmp_path: Path) -> None:
    """A Debian laptop: no Pi packages, no GPIO groups, no service user to chown to, the terminal's keys."""
    laptop = Machine(dev=tmp_path, model=tmp_path / "no-model", service_state=lambda: "inactive",
                     unit_file=tmp_path / "no-unit")
    [service] = doctor.check_service(laptop)
    assert service.status == "ok" and "not installed" in service.message and "by hand" in service.message
    terminal = parse_config({"display": {"display": "terminal"}})
    assert doctor.check_buttons(terminal, laptop)[0].status == "ok"
    [buttons] = doctor.check_buttons(parse_config({}), laptop)
    assert 'display = "terminal"' in buttons.fix
    [groups] = doctor.check_groups(replace(laptop, user="nobody"), parse_config({}))
    assert groups.status == "ok" and "no device groups" in groups.message
    webcam = doctor.check_camera(parse_config({"camera": {"source": "v4l2"}}), laptop)
    assert webcam[0].status == "fail" and "v4l2-ctl" in webcam[0].fix
    missing = doctor.check_state_dir(parse_config({"state_dir": str(tmp_path / "none")}))
    if not doctor._user_exists(doctor.SERVICE_USER):
        assert "--state-dir" in missing[0].fix and "install -d" not in missing[0].fix


def test_a_pi_without_the_service_is_told_to_install_it(tmp_path: Path) -> None:
    pi = Machine(dev=pretend_pi(tmp_path), model=pretend_pi_model(tmp_path), service_state=lambda: "inactive",
                 unit_file=tmp_path / "no-unit")
    [service] = doctor.check_service(pi)
    assert service.status == "warn" and service.fix == "sudo hardware/install.sh"


def test_a_pretend_pi_with_everything_in_place_is_all_good(tmp_path: Path) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    path = config_file(tmp_path, f'[camera]\nsource = "path"\ndevice = "{frames}"\n')
    (tmp_path / "state").mkdir()
    probed: list[tuple[int, int]] = []

    def probe(port: int, address: int) -> bool:
        probed.append((port, address))
        return True

    findings = run_checks(path, Machine(dev=pretend_pi(tmp_path), i2c_probe=probe))
    text, status = report(findings)
    assert status == 0, text
    assert probed == [(1, 0x3C)]
    assert "ok    display   ssd1306 answers at 0x3c on" in text
    assert by_area(findings, "buttons")[0].message.startswith("1 GPIO chip(s); buttons A GPIO17, B GPIO27, C GPIO22")


def test_a_silent_panel_names_the_wiring_and_the_other_address(tmp_path: Path) -> None:
    machine = Machine(dev=pretend_pi(tmp_path), i2c_probe=lambda port, address: False)
    [finding] = doctor.check_display(parse_config({}), machine)
    assert finding.status == "fail" and "nothing answers at 0x3c" in finding.message
    assert "SDA to pin 3" in finding.fix and 'i2c_address = "0x3d"' in finding.fix


def test_i2c_off_and_unprobable(tmp_path: Path) -> None:
    [off] = doctor.check_display(parse_config({}), Machine(dev=tmp_path))
    assert off.status == "fail" and off.fix.startswith("sudo raspi-config nonint do_i2c 0")
    [unknown] = doctor.check_display(parse_config({}), Machine(dev=pretend_pi(tmp_path),
                                                               i2c_probe=lambda port, address: None))
    assert unknown.status == "warn" and "i2cdetect -y 1" in unknown.fix
    [none] = doctor.check_display(parse_config({"display": {"display": "none"}}), Machine(dev=tmp_path))
    assert none.status == "ok"


def test_a_broken_config_is_reported_and_the_rest_still_runs(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[camera]\nfps = = 2\n")
    findings = run_checks(path, Machine(dev=tmp_path))
    assert findings[0].status == "fail" and "not valid TOML" in findings[0].message and "line 2" in findings[0].message
    assert by_area(findings, "disk")


def test_groups_fix_names_the_user(monkeypatch: pytest.MonkeyPatch) -> None:
    import grp
    import pwd

    user = pwd.struct_passwd(("player", "x", 1000, 1000, "", "/home/player", "/bin/sh"))
    monkeypatch.setattr(pwd, "getpwnam", lambda name: user)
    monkeypatch.setattr(grp, "getgrall", lambda: [grp.struct_group(("video", "x", 44, ["player"]))])
    monkeypatch.setattr(grp, "getgrgid", lambda gid: grp.struct_group(("player", "x", 1000, [])))
    model = Path(__file__).parent / "pi-model"
    try:
        model.write_bytes(b"Raspberry Pi 4 Model B\0")
        [finding] = doctor.check_groups(Machine(user="player", model=model))
    finally:
        model.unlink()
    assert finding.status == "fail" and "not in i2c, gpio" in finding.message
    assert finding.fix.endswith("sudo usermod -aG i2c,gpio player")


def test_missing_decoder_in_use_fails_other_only_warns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyzbar.pyzbar", None)
    findings = doctor.check_decoders(parse_config({}))  # zxing in use
    assert [(f.status, f.message.split()[0]) for f in findings] == [("ok", "zxing"), ("warn", "pyzbar")]
    findings = doctor.check_decoders(parse_config({"vision": {"decoder": "pyzbar"}}))
    assert findings[1].status == "fail" and findings[1].fix == "sudo apt install -y libzbar0"


def test_picamera2_present_lists_cameras_and_modes(monkeypatch: pytest.MonkeyPatch) -> None:
    class Picamera2:
        sensor_modes: ClassVar = [{"size": (4608, 2592), "fps": 14.35}, {"size": (2304, 1296), "fps": 56.03}]

        def __init__(self, number: int) -> None: ...

        @staticmethod
        def global_camera_info() -> list[dict[str, str]]:
            return [{"Model": "imx708"}]

        def close(self) -> None: ...

    module = types.ModuleType("picamera2")
    module.Picamera2 = Picamera2  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    findings = doctor.check_camera(parse_config({}), Machine())
    assert [f.message for f in findings] == ["1 camera(s): imx708", "modes 4608x2592@14, 2304x1296@56"]


def test_v4l2_camera_that_delivers(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    class Capture:
        def __init__(self, *args: object) -> None: ...

        def isOpened(self) -> bool:
            return True

        def set(self, *args: object) -> bool:
            return True

        def read(self) -> tuple[bool, np.ndarray]:
            return True, np.zeros((720, 1280, 3), np.uint8)

        def release(self) -> None: ...

    monkeypatch.setattr(cv2, "VideoCapture", Capture)
    findings = doctor.check_camera(parse_config({"camera": {"source": "v4l2"}}), Machine(dev=pretend_pi(tmp_path)))
    assert findings[0].status == "ok" and "1280x720" in findings[0].message


def test_the_journal_is_summarised(tmp_path: Path) -> None:
    from companion.app.journal import Journal
    from tests.app.test_journal import a_table_game

    header, _ = a_table_game()
    with Journal.open(tmp_path) as journal:
        journal.start_game_from_header(json.loads(header))
    findings = doctor.check_state_dir(parse_config({"state_dir": str(tmp_path)}))
    assert [f.message for f in findings if f.area == "journal"][-1] == "1 game(s), 1 running"


def test_press_test_is_skipped_unless_the_person_says_yes() -> None:
    assert doctor.press_test(parse_config({}), ask=lambda prompt: "") == []


def test_on_a_fresh_trixie_pi_the_advice_fits_it(tmp_path: Path) -> None:
    """Just installed: I2C switched on but not loaded until a reboot, the service running, Trixie names."""
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")
    release = tmp_path / "os-release"
    release.write_text('PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nVERSION_CODENAME=trixie\n')
    boot = tmp_path / "config.txt"
    boot.write_text("[all]\ndtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n")
    machine = Machine(dev=tmp_path, model=model, os_release=release, boot_config=boot,
                      service_state=lambda: "active")
    assert doctor.check_system(machine)[0].message == "Raspberry Pi 5 Model B Rev 1.0, Raspberry Pi OS trixie"
    assert doctor.check_service(machine) == [doctor.ok("service", "mandala-companion.service is active")]
    [display] = doctor.check_display(parse_config({}), machine)
    assert "switched on" in display.message and display.fix.startswith("sudo reboot")
    failed = Machine(service_state=lambda: "failed")
    [service] = doctor.check_service(failed)
    assert service.status == "fail" and "journalctl -u mandala-companion.service" in service.fix
    assert doctor.check_service(Machine(service_state=lambda: "")) == []  # no systemd: nothing to say


def test_the_pyzbar_fix_names_the_release_package(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import importlib

    real = importlib.import_module

    def no_pyzbar(name: str, package: str | None = None) -> object:
        if name.startswith("pyzbar"):
            raise ImportError("Unable to find zbar shared library")
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", no_pyzbar)
    release = tmp_path / "os-release"
    release.write_text("VERSION_CODENAME=trixie\n")
    findings = doctor.check_decoders(parse_config({}), Machine(os_release=release))
    assert [f.fix for f in findings if f.area == "decoder" and "pyzbar" in f.message] == [
        "sudo apt install -y libzbar0t64"]
