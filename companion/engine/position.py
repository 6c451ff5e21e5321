"""A position built from what lies on a table: the one builder behind joining a game and resyncing.

A camera sees what lies face up (mountains, fields, rivers, the top of the
discard pile); hands, cups, the deck and most of the discard pile are only
counts. :func:`build` turns that into the engine's state, strictly: every
card is in one place only, and the 108 cards are all accounted for (what is
not seen and not counted is in the deck, or on the discard pile when the
deck size is given). The Rule of Color is not checked: a table is what it
is, and a companion joining a game must follow it even after a mistake.

>>> from companion.engine.cards import parse_card
>>> game = build(Position(mountains=((parse_card("R01"), parse_card("O01")), (parse_card("Y01"),)),
...                       unseen_mountains=(0, 1)))
>>> game.text()[:47]
'mandala/1 play p1 - m1:R01O01/-/- m2:Y01+1/-/- p'
>>> game.deck_size
88
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.engine.cards import (
    ALL_COLORS_MASK,
    CARDS,
    COLOR_OF,
    MANDALAS,
    PLAYERS,
    Card,
    Mandala,
    Player,
    card_name,
)
from companion.engine.events import FieldPlay, MountainPlay
from companion.engine.game import (
    CUPS,
    DECK,
    DISCARD,
    HANDS,
    RIVERS,
    UNSEEN,
    ZONE_COUNT,
    EndReason,
    Game,
    Phase,
    field_zone,
    mountain_zone,
)
from companion.engine.rules import MANDALA
from companion.errors import PositionError

Pair = tuple[tuple[Card, ...], tuple[Card, ...]]


@dataclass(frozen=True, slots=True)
class Position:
    """What a table shows, plus the counts nobody can see; players and mandalas index the pairs."""

    mountains: Pair = ((), ())
    fields: tuple[Pair, Pair] = (((), ()), ((), ()))
    """``fields[mandala][player]``."""
    rivers: Pair = ((), ())
    """Each river in space order (space 1 first)."""
    discard: tuple[Card, ...] = ()
    """Cards known to lie in the discard pile (the ones seen)."""
    cups: Pair = ((), ())
    """Cup cards known by identity (claimed while the camera watched)."""
    unseen_mountains: tuple[int, int] = (0, 0)
    """Mountain cards that lie there but were never read (under another card)."""
    unseen_fields: tuple[tuple[int, int], tuple[int, int]] = ((0, 0), (0, 0))
    """Field cards that lie there but were never read, ``[mandala][player]``."""
    hands: tuple[int, int] = (6, 6)
    cup_sizes: tuple[int, int] | None = None
    """Whole cup sizes; None: the known cup cards plus the two starting ones."""
    deck: int | None = None
    """Cards in the deck; None: whatever the other counts leave (the discard pile is then only what is known)."""
    turn: Player = 0
    phase: Phase = Phase.PLAY
    destroying: Mandala | None = None
    completer: Player | None = None
    deck_ran_out: bool = False
    end_reason: EndReason | None = None


def build(position: Position) -> Game:
    """The game state of a position; raises :class:`PositionError` naming what cannot be."""
    known: list[list[Card]] = [[] for _ in range(ZONE_COUNT)]
    for mandala in MANDALAS:
        known[mountain_zone(mandala)] = list(position.mountains[mandala])
        for player in PLAYERS:
            known[field_zone(mandala, player)] = list(position.fields[mandala][player])
    for player in PLAYERS:
        known[RIVERS[player]] = list(position.rivers[player])
        known[CUPS[player]] = list(position.cups[player])
    known[DISCARD] = list(position.discard)
    _check_twice(known)
    _check_rivers(position)
    hidden = _hidden_counts(position, known)
    return Game.from_position(known, hidden, _scalars(position, known, hidden))


def _check_twice(known: list[list[Card]]) -> None:
    """A card seen in two places, named by both (the engine's own check names only the card)."""
    loc = [UNSEEN] * len(CARDS)
    for zone, cards in enumerate(known):
        for card in cards:
            if loc[card] != UNSEEN:
                raise PositionError(f"{card_name(card)} cannot lie in two places ({MANDALA.zones[loc[card]]} "
                                    f"and {MANDALA.zones[zone]})")
            loc[card] = zone


def _check_rivers(position: Position) -> None:
    for player in PLAYERS:
        river = position.rivers[player]
        colors = [COLOR_OF[c] for c in river]
        if len(river) > MANDALA.river_spaces or len(set(colors)) != len(colors):
            raise PositionError(f"p{player + 1}'s river {' '.join(card_name(c) for c in river)} must hold at most "
                                f"{MANDALA.river_spaces} cards of different colors")


def _hidden_counts(position: Position, known: list[list[Card]]) -> list[int]:
    hidden = [0] * ZONE_COUNT
    for mandala in MANDALAS:
        hidden[mountain_zone(mandala)] = _count(position.unseen_mountains[mandala], f"m{mandala + 1} unseen cards")
        for player in PLAYERS:
            hidden[field_zone(mandala, player)] = _count(position.unseen_fields[mandala][player],
                                                         f"m{mandala + 1} p{player + 1} unseen field cards")
    for player in PLAYERS:
        hidden[HANDS[player]] = _count(position.hands[player], f"p{player + 1} hand", MANDALA.hand_limit)
        known_cup = len(known[CUPS[player]])
        size = known_cup + MANDALA.cup_size if position.cup_sizes is None else position.cup_sizes[player]
        if _count(size, f"p{player + 1} cup") < known_cup:
            raise PositionError(f"p{player + 1} cup: {size} cards, but {known_cup} are known to be in it")
        hidden[CUPS[player]] = size - known_cup
    rest = len(CARDS) - sum(map(len, known)) - sum(hidden)
    if position.deck is None:
        hidden[DECK] = rest
    else:
        hidden[DECK] = _count(position.deck, "deck")
        hidden[DISCARD] = rest - hidden[DECK]
    if rest < 0 or min(hidden) < 0:
        counted = sum(hidden) - hidden[DECK] - hidden[DISCARD]
        raise PositionError(f"the position holds more than 108 cards ({sum(map(len, known))} seen, {counted} "
                            f"counted in hands, cups and mountains, {position.deck} in the deck)")
    return hidden


def _count(value: int, what: str, most: int = len(CARDS)) -> int:
    if not 0 <= value <= most:
        raise PositionError(f"{what}: {value} cards is not a count from 0 to {most}")
    return value


def _scalars(position: Position, known: list[list[Card]], hidden: list[int]) -> tuple[object, ...]:
    phase, destroying = position.phase, position.destroying
    if phase in (Phase.CLAIM, Phase.REFILL) and destroying is None:
        raise PositionError(f"a position in the {phase.value} phase must say which mandala is destroyed")
    if phase is Phase.REFILL and destroying is not None:
        zone = mountain_zone(destroying)
        if known[zone] or hidden[zone]:
            raise PositionError(f"m{destroying + 1}'s mountain must be empty before its refill")
    if phase is Phase.PLAY and destroying is not None:
        raise PositionError("a position in the play phase destroys no mandala")
    # Same order as Game.SCALARS.
    return (phase, position.turn, position.completer, destroying, position.deck_ran_out, position.end_reason)


def position_of(game: Game) -> Position:
    """The position of a table-mode game (hands and the deck as counts): :func:`build` gives it back."""
    if game.known[DECK] or any(game.known[h] for h in HANDS):
        raise PositionError("a position holds hands and the deck as counts; this game knows their cards")
    return Position(
        mountains=(game.mountain(0), game.mountain(1)),
        fields=((game.field(0, 0), game.field(0, 1)), (game.field(1, 0), game.field(1, 1))),
        rivers=(game.river(0), game.river(1)),
        discard=tuple(game.known[DISCARD]),
        cups=(tuple(game.known[CUPS[0]]), tuple(game.known[CUPS[1]])),
        unseen_mountains=(game.hidden[mountain_zone(0)], game.hidden[mountain_zone(1)]),
        unseen_fields=((game.hidden[field_zone(0, 0)], game.hidden[field_zone(0, 1)]),
                       (game.hidden[field_zone(1, 0)], game.hidden[field_zone(1, 1)])),
        hands=(game.hand_size(0), game.hand_size(1)),
        cup_sizes=(game.cup_size(0), game.cup_size(1)),
        deck=game.deck_size,
        turn=game.turn, phase=game.phase, destroying=game.destroying, completer=game.completer,
        deck_ran_out=game.deck_ran_out, end_reason=game.end_reason,
    )


def identify(game: Game, card: Card, mandala: Mandala) -> Game:
    """The game once a mountain card that lay there unseen is read: ``card`` takes one unseen place.

    If that card completes the mandala, the completion went unnoticed: the
    destruction starts now, as it would have after the last play into it.
    """
    position = position_of(game)
    unseen = list(position.unseen_mountains)
    if unseen[mandala] < 1 or game.location(card) != UNSEEN:
        raise PositionError(f"{card_name(card)} cannot be an unseen card of m{mandala + 1}'s mountain")
    unseen[mandala] -= 1
    mountains = list(position.mountains)
    mountains[mandala] = (*mountains[mandala], card)
    known = build(replace(position, mountains=(mountains[0], mountains[1]),
                          unseen_mountains=(unseen[0], unseen[1])))
    if known.phase is not Phase.PLAY or known.mandala_colors(mandala) != ALL_COLORS_MASK:
        return known
    completer = _last_player_into(game, mandala)
    ones, twos = len(known.field(mandala, 0)), len(known.field(mandala, 1))
    picker = 1 - completer if ones == twos else (0 if ones > twos else 1)
    return build(replace(position_of(known), phase=Phase.CLAIM, destroying=mandala, completer=completer,
                         turn=picker))


def _last_player_into(game: Game, mandala: Mandala) -> Player:
    for event, _ in reversed(game.stack):
        if isinstance(event, MountainPlay | FieldPlay) and event.mandala == mandala:
            return event.player
    return 1 - game.turn


def identify_on_pile(game: Game, card: Card) -> Game:
    """The game once a card counted unseen on the discard pile is read there (a swept field card)."""
    if not game.hidden[DISCARD] or game.location(card) != UNSEEN:
        raise PositionError(f"{card_name(card)} cannot be an unseen card of the discard pile")
    position = position_of(game)
    return build(replace(position, discard=(*position.discard, card)))
