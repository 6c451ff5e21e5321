"""``companion engine replay|play`` and ``companion bench engine`` as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main

HEADER = {"format": "mandala-record/1", "first_player": "p1",
          "setup": {"m1": ["R01", "O02"], "m2": ["Y03", "G04"],
                    "p1": {"hand": ["R02", "R03", "O03", "O04", "Y05", "Y06"], "cup": ["K01", "K02"]},
                    "p2": {"hand": ["P01", "P02", "P03", "G05", "G06", "K03"], "cup": ["K04", "K05"]}}}


def write(path: Path, *lines: object) -> Path:
    path.write_text("\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines) + "\n")
    return path


def companion(*args: str) -> subprocess.CompletedProcess[str]:
    """Run the real command, as a user would, to see exit status, stdout and stderr."""
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True, check=False)


def test_play_then_replay_is_all_legal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.jsonl"
    assert main(["engine", "play", "--seed", "4", "--out", str(record)]) == 0
    capsys.readouterr()
    assert main(["engine", "replay", str(record), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert all(v["ok"] for v in result["verdicts"])
    assert len(result["verdicts"]) == len(record.read_text().splitlines()) - 1
    assert result["final"]["phase"] == "over" and result["final"]["winner"] in ("p1", "p2", "draw")


def test_illegal_event_exits_1_with_reason(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = write(tmp_path / "r.jsonl", HEADER,
                   {"player": "p1", "action": "field", "mandala": "m2", "cards": ["R02"]},
                   {"player": "p2", "action": "mountain", "mandala": "m1", "cards": ["P01"], "drew": ["K06", "K07"]})
    assert main(["engine", "replay", str(record), "--json"]) == 1
    result = json.loads(capsys.readouterr().out)
    assert result["verdicts"][0] == {"line": 2, "ok": True}
    assert result["verdicts"][1]["reason"] == "draw-count" and result["verdicts"][1]["line"] == 3
    assert result["final"]["turn"] == "p2"


@pytest.mark.parametrize(("lines", "message"), [
    (["{oops"], "line 1: bad JSON"),
    ([HEADER, {"player": "p1", "action": "juggle"}], "line 2: unknown action"),
    ([HEADER, {"player": "p1", "action": "field", "mandala": "m1", "cards": ["X01"]}], "line 2: unknown card 'X01'"),
    ([HEADER, {"player": "p9", "action": "field", "mandala": "m1", "cards": ["R02"]}], "line 2: unknown player"),
    ([HEADER, {"player": "p1", "action": "field", "mandala": "m7", "cards": ["R02"]}], "line 2: unknown mandala"),
    ([{**HEADER, "setup": {**HEADER["setup"], "m2": ["R01", "G04"]}}], "line 1: impossible setup"),  # type: ignore[dict-item]
])
def test_unreadable_record_exits_2_with_one_line(tmp_path: Path, lines: list[object], message: str) -> None:
    record = write(tmp_path / "bad.jsonl", *lines)
    result = companion("engine", "replay", str(record), "--json")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and message in result.stderr and "Traceback" not in result.stderr
    assert str(record) in result.stderr


def test_missing_and_binary_files_exit_2(tmp_path: Path) -> None:
    missing = companion("engine", "replay", str(tmp_path / "nope.jsonl"))
    assert missing.returncode == 2 and "No such file" in missing.stderr
    binary = tmp_path / "bin.jsonl"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    result = companion("engine", "replay", str(binary))
    assert result.returncode == 2 and "line 1: not UTF-8" in result.stderr and "Traceback" not in result.stderr


def test_bench_engine_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "engine", "--json", "--games", "5", "--rounds", "1"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["games_per_s"] > 0 and figures["events_per_s"] > figures["games_per_s"]
