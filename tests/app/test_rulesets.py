"""The second ruleset through the app: configuration, pipeline, journal, session."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from companion.app.config import load_config, with_ruleset
from companion.app.journal import Journal
from companion.app.table import TablePipeline, _without_gold, make_tracker
from companion.engine import MountainsGame
from companion.errors import ConfigError
from companion.tracker.mountains import MountainsTracker
from companion.tracker.tracker import Tracker
from companion.vision.layout import default_layout_path, load_layout
from companion.vision.observation import BoardStatus, CardObservation, FrameObservation

ROOT = Path(__file__).resolve().parents[2]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_game_section_picks_the_ruleset_and_its_playmat(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, '[game]\nruleset = "mountains"\n'), environ={})
    assert config.game.ruleset == "mountains"
    assert config.layout.path == ROOT / "calibration" / "layouts" / "mountains-playmat.json"
    named = load_config(write(tmp_path, '[game]\nruleset = "mountains"\n[layout]\npath = "/x/mat.json"\n'), environ={})
    assert named.layout.path == Path("/x/mat.json")


def test_a_bad_ruleset_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"game\.ruleset: 'chess' is not one of mandala, mountains"):
        load_config(write(tmp_path, '[game]\nruleset = "chess"\n'), environ={})


def test_run_ruleset_switches_the_default_playmat_only(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, ""), environ={})
    assert with_ruleset(config, "mountains").layout.path.name == "mountains-playmat.json"
    own = replace(config, layout=replace(config.layout, path=Path("/x/mat.json")))
    assert with_ruleset(own, "mountains").layout.path == Path("/x/mat.json")


def test_the_pipeline_tracks_the_layouts_ruleset_and_refuses_another() -> None:
    assert isinstance(make_tracker("mountains"), MountainsTracker) and isinstance(make_tracker(), Tracker)
    assert isinstance(TablePipeline(load_layout(default_layout_path("mountains"))).tracker, MountainsTracker)
    with pytest.raises(ConfigError, match="is a playmat for mandala, not for mountains"):
        TablePipeline(load_layout(), ruleset="mountains")


def test_the_official_game_takes_a_gold_card_for_a_foreign_code() -> None:
    board = BoardStatus(True, (0, 1, 2, 3))
    seen = FrameObservation(board, (CardObservation("A01", (1.0, 1.0), "deck", 1.0),
                                    CardObservation("R01", (2.0, 2.0), "deck", 1.0)))
    kept = _without_gold(seen)
    assert [c.card_id for c in kept.cards] == ["R01"] and kept.foreign_codes == 1


def test_the_journal_rebuilds_a_mountains_game(tmp_path: Path) -> None:
    header = {"format": "mandala-record/1", "ruleset": "mountains", "mode": "table", "first_player": "p1",
              "setup": {"p1": {"hand": 6}, "p2": {"hand": 6}}}
    with Journal.open(tmp_path) as journal:
        game_id = journal.start_game_from_header(header)
        for line in ({"player": "p1", "action": "start", "card": "R01"},
                     {"player": "p2", "action": "start", "card": "O01"},
                     {"player": "p1", "action": "draw", "drew": 1},
                     {"player": "p1", "action": "play", "card": "A03", "mountain": "p2"}):
            journal.append(game_id, "event", json.dumps(line))
        game = journal.game(game_id).rebuild()
    assert isinstance(game, MountainsGame) and len(game.stack) == 4
    assert game.summary()["mountains"] == {"p1": {"R": 1}, "p2": {"O": 1, "A": 1}}


def test_a_session_resumes_only_a_game_of_its_own_ruleset(tmp_path: Path) -> None:
    from companion.app.session import Session

    header = {"format": "mandala-record/1", "ruleset": "mountains", "mode": "table", "first_player": "p1",
              "setup": {"p1": {"hand": 6}, "p2": {"hand": 6}}}
    with Journal.open(tmp_path) as journal:
        journal.start_game_from_header(header)
        assert Session(TablePipeline(load_layout()), journal).resume() is None
        session = Session(TablePipeline(load_layout(default_layout_path("mountains"))), journal)
        assert session.resume() is not None
        assert isinstance(session.tracker.game, MountainsGame)
        assert session.model().mountains is not None


def test_the_top_level_ruleset_key_is_the_same(tmp_path: Path) -> None:
    assert load_config(write(tmp_path, 'ruleset = "mountains"\n'), environ={}).game.ruleset == "mountains"
    with pytest.raises(ConfigError, match="disagree"):
        load_config(write(tmp_path, 'ruleset = "mountains"\n[game]\nruleset = "mandala"\n'), environ={})
