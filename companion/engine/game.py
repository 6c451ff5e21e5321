"""The state of a game of Mandala and the rules that move it.

:class:`Game` is to Mandala what ``chess.Board`` is to chess: a mutable
position with :meth:`Game.push`, :meth:`Game.pop`, :meth:`Game.validate`,
:meth:`Game.is_legal`, :meth:`Game.legal_actions` and a one-line text form
(:meth:`Game.text`, :meth:`Game.from_text`).

One rules code serves both knowledge modes. Every place a card can be (a
hand, a cup, a river, the deck, the discard pile, each area of each mandala)
is a *zone* holding the cards whose identity is known, in order, plus a
count of cards that are there but unseen. With full information nothing is
unseen. At a real table the camera never sees hands, the deck or the two
starting cup cards, so those are counts; a card whose place is unknown has
the location :data:`UNSEEN` and may be in any zone that holds unseen cards.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from companion.engine.cards import (
    ALL_COLORS_MASK,
    CARDS,
    COLOR_OF,
    COLORS,
    HAND_LIMIT,
    MANDALAS,
    MOUNTAIN_DRAW,
    REFILL_CARDS,
    RIVER_SPACES,
    Card,
    Color,
    Mandala,
    Player,
    card_name,
    color_name,
    player_title,
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
from companion.engine.violations import Reason, Violation
from companion.errors import IllegalEventError, InvalidEventError

# Zones: where a card can be. Areas of mandala m are AREAS + 3 * m + slot,
# slot 0 the mountain, slot 1 + p the field of player p.
HANDS = (0, 1)
CUPS = (2, 3)
RIVERS = (4, 5)
DECK = 6
DISCARD = 7
AREAS = 8
ZONE_COUNT = 14
UNSEEN = ZONE_COUNT
"""Location of a card whose zone is unknown (in a hand, a cup or the deck)."""

MOUNTAIN_SLOT = 0
_OTHER_SLOTS = ((1, 2), (0, 2), (0, 1))


def area_zone(mandala: Mandala, slot: int) -> int:
    return AREAS + 3 * mandala + slot


def mountain_zone(mandala: Mandala) -> int:
    return AREAS + 3 * mandala


def field_zone(mandala: Mandala, player: Player) -> int:
    return AREAS + 3 * mandala + 1 + player


class Phase(enum.Enum):
    PLAY = "play"
    """The player to move chooses one of the three actions."""
    CLAIM = "claim"
    """A mandala is being destroyed: the picker claims a mountain color."""
    REFILL = "refill"
    """Claims are done: two cards go into the empty mountain."""
    OVER = "over"


class EndReason(enum.Enum):
    DECK = "deck"
    RIVER = "river"


@dataclass(frozen=True, slots=True)
class Setup:
    """The deal: what a record's header says. Hands and cups may be counts."""

    mountains: tuple[tuple[Card, ...], tuple[Card, ...]]
    hands: tuple[tuple[Card, ...] | int, tuple[Card, ...] | int]
    cups: tuple[tuple[Card, ...] | int, tuple[Card, ...] | int]
    first_player: Player = 0


@dataclass(frozen=True, slots=True)
class Score:
    """A player's cup value so far; ``unknown`` cup cards are not counted yet."""

    points: int
    cup_size: int
    unknown: int


@dataclass(frozen=True, slots=True)
class _Snapshot:
    known: tuple[tuple[Card, ...], ...]
    hidden: tuple[int, ...]
    loc: tuple[int, ...]
    masks: tuple[int, ...]
    river_mask: tuple[int, ...]
    scalars: tuple[object, ...]


class Game:
    """A game of Mandala in progress.

    >>> from companion.engine.deal import deal
    >>> import random
    >>> game = Game(deal(random.Random(1)))
    >>> game.phase, game.turn, game.deck_size
    (<Phase.PLAY: 'play'>, 0, 88)
    """

    __slots__ = (
        "base",
        "completer",
        "deck_ran_out",
        "destroying",
        "end_reason",
        "hidden",
        "known",
        "loc",
        "masks",
        "phase",
        "river_mask",
        "stack",
        "turn",
    )

    def __init__(self, setup: Setup) -> None:
        self.stack: list[tuple[Event, bool]] = []
        """Pushed events and whether each was forced past the rules."""
        self._deal(setup)
        self.base = self._snapshot()
        """The state before the first pushed event: :meth:`pop` replays from it."""

    # -- setting up -----------------------------------------------------------

    def _deal(self, setup: Setup) -> None:
        self.known: list[list[Card]] = [[] for _ in range(ZONE_COUNT)]
        self.hidden = [0] * ZONE_COUNT
        self.loc = [UNSEEN] * len(CARDS)
        self.masks = [0] * 6
        self.river_mask = [0, 0]
        self.phase = Phase.PLAY
        self.turn: Player = setup.first_player
        self.completer: Player | None = None
        self.destroying: Mandala | None = None
        self.deck_ran_out = False
        self.end_reason: EndReason | None = None
        for mandala in MANDALAS:
            for card in setup.mountains[mandala]:
                self._put(card, mountain_zone(mandala))
        for player, (hand, cup) in enumerate(zip(setup.hands, setup.cups, strict=True)):
            self._put_all(hand, HANDS[player])
            self._put_all(cup, CUPS[player])
        dealt = sum(len(z) + h for z, h in zip(self.known, self.hidden, strict=True))
        if any(self.hidden):
            self.hidden[DECK] = len(CARDS) - dealt
        else:
            self.known[DECK] = [c for c in CARDS if self.loc[c] == UNSEEN]
            for card in self.known[DECK]:
                self.loc[card] = DECK

    def _put_all(self, cards: tuple[Card, ...] | int, zone: int) -> None:
        if isinstance(cards, int):
            self.hidden[zone] += cards
        else:
            for card in cards:
                self._put(card, zone)

    # -- moving cards ---------------------------------------------------------

    def _put(self, card: Card, zone: int) -> None:
        self.known[zone].append(card)
        self.loc[card] = zone
        if zone >= AREAS:
            self.masks[zone - AREAS] |= 1 << COLOR_OF[card]

    def _take(self, card: Card, zone: int) -> None:
        """Remove a card from where it is; an unseen card from ``zone``'s unseen cards.

        A forced event may name a card that is somewhere else entirely: it is
        taken from where it really is, so every card stays accounted for.
        """
        where = self.loc[card]
        if where == UNSEEN:
            source = zone if self.hidden[zone] else next(z for z in range(ZONE_COUNT) if self.hidden[z])
            self.hidden[source] -= 1
        else:
            self.known[where].remove(card)
            if where >= AREAS:
                self._recompute_mask(where)

    def _recompute_mask(self, zone: int) -> None:
        mask = 0
        for card in self.known[zone]:
            mask |= 1 << COLOR_OF[card]
        self.masks[zone - AREAS] = mask

    def _move_unseen(self, source: int, target: int, count: int) -> None:
        self.hidden[source] -= count
        self.hidden[target] += count

    def _empty_zone_to(self, zone: int, target: int) -> None:
        for card in self.known[zone]:
            self.known[target].append(card)
            self.loc[card] = target
        self.known[zone] = []
        self._move_unseen(zone, target, self.hidden[zone])
        if zone >= AREAS:
            self.masks[zone - AREAS] = 0

    # -- simple queries -------------------------------------------------------

    def size(self, zone: int) -> int:
        return len(self.known[zone]) + self.hidden[zone]

    def hand_size(self, player: Player) -> int:
        return self.size(HANDS[player])

    def cup_size(self, player: Player) -> int:
        return self.size(CUPS[player])

    @property
    def deck_size(self) -> int:
        return self.size(DECK)

    @property
    def discard_size(self) -> int:
        return self.size(DISCARD)

    def hand(self, player: Player) -> tuple[Card, ...]:
        """The known cards in a player's hand (all of it with full information)."""
        return tuple(self.known[HANDS[player]])

    def river(self, player: Player) -> tuple[Card, ...]:
        return tuple(self.known[RIVERS[player]])

    def river_colors(self, player: Player) -> tuple[Color, ...]:
        return tuple(COLOR_OF[c] for c in self.known[RIVERS[player]])

    def mountain(self, mandala: Mandala) -> tuple[Card, ...]:
        return tuple(self.known[mountain_zone(mandala)])

    def field(self, mandala: Mandala, player: Player) -> tuple[Card, ...]:
        return tuple(self.known[field_zone(mandala, player)])

    def mandala_colors(self, mandala: Mandala) -> int:
        """Bit mask of the colors present anywhere in a mandala."""
        base = 3 * mandala
        return self.masks[base] | self.masks[base + 1] | self.masks[base + 2]

    def location(self, card: Card) -> int:
        return self.loc[card]

    @property
    def first_player(self) -> Player:
        """Who played first: the player to move in the base state."""
        turn = self.base.scalars[1]
        assert isinstance(turn, int)
        return turn

    @property
    def is_full_information(self) -> bool:
        return not any(self.hidden)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def picker(self) -> Player | None:
        """Who claims next during a destruction."""
        return self.turn if self.phase is Phase.CLAIM else None

    def allowed_colors(self, mandala: Mandala, slot: int) -> int:
        """Colors the Rule of Color lets into an area, as a bit mask."""
        masks, base = self.masks, 3 * mandala
        first, second = _OTHER_SLOTS[slot]
        return ALL_COLORS_MASK & ~(masks[base + first] | masks[base + second])

    def required_draws(self, event: MountainPlay | Discard) -> int:
        """How many cards the player must draw after this play."""
        supply = self.deck_size + self.discard_size
        if isinstance(event, MountainPlay):
            after = self.hand_size(event.player) - len(event.cards)
            return min(MOUNTAIN_DRAW, HAND_LIMIT - after, supply)
        return event.count  # the discarded cards themselves can always be reshuffled back

    def refill_count(self) -> int:
        return min(REFILL_CARDS, self.deck_size + self.discard_size)

    # -- scoring --------------------------------------------------------------

    def score(self, player: Player) -> Score:
        values = [0] * len(COLORS)
        for space, card in enumerate(self.known[RIVERS[player]], start=1):
            values[COLOR_OF[card]] = space
        cup = CUPS[player]
        points = sum(values[COLOR_OF[card]] for card in self.known[cup])
        return Score(points, self.size(cup), self.hidden[cup])

    def winner(self) -> Player | str | None:
        """``0``, ``1`` or ``"draw"`` once the game is over and every cup card is known."""
        if self.phase is not Phase.OVER or self.hidden[CUPS[0]] or self.hidden[CUPS[1]]:
            return None
        one, two = self.score(0), self.score(1)
        if one.points != two.points:
            return 0 if one.points > two.points else 1
        if one.cup_size != two.cup_size:
            return 0 if one.cup_size < two.cup_size else 1
        return "draw"

    def decided_by_cup_size(self) -> bool:
        one, two = self.score(0), self.score(1)
        return self.winner() in (0, 1) and one.points == two.points

    # -- legality -------------------------------------------------------------

    def validate(self, event: Event) -> Violation | None:
        """The first rule the event breaks, in the contract's order, or ``None``."""
        if self.phase is Phase.OVER and not isinstance(event, Reveal):
            return Violation(Reason.GAME_OVER, "The game is over.")
        check = _CHECKS.get(type(event)) or _CHECKS.get(_event_type(event))
        if check is None:
            raise InvalidEventError(f"not an event: {event!r}")
        return check(self, event)

    def is_legal(self, event: Event) -> bool:
        return self.validate(event) is None

    def _check_play(self, player: Player) -> Violation | None:
        if self.phase is not Phase.PLAY:
            return _wrong_phase(self.phase)
        if player != self.turn:
            return Violation(Reason.NOT_YOUR_TURN,
                             f"It is {player_title(self.turn)}'s turn, not {player_title(player)}'s.")
        return None

    def _check_in_hand(self, player: Player, cards: tuple[Card, ...]) -> Violation | None:
        hand = HANDS[player]
        unseen = self.hidden[hand]
        seen: set[Card] = set()
        for card in cards:
            where = self.loc[card]
            if card in seen:
                problem = "it is named twice"
            elif where == hand:
                problem = ""
            elif where == UNSEEN and unseen > 0:
                unseen -= 1
                problem = ""
            else:
                problem = f"it is {self.describe_location(card)}"
            if problem:
                return Violation(Reason.CARD_NOT_IN_HAND,
                                 f"{card_name(card)} is not in {player_title(player)}'s hand: {problem}.")
            seen.add(card)
        return None

    def _check_one_color(self, cards: tuple[Card, ...]) -> Violation | None:
        colors = {COLOR_OF[c] for c in cards}
        if len(colors) > 1:
            names = " and ".join(color_name(c) for c in sorted(colors))
            return Violation(Reason.MIXED_COLORS, f"One play must be of a single color, not {names}.")
        return None

    def _check_color_rule(self, mandala: Mandala, slot: int, color: Color) -> Violation | None:
        if self.allowed_colors(mandala, slot) >> color & 1:
            return None
        base = 3 * mandala
        holder = next(s for s in range(3) if s != slot and self.masks[base + s] >> color & 1)
        name = color_name(color)
        return Violation(
            Reason.COLOR_RULE,
            f"{name.capitalize()} can't go into {_area_title(mandala, slot)}: "
            f"{name} is already in {_area_title(mandala, holder, short=True)}.",
        )

    def _check_mountain(self, event: MountainPlay) -> Violation | None:
        violation = self._check_play(event.player) or self._check_in_hand(event.player, event.cards)
        if violation:
            return violation
        if len(event.cards) != 1:
            return Violation(Reason.MOUNTAIN_ONE_CARD,
                             f"Exactly one card goes into a mountain, not {len(event.cards)}.")
        violation = self._check_color_rule(event.mandala, MOUNTAIN_SLOT, COLOR_OF[event.cards[0]])
        return violation or self._check_draws(event.drew, self.required_draws(event), ())

    def _check_field(self, event: FieldPlay) -> Violation | None:
        player = event.player
        violation = (self._check_play(player) or self._check_in_hand(player, event.cards)
                     or self._check_one_color(event.cards))
        if violation:
            return violation
        if event.field_owner != player:
            return Violation(Reason.OWN_FIELD_ONLY,
                             f"{player_title(player).capitalize()} may play only into their own field, "
                             f"not into {player_title(event.field_owner)}'s.")
        violation = self._check_color_rule(event.mandala, 1 + player, COLOR_OF[event.cards[0]])
        if violation:
            return violation
        if self.hand_size(player) - len(event.cards) < 1:
            return Violation(Reason.MUST_KEEP_ONE_CARD,
                             f"{player_title(player).capitalize()} must keep at least one card in hand.")
        return None

    def _check_discard(self, event: Discard) -> Violation | None:
        player = event.player
        violation = (self._check_play(player) or self._check_in_hand(player, event.cards)
                     or self._check_one_color(event.cards))
        if violation:
            return violation
        if self.hand_size(player) < event.count:
            return Violation(Reason.CARD_NOT_IN_HAND,
                             f"{player_title(player).capitalize()} has only {self.hand_size(player)} "
                             f"cards in hand, not {event.count}.")
        return self._check_draws(event.drew, self.required_draws(event), event.cards)

    def _check_claim(self, event: Claim) -> Violation | None:
        if self.phase is not Phase.CLAIM:
            return _wrong_phase(self.phase)
        mandala = self.destroying
        assert mandala is not None
        if event.player != self.turn:
            return Violation(Reason.NOT_YOUR_TURN,
                             f"It is {player_title(self.turn)}'s pick, not {player_title(event.player)}'s.")
        if not self.masks[3 * mandala] >> event.color & 1:
            return Violation(Reason.COLOR_NOT_IN_MOUNTAIN,
                             f"{color_name(event.color).capitalize()} is not left in "
                             f"{_area_title(mandala, MOUNTAIN_SLOT)}.")
        if event.river is not None:
            return self._check_river_card(event, mandala)
        return None

    def _check_river_card(self, event: Claim, mandala: Mandala) -> Violation | None:
        card, player = event.river, event.player
        assert card is not None
        if self.loc[card] != mountain_zone(mandala) or COLOR_OF[card] != event.color:
            return Violation(Reason.RIVER_CARD,
                             f"{card_name(card)} is not one of the {color_name(event.color)} cards claimed "
                             f"from {_area_title(mandala, MOUNTAIN_SLOT)}.")
        if not self.known[field_zone(mandala, player)]:
            return Violation(Reason.RIVER_CARD,
                             f"{player_title(player).capitalize()} has an empty field, "
                             f"so the claimed cards go to the discard pile, not the river.")
        if self.river_mask[player] >> event.color & 1:
            return Violation(Reason.RIVER_CARD,
                             f"{color_name(event.color).capitalize()} is already in "
                             f"{player_title(player)}'s river, so the claimed cards go to the cup.")
        return None

    def _check_refill(self, event: Refill) -> Violation | None:
        if self.phase is not Phase.REFILL:
            return _wrong_phase(self.phase)
        if event.mandala != self.destroying:
            return Violation(Reason.WRONG_PHASE,
                             f"The refill is due in mandala {(self.destroying or 0) + 1}, "
                             f"not mandala {event.mandala + 1}.")
        required = self.refill_count()
        if event.count != required:
            return Violation(Reason.REFILL_COUNT,
                             f"The mountain is refilled with {required} cards, not {event.count}.")
        return self._check_draws(event.cards, len(event.cards), ())

    def _check_reveal(self, event: Reveal) -> Violation | None:
        if self.phase is not Phase.OVER:
            return _wrong_phase(self.phase)
        cup = CUPS[event.player]
        unseen = self.hidden[cup]
        for card in event.cards:
            if self.loc[card] != UNSEEN or unseen == 0:
                where = ("more cards than the cup's unseen ones" if self.loc[card] == UNSEEN
                         else self.describe_location(card))
                return Violation(Reason.CARD_NOT_IN_CUP,
                                 f"{card_name(card)} can't be in {player_title(event.player)}'s cup: "
                                 f"{where}.")
            unseen -= 1
        return None

    def _check_resync(self, event: Resync) -> Violation | None:
        return None  # a correction: the table's word, always taken

    def _apply_resync(self, event: Resync) -> None:
        from companion.engine.text import parse_state_text

        self._restore(parse_state_text(event.position)._snapshot())

    def _check_draws(self, drew: Draw, required: int, discarding: tuple[Card, ...]) -> Violation | None:
        """Check drawn cards against what the deck (and, reshuffled, the discard pile) holds."""
        if drew is None:
            return None
        count = drew if isinstance(drew, int) else len(drew)
        if count != required:
            return Violation(Reason.DRAW_COUNT, f"The player must draw {required} cards, not {count}.")
        if isinstance(drew, int):
            return None
        pool, pool_size, unseen = DECK, self.deck_size, self.hidden[DECK]
        taken: set[Card] = set()
        for card in drew:
            if pool_size == 0:  # the deck ran out mid-draw: the discard pile is reshuffled
                pool, unseen = DISCARD, self.hidden[DISCARD]
                pool_size = self.discard_size + len(discarding)
            where = self.loc[card]
            in_pool = (where == pool or (pool == DISCARD and card in discarding)
                       or (where == UNSEEN and unseen > 0))
            if card in taken or not in_pool or (pool == DECK and card in discarding):
                return Violation(Reason.CARD_NOT_IN_DECK,
                                 f"{card_name(card)} can't be drawn: it is "
                                 f"{self.describe_location(card)}.")
            if where == UNSEEN:
                unseen -= 1
            taken.add(card)
            pool_size -= 1
        return None

    def describe_location(self, card: Card) -> str:
        where = self.loc[card]
        if where == UNSEEN:
            return "not known to be anywhere"
        if where == DECK:
            return "in the deck"
        if where == DISCARD:
            return "on the discard pile"
        if where >= AREAS:
            mandala, slot = divmod(where - AREAS, 3)
            return "in " + _area_title(mandala, slot)
        kind = ("hand", "cup", "river")[where // 2]
        return f"in {player_title(where % 2)}'s {kind}"

    # -- legal actions --------------------------------------------------------

    def legal_actions(self) -> Iterator[MountainPlay | FieldPlay | Discard | Claim]:
        """Every legal decision of the player to move, draws left open (``drew=None``).

        Hands must be known; refills are chance events, not decisions.
        """
        if self.phase is Phase.CLAIM:
            mandala = self.destroying
            assert mandala is not None
            mask = self.masks[3 * mandala]
            for color in COLORS:
                if mask >> color & 1:
                    yield Claim(self.turn, color)
            return
        if self.phase is not Phase.PLAY:
            return
        player = self.turn
        hand = self.known[HANDS[player]]
        by_color: dict[Color, list[Card]] = {}
        for card in hand:
            by_color.setdefault(COLOR_OF[card], []).append(card)
        size = self.hand_size(player)
        for mandala in MANDALAS:
            mountain_ok = self.allowed_colors(mandala, MOUNTAIN_SLOT)
            for card in hand:
                if mountain_ok >> COLOR_OF[card] & 1:
                    yield MountainPlay(player, mandala, (card,))
            field_ok = self.allowed_colors(mandala, 1 + player)
            for color, cards in by_color.items():
                if field_ok >> color & 1:
                    for group in _subsets(cards, size - 1):
                        yield FieldPlay(player, mandala, group)
        for cards in by_color.values():
            for group in _subsets(cards, len(cards)):
                yield Discard(player, group)

    # -- moving the game on ---------------------------------------------------

    def push(self, event: Event, force: bool = False) -> None:
        """Play an event. Illegal ones raise :class:`IllegalEventError` unless ``force``.

        A forced event (a player's override at the table) is applied as far
        as it makes sense: cards move from wherever they really are.
        """
        if not force:
            violation = self.validate(event)
            if violation is not None:
                raise IllegalEventError(violation)
        self._apply(event)
        self.stack.append((event, force))

    def pop(self) -> Event:
        """Undo the last event and return it; the state is exactly as before it."""
        if not self.stack:
            raise IndexError("pop from a game with no events")
        entries = self.stack[:-1]
        last = self.stack[-1][0]
        self.stack = []
        self._restore(self.base)
        for event, force in entries:
            self._apply(event)
            self.stack.append((event, force))
        return last

    def peek(self) -> Event | None:
        return self.stack[-1][0] if self.stack else None

    def copy(self) -> Game:
        """An independent game with the same state and history."""
        twin = Game.__new__(Game)
        twin._restore(self._snapshot())
        twin.base = self.base
        twin.stack = list(self.stack)
        return twin

    _SCALARS = ("phase", "turn", "completer", "destroying", "deck_ran_out", "end_reason")

    def _snapshot(self) -> _Snapshot:
        return _Snapshot(
            tuple(tuple(z) for z in self.known), tuple(self.hidden), tuple(self.loc),
            tuple(self.masks), tuple(self.river_mask),
            tuple(getattr(self, name) for name in self._SCALARS),
        )

    def _restore(self, snap: _Snapshot) -> None:
        self.known = [list(z) for z in snap.known]
        self.hidden = list(snap.hidden)
        self.loc = list(snap.loc)
        self.masks = list(snap.masks)
        self.river_mask = list(snap.river_mask)
        for name, value in zip(self._SCALARS, snap.scalars, strict=True):
            setattr(self, name, value)

    @classmethod
    def from_snapshot(cls, snap: _Snapshot) -> Game:
        """A game starting from a given position, with no history."""
        game = cls.__new__(cls)
        game._restore(snap)
        game.base = snap
        game.stack = []
        return game

    def _apply(self, event: Event) -> None:
        (_APPLY.get(type(event)) or _APPLY[_event_type(event)])(self, event)

    def _apply_mountain(self, event: MountainPlay) -> None:
        required = self.required_draws(event)
        self._play_cards(event.player, event.cards, mountain_zone(event.mandala))
        self._draw(HANDS[event.player], event.drew, required)
        self._after_play(event.player, event.mandala)

    def _apply_field(self, event: FieldPlay) -> None:
        self._play_cards(event.player, event.cards, field_zone(event.mandala, event.field_owner))
        self._after_play(event.player, event.mandala)

    def _apply_discard(self, event: Discard) -> None:
        required = self.required_draws(event)
        self._play_cards(event.player, event.cards, DISCARD)
        self._move_unseen(HANDS[event.player], DISCARD, event.unseen)
        self._draw(HANDS[event.player], event.drew, required)
        self.turn = 1 - event.player

    def _apply_reveal(self, event: Reveal) -> None:
        for card in event.cards:
            self._take(card, CUPS[event.player])
            self._put(card, CUPS[event.player])

    def _play_cards(self, player: Player, cards: tuple[Card, ...], zone: int) -> None:
        hand = HANDS[player]
        for card in cards:
            self._take(card, hand)
            self._put(card, zone)

    def _draw(self, target: int, drew: Draw, required: int) -> None:
        if isinstance(drew, tuple):
            for card in drew:
                self._draw_one(card, target)
            return
        for _ in range(required if drew is None else drew):
            self._draw_one(None, target)

    def _draw_one(self, card: Card | None, target: int) -> None:
        """Draw one card (``None``: an unseen one), reshuffling the discard pile if the deck is empty."""
        known, hidden = self.known, self.hidden
        if not known[DECK] and not hidden[DECK]:
            if not known[DISCARD] and not hidden[DISCARD]:
                return
            self._empty_zone_to(DISCARD, DECK)
        if card is None:
            self._draw_unseen(target)
        else:
            self._take(card, DECK)
            self._put(card, target)
        if not known[DECK] and not hidden[DECK]:
            self.deck_ran_out = True

    def _draw_unseen(self, target: int) -> None:
        deck = self.known[DECK]
        if deck:  # which known card left is not known: the deck becomes all unseen
            for card in deck:
                self.loc[card] = UNSEEN
            self.hidden[DECK] += len(deck)
            self.known[DECK] = []
        self._move_unseen(DECK, target, 1)

    def _after_play(self, player: Player, mandala: Mandala) -> None:
        if self.mandala_colors(mandala) != ALL_COLORS_MASK:
            self.turn = 1 - player
            return
        self.phase = Phase.CLAIM
        self.destroying = mandala
        self.completer = player
        ones = self.size(field_zone(mandala, 0))
        twos = self.size(field_zone(mandala, 1))
        self.turn = 1 - player if ones == twos else (0 if ones > twos else 1)

    def _claim(self, event: Claim) -> None:
        mandala = self.destroying
        assert mandala is not None
        player, color = event.player, event.color
        zone = mountain_zone(mandala)
        cards = [c for c in self.known[zone] if COLOR_OF[c] == color]
        self.known[zone] = [c for c in self.known[zone] if COLOR_OF[c] != color]
        self.masks[zone - AREAS] &= ~(1 << color)
        if not self.known[field_zone(mandala, player)]:
            target = DISCARD
        elif not self.river_mask[player] >> color & 1 and cards:
            river = event.river if event.river in cards else cards[0]
            cards.remove(river)
            self._put(river, RIVERS[player])
            self.river_mask[player] |= 1 << color
            target = CUPS[player]
        else:
            target = CUPS[player]
        for card in cards:
            self._put(card, target)
        if self.masks[zone - AREAS]:
            self.turn = 1 - player
        else:
            self._finish_destruction(mandala)

    def _finish_destruction(self, mandala: Mandala) -> None:
        for player in (0, 1):
            self._empty_zone_to(field_zone(mandala, player), DISCARD)
        # A mountain card laid unseen and never read (table mode) went with some claim nobody
        # could name: the discard pile's unseen cards is the closest place to count it.
        self._move_unseen(mountain_zone(mandala), DISCARD, self.hidden[mountain_zone(mandala)])
        self.turn = 1 - (self.completer or 0)
        river_end = any(len(self.known[r]) >= RIVER_SPACES for r in RIVERS)
        if self.deck_ran_out or river_end:
            self.end_reason = EndReason.DECK if self.deck_ran_out else EndReason.RIVER
            self._end_game()
        else:
            self.phase = Phase.REFILL

    def _end_game(self) -> None:
        self.phase = Phase.OVER
        for zone in (*HANDS, *range(AREAS, ZONE_COUNT)):
            self._empty_zone_to(zone, DISCARD)

    def _refill(self, event: Refill) -> None:
        zone = mountain_zone(event.mandala)
        for card in event.cards:
            self._draw_one(card, zone)
        for _ in range(event.unseen):
            self._draw_one(None, zone)
        self.phase = Phase.PLAY
        self.destroying = None
        self.completer = None

    # -- text form ------------------------------------------------------------

    def text(self) -> str:
        from companion.engine.text import state_text

        return state_text(self)

    @classmethod
    def from_text(cls, line: str) -> Game:
        from companion.engine.text import parse_state_text

        return parse_state_text(line)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Game({self.text()!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.text() == other.text()

    __hash__ = None  # type: ignore[assignment]  # mutable, like a list


_CHECKS: dict[type, Callable[[Game, Any], Violation | None]] = {
    MountainPlay: Game._check_mountain,
    FieldPlay: Game._check_field,
    Discard: Game._check_discard,
    Claim: Game._check_claim,
    Refill: Game._check_refill,
    Reveal: Game._check_reveal,
    Resync: Game._check_resync,
}
_APPLY: dict[type, Callable[[Game, Any], None]] = {
    MountainPlay: Game._apply_mountain,
    FieldPlay: Game._apply_field,
    Discard: Game._apply_discard,
    Claim: Game._claim,
    Refill: Game._refill,
    Reveal: Game._apply_reveal,
    Resync: Game._apply_resync,
}


def _event_type(event: object) -> type:
    """The event class an object is (a subclass made by a caller counts as its base)."""
    return next((kind for kind in _CHECKS if isinstance(event, kind)), type(event))


def _subsets(cards: Sequence[Card], largest: int) -> Iterator[tuple[Card, ...]]:
    for size in range(1, min(largest, len(cards)) + 1):
        yield from combinations(cards, size)


def _wrong_phase(phase: Phase) -> Violation:
    expected = {
        Phase.PLAY: "a player's action (mountain, field or discard)",
        Phase.CLAIM: "a claim of a mountain color",
        Phase.REFILL: "the refill of the destroyed mandala's mountain",
        Phase.OVER: "nothing: the game is over",
    }[phase]
    return Violation(Reason.WRONG_PHASE, f"Not now: the game expects {expected}.")


def _area_title(mandala: Mandala, slot: int, short: bool = False) -> str:
    if slot == MOUNTAIN_SLOT:
        return "the mountain" if short else f"mandala {mandala + 1}'s mountain"
    owner = player_title(slot - 1)
    return f"{owner}'s field" if short else f"{owner}'s field of mandala {mandala + 1}"
