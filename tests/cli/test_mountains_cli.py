"""The command line of the second ruleset: demo, replay and sim game with --ruleset."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_replay_refuses_a_playmat_of_the_other_ruleset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    layout = ROOT / "calibration" / "layouts" / "mandala-playmat.json"
    assert main(["replay", str(frames), "--ruleset", "mountains", "--layout", str(layout), "--json"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "is a playmat for mandala, not for mountains" in err[0]


def test_sim_game_lays_only_tidy_mountains_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "game", "--ruleset", "mountains", "--style", "sloppy", "--out", str(tmp_path)]) == 2
    assert "only --style tidy" in capsys.readouterr().err


@pytest.mark.slow  # a whole mountains game at 4608x2592: minutes
def test_the_demo_plays_a_whole_mountains_game(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "companion", "demo", "--ruleset", "mountains", "--fast", "--no-gif"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=1200)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("Mandala, mountain boards, demo, game #118")
    assert "A starting card is laid: a new game begins." in done.stdout
    assert "Round 1 is scored:" in done.stdout
    assert "The companion's final scores match the game as it was played." in done.stdout
