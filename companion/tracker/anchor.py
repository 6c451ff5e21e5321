"""Positions from a settled view of the table: joining a game in progress, and resyncing to the table.

Both map what the camera sees (card -> layout zone) onto the engine's
:class:`~companion.engine.position.Position` and let the engine's one strict
builder make the state: every card in one place, 108 accounted for. What
the camera cannot see comes from the players (a join's counts), from the
game followed so far (a resync keeps its hands, cups and covered cards), or
is estimated and marked unknown.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from companion.engine import EndReason, Game, Phase
from companion.engine.cards import ALL_COLORS_MASK, COLOR_OF, Card, card_name, parse_card
from companion.engine.game import DISCARD, UNSEEN
from companion.engine.position import Position, build, position_of
from companion.engine.rules import MANDALA
from companion.errors import PositionError
from companion.tracker import zones

ESTIMATED_HAND = 6
"""A hand nobody counted: six is where hands start and what they come back to."""


@dataclass(frozen=True, slots=True)
class JoinCounts:
    """What the players said about a game joined in progress; None: not said (estimated, marked unknown)."""

    turn: int | None = None
    hands: tuple[int, int] | None = None
    cups: tuple[int, int] | None = None
    deck: int | None = None


@dataclass
class _Table:
    """A position being assembled, as mutable lists."""

    mountains: list[list[Card]]
    fields: list[list[list[Card]]]
    rivers: list[dict[int, Card]]
    discard: list[Card]

    @classmethod
    def empty(cls) -> _Table:
        return cls([[], []], [[[], []], [[], []]], [{}, {}], [])

    @classmethod
    def of(cls, position: Position) -> _Table:
        return cls([list(m) for m in position.mountains], [[list(f) for f in m] for m in position.fields],
                   [dict(enumerate(r, start=1)) for r in position.rivers], list(position.discard))

    def remove(self, card: Card) -> None:
        for cards in (*self.mountains, *self.fields[0], *self.fields[1], self.discard):
            if card in cards:
                cards.remove(card)
        for river in self.rivers:
            for space in [s for s, c in river.items() if c == card]:
                del river[space]

    def put(self, card: Card, zone: str) -> bool:
        """Lay a card in a zone of the mat; False for zones that hold no part of a position (cups, deck)."""
        ref = zones.parse_zone(zone)
        if ref.kind == "mountain" and ref.mandala is not None:
            self.mountains[ref.mandala].append(card)
        elif ref.kind == "field" and ref.mandala is not None and ref.player is not None:
            self.fields[ref.mandala][ref.player].append(card)
        elif ref.kind == "river" and ref.player is not None and ref.space is not None:
            self.rivers[ref.player][ref.space] = card
        elif ref.kind == "discard":
            self.discard.append(card)
        else:
            return False
        return True

    def position(self, base: Position) -> Position:
        def pair(lists: list[list[Card]]) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
            return tuple(lists[0]), tuple(lists[1])

        for player, river in enumerate(self.rivers):
            if river and sorted(river) != list(range(1, len(river) + 1)):
                raise PositionError(f"p{player + 1}'s river has a gap (spaces {sorted(river)} seen): "
                                    f"a card out of sight")

        rivers = [[river[s] for s in sorted(river)] for river in self.rivers]
        return replace(base, mountains=pair(self.mountains), fields=(pair(self.fields[0]), pair(self.fields[1])),
                       rivers=pair(rivers), discard=tuple(self.discard))


def join_estimates(seen: Mapping[str, str], counts: JoinCounts) -> tuple[int, int, int, int, int, int]:
    """Turn, hands, cups and deck for a join: the counts given, the others estimated from the table."""
    rivers = [sum(zones.parse_zone(z).kind == "river" and zones.parse_zone(z).player == p for z in seen.values())
              for p in (0, 1)]
    turn = 0 if counts.turn is None else counts.turn
    hands = counts.hands or (ESTIMATED_HAND, ESTIMATED_HAND)
    cups = counts.cups or (MANDALA.cup_size + rivers[0], MANDALA.cup_size + rivers[1])
    deck = counts.deck
    if deck is None:
        deck = max(0, 108 - len(seen) - sum(hands) - sum(cups))
    return turn, hands[0], hands[1], cups[0], cups[1], min(deck, 108)


def river_gap(seen: Mapping[str, str]) -> bool:
    """A river seen with a gap (space 3 without space 2): a card out of sight, no position to read yet."""
    spaces: dict[int, list[int]] = {}
    for zone in seen.values():
        ref = zones.parse_zone(zone)
        if ref.kind == "river" and ref.player is not None and ref.space is not None:
            spaces.setdefault(ref.player, []).append(ref.space)
    return any(sorted(taken) != list(range(1, len(taken) + 1)) for taken in spaces.values())


def joined_position(seen: Mapping[str, str], counts: JoinCounts, default_turn: int = 0) -> tuple[Game, frozenset[str]]:
    """The game on the table as it lies, with the counts given; the others estimated and returned as unknown."""
    table = _Table.empty()
    for card, zone in sorted(seen.items()):
        table.put(parse_card(card), zone)
    unknown = {name for name, value in (("turn", counts.turn), ("hands", counts.hands), ("cups", counts.cups),
                                        ("deck", counts.deck)) if value is None}
    rivers = [len(r) for r in table.rivers]
    cups = counts.cups or (MANDALA.cup_size + rivers[0], MANDALA.cup_size + rivers[1])
    turn = default_turn if counts.turn is None else counts.turn
    base = Position(hands=counts.hands or (ESTIMATED_HAND, ESTIMATED_HAND), cup_sizes=cups, deck=counts.deck,
                    turn=turn)
    position = _phase_of_table(table.position(base))
    return build(position), frozenset(unknown)


def _phase_of_table(position: Position) -> Position:
    """A complete mandala is being destroyed; an empty mountain waits for its refill; else it is play."""
    for mandala in (0, 1):
        cards = [*position.mountains[mandala], *position.fields[mandala][0], *position.fields[mandala][1]]
        if not position.mountains[mandala] and not position.unseen_mountains[mandala]:
            return replace(position, phase=Phase.REFILL, destroying=mandala, completer=1 - position.turn)
        if _colors(cards) == ALL_COLORS_MASK:
            return replace(position, phase=Phase.CLAIM, destroying=mandala, completer=1 - position.turn)
    return position


def _colors(cards: list[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << COLOR_OF[card]
    return mask


def resynced(game: Game, seen: Mapping[str, str], stale: Mapping[str, str]) -> Game:
    """The game re-read from the table: each card seen on the mat where it lies, the rest as the game had it.

    Cards the game keeps on the table but that are not seen stay (covered);
    cards that came out of hiding are taken from the deck's count (then the
    discard pile's, then the larger hand), so the 108 stay accounted for.
    """
    position = position_of(game)
    table = _Table.of(position)
    cups = [list(position.cups[0]), list(position.cups[1])]
    cup_sizes = list(position.cup_sizes or (0, 0))
    out_of_hiding = 0
    for card_name_, zone in sorted(seen.items()):
        card = parse_card(card_name_)
        expected = zones.expected_zone(game, card)
        if expected == zone or (stale.get(card_name_) == zone and expected in (None, zones.DISCARD_ZONE)):
            continue
        where = game.location(card)
        if zones.parse_zone(zone).kind not in ("mountain", "field", "river", "discard"):
            continue
        table.remove(card)
        for player, cup in enumerate(cups):
            if card in cup:
                cup.remove(card)
                cup_sizes[player] -= 1
        out_of_hiding += where == UNSEEN
        table.put(card, zone)
    hands = list(position.hands)
    deck = position.deck or 0
    discard_hidden = game.hidden[DISCARD]
    for _ in range(out_of_hiding):
        if deck:
            deck -= 1
        elif discard_hidden:
            discard_hidden -= 1
        else:
            hands[hands.index(max(hands))] -= 1
    fixed = replace(table.position(position), cups=(tuple(cups[0]), tuple(cups[1])),
                    cup_sizes=(cup_sizes[0], cup_sizes[1]), hands=(hands[0], hands[1]), deck=deck)
    if _refilled(game, seen):
        fixed = _destruction_over(fixed, game, seen)
    return build(_phase_after_resync(fixed))


def _refilled(game: Game, seen: Mapping[str, str]) -> bool:
    """The mountain being destroyed shows only cards that were in hiding (drawn from the deck), none of the ones
    the game still had there: it was refilled, the destruction is over, whatever claims nobody followed."""
    mandala = game.destroying
    if game.phase is not Phase.CLAIM or mandala is None:
        return False
    mountain = zones.mountain(mandala)
    there = [card for card, zone in seen.items() if zone == mountain]
    return bool(there) and all(game.location(parse_card(card)) == UNSEEN for card in there)


def _destruction_over(position: Position, game: Game, seen: Mapping[str, str]) -> Position:
    """The destroyed mandala's claims all made and its fields swept, the refill laid: play goes on with the
    opponent of the player who completed it. The mountain cards the game still had there were claimed by
    someone nobody followed: they go to the pile's count (a cup laid out at the end recounts them), the fields'
    cards onto the pile; a refill card not in sight lies under the one seen."""
    mandala = game.destroying
    assert mandala is not None
    mountain = zones.mountain(mandala)
    new = tuple(parse_card(card) for card, zone in sorted(seen.items()) if zone == mountain)
    claimed = [card for card in position.mountains[mandala] if card not in new]
    fields = list(position.fields)
    swept = [*fields[mandala][0], *fields[mandala][1]]
    fields[mandala] = ((), ())
    mountains = list(position.mountains)
    mountains[mandala] = new
    unseen = list(position.unseen_mountains)
    unseen[mandala] = max(0, game.refill_count() - len(new))
    unseen_fields = list(position.unseen_fields)
    unseen_fields[mandala] = (0, 0)
    completer = position.completer if position.completer is not None else 1 - position.turn
    return replace(position, mountains=(mountains[0], mountains[1]),
                   fields=(fields[0], fields[1]),
                   discard=(*position.discard, *claimed, *swept), unseen_mountains=(unseen[0], unseen[1]),
                   unseen_fields=(unseen_fields[0], unseen_fields[1]),
                   phase=Phase.PLAY, destroying=None, completer=None, turn=1 - completer)


def _phase_after_resync(position: Position) -> Position:
    """Keep the game's phase unless the table contradicts it."""
    if position.phase is Phase.PLAY:
        for complete in (0, 1):
            cards = [*position.mountains[complete], *position.fields[complete][0], *position.fields[complete][1]]
            if _colors(cards) == ALL_COLORS_MASK:
                ones, twos = (len(position.fields[complete][p]) for p in (0, 1))
                picker = position.turn if ones == twos else (0 if ones > twos else 1)
                return replace(position, phase=Phase.CLAIM, destroying=complete, turn=picker,
                               completer=1 - picker if ones == twos else 1 - position.turn)
        return position
    mandala = position.destroying
    if mandala is None:
        return position
    empty = not position.mountains[mandala] and not position.unseen_mountains[mandala]
    if position.phase is Phase.CLAIM and empty:
        swept = (*position.discard, *position.fields[mandala][0], *position.fields[mandala][1])
        fields = list(position.fields)
        fields[mandala] = ((), ())
        return replace(position, phase=Phase.REFILL, discard=swept, fields=(fields[0], fields[1]),
                       turn=1 - (position.completer or 0))
    if position.phase is Phase.REFILL and not empty:
        return replace(position, phase=Phase.PLAY, destroying=None, completer=None)
    return position


def with_cup_cards(game: Game, player: int, cards: list[Card], from_deck: bool = False) -> Game:
    """The game with more cards in a player's cup than it counted, taken from the unseen discard pile or deck.

    ``from_deck``: from the deck first (the count had them on a pile since shuffled into the deck).
    """
    position = position_of(game)
    sizes = list(position.cup_sizes or (0, 0))
    sizes[player] += len(cards)
    cups = [list(position.cups[0]), list(position.cups[1])]
    cups[player] += cards
    spare = game.hidden[DISCARD]
    deck = (position.deck or 0) - max(0, len(cards) - spare)
    if from_deck and (position.deck or 0) >= len(cards):
        deck = (position.deck or 0) - len(cards)
    return build(replace(position, cups=(tuple(cups[0]), tuple(cups[1])), cup_sizes=(sizes[0], sizes[1]),
                         deck=deck))


def with_card_in_cup(game: Game, player: int, card: Card) -> Game:
    """The game with ``card`` in ``player``'s cup, taken from where the game had it out of sight.

    The cups laid out for scoring are the truth: a card the game put in the
    other cup or on the discard pile (a claim given to the wrong player, or
    read as a discard) is in the cup it is laid out from. Counts move with it,
    so the 108 stay accounted for. Raises :class:`PositionError` for a card
    the game has anywhere else (in sight on the mat: not a cup card).
    """
    position = position_of(game)
    cups = [list(position.cups[0]), list(position.cups[1])]
    sizes = list(position.cup_sizes or (len(cups[0]) + 2, len(cups[1]) + 2))
    discard = list(position.discard)
    other = 1 - player
    if card in cups[other]:
        cups[other].remove(card)
        sizes[other] -= 1
    elif card in discard:
        discard.remove(card)
    else:
        raise PositionError(f"{card_name(card)} is not out of sight in the other cup or the discard pile")
    cups[player].append(card)
    sizes[player] += 1
    return build(replace(position, cups=(tuple(cups[0]), tuple(cups[1])), cup_sizes=(sizes[0], sizes[1]),
                         discard=tuple(discard)))


def ended(game: Game) -> Game:
    """The game over as the players show it (cups laid out) though the game followed had not ended.

    A deck count off by a card or two (a card nobody read) moves the end: the
    cups on the table say it came. A full river ended it, or else the deck.
    """
    position = position_of(game)
    reason = EndReason.RIVER if any(len(r) >= 6 for r in position.rivers) else EndReason.DECK
    discard = [*position.discard]
    for mandala in (0, 1):
        discard += [*position.mountains[mandala], *position.fields[mandala][0], *position.fields[mandala][1]]
    over = replace(position, mountains=((), ()), fields=(((), ()), ((), ())), discard=tuple(discard),
                   unseen_mountains=(0, 0), unseen_fields=((0, 0), (0, 0)), hands=(0, 0),
                   deck=position.deck if reason is EndReason.RIVER else 0, phase=Phase.OVER,
                   deck_ran_out=reason is EndReason.DECK or position.deck_ran_out, end_reason=reason,
                   destroying=position.destroying or 0)
    return build(over)
