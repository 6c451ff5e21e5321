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


MOUNTAINS_HEADER = {"format": "mandala-record/1", "ruleset": "mountains", "first_player": "p1",
                    "setup": {"p1": {"hand": ["R01", "R02", "O01", "Y01", "A01", "K01"]},
                              "p2": {"hand": ["P02", "P03", "G02", "Y02", "Y03", "A04"]}}}
FINAL_KEYS = ["phase", "turn", "round", "winner", "scores", "gold", "score_piles", "mountains", "hands", "deck",
              "discard", "out"]


def test_mountains_play_then_replay_is_all_legal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "mountains.jsonl"
    assert main(["engine", "play", "--ruleset", "mountains", "--seed", "2", "--out", str(record)]) == 0
    assert '"ruleset": "mountains"' in record.read_text().splitlines()[0]
    capsys.readouterr()
    assert main(["engine", "replay", str(record), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert all(v["ok"] for v in result["verdicts"])
    final = result["final"]
    assert list(final) == FINAL_KEYS and final["phase"] == "over" and final["winner"] in ("p1", "p2", "draw")
    assert final["deck"] == 0 and sum(final["hands"].values()) + final["discard"] + final["out"] + sum(
        len(pile) for pile in final["score_piles"].values()) + sum(
        n for mountain in final["mountains"].values() for n in mountain.values()) == 120


def test_mountains_illegal_event_exits_1_with_reason(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = write(tmp_path / "m.jsonl", MOUNTAINS_HEADER,
                   {"player": "p1", "action": "start", "card": "A01"},
                   {"player": "p1", "action": "start", "card": "K01"},
                   {"player": "p2", "action": "start", "card": "P02"},
                   {"player": "p1", "action": "play", "card": "P03", "mountain": "p1"},
                   {"player": "p1", "action": "play", "card": "R01", "mountain": "p2"})
    assert main(["engine", "replay", str(record), "--json", "--ruleset", "mountains"]) == 1
    result = json.loads(capsys.readouterr().out)
    assert [v.get("reason") for v in result["verdicts"]] == [
        "start-not-colored", None, None, "card-not-in-hand", "draw-count"]
    assert result["final"]["phase"] == "play" and result["final"]["mountains"] == {"p1": {"K": 1}, "p2": {"P": 1}}


def test_a_gold_card_in_an_official_record_exits_2(tmp_path: Path) -> None:
    header = {**HEADER, "setup": {**HEADER["setup"], "m2": ["Y03", "A01"]}}  # type: ignore[dict-item]
    result = companion("engine", "replay", str(write(tmp_path / "gold.jsonl", header)), "--json")
    assert result.returncode == 2 and result.stdout == "" and "line 1: unknown card 'A01'" in result.stderr


def test_a_record_of_another_ruleset_than_asked_exits_2(tmp_path: Path) -> None:
    result = companion("engine", "replay", str(write(tmp_path / "m.jsonl", MOUNTAINS_HEADER)), "--ruleset", "mandala")
    assert result.returncode == 2 and "the record is a game of the mountains ruleset, not mandala" in result.stderr
    assert result.stderr.count("\n") == 1


def test_bench_engine_mountains_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "engine", "--json", "--games", "5", "--rounds", "1", "--ruleset", "mountains"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["ruleset"] == "mountains" and figures["events_per_s"] > figures["games_per_s"] > 0
