"""Records of the mountains ruleset: ``mandala-record/1`` with ``"ruleset": "mountains"`` in the header.

::

    {"format": "mandala-record/1", "ruleset": "mountains", "first_player": "p1",
     "setup": {"p1": {"hand": [6 ids]}, "p2": {"hand": [6 ids]}}}
    {"player": "p1", "action": "start", "card": "R07"}
    {"player": "p1", "action": "draw", "drew": ["R01", "A03"]}
    {"player": "p1", "action": "play", "card": "R07", "mountain": "p1"}
    {"player": "p1", "action": "discard", "cards": ["K02"]}

In table mode hands are counts (``"hand": 6``) and draws too (``"drew": 2``).
Card ids are the 108 colored cards and the gold ``A01``..``A12``.
"""

from __future__ import annotations

import json
from typing import Any

from companion.engine.cards import parse_any_card, parse_player, player_name
from companion.engine.mountains.events import DiscardCards, DrawCards, MountainsEvent, PlayCard, StartCard
from companion.engine.mountains.game import MOUNTAINS, MountainsGame, MountainsSetup, Phase
from companion.engine.record import (
    FORMAT,
    Record,
    card_list,
    card_names,
    cards_or_count,
    check_dealt_once,
    check_format,
    event_player,
    is_count,
    setup_object,
    table_mode,
    unseen_count,
)
from companion.errors import UnreadableRecordError

RULESET = MountainsGame.rules.name


def parse_header(data: dict[str, Any]) -> tuple[MountainsSetup, bool]:
    """A mountains header. Without ``"setup"`` the hands were dealt unseen: 6 cards each, table mode."""
    check_format(data)
    first = parse_player(data.get("first_player", "p1"))
    size = MountainsGame.rules.hand_size
    if "setup" not in data:
        return MountainsSetup((size, size), first), table_mode(data, size)
    setup = setup_object(data)
    hands = []
    for name in ("p1", "p2"):
        player = setup.get(name)
        if not isinstance(player, dict):
            raise UnreadableRecordError(f"setup {name} must be an object with \"hand\"")
        hands.append(cards_or_count(player.get("hand"), f"setup {name} hand", size, parse_any_card))
    check_dealt_once(hands)
    return MountainsSetup((hands[0], hands[1]), first), table_mode(data, *hands)


def parse_event(data: dict[str, Any], table: bool = False) -> MountainsEvent:
    """One record line of the mountains ruleset (decoded JSON) as an event."""
    action = data.get("action")
    if action == "start":
        return StartCard(event_player(data), parse_any_card(data.get("card")))
    if action == "draw":
        if "drew" not in data:
            raise UnreadableRecordError("a draw event needs \"drew\": the cards drawn or how many")
        drew = data["drew"]
        if is_count(drew) and drew >= 0:
            return DrawCards(event_player(data), int(drew))
        return DrawCards(event_player(data), card_list(drew, "drew", parse=parse_any_card))
    if action == "play":
        return PlayCard(event_player(data), parse_any_card(data.get("card")), parse_player(data.get("mountain")))
    if action == "discard":
        return DiscardCards(event_player(data), card_list(data.get("cards"), "cards", parse=parse_any_card),
                            unseen_count(data))
    raise UnreadableRecordError(f"unknown action {json.dumps(action)}: expected start, draw, play or discard")


def header_json(setup: MountainsSetup, table: bool = False) -> dict[str, Any]:
    header: dict[str, Any] = {"format": FORMAT, "ruleset": RULESET, "first_player": player_name(setup.first_player)}
    if table:
        header["mode"] = "table"
    header["setup"] = {player_name(p): {"hand": hand if isinstance(hand, int) else card_names(hand)}
                       for p, hand in enumerate(setup.hands)}
    return header


def ruleset_table_record(game: MountainsGame) -> Record[MountainsSetup, MountainsEvent]:
    """What a camera companion can know of a full-information game: hands and draws as counts.

    Everything else is laid face up. A game that ended at a start (a hand with
    no colored card and an empty deck: the engine saw the hand, a camera does
    not) ends with that player's draw of zero cards, which says so.
    """
    setup = game.setup()
    size = game.rules.hand_size
    events: list[MountainsEvent] = []
    for event, _ in game.stack:
        if isinstance(event, DrawCards) and isinstance(event.drew, tuple):
            event = DrawCards(event.player, len(event.drew))
        events.append(event)
    if game.phase is Phase.OVER and not all(game.known[zone] for zone in MOUNTAINS):
        events.append(DrawCards(game.turn, 0))
    hidden = MountainsSetup((size, size), setup.first_player)
    return Record(hidden, tuple(enumerate(events, start=2)), table_mode=True, ruleset=RULESET)
