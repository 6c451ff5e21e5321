"""``companion games list|show|export`` on a journal written here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.journal import Journal
from companion.cli import main
from companion.engine import read_record, replay, summary
from tests.app.test_journal import a_table_game


@pytest.fixture
def state(tmp_path: Path) -> tuple[Path, str, list[str]]:
    return a_journal(tmp_path)


def a_journal(tmp_path: Path) -> tuple[Path, str, list[str]]:
    """A journal with a finished game and a running one of 4 entries (the phone view's tests use it too)."""
    header, lines = a_table_game(5)
    with Journal.open(tmp_path) as journal:
        done = journal.start_game_from_header(json.loads(header))
        for line in lines:
            journal.append(done, "event", line)
        journal.finish_game(done)
        running = journal.start_game_from_header(json.loads(header))
        for line in lines[:4]:
            journal.append(running, "event", line)
    return tmp_path, header, lines


def test_show_json_is_the_record_and_its_final(state: tuple[Path, str, list[str]],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    folder, header, lines = state
    assert main(["games", "show", "--state-dir", str(folder), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["record"] == [header, *lines[:4]]
    assert shown["final"] == summary(replay(read_record(shown["record"]))[0])
    assert main(["games", "show", "1", "--state-dir", str(folder), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["final"]["phase"] == "over"


def test_list(state: tuple[Path, str, list[str]], capsys: pytest.CaptureFixture[str]) -> None:
    folder, _, lines = state
    assert main(["games", "list", "--state-dir", str(folder), "--json"]) == 0
    games = json.loads(capsys.readouterr().out)["games"]
    assert [(g["id"], g["entries"], g["finished"] is None) for g in games] == [(1, len(lines), False), (2, 4, True)]
    assert main(["games", "list", "--state-dir", str(folder)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "winner" in out[0] and out[1].endswith("running")


def test_export_writes_a_record_the_engine_replays(state: tuple[Path, str, list[str]], tmp_path: Path) -> None:
    folder, header, lines = state
    out = tmp_path / "game1.jsonl"
    assert main(["games", "export", "1", "--state-dir", str(folder), "--out", str(out)]) == 0
    assert out.read_text().splitlines() == [header, *lines]
    assert main(["engine", "replay", str(out)]) == 0


def test_human_show_and_errors(state: tuple[Path, str, list[str]], capsys: pytest.CaptureFixture[str],
                               tmp_path: Path) -> None:
    folder, _, _ = state
    assert main(["games", "show", "--state-dir", str(folder)]) == 0
    assert "to act" in capsys.readouterr().out
    assert main(["games", "show", "9", "--state-dir", str(folder)]) == 2
    assert "no game 9" in capsys.readouterr().err
    assert main(["games", "export", "--state-dir", str(tmp_path / "empty")]) == 2
    assert "no journal here" in capsys.readouterr().err
    assert main(["games", "list", "--state-dir", str(tmp_path / "empty"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"games": []}
