"""Whole simulated games of the ``mountains`` ruleset on its playmat, as a camera would see them.

:func:`script_mountains_game` lays a finished full-information game of
:class:`~companion.engine.MountainsGame` on ``mountains-playmat.json`` the way
tidy players would: each starting card on the start row above (player 1) or
below (player 2) the base card of its color, every further card in its
color's column of a mountain board (the column under the base card of that
color, fanned toward the board's owner so each corner code stays in view),
gold on one of the mountain's columns, discards fanned on the discard pile.
When a round ends the players take the colors they won face down into their
score piles and clear the rest (gold, tied colors) off the table. Draws show
as a hand over the deck. Now and then a card is laid where the rules forbid
and taken back (an injection the tracker should warn about), or a hand rests
over the table.

The shot machinery (timing, gestures, arms, lingering hands, fanned piles) is
the official game's (:mod:`companion.sim.game`); only where cards go differs.
"""

from __future__ import annotations

import random

from companion.engine.cards import COLOR_OF, COLORS, GOLD, Card, Color, Player, card_name
from companion.engine.mountains.events import DiscardCards, DrawCards, MountainsEvent, PlayCard, StartCard
from companion.engine.mountains.game import DRAW_STEP, MOUNTAINS, PILES, MountainsGame, Phase, laid_when_scored
from companion.sim.game import Timing, _Writer
from companion.sim.script import GameScript, Injection
from companion.tracker.mountains import DECK_ZONE, DISCARD_ZONE, START_ZONE, mountain_zone, score_zone
from companion.vision.layout import Layout, Point

COLUMN_ROWS = 4
"""Cards a column shows one below the other before the next ones are laid over them, a little aside."""
START_OFFSET_MM = 15.0
"""A starting card lies this far from the start row's middle line, toward its player."""
DRAW_STILL_S = 0.4
"""After a draw the player goes straight on: a short rest only."""
PILE_KEPT = 8
"""Discards kept drawn under a new batch: the discard pile is never reshuffled, so older cards lie
deep under these and are dropped from the scene (nothing of them shows, and the scene stays small)."""
SCORE_KEPT = 2
"""Face-down cards kept drawn on each score pile, for the same reason."""


class _MountainsWriter(_Writer):
    """Walks through a mountains game's events and writes the shots a camera would see."""

    final: MountainsGame  # type: ignore[assignment]
    game: MountainsGame  # type: ignore[assignment]

    def __init__(self, game: MountainsGame, layout: Layout, rng: random.Random, timing: Timing,
                 inject_p: float, linger_p: float) -> None:
        super().__init__(game, layout, rng, timing, inject_p, linger_p)  # type: ignore[arg-type]
        self.columns: dict[tuple[Player, Color], int] = {}
        """Cards laid so far in each (mountain, color) column this round (the starting card not counted)."""
        self.start_row = self.table._bounds(START_ZONE)
        self.column_width = (self.start_row[2] - self.start_row[0]) / len(COLORS)

    def write(self) -> GameScript:
        self._shot(None, self.timing.still_s, "empty mat")
        done: list[float] = []
        for event, _ in self.final.stack:
            if self.rng.random() < self.linger_p:
                self._linger()
            if self._may_inject(event) and self.rng.random() < self.inject_p:
                self._inject()
            self._done_at = None
            self._move(event)
            assert self._done_at is not None
            done.append(self._done_at)
        return GameScript(self.final, tuple(self.shots), tuple(self.injections), event_done_s=tuple(done))  # type: ignore[arg-type]

    def _forget_hidden(self) -> None:
        """Nothing leaves the table behind the players' backs in this game (no reshuffle)."""

    # -- where cards go

    def _column_x(self, color: Color) -> float:
        return self.start_row[0] + (color + 0.5) * self.column_width

    def _start_place(self, player: Player, color: Color) -> Point:
        middle = (self.start_row[1] + self.start_row[3]) / 2
        return self._column_x(color), middle + (START_OFFSET_MM if player == 0 else -START_OFFSET_MM)

    def _column_place(self, mountain: Player, color: Color, slot: int) -> Point:
        """Slot n of a column: rows away from the start row, a later layer a little aside."""
        layer, row = divmod(slot, COLUMN_ROWS)
        _, y0, _, y1 = self.table._bounds(mountain_zone(mountain))
        half = self.layout.card_mm[1] / 2
        step = self.table.spacing.fan
        x = self._column_x(color) + 6.0 * layer
        y = y0 + half + row * step if mountain == 0 else y1 - half - row * step
        return x, y

    def _column_of(self, mountain: Player, card: Card) -> Color:
        """The column a card joins: its color's, or for gold one of the mountain's columns."""
        color = COLOR_OF[card]
        if color != GOLD:
            return color
        present = sorted({COLOR_OF[c] for c in self.game.known[MOUNTAINS[mountain]] if COLOR_OF[c] != GOLD})
        return self.rng.choice(present) if present else 0

    def _lay(self, card: Card, mountain: Player, column: Color) -> None:
        slot = self.columns.get((mountain, column), 0)
        self.columns[(mountain, column)] = slot + 1
        self.table.put(card_name(card), mountain_zone(mountain), self._column_place(mountain, column, slot),
                       0.0 if mountain == 0 else 180.0)

    # -- events

    def _move(self, event: MountainsEvent) -> None:  # type: ignore[override]
        before = self.game.copy()
        column = self._column_of(event.mountain, event.card) if isinstance(event, PlayCard) else 0
        self.game.push(event, force=True)
        player = event.player
        if isinstance(event, StartCard):
            place = self._start_place(player, COLOR_OF[event.card])
            self._gesture(player, START_ZONE, lambda: self.table.put(
                card_name(event.card), START_ZONE, place, 0.0 if player == 0 else 180.0), str(event))
        elif isinstance(event, DrawCards):
            self._gesture(player, DECK_ZONE, lambda: None, str(event), DRAW_STILL_S)
        elif isinstance(event, PlayCard):
            self._gesture(player, mountain_zone(event.mountain), lambda: self._lay(event.card, event.mountain, column),
                          str(event))
        elif isinstance(event, DiscardCards):
            names = [card_name(c) for c in event.cards]
            self._bury(DISCARD_ZONE, PILE_KEPT)
            self._gesture(player, DISCARD_ZONE, lambda: self.table.pile(names, DISCARD_ZONE), str(event))
        mountains = laid_when_scored(before, event)
        laid = [*mountains[0], *mountains[1]]
        if self.game.round != before.round or any(self.game.location(c) not in MOUNTAINS for c in laid):
            self._clear_round(before, laid)

    def _clear_round(self, before: MountainsGame, laid: list[Card]) -> None:
        """The round was scored: each player takes their colors face down, then the rest leaves the table."""
        self.columns.clear()
        for player in (0, 1):
            won = [c for c in laid if self.game.location(c) == PILES[player]]
            if won:
                self._bury(score_zone(player), SCORE_KEPT)

                def take(cards: list[Card] = won, player: Player = player) -> None:
                    for card in cards:
                        self.table.face_down(card_name(card), score_zone(player))
                self._gesture(player, score_zone(player), take, f"p{player + 1} takes the colors won")
        rest = [card_name(c) for c in laid if card_name(c) in self.table.cards and self.table.where[card_name(c)] in (
            START_ZONE, mountain_zone(0), mountain_zone(1))]
        if rest:
            def clear() -> None:
                for name in rest:
                    self.table.remove(name)
            self._gesture(before.turn, START_ZONE, clear, "gold and tied colors leave the game")

    def _bury(self, zone: str, kept: int) -> None:
        """Drop all but the last ``kept`` cards laid on a pile: a new batch covers them for good."""
        on_pile = [name for name, where in self.table.where.items() if where == zone]
        for name in on_pile[:max(0, len(on_pile) - kept)]:
            self.table.remove(name)

    # -- injected mistakes

    def _may_inject(self, event: MountainsEvent) -> bool:
        return self.game.phase is Phase.PLAY and isinstance(event, DrawCards | PlayCard)

    def _inject(self) -> None:
        player = self.game.turn
        hand = list(self.game.hand(player))
        self.rng.shuffle(hand)
        mountains = [0, 1]
        self.rng.shuffle(mountains)
        for card in hand:
            for mountain in mountains:
                if COLOR_OF[card] == GOLD or self._legal_somewhere(player, card, mountain):
                    continue
                name, zone = card_name(card), mountain_zone(mountain)
                start = self.now
                place = self._column_place(mountain, COLOR_OF[card], self.columns.get((mountain, COLOR_OF[card]), 0))
                self._shot(self._arm(player, zone), self.timing.reach_s, f"illegal {name} in {zone}")
                self.table.put(name, zone, place, 0.0 if mountain == 0 else 180.0)
                self._shot(self._arm(player, zone), self.timing.place_s, f"illegal {name} in {zone}")
                self._shot(None, self.timing.injected_s, f"illegal {name} in {zone}")
                self.table.remove(name)
                reason = self._reason(player, card, mountain)
                self.injections.append(Injection(name, zone, start, self.now, reason))
                self._shot(self._arm(player, zone), self.timing.reach_s, f"{name} taken back")
                return

    def _legal_somewhere(self, player: Player, card: Card, mountain: Player) -> bool:
        return self._reason(player, card, mountain) == ""

    def _reason(self, player: Player, card: Card, mountain: Player) -> str:
        """Why playing ``card`` into ``mountain`` now breaks a placement rule ("" when it does not).

        The draw due first is taken as the tracker takes it (up to 6, unseen), so only the
        placement rules can object.
        """
        trial = self.game.copy()
        low, _ = trial.draw_range(player)
        if trial.step == DRAW_STEP and low:
            trial.push(DrawCards(player, tuple(trial.known[MOUNTAINS_DECK][:low])), force=True)
        violation = trial.validate(PlayCard(player, card, mountain))
        return "" if violation is None else violation.reason.value


MOUNTAINS_DECK = MountainsGame.DECK


def script_mountains_game(game: MountainsGame, layout: Layout, seed: int = 0, timing: Timing | None = None,
                          inject_p: float = 0.06, linger_p: float = 0.05) -> GameScript:
    """The shots of a whole finished mountains game, with injected illegal cards and lingering hands."""
    if game.phase is not Phase.OVER:
        raise ValueError("script_mountains_game needs a finished game")
    if layout.ruleset != "mountains":
        raise ValueError(f"script_mountains_game needs a mountains playmat, not {layout.name!r}")
    return _MountainsWriter(game, layout, random.Random(seed), timing or Timing(), inject_p, linger_p).write()
