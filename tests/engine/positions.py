"""Build game positions of either ruleset for tests from a few zones; every unnamed card is in the deck."""

from __future__ import annotations

from companion.engine import MOUNTAINS, Game, MountainsGame
from companion.engine.cards import CARDS, card_name, parse_any_card, parse_card

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


MountainsZones = tuple[str, str, str, str]
NO_ZONES: MountainsZones = ("", "", "", "")


def mountains_position(*, phase: str = "play", turn: str = "p1", flags: str = "round=1,first=p1",
                       p1: MountainsZones = NO_ZONES, p2: MountainsZones = NO_ZONES, discard: str = "",
                       out: str = "", deck: str | None = None) -> MountainsGame:
    """A mountains game from zone contents: players as (hand, mountain, score pile, scored gold).

    Cards named nowhere go to the deck, or, when the deck is given, onto the discard pile.
    """
    named = {parse_any_card(i) for zones in (p1, p2) for z in zones for i in _ids(z)} | {
        parse_any_card(i) for i in _ids(discard) + _ids(out) + _ids(deck or "")}
    rest = " ".join(card_name(c) for c in MOUNTAINS.cards if c not in named)
    if deck is None:
        deck = rest
    else:
        discard = f"{rest} {discard}"
    parts = ["mountains/1", phase, turn, flags,
             "p1:" + "/".join(map(_zone, p1)), "p2:" + "/".join(map(_zone, p2)),
             "deck:" + _zone(deck), "discard:" + _zone(discard), "out:" + _zone(out)]
    return MountainsGame.from_text(" ".join(parts))


def any_cards(text: str) -> tuple[int, ...]:
    """Card ids of any ruleset, gold included."""
    return tuple(parse_any_card(i) for i in _ids(text))
