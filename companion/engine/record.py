"""Game records, ``mandala-record/1``: JSON Lines, a header then one event a line.

Reading works on lines of text (no file I/O here) and raises
:class:`~companion.errors.UnreadableRecordError` naming the line for input
that cannot be read at all. An illegal but readable event is *not* an error
here: the engine judges it when the record is replayed.

The header's ``"ruleset"`` (none: ``mandala``) picks the game class, whose
``parse_header``/``parse_event``/``header_json`` read and write the rest:
this module holds the official game's format and what every ruleset's
records share; :mod:`companion.engine.mountains.record` the second game's.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

from companion.engine.base import BaseGame
from companion.engine.cards import (
    Card,
    card_name,
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
from companion.engine.game import CUPS, DECK, HANDS, Game, Phase, Setup, mountain_zone
from companion.engine.violations import Violation
from companion.errors import CompanionError, LimitError, UnreadableRecordError
from companion.limits import parse_json

FORMAT = "mandala-record/1"
SetupT = TypeVar("SetupT")
EventT = TypeVar("EventT")


@dataclass(frozen=True, slots=True)
class Record(Generic[SetupT, EventT]):
    setup: SetupT | None
    """The deal; None when the record starts from a ``position`` instead (a game joined in progress)."""
    events: tuple[tuple[int, EventT], ...]
    """Each event with its 1-based line number in the record."""
    table_mode: bool = False
    ruleset: str = Game.rules.name
    """The header's ``"ruleset"`` (``mandala`` when it names none)."""
    position: str | None = None
    """The state text the game starts from, when the header has no deal."""

    def new_game(self) -> BaseGame[SetupT, EventT]:
        """The game before the first event, of the record's ruleset: dealt, or the position of a joined game."""
        from companion.engine.rulesets import find_ruleset

        game_class = find_ruleset(self.ruleset)
        if self.position is not None:
            joined: BaseGame[SetupT, EventT] = game_class.parse_text(self.position)
            return joined
        assert self.setup is not None
        game: BaseGame[SetupT, EventT] = game_class(self.setup)
        return game


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


def read_record(lines: Iterable[str], ruleset: str | None = None) -> Record[Any, Any]:
    """Parse a record of any ruleset (its header says which); blank lines are skipped but still counted.

    ``ruleset``, when given, is the ruleset the record must be of: a header
    that names none is read as that one, one that names another is unreadable.
    """
    game_class: type[BaseGame[Any, Any]] | None = None
    setup: object = None
    position: str | None = None
    table = False
    events: list[tuple[int, Any]] = []
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            data = _json_object(text)
            if game_class is None:
                game_class = ruleset_of(data, ruleset)
                if "position" in data:
                    position, table = parse_position_header(game_class, data)
                else:
                    setup, table = game_class.parse_header(data)
            else:
                events.append((number, game_class.parse_event(data, table)))
        except CompanionError as error:
            raise UnreadableRecordError(f"line {number}: {error}") from None
    if game_class is None:
        raise UnreadableRecordError(f"line 1: the record is empty; expected a {FORMAT} header")
    return Record(setup, tuple(events), table, game_class.rules.name, position)


def ruleset_of(header: dict[str, Any], expected: str | None = None) -> type[BaseGame[Any, Any]]:
    """The game class a header's ``"ruleset"`` names; a header without one is ``expected``, else the official game."""
    from companion.engine.rulesets import find_ruleset

    if expected is not None:
        find_ruleset(expected)
    name = header.get("ruleset", expected or Game.rules.name)
    game = find_ruleset(name)
    if expected is not None and name != expected:
        raise UnreadableRecordError(f"the record is a game of the {name} ruleset, not {expected}")
    return game


def _json_object(text: str) -> dict[str, Any]:
    try:
        data = parse_json(text)
    except json.JSONDecodeError as error:
        raise UnreadableRecordError(f"bad JSON ({error.msg} at column {error.colno})") from None
    except LimitError as error:
        raise UnreadableRecordError(str(error)) from None
    if not isinstance(data, dict):
        raise UnreadableRecordError(f"expected a JSON object, got {type(data).__name__}")
    return data


def parse_position_header(game_class: type[BaseGame[Any, Any]], data: dict[str, Any]) -> tuple[str, bool]:
    """A header that starts the game from a position (a game joined in progress): the state text, table mode."""
    check_format(data)
    if "setup" in data:
        raise UnreadableRecordError("a header has either \"setup\" (a deal) or \"position\" (a game joined), not both")
    position = data["position"]
    if not isinstance(position, str):
        raise UnreadableRecordError(f"the header's position must be a state text, got {json.dumps(position)}")
    game = game_class.parse_text(position)  # unreadable text: InvalidStateTextError, a CompanionError
    return position, not game.is_full_information or table_mode(data)


def check_format(data: dict[str, Any]) -> None:
    if data.get("format") != FORMAT:
        raise UnreadableRecordError(f"the header must have \"format\": \"{FORMAT}\", got {data.get('format')!r}")


def setup_object(data: dict[str, Any]) -> dict[str, Any]:
    setup = data.get("setup")
    if not isinstance(setup, dict):
        raise UnreadableRecordError("the header has no \"setup\" object")
    return setup


def table_mode(data: dict[str, Any], *groups: object) -> bool:
    """Whether a header is of a table-mode record: it says so, or it gives a hand or cup as a count."""
    mode = data.get("mode", "full")
    if mode not in ("full", "table"):
        raise UnreadableRecordError(f"unknown mode {mode!r}: expected \"full\" or \"table\"")
    return mode == "table" or any(isinstance(g, int) for g in groups)


def check_dealt_once(groups: Iterable[tuple[Card, ...] | int]) -> None:
    dealt = [c for group in groups if isinstance(group, tuple) for c in group]
    if len(set(dealt)) != len(dealt):
        twice = sorted({c for c in dealt if dealt.count(c) > 1})
        raise UnreadableRecordError(f"impossible setup: {', '.join(card_names(twice))} dealt twice")


def parse_header(data: dict[str, Any]) -> tuple[Setup, bool]:
    """The official game's header."""
    check_format(data)
    first = parse_player(data.get("first_player", "p1"))
    setup = setup_object(data)
    rules = Game.rules
    mountains = tuple(card_list(setup.get(m), f"setup {m}", rules.mountain_deal) for m in ("m1", "m2"))
    hands, cups = [], []
    for name in ("p1", "p2"):
        player = setup.get(name)
        if not isinstance(player, dict):
            raise UnreadableRecordError(f"setup {name} must be an object with \"hand\" and \"cup\"")
        hands.append(cards_or_count(player.get("hand"), f"setup {name} hand", rules.hand_size))
        cups.append(cards_or_count(player.get("cup"), f"setup {name} cup", rules.cup_size))
    check_dealt_once((*mountains, *hands, *cups))
    table = table_mode(data, *hands, *cups)
    return Setup((mountains[0], mountains[1]), (hands[0], hands[1]), (cups[0], cups[1]), first), table


def card_names(cards: Sequence[Card]) -> list[str]:
    return [card_name(c) for c in cards]


def card_list(value: object, what: str, size: int | None = None,
              parse: Callable[[object], Card] = parse_card) -> tuple[Card, ...]:
    """A JSON list of card ids (``parse`` reads one: the ruleset's vocabulary)."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise UnreadableRecordError(f"{what} must be a list of card ids, got {json.dumps(value)}")
    if size is not None and len(value) != size:
        raise UnreadableRecordError(f"impossible setup: {what} must hold {size} cards, not {len(value)}")
    return tuple(parse(v) for v in value)


def cards_or_count(value: object, what: str, size: int,
                   parse: Callable[[object], Card] = parse_card) -> tuple[Card, ...] | int:
    if is_count(value):
        if value != size:
            raise UnreadableRecordError(f"impossible setup: {what} must hold {size} cards, not {value}")
        return size
    return card_list(value, what, size, parse)


def is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _draw(data: dict[str, Any], table: bool) -> Draw:
    if "drew" not in data:
        return None if table else ()
    value = data["drew"]
    if is_count(value) and value >= 0:
        return int(value)
    return card_list(value, "drew")


def event_player(data: dict[str, Any]) -> int:
    if "player" not in data:
        raise UnreadableRecordError(f"the {data.get('action')} event names no player")
    return parse_player(data["player"])


def unseen_count(data: dict[str, Any]) -> int:
    unseen = data.get("unseen", 0)
    if not is_count(unseen):
        raise UnreadableRecordError(f"unseen must be a count, got {json.dumps(unseen)}")
    return int(unseen)


def parse_event(data: dict[str, Any], table: bool = False) -> Event:
    """One record line of the official game (already decoded JSON) as an event."""
    action = data.get("action")
    if action == "mountain":
        return MountainPlay(event_player(data), parse_mandala(data.get("mandala")),
                            card_list(data.get("cards"), "cards"), _draw(data, table))
    if action == "field":
        owner = data.get("field")
        return FieldPlay(event_player(data), parse_mandala(data.get("mandala")), card_list(data.get("cards"), "cards"),
                         None if owner is None else parse_player(owner))
    if action == "discard":
        return Discard(event_player(data), card_list(data.get("cards"), "cards"), _draw(data, table),
                       unseen_count(data))
    if action == "claim":
        river = data.get("river")
        return Claim(event_player(data), parse_color(data.get("color")),
                     None if river is None else parse_card(river))
    if action == "refill":
        return Refill(parse_mandala(data.get("mandala")), card_list(data.get("cards"), "cards"), unseen_count(data))
    if action == "resync":
        position = data.get("position")
        if not isinstance(position, str):
            raise UnreadableRecordError(f"a resync needs a position (state text), got {json.dumps(position)}")
        Game.parse_text(position)  # refuse a position the engine cannot read, here rather than at replay
        return Resync(position)
    if action == "reveal":
        return Reveal(event_player(data), card_list(data.get("cards"), "cards"))
    raise UnreadableRecordError(
        f"unknown action {json.dumps(action)}: expected mountain, field, discard, claim, refill, reveal or resync")


# -- replaying -----------------------------------------------------------------


def replay(record: Record[SetupT, EventT]) -> tuple[BaseGame[SetupT, EventT], list[Verdict]]:
    """Replay a record: illegal events are judged, reported and skipped."""
    game = record.new_game()
    verdicts = []
    for line, event in record.events:
        violation = game.validate(event)
        if violation is None:
            game.push(event, force=True)  # already validated
        verdicts.append(Verdict(line, violation))
    return game, verdicts


def summary(game: BaseGame[Any, Any]) -> dict[str, Any]:
    """The ``final`` object of ``companion engine replay --json``, in the game's ruleset's shape."""
    return game.summary()


# -- writing -------------------------------------------------------------------


def header_json(setup: Setup, table: bool = False) -> dict[str, Any]:
    """The official game's header (it names no ruleset: that is the default)."""
    def cards(value: tuple[Card, ...] | int) -> list[str] | int:
        return value if isinstance(value, int) else card_names(value)

    header: dict[str, Any] = {"format": FORMAT, "first_player": player_name(setup.first_player)}
    if table:
        header["mode"] = "table"
    header["setup"] = {
        "m1": card_names(setup.mountains[0]),
        "m2": card_names(setup.mountains[1]),
        **{player_name(p): {"hand": cards(setup.hands[p]), "cup": cards(setup.cups[p])} for p in (0, 1)},
    }
    return header


def position_header(game: BaseGame[Any, Any]) -> dict[str, Any]:
    """The header of a game that starts from a position (joined in progress), not from a deal."""
    header: dict[str, Any] = {"format": FORMAT}
    if game.rules.name != Game.rules.name:
        header["ruleset"] = game.rules.name
    start = type(game).from_snapshot(game.base)
    header.update({"first_player": player_name(start.turn), "mode": "table", "position": start.text()})
    return header


def record_header(game: BaseGame[Any, Any], table: bool = False) -> dict[str, Any]:
    """The header for a game's base state: its deal when it started from one, else its position."""
    if not isinstance(game, Game) or starts_from_deal(game):
        return type(game).header_json(game.setup(), table)
    return position_header(game)


def starts_from_deal(game: Game) -> bool:
    """Whether the base state is a deal: the dealt mountains read, full hands and cups, the rest in the deck."""
    base, rules = game.base, game.rules
    sizes = [len(known) + hidden for known, hidden in zip(base.known, base.hidden, strict=True)]
    dealt = 2 * (rules.hand_size + rules.cup_size + rules.mountain_deal)
    mountains = all(len(base.known[mountain_zone(m)]) == rules.mountain_deal and not base.hidden[mountain_zone(m)]
                    for m in (0, 1))
    return (mountains and base.scalars[0] is Phase.PLAY and all(sizes[h] == rules.hand_size for h in HANDS)
            and all(sizes[c] == rules.cup_size for c in CUPS) and sizes[DECK] == len(rules.cards) - dealt)


def record_lines(game: BaseGame[Any, Any], table: bool = False) -> list[str]:
    """The record of a game: its header (its deal, or the position it was joined at), then every event."""
    return [json.dumps(record_header(game, table)), *(str(event) for event, _ in game.stack)]


def table_record(game: BaseGame[SetupT, EventT]) -> Record[SetupT, EventT]:
    """What a camera companion can know of a full-information game (hands, draws... as counts)."""
    return game.table_record()


def setup_of(game: BaseGame[SetupT, Any]) -> SetupT:
    """Recover the deal from a game's base state."""
    return game.setup()


def ruleset_table_record(game: Game) -> Record[Setup, Event]:
    """The official game's table record.

    Hands and cups of the deal become counts, draws become counts; what is
    laid face up stays named. A finished game ends with each player's
    starting cup cards revealed, as at the real table.
    """
    setup = game.setup()
    rules = game.rules
    hidden = Setup(setup.mountains, (rules.hand_size, rules.hand_size), (rules.cup_size, rules.cup_size),
                   setup.first_player)
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


def mandala_setup(game: Game) -> Setup:
    """The official game's deal, from its base state."""
    base = game.base

    def zone(index: int) -> tuple[Card, ...] | int:
        return base.known[index] if not base.hidden[index] else base.hidden[index]

    mountains = (base.known[mountain_zone(0)], base.known[mountain_zone(1)])
    return Setup(mountains, (zone(HANDS[0]), zone(HANDS[1])), (zone(CUPS[0]), zone(CUPS[1])), game.first_player)
