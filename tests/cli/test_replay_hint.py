"""``companion replay`` says when the frame rate looks wrong."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.cli.replay_cmds import frame_rate_hint


def test_a_recorded_rate_other_than_fps_is_named() -> None:
    hint = frame_rate_hint(10.0, 300, 40, False, 1.0, 2.0)
    assert hint is not None and "recorded at 2 frames a second" in hint and "--fps 2" in hint
    assert frame_rate_hint(10.0, 300, 40, False, 1.0, 10.5) is None  # within 10%


def test_no_game_after_many_frames_or_a_game_at_an_impossible_pace_gets_a_hint() -> None:
    assert "no game seen" in (frame_rate_hint(30.0, 900, 0, True, 1.0, None) or "")
    assert frame_rate_hint(30.0, 15, 0, True, 1.0, None) is None  # a few frames: nothing to say
    assert "faster than people play" in (frame_rate_hint(60.0, 600, 40, False, 1.0, None) or "")
    assert "slower than people play" in (frame_rate_hint(0.5, 9000, 12, False, 1.0, None) or "")
    assert frame_rate_hint(10.0, 12000, 150, False, 1.0, None) is None  # 20 minutes, 150 events: a game


def test_replay_of_sim_frames_at_the_wrong_rate_says_so_on_stderr(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    for index in range(3):
        cv2.imwrite(str(frames / f"{index:06d}.png"), np.full((120, 160, 3), 90, np.uint8))
    (tmp_path / "script.json").write_text(json.dumps({"fps": 2.0, "frames": 3}))
    assert main(["replay", str(frames), "--fps", "10", "--quiet"]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert [line for line in err if line.startswith("replay: ")] == [
        "replay: the input was recorded at 2 frames a second but --fps is 10: every time is off 5.0 times; "
        "replay with --fps 2"]
    assert main(["replay", str(frames), "--fps", "2", "--quiet"]) == 0
    assert "replay: " not in capsys.readouterr().err
