"""The tracker's notices and its few words for a move: their English words, defined once, as templates.

A notice is news that is no warning ("CAUGHT UP: 2 moves while the camera
was away"), shown a few seconds: a title for the screen's title bar (at
most 15 columns) and a text of at most three lines of 21 columns
(``tests/ui/test_notice_fit.py`` checks every one the tracker can make). A
choice shows two readings of the table in a few words each ("P1 R05 m1",
"P1 claims red"). The full story (an engine message naming cards and
counts) goes to the log, never the screen.

The tracker makes every text from the templates here (the constants and the
small functions below); the screens take a text apart by the same templates
(:func:`values_of`) and fill the players' language's template with the same
values (companion/locale holds the translations; the template is the message).
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence
from functools import cache
from types import MappingProxyType

CAUGHT_UP = "CAUGHT UP"
TAKEN_BACK = "TAKEN BACK"
PLAYED_ON = "PLAYED ON"
GAME_OVER = "GAME OVER"
JOINED = "JOINED"
CANNOT_JOIN = "CANNOT JOIN YET"
RESYNCED = "RESYNCED"

GAME_OVER_TEXT = "The cups are shown: the game has ended."
JOINED_TEXT = "Game joined as it lies."
RESYNCED_TEXT = "Check the table."
OUT_OF_SIGHT_TEXT = "A river card is out of sight: show every card."
"""A join waits: a river with a gap (a card under a hand or another card)."""
DOES_NOT_FIT_TEXT = "The table and the counts do not fit: check both."
"""A join waits: the table cannot be a game with the counts given (the log names what)."""
CAUGHT_UP_TEXT = "{moves} moves while the camera was away."
TAKEN_BACK_TEXT = "{move} was taken back."
"""``move``: the play's player and cards ("P1 R05 K04"), or the event in a few words (a claim)."""
TAKEN_BACK_MANY_TEXT = "{count} cards were taken back."
"""``count``: the number of cards, after the player when there is one ("P1 5")."""
PLAYED_ON_TEXT = "{title} left as it lies."
"""``title``: the warning's registry title (RULE OF COLOR)."""

NOTICES = MappingProxyType({
    CAUGHT_UP: (CAUGHT_UP_TEXT,),
    TAKEN_BACK: (TAKEN_BACK_TEXT, TAKEN_BACK_MANY_TEXT),
    PLAYED_ON: (PLAYED_ON_TEXT,),
    GAME_OVER: (GAME_OVER_TEXT,),
    JOINED: (JOINED_TEXT,),
    CANNOT_JOIN: (OUT_OF_SIGHT_TEXT, DOES_NOT_FIT_TEXT),
    RESYNCED: (RESYNCED_TEXT,),
})
"""Title -> the templates of every text the tracker may give a notice of that title."""
TITLES = tuple(NOTICES)

NAMED_CARDS = 3
"""A play taken back names its cards up to this many; more are counted ("P1: 5 cards")."""

CLAIM_WORDS = "{player} claims {color}"
"""A claim in a choice's few words (:func:`companion.tracker.tracker.short_event`)."""
NOTHING = "nothing"
"""A choice's reading in which nothing happened."""


def caught_up(moves: int) -> str:
    return CAUGHT_UP_TEXT.format(moves=moves)


def taken_back(player: int | None, cards: Sequence[str], what: str) -> str:
    """``what``: the event in a few words, used when it names no cards (a claim)."""
    who = "" if player is None else f"P{player + 1} "
    if len(cards) > NAMED_CARDS:
        return TAKEN_BACK_MANY_TEXT.format(count=f"{who}{len(cards)}")
    return TAKEN_BACK_TEXT.format(move=f"{who}{' '.join(cards)}" if cards else what)


def played_on(title: str) -> str:
    """A warning the players played on; ``title`` is its registry title (RULE OF COLOR)."""
    return PLAYED_ON_TEXT.format(title=title)


@cache
def _pattern(template: str) -> re.Pattern[str]:
    parts = []
    for literal, name, _spec, _conversion in string.Formatter().parse(template):
        parts.append(re.escape(literal))
        if name:
            parts.append(f"(?P<{name}>.+?)")
    return re.compile("".join(parts), re.DOTALL)


def values_of(template: str, text: str) -> dict[str, str] | None:
    """The values that fill ``template`` to make ``text`` (None when ``text`` is not made from it)."""
    found = _pattern(template).fullmatch(text)
    return None if found is None else found.groupdict()


def template_of(title: str, text: str) -> tuple[str, dict[str, str]] | None:
    """The template of the notice ``title`` that makes ``text``, and its values (None: no notice's text)."""
    for template in NOTICES.get(title, ()):
        values = values_of(template, text)
        if values is not None:
            return template, values
    return None


def messages() -> set[str]:
    """Every English text of this module a screen may translate (the catalogs must have each)."""
    return {CLAIM_WORDS, NOTHING, *NOTICES, *(t for templates in NOTICES.values() for t in templates)}
