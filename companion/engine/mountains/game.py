"""The ``mountains`` ruleset (``rules-002.md``): mountain boards, gold cards, majorities.

:class:`MountainsGame` is this ruleset's game, a sibling of the official
:class:`~companion.engine.game.Game` on the same :class:`BaseGame`: the
same zones of known and unseen cards serve both knowledge modes (with full
information nothing is unseen; at a real table hands and the deck are
counts), the same push/pop, validation and text form.

A round: each player lays a starting card (``start`` phase), then turns go
round (``play`` phase), each a draw up to 6..9 cards, one card into a
mountain and a discard down to 6; when the two mountains together hold all
six colors the round is scored at once (gold, then majorities) and the next
one starts. The game ends when a player must draw and the deck is empty.
Where ``rules-002.md`` is silent, ``docs/rules-mountains.md`` says what this
code decided.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations
from typing import Any, ClassVar, TypeAlias

from companion.engine.base import _FRAME, BaseGame
from companion.engine.cards import (
    ALL_COLORS_MASK,
    COLOR_OF,
    COLORS,
    GOLD,
    PLAYERS,
    Card,
    Color,
    Player,
    card_name,
    color_letter,
    color_name,
    colors_mask,
    player_name,
    player_title,
)
from companion.engine.mountains.events import DiscardCards, DrawCards, MountainsEvent, PlayCard, StartCard
from companion.engine.rules import MOUNTAINS as RULES
from companion.engine.rules import MountainsRules
from companion.engine.violations import Reason, Violation
from companion.vocab import zones as zone_names

# Zones (names: MOUNTAINS.zones).
HANDS = RULES.player_zones("hand")
MOUNTAINS = RULES.player_zones("mountain")
"""Each player's mountain board: the starting card and every card played there."""
PILES = RULES.player_zones("score")
"""Each player's face-down score pile: the colors won by majority."""
GOLDS = RULES.player_zones("gold")
"""Gold cards scored by each player (out of the game, 1 point each)."""
DECK = RULES.zone(zone_names.DECK)
DISCARD = RULES.zone(zone_names.DISCARD)
OUT = RULES.zone("out")
"""Cards that left the game on a tied majority."""

GOLD_BIT = 1 << GOLD
COLORS_AND_GOLD_IN_MASK: tuple[tuple[Color, ...], ...] = tuple(
    tuple(c for c in (*COLORS, GOLD) if mask >> c & 1) for mask in range(1 << (GOLD + 1)))
"""The colors (gold last) of each 7-bit mask, as a table for the hot paths."""

# Steps of a turn in the play phase.
DRAW_STEP = 0
"""Nothing done yet: the draw (or, with 6 or more in hand, the play) is due."""
PLAY_STEP = 1
"""The turn's draw is done: the play is due."""
DISCARD_STEP = 2
"""The play is done and the hand holds more than 6: the discard is due."""

HAND_SIZE, HAND_MAX = RULES.hand_size, RULES.hand_max
"""The hand a draw fills up to, and the most it may hold after the draw (as names for the hot paths)."""


def draw_range_of(size: int, deck: int) -> tuple[int, int]:
    """The fewest and most cards a draw may bring to a hand of ``size`` from a deck of ``deck``.

    A draw brings the hand to between 6 and 9 (none needed from 6 up); a
    deck too short to reach 6 is drawn whole, and the game ends.
    """
    need = HAND_SIZE - size if size < HAND_SIZE else 0
    if deck < need:
        return deck, deck
    most = HAND_MAX - size if HAND_MAX - size < deck else deck
    return need, most if most > need else need


_DRAW_COUNTS = tuple(tuple(tuple(range(low or 1, high + 1)) for low, high in
                           (draw_range_of(size, deck) for deck in range(HAND_MAX + 1)))
                     for size in range(HAND_MAX + 1))
"""``_DRAW_COUNTS[size][deck]``: the counts a draw offers (a draw of none is no draw), for a
hand and a deck of up to ``HAND_MAX`` cards; a bigger deck offers what one of ``HAND_MAX`` does,
a bigger hand nothing. Built once, not every turn."""
_ONE_COUNT = tuple((n,) for n in range(len(RULES.cards) + 1))
"""``_ONE_COUNT[n]``: ``(n,)``, the one option of a discard of n cards (or of a one-card draw), built once."""
_MASKS = range(1 << (GOLD + 1))
_COLORS_NOT_IN = tuple(~mask & ALL_COLORS_MASK for mask in _MASKS)
"""By a mountain's mask: the colors it lacks (what the other player's own mountain may take)."""
_COLUMNS_IN = tuple(mask & ALL_COLORS_MASK | (GOLD_BIT if mask & ALL_COLORS_MASK else 0) for mask in _MASKS)
"""By a mountain's mask: its colors, and gold if it has a column (what a card into it may be)."""
_GOLD_IF_COLUMN = tuple(GOLD_BIT if mask & ALL_COLORS_MASK else 0 for mask in _MASKS)
"""By a mountain's mask: gold if it has a column of some color."""

# Kinds of decision, as :meth:`MountainsGame.choices` lists them.
START_KIND, DRAW_KIND, PLAY_KIND, DISCARD_KIND = range(4)
Choice: TypeAlias = "tuple[int, Player, tuple[int, ...]]"
"""``(kind, player, options)``: a kind of decision open now; options are colors (gold is
:data:`GOLD`) for a start or a play into ``player``'s mountain, card counts for a draw or a
discard."""

# The choices choices() returns, made once (tuples: they are never changed), by player first.
_PLAY_CHOICES: tuple[tuple[Choice, ...], ...] = tuple(
    tuple((PLAY_KIND, mountain, COLORS_AND_GOLD_IN_MASK[mask]) for mask in _MASKS) for mountain in PLAYERS)
"""``[mountain][mask]``: a play into ``mountain`` of the colors in ``mask``."""
_DRAW_CHOICES: tuple[tuple[tuple[Choice, ...], ...], ...] = tuple(
    tuple(tuple((DRAW_KIND, player, counts) for counts in by_deck) for by_deck in _DRAW_COUNTS) for player in PLAYERS)
"""``[player][size][deck]``: the draw of ``_DRAW_COUNTS[size][deck]``."""
_DISCARD_CHOICES: tuple[tuple[Choice, ...], ...] = tuple(
    tuple((DISCARD_KIND, player, counts) for counts in _ONE_COUNT) for player in PLAYERS)
"""``[player][n]``: the discard of n cards."""


class Phase(enum.Enum):
    START = "start"
    """The players lay their starting cards, the round's first player first."""
    PLAY = "play"
    """Turns: draw, play, discard."""
    OVER = "over"


_START, _PLAY, _OVER = Phase.START, Phase.PLAY, Phase.OVER
"""The phases as plain names for the hot paths: each use of an attribute of an Enum class goes
through the enum metaclass's ``__getattr__`` hook, several times the cost of a global."""


@dataclass(frozen=True, slots=True)
class MountainsSetup:
    """The deal: what a record's header says. Hands may be counts."""

    hands: tuple[tuple[Card, ...] | int, tuple[Card, ...] | int]
    first_player: Player = 0


class MountainsGame(BaseGame[MountainsSetup, MountainsEvent]):
    """A game of the mountains ruleset in progress.

    >>> from companion.engine.deal import deal_mountains
    >>> import random
    >>> game = MountainsGame(deal_mountains(random.Random(1)))
    >>> game.phase, game.turn, game.round, game.deck_size
    (<Phase.START: 'start'>, 0, 1, 108)
    """

    rules: ClassVar[MountainsRules] = RULES
    MASKED = MOUNTAINS
    """The mountains: ``masks[player]`` holds the colors (and gold, bit 6) in that player's mountain."""
    EVENT_KINDS: ClassVar[dict[type, str]] = {
        StartCard: "start", DrawCards: "draw", PlayCard: "play", DiscardCards: "discard",
    }
    OVER = Phase.OVER
    SCALARS = ("phase", "turn", "step", "round", "round_first")  # push_legal reads them in this order too
    DEFAULTS: ClassVar[dict[str, object]] = {"phase": Phase.PLAY, "turn": 0, "step": DRAW_STEP, "round": 1,
                                             "round_first": 0}
    RECORD_FORM = "companion.engine.mountains.record"
    TEXT_FORM = "companion.engine.mountains.text"

    __slots__ = ("phase", "round", "round_first", "step", "turn")

    # -- setting up -----------------------------------------------------------

    def _deal(self, setup: MountainsSetup) -> None:
        self.phase = Phase.START
        self.turn: Player = setup.first_player
        """The player to act: whose starting card is due, whose turn it is, or who had to draw at the end."""
        self.step = DRAW_STEP
        self.round = 1
        self.round_first: Player = setup.first_player
        """Who lays the first starting card of the round and takes its first turn."""
        for player, hand in enumerate(setup.hands):
            if isinstance(hand, int):
                self.hidden[HANDS[player]] += hand
            else:
                for card in hand:
                    self._place(card, HANDS[player])
        self._deal_rest()

    # -- simple queries -------------------------------------------------------

    def mountain(self, player: Player) -> tuple[Card, ...]:
        return tuple(self.known[MOUNTAINS[player]])

    @property
    def first_player(self) -> Player:
        """Who played first in the game: the round's first player in the base state."""
        first = self.base.scalars[4]
        assert isinstance(first, int)
        return first

    def first_start_color(self) -> Color | None:
        """While the second starting card is due: the color of the first one."""
        if self.phase is not _START or self.turn == self.round_first:
            return None
        first = self.known[MOUNTAINS[self.round_first]]
        return COLOR_OF[first[0]] if first else None

    def colored_in_hand(self, player: Player) -> Card | None:
        """A colored card known to be in the hand, if there is one."""
        return next((card for card in self.known[HANDS[player]] if COLOR_OF[card] != GOLD), None)

    def draw_range(self, player: Player) -> tuple[int, int]:
        """The fewest and most cards the turn's draw may bring (:func:`draw_range_of`)."""
        return draw_range_of(self.hand_size(player), self.deck_size)

    def all_colors_laid(self) -> bool:
        """Whether the two mountains together hold all six colors (the round ends)."""
        return (self.masks[0] | self.masks[1]) & ALL_COLORS_MASK == ALL_COLORS_MASK

    # -- scoring --------------------------------------------------------------

    def gold_points(self, player: Player) -> int:
        return self.size(GOLDS[player]) * self.rules.gold_points

    def score(self, player: Player) -> int:
        """Gold scored, one point per card in the score pile, the bonus for all six colors there."""
        bonus = self.rules.set_bonus if colors_mask(self.known[PILES[player]]) == ALL_COLORS_MASK else 0
        return self.gold_points(player) + self.size(PILES[player]) + bonus

    def winner(self) -> Player | str | None:
        """``0``, ``1`` or ``"draw"`` once the game is over."""
        if self.phase is not _OVER:
            return None
        one, two = self.score(0), self.score(1)
        return "draw" if one == two else (0 if one > two else 1)

    def summary(self) -> dict[str, Any]:
        winner = self.winner()
        return {
            "phase": self.phase.value,
            "turn": player_name(self.turn),
            "round": self.round,
            "winner": winner if winner is None or isinstance(winner, str) else player_name(winner),
            "scores": {player_name(p): self.score(p) for p in PLAYERS},
            "gold": {player_name(p): self.gold_points(p) for p in PLAYERS},
            "score_piles": {player_name(p): _color_letters(self.known[PILES[p]]) for p in PLAYERS},
            "mountains": {player_name(p): _color_counts(self.known[MOUNTAINS[p]]) for p in PLAYERS},
            "hands": {player_name(p): self.hand_size(p) for p in PLAYERS},
            "deck": self.deck_size,
            "discard": self.discard_size,
            "out": self.size(OUT) + self.size(GOLDS[0]) + self.size(GOLDS[1]),
        }

    # -- legality -------------------------------------------------------------

    def _wrong_phase(self) -> Violation:
        who = player_title(self.turn)
        if self.phase is _START:
            expected = f"{who}'s starting card"
        elif self.step == DRAW_STEP:
            expected = f"{who}'s draw or play"
        elif self.step == PLAY_STEP:
            expected = f"{who}'s play (the turn's draw is done)"
        else:
            expected = f"{who}'s discard down to {self.rules.hand_size}"
        return Violation(Reason.WRONG_PHASE, f"Not now: the game expects {expected}.")

    def _not_your_turn(self, player: Player) -> Violation:
        return Violation(Reason.NOT_YOUR_TURN, f"It is {player_title(self.turn)}'s turn, not {player_title(player)}'s.")

    def _check_start(self, event: StartCard) -> Violation | None:
        if self.phase is not _START:
            return self._wrong_phase()
        player, card = event.player, event.card
        if player != self.turn:
            return self._not_your_turn(player)
        violation = self._check_in_hand(player, (card,))
        if violation:
            return violation
        color = COLOR_OF[card]
        if color == GOLD:
            return Violation(Reason.START_NOT_COLORED,
                             f"{card_name(card)} is a gold card: a starting card must be colored.")
        if color == self.first_start_color():
            other = next((c for c in self.known[HANDS[player]] if COLOR_OF[c] not in (GOLD, color)), None)
            if other is not None:
                name = color_name(color)
                return Violation(Reason.START_SAME_COLOR,
                                 f"{name.capitalize()} is {player_title(self.round_first)}'s starting color: "
                                 f"{player_title(player)} holds {card_name(other)} "
                                 f"({color_name(COLOR_OF[other])}) and must start with another color.")
        return None

    def _check_draw(self, event: DrawCards) -> Violation | None:
        player, drew = event.player, event.drew
        count = drew if isinstance(drew, int) else len(drew)
        if self.phase is not _START and self.step != DRAW_STEP:
            return self._wrong_phase()
        if player != self.turn:
            return self._not_your_turn(player)
        if self.phase is _START:
            violation = self._check_start_draw(player, count)
        else:
            violation = self._check_draw_count(player, count)
        return violation or self._check_from_deck(drew)

    def _check_start_draw(self, player: Player, count: int) -> Violation | None:
        colored = self.colored_in_hand(player)
        who = player_title(player).capitalize()
        if colored is not None:
            return Violation(Reason.DRAW_COUNT,
                             f"{who} holds {card_name(colored)} ({color_name(COLOR_OF[colored])}): only a hand "
                             f"with no colored card draws before its starting card.")
        if not self.deck_size:
            if count:
                return Violation(Reason.DRAW_COUNT,
                                 f"The deck is empty: {player_title(player)} can't draw a card to start with, "
                                 f"so the game ends (a draw of 0 cards says so), not a draw of {count}.")
            return None
        if count != 1:
            return Violation(Reason.DRAW_COUNT,
                             f"{who} has no colored card and draws one card at a time before "
                             f"their starting card, not {count}.")
        return None

    def _check_draw_count(self, player: Player, count: int) -> Violation | None:
        low, high = self.draw_range(player)
        if low <= count <= high:
            return None
        who, size = player_title(player).capitalize(), self.hand_size(player)
        if low == high and low < self.rules.hand_size - size:
            need = f"the deck holds only {low}: {player_title(player)} draws them all and the game ends"
        elif low == high:
            need = f"{player_title(player)} must draw {low}"
        else:
            need = f"{player_title(player)} draws {low} to {high}"
        return Violation(Reason.DRAW_COUNT,
                         f"{who} holds {size} cards and draws to between {self.rules.hand_size} and "
                         f"{self.rules.hand_max}: {need}, not {count}.")

    def _check_from_deck(self, drew: tuple[Card, ...] | int) -> Violation | None:
        """Named drawn cards must be in the deck (or may be among its unseen cards)."""
        if isinstance(drew, int):
            return None
        loc = self.loc
        for card in drew:
            if loc[card] != DECK:
                break
        else:
            if len(drew) < 2 or len(set(drew)) == len(drew):
                return None  # the common case: known cards, all in the deck
        unseen = self.hidden[DECK]
        taken: set[Card] = set()
        for card in drew:
            where = self.loc[card]
            if card in taken or not (where == DECK or (where == self.UNSEEN and unseen > 0)):
                problem = "it is named twice" if card in taken else f"it is {self.describe_location(card)}"
                return Violation(Reason.CARD_NOT_IN_DECK, f"{card_name(card)} can't be drawn: {problem}.")
            if where == self.UNSEEN:
                unseen -= 1
            taken.add(card)
        return None

    def _check_play(self, event: PlayCard) -> Violation | None:
        if self.phase is not _PLAY or self.step == DISCARD_STEP:
            return self._wrong_phase()
        player, card, mountain = event.player, event.card, event.mountain
        if player != self.turn:
            return self._not_your_turn(player)
        hand = HANDS[player]
        if self.loc[card] != hand:  # not known to be in the hand: may it be one of its unseen cards?
            violation = self._check_in_hand(player, (card,))
            if violation:
                return violation
        size = len(self.known[hand]) + self.hidden[hand]
        if size < self.rules.hand_size:
            return Violation(Reason.DRAW_COUNT,
                             f"{player_title(player).capitalize()} holds {size} cards: they draw up to "
                             f"{self.rules.hand_size} before playing.")
        color = COLOR_OF[card]
        masks = self.masks
        if color == GOLD:
            if not masks[mountain] & ALL_COLORS_MASK:
                return Violation(Reason.GOLD_NEW_COLUMN,
                                 f"{card_name(card)} is gold: it joins a column, and "
                                 f"{_mountain_title(mountain)} has none.")
        elif mountain == player:
            if masks[1 - player] >> color & 1:
                name = color_name(color)
                return Violation(Reason.OWN_MOUNTAIN_COLOR,
                                 f"{name.capitalize()} can't go into {_mountain_title(player)}: {name} is in "
                                 f"{_mountain_title(1 - player)}.")
        elif not masks[mountain] >> color & 1:
            name = color_name(color)
            return Violation(Reason.NO_SUCH_COLUMN,
                             f"{_mountain_title(mountain).capitalize()} has no {name} column: a card goes into "
                             f"the opponent's mountain only onto a column of its color.")
        return None

    def _check_discard(self, event: DiscardCards) -> Violation | None:
        if self.phase is not _PLAY or self.step != DISCARD_STEP:
            return self._wrong_phase()
        player = event.player
        if player != self.turn:
            return self._not_your_turn(player)
        violation = self._check_in_hand(player, event.cards)
        if violation:
            return violation
        size, target = self.hand_size(player), self.rules.hand_size
        if size < event.count:
            return Violation(Reason.CARD_NOT_IN_HAND,
                             f"{player_title(player).capitalize()} has only {size} cards in hand, not {event.count}.")
        if size - event.count != target:
            return Violation(Reason.DISCARD_COUNT,
                             f"{player_title(player).capitalize()} holds {size} cards and discards down to "
                             f"{target}: {size - target} cards, not {event.count}.")
        return None

    def describe_zone(self, zone: int) -> str:
        if zone == DECK:
            return "in the deck"
        if zone == DISCARD:
            return "on the discard pile"
        if zone == OUT:
            return "out of the game"
        owner = player_title(zone % 2)
        if zone in GOLDS:
            return f"among {owner}'s scored gold"
        return f"in {owner}'s " + ("hand", "mountain", "score pile")[zone // 2]

    # -- legal actions --------------------------------------------------------

    def choices(self) -> list[Choice]:
        """The kinds of decision open to the player to act, each with its options.

        The one source of legal decisions: :meth:`legal_actions` expands it
        into events, random play picks from it. Hands must be known. A draw
        of zero cards (the same as no draw) is not listed.
        """
        phase, player = self.phase, self.turn
        if phase is _PLAY:
            hand, step = HANDS[player], self.step
            size = len(self.known[hand]) + self.hidden[hand]
            if step == DISCARD_STEP:
                excess = size - HAND_SIZE
                return [_DISCARD_CHOICES[player][excess] if excess > 0 else (DISCARD_KIND, player, (excess,))]
            if step == DRAW_STEP:
                deck = len(self.known[DECK]) + self.hidden[DECK]
                draws = _DRAW_CHOICES[player][size if size < HAND_MAX else HAND_MAX]
                draw = draws[deck if deck < HAND_MAX else HAND_MAX]
                if size < HAND_SIZE:
                    return [draw]
            # The Rule of the mountains, as _check_play has it: into one's own mountain the hand's
            # colors the other mountain lacks, into the other one those it has; gold into either
            # mountain that has a column.
            in_hand, masks = self.hand_colors[player], self.masks
            own, other = masks[player], masks[1 - player]
            into_own = _PLAY_CHOICES[player][in_hand & (_COLORS_NOT_IN[other] | _GOLD_IF_COLUMN[own])]
            into_other = _PLAY_CHOICES[1 - player][in_hand & _COLUMNS_IN[other]]
            return [draw, into_own, into_other] if step == DRAW_STEP else [into_own, into_other]
        if phase is _START:
            colored = self.hand_colors[player] & ALL_COLORS_MASK
            if not colored:  # show the hand and draw one card at a time until a colored one comes
                return [(DRAW_KIND, player, _ONE_COUNT[1])] if self.deck_size else []
            first = self.first_start_color()
            if first is not None and colored & ~(1 << first):
                colored &= ~(1 << first)
            return [(START_KIND, player, COLORS_AND_GOLD_IN_MASK[colored])]
        return []

    def legal_actions(self) -> Iterator[MountainsEvent]:
        """Every legal decision of the player to act; draws are counts (what is drawn is chance)."""
        player = self.turn
        hand = self.known[HANDS[player]]
        for kind, target, options in self.choices():
            for option in options:
                if kind == DRAW_KIND:
                    yield DrawCards(player, option)
                elif kind == DISCARD_KIND:
                    for cards in combinations(hand, option):
                        yield DiscardCards(player, cards)
                else:
                    for card in hand:
                        if COLOR_OF[card] == option:
                            yield StartCard(player, card) if kind == START_KIND else PlayCard(player, card, target)

    # -- moving the game on ---------------------------------------------------

    def push_legal(self, event: MountainsEvent) -> None:
        """:meth:`BaseGame.push_legal`, with the scalar fields read as ``SCALARS`` lists them.

        Random play pushes every event through here: five attribute reads
        cost a fraction of the generic ``attrgetter``'s five lookups.
        """
        self._log.append((_FRAME, (self.phase, self.turn, self.step, self.round, self.round_first)))
        self._appliers[type(event)](self, event)
        self.stack.append((event, False))

    def _apply_start(self, event: StartCard) -> None:
        player = event.player
        self._move(event.card, HANDS[player], MOUNTAINS[player])
        if self.phase is _START:
            known, hidden = self.known, self.hidden
            if not known[MOUNTAINS[0]] and not hidden[MOUNTAINS[0]]:
                self.turn = 0
            elif not known[MOUNTAINS[1]] and not hidden[MOUNTAINS[1]]:
                self.turn = 1
            else:  # both starting cards are down: the round's first player takes the first turn
                self.phase = _PLAY
                self.turn = self.round_first
                self.step = DRAW_STEP
        self._end_if_stuck()

    def _apply_draw(self, event: DrawCards) -> None:
        drew = event.drew
        if isinstance(drew, int):
            count = min(drew, self.deck_size)
            if count:
                self._unsee(DECK)  # which known cards left is not known: the deck becomes all unseen
                self._move_unseen(DECK, HANDS[event.player], count)
        else:
            self._move_cards(drew, DECK, HANDS[event.player])
        phase = self.phase
        if phase is _PLAY:
            self.step = PLAY_STEP
        elif phase is _START and not event.count and not self.deck_size:
            self.phase = _OVER  # a hand with no colored card and no card to draw
        if not self.known[DECK] and not self.hidden[DECK]:
            self._end_if_stuck()

    def _apply_play(self, event: PlayCard) -> None:
        player = event.player
        hand = HANDS[player]
        self._move(event.card, hand, MOUNTAINS[event.mountain])
        if self.phase is _PLAY:
            if len(self.known[hand]) + self.hidden[hand] > HAND_SIZE:
                self.step = DISCARD_STEP
            else:
                self._end_turn(player)

    def _apply_discard(self, event: DiscardCards) -> None:
        player = event.player
        hand = HANDS[player]
        self._move_cards(event.cards, hand, DISCARD)
        if event.unseen:
            self._move_unseen(hand, DISCARD, min(event.unseen, self.hidden[hand]))
        if self.phase is _PLAY and self.step == DISCARD_STEP:
            self._end_turn(player)

    def _end_turn(self, player: Player) -> None:
        masks = self.masks
        if (masks[0] | masks[1]) & ALL_COLORS_MASK == ALL_COLORS_MASK:  # all_colors_laid(), without a call
            self._score_round()
            # The opponent of the player whose turn brought the sixth color opens the next round.
            self.round += 1
            self.round_first = self.turn = 1 - player
            self.phase = _START
        else:
            self.turn = 1 - player
        self.step = DRAW_STEP
        if not self.known[DECK] and not self.hidden[DECK]:  # only then can the game end (a call less)
            self._end_if_stuck()

    def _score_round(self) -> None:
        """Gold scores for the mountain's owner; then each color goes to its majority, or out on a tie."""
        counts = [[0] * (GOLD + 1), [0] * (GOLD + 1)]  # by color, gold too (not counted for majorities)
        for player in PLAYERS:
            count = counts[player]
            for card in self.known[MOUNTAINS[player]]:
                count[COLOR_OF[card]] += 1
        one, two = counts
        winner = [PILES[0] if one[c] > two[c] else PILES[1] if two[c] > one[c] else OUT for c in COLORS]
        for player in PLAYERS:
            mountain = MOUNTAINS[player]
            target = [*winner, GOLDS[player]]  # by color: gold goes to the mountain's owner
            self._split_zone(mountain, list(map(target.__getitem__, map(COLOR_OF.__getitem__, self.known[mountain]))))

    def _end_if_stuck(self) -> None:
        """The game ends the moment a player must draw and the deck is empty.

        Called wherever a player may come to need a draw: after a draw, a
        start, and when a turn passes.
        """
        if self.known[DECK] or self.hidden[DECK] or self.phase is _OVER:
            return
        player = self.turn
        if self.phase is _PLAY:
            must_draw = self.step != DISCARD_STEP and self.hand_size(player) < HAND_SIZE
        else:  # a start is due: only a hand known to hold no colored card must draw
            must_draw = not self.hidden[HANDS[player]] and self.colored_in_hand(player) is None
        if must_draw:
            self.phase = _OVER

    # -- records and text form ------------------------------------------------

    def setup(self) -> MountainsSetup:
        base = self.base
        hands = tuple(base.known[h] if not base.hidden[h] else base.hidden[h] for h in HANDS)
        return MountainsSetup((hands[0], hands[1]), self.first_player)



def laid_when_scored(before: MountainsGame, event: MountainsEvent) -> tuple[list[Card], list[Card]]:
    """Each mountain's cards as the round is scored after ``event`` (pushed onto ``before``): those
    already laid and the card the event plays."""
    laid = (list(before.known[MOUNTAINS[0]]), list(before.known[MOUNTAINS[1]]))
    if isinstance(event, PlayCard):
        laid[event.mountain].append(event.card)
    return laid


def _color_letters(cards: list[Card]) -> list[str]:
    """``["R", "R", "O"]``: each card's color letter, in rulebook order."""
    return [color_letter(color) for color in sorted(COLOR_OF[card] for card in cards)]


def _color_counts(cards: list[Card]) -> dict[str, int]:
    """``{"R": 3, "A": 1}``: cards by color letter, in rulebook order with gold last."""
    counts = [0] * (GOLD + 1)
    for card in cards:
        counts[COLOR_OF[card]] += 1
    return {color_letter(color): count for color, count in enumerate(counts) if count}


def _mountain_title(player: Player) -> str:
    return f"{player_title(player)}'s mountain"
