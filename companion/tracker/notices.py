"""The notices the tracker shows the players (news that is no warning), their words in one place.

A notice is a title for the screen's title bar (at most 15 columns) and a
text of at most three lines of 21 columns (``tests/ui/test_notice_fit.py``
checks every one the tracker can make). Fixed texts are plain English
sentences: the screens' msgids when notices are translated. The full story
(an engine message naming cards and counts) goes to the log, never the screen.
"""

from __future__ import annotations

from collections.abc import Sequence

CAUGHT_UP = "CAUGHT UP"
TAKEN_BACK = "TAKEN BACK"
PLAYED_ON = "PLAYED ON"
GAME_OVER = "GAME OVER"
JOINED = "JOINED"
CANNOT_JOIN = "CANNOT JOIN YET"
RESYNCED = "RESYNCED"
TITLES = (CAUGHT_UP, TAKEN_BACK, PLAYED_ON, GAME_OVER, JOINED, CANNOT_JOIN, RESYNCED)

GAME_OVER_TEXT = "The cups are shown: the game has ended."
JOINED_TEXT = "Game joined as it lies."
RESYNCED_TEXT = "Check the table."
OUT_OF_SIGHT_TEXT = "A river card is out of sight: show every card."
"""A join waits: a river with a gap (a card under a hand or another card)."""
DOES_NOT_FIT_TEXT = "The table and the counts do not fit: check both."
"""A join waits: the table cannot be a game with the counts given (the log names what)."""
FIXED_TEXTS = (GAME_OVER_TEXT, JOINED_TEXT, RESYNCED_TEXT, OUT_OF_SIGHT_TEXT, DOES_NOT_FIT_TEXT)
NAMED_CARDS = 3
"""A play taken back names its cards up to this many; more are counted ("P1: 5 cards")."""


def caught_up(moves: int) -> str:
    return f"{moves} moves while the camera was away."


def taken_back(player: int | None, cards: Sequence[str], what: str) -> str:
    """``what``: the event in a few words, used when it names no cards (a claim)."""
    who = "" if player is None else f"P{player + 1} "
    if len(cards) > NAMED_CARDS:
        return f"{who}{len(cards)} cards were taken back."
    return f"{who}{' '.join(cards)} was taken back." if cards else f"{what} was taken back."


def played_on(title: str) -> str:
    """A warning the players played on; ``title`` is its registry title (RULE OF COLOR)."""
    return f"{title} left as it lies."
