"""Configurations the companion could not honour, and how every command ends.

A configuration value that would silently stop tracking (NaN), overflow
(1e-300 frames a second), crash the panel (a 96x16 display), block forever (a
FIFO) or wire two things to one pin is one line naming the key, exit 2. A
crash (a bug) exits 70 with one line naming the file that holds its
traceback; never 1, which `engine replay` uses for an illegal event.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.cli import main
from tests.faults.conftest import Outcome

NUL = "\\u0000"


@pytest.mark.parametrize(("text", "said"), [
    ("[camera]\nfps = nan", r"camera\.fps: must be a finite number, got nan"),
    ("[camera]\nfps = inf", r"camera\.fps: must be a finite number, got inf"),
    ("[camera]\nfps = 1e-300", r"camera\.fps: must be 0 or between 0\.1 and 240, got 1e-300"),
    ("[camera]\nstart_frame = 99999999999", r"camera\.start_frame: must be between 0 and 1e\+09"),
    ("[camera]\nfocus = nan", r"camera\.focus: must be \"auto\" or a lens position"),
    ("[tracker]\nsettle_s = nan", r"tracker\.settle_s: must be a finite number, got nan"),
    ("[tracker]\nsettle_s = -inf", r"tracker\.settle_s: must be a finite number, got -inf"),
    ("[buttons]\nlong_s = nan", r"buttons: long_s=nan is not between 0 and 10 seconds"),
    ("[display]\nwidth = 0", r"display: width=0, height=64: the screens are drawn for 128x64 panels"),
    ("[display]\nheight = 32", r"display: width=128, height=32: the screens are drawn for 128x64"),
    ("[display]\ni2c_port = -1", r"display: i2c_port=-1 is not an I2C bus number 0\.\.99"),
    ("[buttons]\na = 27", r"buttons\.b: GPIO 27 is already buttons\.a; each needs a pin of its own"),
    ("[buttons]\nbuzzer = 22", r"buttons\.buzzer: GPIO 22 is already buttons\.c"),
    ("[buttons]\nled = 2", r"buttons\.led: GPIO 2 is already the display's I2C SDA \(bus 1\)"),
    (f'[layout]\npath = "mat{NUL}.json"', r"layout\.path: contains a NUL character"),
    (f'state_dir = "/var/lib/x{NUL}y"', r"state_dir: contains a NUL character"),
    (f'[camera]\nsource = "path"\ndevice = "frames{NUL}"', r"camera\.device: contains a NUL character"),
    ("a = " + "[" * 2000 + "]" * 2000, r"line 1: nested more than 32 levels deep"),
    ("[camera]\nfps = " + "9" * 5000, r"line 2: a number of 5000 characters \(at most 40\)"),
    ("[camera]\nfps = 0x" + "F" * 3000, r"line 2: a number of 3002 characters"),
    ("# " + "x" * 300_000, r"is larger than 256 KB"),
])
def test_a_configuration_the_companion_cannot_honour(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     text: str, said: str) -> None:
    config = tmp_path / "config.toml"
    config.write_text(text)
    assert main(["run", "--config", str(config), "--display", "none", "--state-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1, err
    assert re.match(rf"companion: {re.escape(str(config))}: {said}", err), err
    assert not (tmp_path / "journal.sqlite").exists()  # refused before anything was touched


@pytest.mark.parametrize(("arguments", "said"), [
    (["run", "--fps", "nan"], "--fps: must be a finite number, got nan"),
    (["run", "--fps", "1e-300"], "--fps: must be 0 or between 0.1 and 240, got 1e-300"),
    (["run", "--camera", "frames", "--recorded-fps", "inf"], "--recorded-fps: must be a finite number, got inf"),
    (["replay", "frames", "--settle", "nan"], "--settle: must be a finite number, got nan"),
    (["replay", "frames", "--fps=-inf"], "--fps: must be a finite number, got -inf"),
    (["sim", "game", "--out", "x", "--resolution", "100000x100000"], "--resolution 100000x100000: each side"),
    (["demo", "--fps", "nan"], "--fps: must be a finite number, got nan"),
])
def test_numbers_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str],
                                     said: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main([*arguments, "--state-dir", str(tmp_path)] if arguments[0] == "run" else arguments) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"companion: {said}") and err.count("\n") == 1, err


def test_a_display_that_draws_nothing_may_keep_any_size(tmp_path: Path) -> None:
    from companion.app.config import parse_config

    assert parse_config({"display": {"display": "none", "width": 96, "height": 16}}).display.width == 96


@pytest.mark.parametrize("kind", ["fifo", "folder", "device"])
def test_a_configuration_that_is_no_file_is_refused_at_once(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            kind: str) -> None:
    config = tmp_path / "config.toml"
    if kind == "fifo":
        os.mkfifo(config)  # opened plainly, it would wait for a writer forever: the service would hang
    elif kind == "folder":
        config.mkdir()
    else:
        config = Path("/dev/zero")
    assert main(["run", "--config", str(config), "--display", "none", "--state-dir", str(tmp_path)]) == 2
    said = {"fifo": "is not a regular file (a FIFO)", "folder": "is a folder, not a file",
            "device": "is not a regular file (a character device)"}[kind]
    assert capsys.readouterr().err == f"companion: {config}: {said}\n"


# -- how commands end ------------------------------------------------------------------------------

CRASH = """
import sys
import companion.cli.engine_cmds as engine
def broken(args):
    return {}["no such key"]
engine.run_play = broken
from companion.cli import main
sys.exit(main(["engine", "play"]))
"""


def test_a_crash_is_one_line_a_log_file_and_exit_70(tmp_path: Path) -> None:
    import subprocess
    import sys

    from tests.faults.conftest import ROOT

    done = subprocess.run([sys.executable, "-c", CRASH], capture_output=True, text=True, cwd=ROOT, timeout=60,
                          env={**os.environ, "LOGS_DIRECTORY": str(tmp_path)})
    assert done.returncode == 70 and done.stdout == ""
    match = re.fullmatch(r"companion: internal error: KeyError: 'no such key' \(the details are in (\S+); "
                         r"please report it\)\n", done.stderr)
    assert match, done.stderr
    log = Path(match.group(1))
    assert log.parent == tmp_path and "Traceback" in log.read_text() and "command: companion engine play" in \
        log.read_text() and "def broken" not in done.stderr


def test_a_crash_log_goes_where_it_can(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import crashed

    monkeypatch.setenv("LOGS_DIRECTORY", "/proc/no-such-place")     # not writable: the next one is used
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    try:
        raise RuntimeError("first line\nsecond line")
    except RuntimeError as error:
        assert crashed(error, ["companion", "run"]) == 70
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "RuntimeError: first line (the details are in " in err
    assert len(list((tmp_path / "state").glob("companion-crash-*.log"))) == 1


def test_exit_statuses_by_outcome(tmp_path: Path, here: Callable[..., Outcome]) -> None:
    """0 fine, 2 bad input, 74 the machine, 75 try again, 70 a crash: one per outcome, none is 1."""
    from companion.errors import EXIT_IOERR, EXIT_SOFTWARE, EXIT_TEMPFAIL, EXIT_USAGE, JournalBusyError, StorageError

    assert (EXIT_USAGE, EXIT_SOFTWARE, EXIT_IOERR, EXIT_TEMPFAIL) == (2, 70, 74, 75)
    assert StorageError.exit_status == 74 and JournalBusyError.exit_status == 75
    missing = here("vision", "detect", tmp_path / "nothing.png")
    assert missing.status == 2 and missing.one_line().endswith("nothing.png: no such image file")
    unwritable = here("engine", "play", "--out", "/proc/version")
    assert unwritable.status in (2, 74) and "Traceback" not in unwritable.err and unwritable.one_line()
