"""Game records, ``mandala-record/1``: JSON Lines, a header then one event a line.

Reading works on lines of text (no file I/O here) and raises
:class:`~companion.errors.UnreadableRecordError` naming the line for input
that cannot be read at all. An illegal but readable event is *not* an error
here: the engine judges it when the record is replayed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.engine.cards import (
    Card,
    card_name,
    color_letter,
    parse_card,
    parse_color,
    parse_mandala,
    parse_player,
    player_name,
)
from companion.engine.events import (
    Claim,
    Discard,
    Draw,
    Event,
    FieldPlay,
    MountainPlay,
    Refill,
    Resync,
    Reveal,
)
from companion.engine.game import CUPS, DECK, DISCARD, HANDS, Game, Phase, Setup, mountain_zone
from companion.engine.violations import Violation
from companion.errors import CompanionError, UnreadableRecordError

FORMAT = "mandala-record/1"
HAND_SIZE, CUP_SIZE, MOUNTAIN_SIZE = 6, 2, 2
DEALT_DECK = 88


@dataclass(frozen=True, slots=True)
class Record:
    setup: Setup | None
    """The deal; None when the record starts from a ``position`` instead (a game joined in progress)."""
    events: tuple[tuple[int, Event], ...]
    """Each event with its 1-based line number in the record."""
    table_mode: bool = False
    position: str | None = None
    """The state text the game starts from, when the header has no deal."""

    def start(self) -> Game:
        """The game before the first event: dealt from the setup, or the position of a joined game."""
        if self.position is not None:
            return Game.from_text(self.position)
        assert self.setup is not None
        return Game(self.setup)


@dataclass(frozen=True, slots=True)
class Verdict:
    line: int
    violation: Violation | None

    def to_json(self) -> dict[str, Any]:
        if self.violation is None:
            return {"line": self.line, "ok": True}
        return {"line": self.line, "ok": False, "reason": self.violation.reason.value,
                "message": self.violation.message}


# -- reading -------------------------------------------------------------------


def read_record(lines: Iterable[str]) -> Record:
    """Parse a record; blank lines are skipped but still counted."""
    start: Record | None = None
    events: list[tuple[int, Event]] = []
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            data = _json_object(text)
            if start is None:
                start = parse_start(data)
            else:
                events.append((number, parse_event(data, start.table_mode)))
        except UnreadableRecordError as error:
            raise UnreadableRecordError(f"line {number}: {error}") from None
        except CompanionError as error:
            raise UnreadableRecordError(f"line {number}: {error}") from None
    if start is None:
        raise UnreadableRecordError("line 1: the record is empty; expected a mandala-record/1 header")
    return replace(start, events=tuple(events))


def _json_object(text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise UnreadableRecordError(f"bad JSON ({error.msg} at column {error.colno})") from None
    if not isinstance(data, dict):
        raise UnreadableRecordError(f"expected a JSON object, got {type(data).__name__}")
    return data


def parse_start(data: dict[str, Any]) -> Record:
    """A header line as a record without events: a deal (``setup``), or a ``position`` (a joined game)."""
    if data.get("format") != FORMAT:
        raise UnreadableRecordError(f"the header must have \"format\": \"{FORMAT}\", got {data.get('format')!r}")
    position = data.get("position")
    if position is None:
        setup, table = parse_header(data)
        return Record(setup, (), table)
    if "setup" in data:
        raise UnreadableRecordError("a header has either \"setup\" (a deal) or \"position\" (a game joined), not both")
    if not isinstance(position, str):
        raise UnreadableRecordError(f"the header's position must be a state text, got {json.dumps(position)}")
    game = Game.from_text(position)  # unreadable text: InvalidStateTextError, a CompanionError
    return Record(None, (), table_mode=not game.is_full_information or data.get("mode") == "table",
                  position=position)


def parse_header(data: dict[str, Any]) -> tuple[Setup, bool]:
    if data.get("format") != FORMAT:
        raise UnreadableRecordError(f"the header must have \"format\": \"{FORMAT}\", got {data.get('format')!r}")
    first = parse_player(data.get("first_player", "p1"))
    setup = data.get("setup")
    if not isinstance(setup, dict):
        raise UnreadableRecordError("the header has no \"setup\" object")
    mountains = tuple(_card_list(setup.get(m), f"setup {m}", MOUNTAIN_SIZE) for m in ("m1", "m2"))
    hands, cups = [], []
    for name in ("p1", "p2"):
        player = setup.get(name)
        if not isinstance(player, dict):
            raise UnreadableRecordError(f"setup {name} must be an object with \"hand\" and \"cup\"")
        hands.append(_cards_or_count(player.get("hand"), f"setup {name} hand", HAND_SIZE))
        cups.append(_cards_or_count(player.get("cup"), f"setup {name} cup", CUP_SIZE))
    dealt = [c for group in (*mountains, *hands, *cups) if isinstance(group, tuple) for c in group]
    if len(set(dealt)) != len(dealt):
        twice = sorted({c for c in dealt if dealt.count(c) > 1})
        raise UnreadableRecordError(f"impossible setup: {', '.join(_card_names(twice))} dealt twice")
    mode = data.get("mode", "full")
    if mode not in ("full", "table"):
        raise UnreadableRecordError(f"unknown mode {mode!r}: expected \"full\" or \"table\"")
    table = mode == "table" or any(isinstance(g, int) for g in (*hands, *cups))
    return Setup((mountains[0], mountains[1]), (hands[0], hands[1]), (cups[0], cups[1]), first), table


def _card_names(cards: Sequence[Card]) -> list[str]:
    return [card_name(c) for c in cards]


def _card_list(value: object, what: str, size: int | None = None) -> tuple[Card, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise UnreadableRecordError(f"{what} must be a list of card ids, got {json.dumps(value)}")
    if size is not None and len(value) != size:
        raise UnreadableRecordError(f"impossible setup: {what} must hold {size} cards, not {len(value)}")
    return tuple(parse_card(v) for v in value)


def _cards_or_count(value: object, what: str, size: int) -> tuple[Card, ...] | int:
    if isinstance(value, int) and not isinstance(value, bool):
        if value != size:
            raise UnreadableRecordError(f"impossible setup: {what} must hold {size} cards, not {value}")
        return value
    return _card_list(value, what, size)


def _draw(data: dict[str, Any], table: bool) -> Draw:
    if "drew" not in data:
        return None if table else ()
    value = data["drew"]
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    return _card_list(value, "drew")


def _player(data: dict[str, Any]) -> int:
    if "player" not in data:
        raise UnreadableRecordError(f"the {data.get('action')} event names no player")
    return parse_player(data["player"])


def parse_event(data: dict[str, Any], table: bool = False) -> Event:
    """One record line (already decoded JSON) as an event."""
    action = data.get("action")
    if action == "mountain":
        return MountainPlay(_player(data), parse_mandala(data.get("mandala")),
                            _card_list(data.get("cards"), "cards"), _draw(data, table))
    if action == "field":
        owner = data.get("field")
        return FieldPlay(_player(data), parse_mandala(data.get("mandala")), _card_list(data.get("cards"), "cards"),
                         None if owner is None else parse_player(owner))
    if action == "discard":
        return Discard(_player(data), _card_list(data.get("cards"), "cards"), _draw(data, table),
                       _count(data, "unseen"))
    if action == "claim":
        river = data.get("river")
        return Claim(_player(data), parse_color(data.get("color")), None if river is None else parse_card(river))
    if action == "refill":
        return Refill(parse_mandala(data.get("mandala")), _card_list(data.get("cards"), "cards"),
                      _count(data, "unseen"))
    if action == "resync":
        position = data.get("position")
        if not isinstance(position, str):
            raise UnreadableRecordError(f"a resync needs a position (state text), got {json.dumps(position)}")
        Game.from_text(position)  # refuse a position the engine cannot read, here rather than at replay
        return Resync(position)
    if action == "reveal":
        return Reveal(_player(data), _card_list(data.get("cards"), "cards"))
    raise UnreadableRecordError(
        f"unknown action {json.dumps(action)}: expected mountain, field, discard, claim, refill, reveal or resync")


def _count(data: dict[str, Any], key: str) -> int:
    value = data.get(key, 0)
    if not isinstance(value, int) or isinstance(value, bool):
        raise UnreadableRecordError(f"{key} must be a count, got {json.dumps(value)}")
    return value


# -- replaying -----------------------------------------------------------------


def replay(record: Record) -> tuple[Game, list[Verdict]]:
    """Replay a record: illegal events are judged, reported and skipped."""
    game = record.start()
    verdicts = []
    for line, event in record.events:
        violation = game.validate(event)
        if violation is None:
            game.push(event, force=True)  # already validated
        verdicts.append(Verdict(line, violation))
    return game, verdicts


def summary(game: Game) -> dict[str, Any]:
    """The ``final`` object of ``companion engine replay --json``."""
    winner = game.winner()
    return {
        "phase": game.phase.value,
        "turn": player_name(game.turn),
        "end_reason": None if game.end_reason is None else game.end_reason.value,
        "winner": winner if winner is None or isinstance(winner, str) else player_name(winner),
        "scores": {player_name(p): game.score(p).points for p in (0, 1)},
        "cups": {player_name(p): game.size(CUPS[p]) for p in (0, 1)},
        "rivers": {player_name(p): [color_letter(c) for c in game.river_colors(p)] for p in (0, 1)},
        "hands": {player_name(p): game.size(HANDS[p]) for p in (0, 1)},
        "deck": game.size(DECK),
        "discard": game.size(DISCARD),
    }


# -- writing -------------------------------------------------------------------


def header_json(setup: Setup, table: bool = False) -> dict[str, Any]:
    def cards(value: tuple[Card, ...] | int) -> list[str] | int:
        return value if isinstance(value, int) else _card_names(value)

    header: dict[str, Any] = {"format": FORMAT, "first_player": player_name(setup.first_player)}
    if table:
        header["mode"] = "table"
    header["setup"] = {
        "m1": _card_names(setup.mountains[0]),
        "m2": _card_names(setup.mountains[1]),
        **{player_name(p): {"hand": cards(setup.hands[p]), "cup": cards(setup.cups[p])} for p in (0, 1)},
    }
    return header


def position_header(position: str, first_player: int = 0) -> dict[str, Any]:
    """The header of a game that starts from a position (joined in progress), not from a deal."""
    return {"format": FORMAT, "first_player": player_name(first_player), "mode": "table", "position": position}


def record_header(game: Game, table: bool = False) -> dict[str, Any]:
    """The header for a game's base state: its deal when it started from one, else its position."""
    if starts_from_deal(game):
        return header_json(setup_of(game), table)
    return position_header(Game.from_snapshot(game.base).text(), game.first_player)


def starts_from_deal(game: Game) -> bool:
    """Whether the base state is a deal: two known cards per mountain, 6 in each hand, 2 in each cup."""
    base = game.base
    sizes = [len(known) + hidden for known, hidden in zip(base.known, base.hidden, strict=True)]
    mountains = all(len(base.known[mountain_zone(m)]) == MOUNTAIN_SIZE and not base.hidden[mountain_zone(m)]
                    for m in (0, 1))
    return (mountains and base.scalars[0] is Phase.PLAY and all(sizes[h] == HAND_SIZE for h in HANDS)
            and all(sizes[c] == CUP_SIZE for c in CUPS) and sizes[DECK] == DEALT_DECK)


def record_lines(game: Game, table: bool = False) -> list[str]:
    """The record of a game: its header (deal or position), then every event."""
    return [json.dumps(record_header(game, table)), *(str(event) for event, _ in game.stack)]


def table_record(game: Game) -> Record:
    """What a camera companion can know of a full-information game.

    Hands and cups of the deal become counts, draws become counts; what is
    laid face up stays named. A finished game ends with each player's
    starting cup cards revealed, as at the real table.
    """
    setup = setup_of(game)
    hidden = Setup(setup.mountains, (HAND_SIZE, HAND_SIZE), (CUP_SIZE, CUP_SIZE), setup.first_player)
    events: list[Event] = []
    for event, _ in game.stack:
        if isinstance(event, MountainPlay | Discard) and isinstance(event.drew, tuple):
            event = replace(event, drew=len(event.drew))
        events.append(event)
    if game.is_over:
        for player, cup in enumerate(setup.cups):
            if isinstance(cup, tuple):
                events.append(Reveal(player, cup))
    return Record(hidden, tuple(enumerate(events, start=2)), table_mode=True)


def setup_of(game: Game) -> Setup:
    """Recover the deal from a game's base state."""
    base = game.base
    first = game.first_player

    def zone(index: int) -> tuple[Card, ...] | int:
        return base.known[index] if not base.hidden[index] else base.hidden[index]

    mountains = (base.known[mountain_zone(0)], base.known[mountain_zone(1)])
    return Setup(mountains, (zone(HANDS[0]), zone(HANDS[1])), (zone(CUPS[0]), zone(CUPS[1])), first)

