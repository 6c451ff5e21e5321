"""``companion ui preview`` and ``companion ui emulate``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from companion.cli import main
from companion.ui.mountains_samples import MOUNTAINS_SAMPLES
from companion.ui.samples import SAMPLES
from companion.ui.setup_samples import SETUP_SAMPLES


def test_preview_writes_every_screen_at_1x_and_4x(tmp_path: Path) -> None:
    assert main(["ui", "preview", "--out", str(tmp_path)]) == 0
    for sample in SAMPLES:
        with Image.open(tmp_path / f"{sample.name}.png") as small:
            assert small.size == (128, 64)
        with Image.open(tmp_path / f"{sample.name}@4x.png") as big:
            assert big.size == (512, 256)
    assert len(list(tmp_path.iterdir())) == 2 * (len(SAMPLES) + len(MOUNTAINS_SAMPLES) + len(SETUP_SAMPLES))


def test_preview_into_an_unwritable_place_is_a_one_line_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert main(["ui", "preview", "--out", str(blocker / "sub")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion: --out ") and err.count("\n") == 1


def test_emulate_without_a_terminal_prints_every_state_once() -> None:
    result = subprocess.run([sys.executable, "-m", "companion", "ui", "emulate"],
                            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
                            check=True)
    assert result.stdout.count("┌") == len(SAMPLES)
