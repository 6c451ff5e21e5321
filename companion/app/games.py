"""The journal's games as documents: what ``companion games`` prints and the phone view serves.

One function per document, so ``companion games show --json`` and the phone
view's ``GET /api/game`` cannot drift apart (interfaces.md section 11).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from companion.errors import JournalError

if TYPE_CHECKING:
    from companion.app.journal import GameInfo, Journal, JournaledGame


def chosen(journal: Journal, game_id: int | None) -> JournaledGame:
    """Game ``game_id``, or the latest; a JournalError naming the journal when there is none."""
    if game_id is not None:
        return journal.game(game_id)
    latest = journal.latest()
    if latest is None:
        raise JournalError(f"{journal.path}: no games yet")
    return latest


def show_document(game: JournaledGame) -> dict[str, Any]:
    """``games show --json`` (interfaces.md section 7): the record's lines and where the game stands."""
    return {"record": game.record(), "final": game.final()}


def record_text(game: JournaledGame) -> str:
    """The game as a ``mandala-record/1`` file."""
    return "\n".join(game.record()) + "\n"


def list_document(journal: Journal) -> dict[str, Any]:
    """``games list --json``: every game, oldest first, with the count of notes the journal kept on it."""
    notes: Counter[int | None] = Counter(repair.game_id for repair in journal.repairs())
    return {"games": [info_json(game, notes[game.id]) for game in journal.games()]}


def info_json(game: GameInfo, notes: int = 0) -> dict[str, Any]:
    return {"id": game.id, "started": game.started, "first_player": game.first_player,
            "finished": game.finished, "entries": game.entries, "result": game.result, "notes": notes}
