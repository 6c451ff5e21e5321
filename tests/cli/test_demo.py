"""``companion demo`` (the README's first command): a whole game through the real pipeline, in a pipe."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow  # a whole game at 4608x2592: about a minute
def test_the_demo_plays_a_whole_game_and_ends_with_the_final_scores(tmp_path: Path) -> None:
    gif = tmp_path / "oled.gif"
    # --fast: the shortest of 200 games (36 moves, 540 frames at 4608x2592), through vision,
    # tracker, engine, journal and the ui controller as `companion run` has them.
    done = subprocess.run([sys.executable, "-m", "companion", "demo", "--fast", "--gif", str(gif)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Mandala demo, game #153: 36 moves")
    assert "The deal is seen: a new game begins." in done.stdout
    assert "WARNING color-rule" in done.stdout  # the illegal card the script lays, warned as it happens
    assert "Player 2 wins!" in done.stdout
    assert "The companion's final scores match the game as it was played." in done.stdout
    assert "\x1b" not in done.stdout  # not a terminal: plain lines, no cursor tricks
    assert "OLED: the end" in done.stdout and "GAME OVER" not in done.stdout  # pictures, not text
    with Image.open(gif) as image:
        assert image.size == (128 * 3 + 12, 64 * 3 + 12) and image.n_frames > 20
    assert not (tmp_path / "demo-oled.gif").exists()
