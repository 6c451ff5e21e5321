"""The session between tracker and journal, driven by scripted observations (no images)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.app.journal import Journal
from companion.app.session import Session
from companion.tracker.commands import AppAction, AppCommand
from companion.tracker.tracker import Tracker, Update
from companion.vision.observation import FrameObservation
from tests.tracker.table import ScriptedTable


class _ObservationPipeline:
    """Stands in for the table pipeline: frames are already observations."""

    def __init__(self) -> None:
        self.tracker = Tracker(settle_s=1.0)
        self.board_found = True

    def feed(self, index: int, now: float, observation: FrameObservation) -> Update:
        return self.tracker.observe(index, now, observation)


class _ThroughSession:
    """What a ScriptedTable takes for its tracker: observations go through the session, so they are journaled."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def observe(self, index: int, now: float, observation: FrameObservation) -> Update:
        return self.session.feed(index, now, observation)  # type: ignore[arg-type]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.session.tracker, name)


def journaled_table(state: Path) -> tuple[Session, ScriptedTable]:
    session = Session(_ObservationPipeline(), Journal.open(state))  # type: ignore[arg-type]
    session.resume()
    return session, ScriptedTable(_ThroughSession(session))  # type: ignore[arg-type]


def test_a_card_accepted_where_it_lies_stays_accepted_after_a_restart(tmp_path: Path) -> None:
    session, table = journaled_table(tmp_path)
    table.start()
    table.put("m1.field.p1", "R01").settle()               # knocked across a border
    [warning] = session.tracker.warnings
    assert warning.reason == "moved-card"
    applied = session.apply(AppCommand(AppAction.OVERRIDE))
    assert applied.changed and not session.tracker.warnings
    assert session.journal is not None
    session.journal.close()

    restarted, again = journaled_table(tmp_path)            # the companion restarts; the table is as it was
    again.cards = dict(table.cards)
    again.frame = table.frame
    again.settle()
    assert not restarted.tracker.warnings and not again.warnings()
    assert restarted.tracker.accepted == {"R01": "m1.field.p1"}
    again.put("m1.mountain", "P01").settle()                # and the game goes on
    assert [str(e.event) for e in again.events()][-1].startswith('{"player": "p1", "action": "mountain"')
