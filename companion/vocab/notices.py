"""The tracker's notices and its few words for a move, as templates: so the screens can word them in any language.

A notice is news that is no warning ("CAUGHT UP: 2 moves while the camera
was away"), shown a few seconds; a choice shows two readings of the table
in a few words each ("P1 R05 m1", "P1 claims red"). The tracker writes them
in English; this module holds each as a template with ``{names}``, so the
screens can take a text apart (:func:`values_of`) and fill the players'
language's template with the same values (companion/locale holds the
translations; the template is the message).

``tests/vocab/test_notices.py`` fails when the tracker makes a notice this
module does not know, or words one differently.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType


@dataclass(frozen=True, slots=True)
class NoticeInfo:
    text: str
    """The text's template; ``{detail}`` stands for free text no template words (an error's message)."""
    short: str = ""
    """What the screens say instead of a free ``{detail}`` in a language other than English."""


NOTICES = MappingProxyType({
    "CAUGHT UP": NoticeInfo("{moves} moves while the camera was away."),
    "RESYNCED": NoticeInfo("Check the table."),
    "JOINED": NoticeInfo("Game joined as it lies."),
    "CANNOT JOIN YET": NoticeInfo("{detail}", "The table does not read as a game yet."),
    "TAKEN BACK": NoticeInfo("{move} was taken back."),
    "PLAYED ON": NoticeInfo("{title} left as it lies."),
    "GAME OVER": NoticeInfo("The cups are shown: the game has ended."),
})
"""Title -> text of every notice the tracker makes (``Notice(title, text)`` in companion/tracker)."""

CLAIM_WORDS = "{player} claims {color}"
"""A claim in a choice's few words (:func:`companion.tracker.tracker.short_event`)."""
NOTHING = "nothing"
"""A choice's reading in which nothing happened."""


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


def messages() -> set[str]:
    """Every English text of this module a screen may translate (the catalogs must have each)."""
    texts = {CLAIM_WORDS, NOTHING, *NOTICES}
    for entry in NOTICES.values():
        texts.add(entry.short or entry.text)
    return texts
