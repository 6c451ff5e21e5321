"""Build game positions for tests from a few zones; every unnamed card is in the deck."""

from __future__ import annotations

from companion.engine import Game
from companion.engine.cards import CARDS, card_name, parse_card

Zones = tuple[str, str, str]
EMPTY: Zones = ("", "", "")


def _ids(text: str) -> list[str]:
    return text.split()


def _zone(text: str) -> str:
    return "".join(_ids(text)) or "-"


def position(*, phase: str = "play", turn: str = "p1", flags: str = "-",
             m1: Zones = EMPTY, m2: Zones = EMPTY, p1: Zones = EMPTY, p2: Zones = EMPTY,
             discard: str = "", deck: str | None = None) -> Game:
    """A game from zone contents: mandalas as (mountain, field p1, field p2), players as (hand, cup, river).

    Cards named nowhere go to the deck, or, when the deck is given, under the discard pile.
    """
    named = {parse_card(i) for zones in (m1, m2, p1, p2) for z in zones for i in _ids(z)} | {
        parse_card(i) for i in _ids(discard) + _ids(deck or "")}
    rest = " ".join(card_name(c) for c in CARDS if c not in named)
    if deck is None:
        deck = rest
    else:
        discard = f"{rest} {discard}"
    parts = ["mandala/1", phase, turn, flags,
             "m1:" + "/".join(map(_zone, m1)), "m2:" + "/".join(map(_zone, m2)),
             "p1:" + "/".join(map(_zone, p1)), "p2:" + "/".join(map(_zone, p2)),
             "deck:" + _zone(deck), "discard:" + _zone(discard)]
    return Game.from_text(" ".join(parts))


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(i) for i in _ids(text))
