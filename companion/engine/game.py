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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, ClassVar, TypeAlias

from companion.engine.base import BaseGame
from companion.engine.cards import (
    ALL_COLORS_MASK,
    COLOR_OF,
    COLORS,
    COLORS_IN_MASK,
    MANDALAS,
    PLAYERS,
    Card,
    Color,
    Mandala,
    Player,
    card_name,
    color_letter,
    color_name,
    colors_mask,
    player_name,
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
from companion.engine.rules import MANDALA, MandalaRules
from companion.engine.violations import Reason, Violation
from companion.vocab import zones as zone_names

# Zones: where a card can be. Areas of mandala m are AREAS + 3 * m + slot,
# slot 0 the mountain, slot 1 + p the field of player p (names: MANDALA.zones).
HANDS = MANDALA.player_zones("hand")
CUPS = MANDALA.player_zones("cup")
RIVERS = MANDALA.player_zones("river")
DECK = MANDALA.zone(zone_names.DECK)
DISCARD = MANDALA.zone(zone_names.DISCARD)
AREAS = MANDALA.zone(zone_names.mountain(0))
ZONE_COUNT = len(MANDALA.zones)
UNSEEN = ZONE_COUNT
"""Location of a card whose zone is unknown (in a hand, a cup or the deck)."""

MOUNTAIN_SLOT = 0
_OTHER_SLOTS = ((1, 2), (0, 2), (0, 1))

# Kinds of decision, as :meth:`Game.choices` lists them.
MOUNTAIN_KIND, FIELD_KIND, DISCARD_KIND, CLAIM_KIND = range(4)
Choice: TypeAlias = "tuple[int, Mandala, tuple[Color, ...], int]"
"""``(kind, mandala, colors, most)``: a kind of decision open now, the colors it may take, and
at most how many cards of one color it plays (a plain tuple: random play builds one per kind
on every move)."""

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


class Game(BaseGame[Setup, Event]):
    """A game of Mandala, the official ruleset (``rules.md``), in progress.

    >>> from companion.engine.deal import deal
    >>> import random
    >>> game = Game(deal(random.Random(1)))
    >>> game.phase, game.turn, game.deck_size
    (<Phase.PLAY: 'play'>, 0, 88)
    """

    rules: ClassVar[MandalaRules] = MANDALA
    MASKED = tuple(range(AREAS, ZONE_COUNT))
    """The areas: mountain, field p1, field p2 of m1, then of m2 (``masks[zone - AREAS]``)."""
    EVENT_KINDS: ClassVar[dict[type, str]] = {
        MountainPlay: "mountain", FieldPlay: "field", Discard: "discard",
        Claim: "claim", Refill: "refill", Reveal: "reveal", Resync: "resync",
    }
    AFTER_END = frozenset({Reveal})
    OVER = Phase.OVER
    SCALARS = ("phase", "turn", "completer", "destroying", "deck_ran_out", "end_reason")
    DEFAULTS: ClassVar[dict[str, object]] = {"phase": Phase.PLAY, "turn": 0, "deck_ran_out": False}
    RECORD_FORM = "companion.engine.record"
    TEXT_FORM = "companion.engine.text"

    __slots__ = ("completer", "deck_ran_out", "destroying", "end_reason", "phase", "river_mask", "turn")

    # -- setting up -----------------------------------------------------------

    def _deal(self, setup: Setup) -> None:
        self.phase = Phase.PLAY
        self.turn: Player = setup.first_player
        self.completer: Player | None = None
        self.destroying: Mandala | None = None
        self.deck_ran_out = False
        self.end_reason: EndReason | None = None
        for mandala in MANDALAS:
            for card in setup.mountains[mandala]:
                self._place(card, mountain_zone(mandala))
        for player, (hand, cup) in enumerate(zip(setup.hands, setup.cups, strict=True)):
            self._place_all(hand, HANDS[player])
            self._place_all(cup, CUPS[player])
        self._deal_rest()

    def _place_all(self, cards: tuple[Card, ...] | int, zone: int) -> None:
        if isinstance(cards, int):
            self.hidden[zone] += cards
        else:
            for card in cards:
                self._place(card, zone)

    def _derive(self) -> None:
        BaseGame._derive(self)
        self.river_mask = [0, 0]
        """The colors in each player's river, as bit masks."""
        for player, river in enumerate(RIVERS):
            self.river_mask[player] = colors_mask(self.known[river])

    # -- simple queries -------------------------------------------------------

    def cup_size(self, player: Player) -> int:
        return self.size(CUPS[player])

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

    @property
    def first_player(self) -> Player:
        """Who played first: the player to move in the base state."""
        turn = self.base.scalars[1]
        assert isinstance(turn, int)
        return turn

    def allowed_colors(self, mandala: Mandala, slot: int) -> int:
        """Colors the Rule of Color lets into an area, as a bit mask."""
        masks, base = self.masks, 3 * mandala
        first, second = _OTHER_SLOTS[slot]
        return ALL_COLORS_MASK & ~(masks[base + first] | masks[base + second])

    def draw_count(self, kind: int, player: Player, played: int) -> int:
        """How many cards a play of ``played`` cards of a kind (``MOUNTAIN_KIND``...) draws after it."""
        if kind == MOUNTAIN_KIND:
            known, hidden, rules, hand = self.known, self.hidden, self.rules, HANDS[player]
            supply = len(known[DECK]) + hidden[DECK] + len(known[DISCARD]) + hidden[DISCARD]
            size = len(known[hand]) + hidden[hand]
            return min(rules.mountain_draw, rules.hand_limit - (size - played), supply)
        # A discard draws as many: the discarded cards themselves can always be reshuffled back.
        return played if kind == DISCARD_KIND else 0

    def required_draws(self, event: MountainPlay | Discard) -> int:
        """How many cards the player must draw after this play."""
        if isinstance(event, MountainPlay):
            return self.draw_count(MOUNTAIN_KIND, event.player, len(event.cards))
        return self.draw_count(DISCARD_KIND, event.player, event.count)

    def refill_count(self) -> int:
        return min(self.rules.mountain_deal, self.deck_size + self.discard_size)

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

    def summary(self) -> dict[str, Any]:
        winner = self.winner()
        return {
            "phase": self.phase.value,
            "turn": player_name(self.turn),
            "end_reason": None if self.end_reason is None else self.end_reason.value,
            "winner": winner if winner is None or isinstance(winner, str) else player_name(winner),
            "scores": {player_name(p): self.score(p).points for p in PLAYERS},
            "cups": {player_name(p): self.size(CUPS[p]) for p in PLAYERS},
            "rivers": {player_name(p): [color_letter(c) for c in self.river_colors(p)] for p in PLAYERS},
            "hands": {player_name(p): self.size(HANDS[p]) for p in PLAYERS},
            "deck": self.size(DECK),
            "discard": self.size(DISCARD),
        }

    # -- legality -------------------------------------------------------------

    def _check_play(self, player: Player) -> Violation | None:
        """A player's action is due, and from this player (the callers test that first: it is the hot path)."""
        if self.phase is not Phase.PLAY:
            return _wrong_phase(self.phase)
        if player != self.turn:
            return Violation(Reason.NOT_YOUR_TURN,
                             f"It is {player_title(self.turn)}'s turn, not {player_title(player)}'s.")
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
        player = event.player
        if self.phase is not Phase.PLAY or player != self.turn:
            return self._check_play(player)
        violation = self._check_in_hand(player, event.cards)
        if violation:
            return violation
        if len(event.cards) != 1:
            return Violation(Reason.MOUNTAIN_ONE_CARD,
                             f"Exactly one card goes into a mountain, not {len(event.cards)}.")
        violation = self._check_color_rule(event.mandala, MOUNTAIN_SLOT, COLOR_OF[event.cards[0]])
        return violation or self._check_draws(event.drew, self.required_draws(event), ())

    def _check_field(self, event: FieldPlay) -> Violation | None:
        player = event.player
        if self.phase is not Phase.PLAY or player != self.turn:
            return self._check_play(player)
        violation = self._check_in_hand(player, event.cards) or self._check_one_color(event.cards)
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
        if self.phase is not Phase.PLAY or player != self.turn:
            return self._check_play(player)
        violation = self._check_in_hand(player, event.cards) or self._check_one_color(event.cards)
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
        self._jump(Game.parse_text(event.position).base)

    def _check_draws(self, drew: Draw, required: int, discarding: tuple[Card, ...]) -> Violation | None:
        """Check drawn cards against what the deck (and, reshuffled, the discard pile) holds."""
        if drew is None:
            return None
        count = drew if isinstance(drew, int) else len(drew)
        if count != required:
            return Violation(Reason.DRAW_COUNT, f"The player must draw {required} cards, not {count}.")
        if isinstance(drew, int):
            return None
        loc = self.loc
        if count <= len(self.known[DECK]):  # the common case: known cards from a deck that has them all
            for card in drew:
                if loc[card] != DECK:
                    break
            else:
                if count < 2 or len(set(drew)) == count:
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

    def describe_zone(self, zone: int) -> str:
        if zone == DECK:
            return "in the deck"
        if zone == DISCARD:
            return "on the discard pile"
        if zone >= AREAS:
            mandala, slot = divmod(zone - AREAS, 3)
            return "in " + _area_title(mandala, slot)
        kind = ("hand", "cup", "river")[zone // 2]
        return f"in {player_title(zone % 2)}'s {kind}"

    # -- legal actions --------------------------------------------------------

    def choices(self) -> list[Choice]:
        """The kinds of decision open to the player to act, each with the colors it may take.

        The one source of legal decisions: :meth:`legal_actions` expands it
        into events, random play picks from it. Hands must be known; refills
        are chance events, not decisions.
        """
        if self.phase is Phase.CLAIM:
            mandala = self.destroying
            assert mandala is not None
            return [(CLAIM_KIND, mandala, COLORS_IN_MASK[self.masks[3 * mandala]], 0)]
        if self.phase is not Phase.PLAY:
            return []
        player = self.turn
        in_hand = self.hand_colors[player]
        size = len(self.known[HANDS[player]]) + self.hidden[HANDS[player]]
        # Any number of cards of one color may be discarded; a field play keeps one card in hand.
        # The Rule of Color, as in allowed_colors: an area takes the colors its two neighbours lack.
        choices: list[Choice] = [(DISCARD_KIND, 0, COLORS_IN_MASK[in_hand], size)]
        masks, opponent = self.masks, 2 - player  # the slot of the opponent's field
        for mandala in MANDALAS:
            base = 3 * mandala
            choices.append((MOUNTAIN_KIND, mandala, COLORS_IN_MASK[~(masks[base + 1] | masks[base + 2]) & in_hand], 1))
            if size > 1:
                taken = masks[base] | masks[base + opponent]
                choices.append((FIELD_KIND, mandala, COLORS_IN_MASK[~taken & in_hand], size - 1))
        return choices

    def legal_actions(self) -> Iterator[MountainPlay | FieldPlay | Discard | Claim]:
        """Every legal decision of the player to move, draws left open (``drew=None``)."""
        player = self.turn
        hand = self.known[HANDS[player]]
        for kind, mandala, colors, most in self.choices():
            for color in colors:
                if kind == CLAIM_KIND:
                    yield Claim(player, color)
                    continue
                group = [card for card in hand if COLOR_OF[card] == color]
                if kind == MOUNTAIN_KIND:
                    for card in group:
                        yield MountainPlay(player, mandala, (card,))
                elif kind == FIELD_KIND:
                    for cards in _subsets(group, most):
                        yield FieldPlay(player, mandala, cards)
                else:
                    for cards in _subsets(group, most):
                        yield Discard(player, cards)

    # -- moving the game on ---------------------------------------------------

    def _apply_mountain(self, event: MountainPlay) -> None:
        required = self.required_draws(event) if event.drew is None else 0  # counted before the play
        self._play_cards(event.player, event.cards, mountain_zone(event.mandala))
        self._draw(HANDS[event.player], event.drew, required)
        self._after_play(event.player, event.mandala)

    def _apply_field(self, event: FieldPlay) -> None:
        self._play_cards(event.player, event.cards, field_zone(event.mandala, event.field_owner))
        self._after_play(event.player, event.mandala)

    def _apply_discard(self, event: Discard) -> None:
        required = self.required_draws(event) if event.drew is None else 0
        self._play_cards(event.player, event.cards, DISCARD)
        self._move_unseen(HANDS[event.player], DISCARD, event.unseen)
        self._draw(HANDS[event.player], event.drew, required)
        self.turn = 1 - event.player

    def _apply_reveal(self, event: Reveal) -> None:
        cup = CUPS[event.player]
        for card in event.cards:
            self._move(card, cup, cup)

    def _play_cards(self, player: Player, cards: tuple[Card, ...], zone: int) -> None:
        hand = HANDS[player]
        for card in cards:
            self._move(card, hand, zone)

    def _draw(self, target: int, drew: Draw, required: int) -> None:
        if isinstance(drew, tuple):
            if len(self.known[DECK]) > len(drew):  # the deck outlasts the draw: no reshuffle, no end
                for card in drew:
                    self._move(card, DECK, target)
                return
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
            self._unsee(DECK)  # which known card left is not known: the deck becomes all unseen
            self._move_unseen(DECK, target, 1)
        else:
            self._move(card, DECK, target)
        if not known[DECK] and not hidden[DECK]:
            self.deck_ran_out = True

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

    def _apply_claim(self, event: Claim) -> None:
        mandala = self.destroying
        assert mandala is not None
        player, color = event.player, event.color
        zone = mountain_zone(mandala)
        cards = [c for c in self.known[zone] if COLOR_OF[c] == color]
        if not self.known[field_zone(mandala, player)]:
            target = DISCARD
        else:
            target = CUPS[player]
            if not self.river_mask[player] >> color & 1 and cards:
                river = event.river if event.river in cards else cards[0]
                cards.remove(river)
                self._move(river, zone, RIVERS[player])
                self.river_mask[player] |= 1 << color
        for card in cards:
            self._move(card, zone, target)
        if self.masks[zone - AREAS]:
            self.turn = 1 - player
        else:
            self._finish_destruction(mandala)

    def _finish_destruction(self, mandala: Mandala) -> None:
        for player in PLAYERS:
            self._empty_zone_to(field_zone(mandala, player), DISCARD)
        # A mountain card laid unseen and never read (table mode) went with some claim nobody
        # could name: the discard pile's unseen cards is the closest place to count it.
        self._move_unseen(mountain_zone(mandala), DISCARD, self.hidden[mountain_zone(mandala)])
        self.turn = 1 - (self.completer or 0)
        river_end = any(len(self.known[r]) >= self.rules.river_spaces for r in RIVERS)
        if self.deck_ran_out or river_end:
            self.end_reason = EndReason.DECK if self.deck_ran_out else EndReason.RIVER
            self._end_game()
        else:
            self.phase = Phase.REFILL

    def _end_game(self) -> None:
        self.phase = Phase.OVER
        for zone in (*HANDS, *range(AREAS, ZONE_COUNT)):
            self._empty_zone_to(zone, DISCARD)

    def _apply_refill(self, event: Refill) -> None:
        zone = mountain_zone(event.mandala)
        for card in event.cards:
            self._draw_one(card, zone)
        for _ in range(event.unseen):
            self._draw_one(None, zone)
        self.phase = Phase.PLAY
        self.destroying = None
        self.completer = None

    # -- records and text form ------------------------------------------------

    def setup(self) -> Setup:
        from companion.engine.record import mandala_setup

        return mandala_setup(self)


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
