"""``companion bench restart``: the restart whose cup card was laid and covered while the companion was off.

Game 2 (tidy, 14 fps, ideal camera), killed at frame 3386 during the end-game
reveal: player 1 lays a starting cup card (O01) and covers it with the next
one within the 3 lost seconds, and the game ended by a full river with cards
left in the deck, so nothing on the table names it. The screen asks for the
cup ("SHOW CUPS"); the players show it, and the result is the uninterrupted
run's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.journal import Journal
from companion.bench.restart import Run, _journal_until, _resume, _watch
from companion.sim.players import PlayedTable

SEED, KILLED, FPS = 2, 3386, 14.0


@pytest.mark.slow  # a whole game through the tracker, then its end again (about 10 s)
def test_a_cup_card_laid_while_the_companion_was_off_is_shown_on_request(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    reference = Run("tidy", SEED, FPS, (4608, 2592), 1.0, True, state=str(tmp_path / "reference"))
    uninterrupted = _watch(reference)
    assert uninterrupted["right"]
    with Journal.read(tmp_path / "reference") as journal:
        _journal_until(journal, tmp_path / "killed", KILLED)
    shown: list[int] = []
    show = PlayedTable._show_cup
    monkeypatch.setattr(PlayedTable, "_show_cup", lambda table, player: (shown.append(player), show(table, player)))
    resumed = _resume(Run("tidy", SEED, FPS, (4608, 2592), 1.0, True, state=str(tmp_path / "killed"),
                          start=KILLED + round(3 * FPS), killed=KILLED))
    assert shown == [0]  # only player 1's cup was asked for, and shown once
    assert resumed.final == uninterrupted["final"]
