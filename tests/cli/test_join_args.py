"""``--join`` and its counts on ``companion replay`` and ``companion run`` (interfaces.md section 8): bad values are
one line and exit 2, before any frame is read."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main


@pytest.mark.parametrize(("extra", "message"), [
    (["--turn", "p1"], "--turn needs --join"),
    (["--join", "--hands", "9,6"], "--hands '9,6': each count must be from 1 to 8"),
    (["--join", "--cups", "two,three"], "--cups 'two,three': expected two counts"),
    (["--join", "--deck", "109"], "--deck 109: must be a count from 0 to 108"),
])
@pytest.mark.parametrize("command", ["replay", "run"])
def test_bad_join_values_are_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str,
                                                 extra: list[str], message: str) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "000000.png"), np.zeros((16, 16, 3), np.uint8))
    args = [str(frames), "--json"] if command == "replay" else [
        "--camera", str(frames), "--display", "none", "--state-dir", str(tmp_path / "state")]
    assert main([command, *args, *extra]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err
    assert not (tmp_path / "state").exists()  # nothing made before the arguments were checked
