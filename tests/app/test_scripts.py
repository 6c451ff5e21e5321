"""Shell scripts: shellcheck clean; install.sh's dry run shows every step and recognises what is done."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "hardware" / "install.sh"
SCRIPTS = [ROOT / "dev", ROOT / ".ci" / "run", *sorted(ROOT.glob("hardware/*.sh")), *sorted(ROOT.glob("systemd/*.sh"))]
POLKIT_RULE = ROOT / "hardware" / "polkit" / "50-mandala-companion.rules"


@pytest.mark.skipif(shutil.which("shellcheck") is None,
                    reason="shellcheck is not installed (apt-get install shellcheck)")
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: str(path.relative_to(ROOT)))
def test_shellcheck_clean(script: Path) -> None:
    done = subprocess.run(["shellcheck", "--format=gcc", str(script)], capture_output=True, text=True, timeout=60)
    problems = done.stdout.strip().splitlines()
    assert problems == [], "\n".join(problems)


def dry_run(tmp_path: Path, **paths: Path) -> str:
    env = {**os.environ, **{key: str(value) for key, value in paths.items()}}
    done = subprocess.run(["bash", str(INSTALL), "--dry-run"], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def fresh_paths(tmp_path: Path) -> dict[str, Path]:
    boot = tmp_path / "config.txt"
    boot.write_text("dtparam=audio=on\n")
    return {"PREFIX": tmp_path / "opt", "ETC_DIR": tmp_path / "etc", "UNIT_DIR": tmp_path / "units",
            "BOOT_CONFIG": boot, "POLKIT_DIR": tmp_path / "polkit", "BIN_DIR": tmp_path / "bin"}


def test_dry_run_on_a_fresh_machine_prints_every_step_and_changes_nothing(tmp_path: Path) -> None:
    paths = fresh_paths(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    out = dry_run(tmp_path, **paths)
    prefix = paths["PREFIX"]
    expected = [
        "raspi-config nonint do_i2c 0",
        "dtparam=i2c_arm_baudrate=400000",
        "rsync -a --delete --exclude=/.venv/ --exclude=/.git/",
        f"python3 -m venv --system-site-packages {prefix}/.venv",
        f"--constraint {prefix}/.pip-constraints.txt --editable {prefix}",
        f"install -m 0644 {ROOT}/hardware/config.example.toml {paths['ETC_DIR']}/config.toml",
        f"install -m 0644 {ROOT}/systemd/mandala-companion.service {paths['UNIT_DIR']}/mandala-companion.service",
        f"install -D -m 0644 {POLKIT_RULE} {paths['POLKIT_DIR']}/{POLKIT_RULE.name}",
        "systemctl enable mandala-companion.service",
        "systemctl restart mandala-companion.service",
        f"ln -sfn {prefix}/.venv/bin/companion {paths['BIN_DIR']}/companion",
        "companion doctor --no-input --config",
    ]
    for command in expected:
        assert any(line.startswith("+ ") and command in line for line in out.splitlines()), command
    assert "numpy" in out  # the numpy pin is written
    # Nothing changed: no folders made, the boot config untouched.
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert paths["BOOT_CONFIG"].read_text() == "dtparam=audio=on\n"


def test_dry_run_says_ok_for_what_is_already_done(tmp_path: Path) -> None:
    paths = fresh_paths(tmp_path)
    paths["BOOT_CONFIG"].write_text("dtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n")
    paths["ETC_DIR"].mkdir()
    (paths["ETC_DIR"] / "config.toml").write_text("# mine\n")
    paths["UNIT_DIR"].mkdir()
    shutil.copy(ROOT / "systemd" / "mandala-companion.service", paths["UNIT_DIR"])
    paths["POLKIT_DIR"].mkdir()
    shutil.copy(POLKIT_RULE, paths["POLKIT_DIR"])
    paths["PREFIX"] = ROOT  # installing from the installed copy itself
    out = dry_run(tmp_path, **paths)
    for marker in ("ok: I2C speed already set", "ok: keeping the existing", "ok: unit file is current",
                   "ok: running from", "ok: polkit rule is current"):
        assert marker in out
    changes = [line for line in out.splitlines() if line.startswith("+ ")]
    assert not any("install -m 0644" in line or "rsync -a" in line or "baudrate" in line for line in changes)


def test_apt_step_names_the_pi_packages_with_their_trixie_t64_names() -> None:
    text = INSTALL.read_text()
    for package in ("python3-picamera2", "libzbar0|libzbar0t64", "i2c-tools", "python3-venv", "libgl1", "polkitd",
                    "libglib2.0-0|libglib2.0-0t64", "--no-install-recommends"):
        assert package in text
    assert "PICAMERA2_MIN=0.3.17" in text and "--only-upgrade" in text


def test_a_failing_step_is_reported_and_the_rest_still_runs(tmp_path: Path) -> None:
    """No `set -e`: a step that fails says so, the later ones run, and the summary names it (exit 1)."""
    paths = fresh_paths(tmp_path)
    stubs = tmp_path / "stubs"
    stubs.mkdir()
    for name, body in (("id", 'echo 0'), ("apt-get", 'echo "E: network down" >&2; exit 100'),
                       ("dpkg-query", "exit 1"), ("systemctl", "exit 0"), ("raspi-config", "exit 0"),
                       ("getent", "exit 0"), ("runuser", "exit 0"), ("useradd", "exit 0"), ("usermod", "exit 0"),
                       ("groupadd", "exit 0"), ("rsync", "exit 0"), ("timeout", "exit 0"), ("python3", "exit 0")):
        (stubs / name).write_text(f"#!/bin/sh\n{body}\n")
        (stubs / name).chmod(0o755)
    env = {**os.environ, **{key: str(value) for key, value in paths.items()},
           "PATH": f"{stubs}:{os.environ['PATH']}"}
    done = subprocess.run(["bash", str(INSTALL), "--no-start"], capture_output=True, text=True, env=env, timeout=120)
    out = done.stdout
    assert done.returncode == 1, out + done.stderr
    assert "PROBLEM: apt-get update failed" in out
    assert f"install -m 0644 {ROOT}/systemd/mandala-companion.service" in out  # later steps still ran
    assert re.search(r"PROBLEM: \d step\(s\) failed: install_packages camera_stack", out), out


def test_the_polkit_rule_lets_only_the_service_user_power_off() -> None:
    """The menu's "Power off" runs `systemctl poweroff` as the service user; polkit must allow exactly that."""
    rule = POLKIT_RULE.read_text()
    user = re.search(r"^SERVICE_USER=(\S+)$", INSTALL.read_text(), re.MULTILINE)
    unit_user = re.search(r"^User=(\S+)$", (ROOT / "systemd" / "mandala-companion.service").read_text(), re.MULTILINE)
    assert user and unit_user and user[1] == unit_user[1]
    assert f'subject.user == "{user[1]}"' in rule
    rules = rule.split("polkit.addRule")[1:]
    assert len(rules) == 2
    power, units = rules
    assert set(re.findall(r'action\.id == "([^"]+)"', power)) == {
        "org.freedesktop.login1.power-off", "org.freedesktop.login1.power-off-multiple-sessions"}
    # The admin group may stop, start and restart this one unit (calibrate pauses the service), nothing more.
    assert set(re.findall(r'action\.id == "([^"]+)"', units)) == {"org.freedesktop.systemd1.manage-units"}
    assert 'action.lookup("unit") == "mandala-companion.service"' in units
    assert '["start", "stop", "restart"]' in units and 'subject.isInGroup("mandala-companion")' in units
    if shutil.which("node"):  # polkit rules are JavaScript; a syntax error would silently disable the rule
        parse = "new Function(require('fs').readFileSync(process.argv[1], 'utf8'))"  # parses, runs nothing
        done = subprocess.run(["node", "-e", parse, str(POLKIT_RULE)], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr


def test_unknown_option_is_refused(tmp_path: Path) -> None:
    done = subprocess.run(["bash", str(INSTALL), "--yes-please"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and "unknown option --yes-please" in done.stderr


@pytest.mark.parametrize("listen", ["", "0.0.0.0:8080"])
def test_the_installer_grants_the_network_only_while_the_phone_view_is_on(tmp_path: Path, listen: str) -> None:
    paths = fresh_paths(tmp_path)
    # The installed companion answers `web drop-in` from the configuration, as the real one does.
    config = tmp_path / "etc" / "config.toml"
    config.parent.mkdir()
    config.write_text(f'[web]\nlisten = "{listen}"\n')
    venv = paths["PREFIX"] / ".venv" / "bin"
    venv.mkdir(parents=True)
    (venv / "companion").write_text(f"#!/bin/sh\nexec {sys.executable} -m companion \"$@\"\n")
    (venv / "companion").chmod(0o755)
    out = dry_run(tmp_path, **paths)
    web_conf = paths["UNIT_DIR"] / "mandala-companion.service.d" / "web.conf"
    if listen:
        assert f"would write {web_conf}:" in out and "IPAddressAllow=localhost link-local" in out
    else:
        assert "phone view off: the service keeps no network" in out
    assert not web_conf.exists()
