"""The table tracker for the ``mountains`` ruleset (``rules-002.md``): settled views in, events out.

It shares the official tracker's plumbing (:class:`~companion.tracker.settle.Settler`
and the :class:`~companion.tracker.tracker.Warning`, ``TrackedEvent`` and
``Update`` values the app, the journal and the benchmarks read) and infers
this game's events from what the camera sees, in table mode:

- the mat seen empty, then a card on the start row: a new game (6 cards dealt
  to each player, unseen); a card laid on the start row is the starting card
  of the player whose starting card is due;
- a card appearing in a player's mountain board: the player to move played it
  into that mountain. The turn's draw is not seen: the tracker writes the
  draw up to 6 in front of the play;
- cards appearing on the discard pile: the discard after the play. It shows
  that the turn's draw brought more than 6 (the hand held 6 + the discarded
  cards after the play), so the turn's draw and play are written again with
  that count (:meth:`MountainsTracker._discard`);
- when all six colors are on the mountains the engine scores the round by
  itself; the cards that left the game or went face down into a score pile
  may lie in the mountains until the players clear them, and are not
  news there.

A card seen off its place that no play explains is ``moved-card``; a card in a
zone where nothing is played (the deck, a score pile) is ``unexpected-card``;
the same card twice is ``duplicate-card``; a play or discard the rules refuse
raises the engine's own reason (``own-mountain-color``, ``no-such-column``,
``start-same-color``...). Each warning stays until its cards leave the zone
they were seen in, or a player overrides it.

What the camera cannot see is a hand's size: a turn without a discard may
have drawn to 6 or to 7. The tracker assumes the least, so its deck count may
be one or two too high for a while; every discard settles the player's hand
at 6 again. Scores never depend on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from companion.engine.cards import COLOR_OF, COLORS, GOLD, Card, Player, card_name, color_letter, parse_any_card
from companion.engine.mountains.events import DiscardCards, DrawCards, MountainsEvent, PlayCard, StartCard
from companion.engine.mountains.game import (
    DISCARD,
    DRAW_STEP,
    GOLDS,
    MOUNTAINS,
    OUT,
    PILES,
    MountainsGame,
    MountainsSetup,
    Phase,
    laid_when_scored,
)
from companion.engine.violations import Violation
from companion.tracker.settle import Settler, View
from companion.tracker.standing import duplicates_seen, put_right
from companion.tracker.tracker import TrackedEvent, Update, Warning
from companion.vision.observation import FrameObservation
from companion.vocab import zones
from companion.vocab.reasons import Reason, warning_text

CAMERA_KNOWN = ("scores", "gold", "score_piles", "mountains", "discard", "out")
"""The fields of ``final`` (interfaces.md section 10) a camera knows exactly at any moment; hands and the
deck it knows only within a card or two (a turn without a discard may have drawn one more), and so the
moment the deck runs out."""

START_ZONE = zones.START
DECK_ZONE = zones.DECK
DISCARD_ZONE = zones.DISCARD
MAX_STEPS = 64


def mountain_zone(player: Player) -> str:
    """A player's mountain board (layout zone names: :data:`companion.vocab.zones.MOUNTAINS_ZONE_NAMES`)."""
    return zones.mountain_board(player)


def score_zone(player: Player) -> str:
    """A player's face-down score pile."""
    return zones.score_pile(player)


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How a round was scored, as the players saw the cards leave the mountains."""

    round: int
    majorities: str
    """Per color R O Y G P K: ``1`` or ``2`` (who took it), ``=`` (tie, out of the game), ``-`` (not laid)."""
    gold: tuple[int, int]
    """Gold points scored by each player in this round."""
    taken: tuple[int, int]
    """Cards each player took into their score pile."""


@dataclass
class _Pass:
    events: list[TrackedEvent] = field(default_factory=list)
    warnings: list[Warning] = field(default_factory=list)
    undone: list[TrackedEvent] = field(default_factory=list)
    """Events reported before this pass that it took back (a turn written again after its discard)."""


class MountainsTracker:
    """Follows one table of the mountains ruleset: the game, its warnings, what the camera last saw."""

    ruleset = "mountains"

    def __init__(self, settle_s: float = 1.0, first_player: int = 0, miss_s: float = 0.25) -> None:
        self.settler = Settler(settle_s, miss_s)
        self.first_player = first_player
        self.game: MountainsGame | None = None
        self.events: list[TrackedEvent] = []
        self.warnings: list[Warning] = []
        self.accepted: dict[str, str] = {}
        """Cards a player accepted where they lie (an override of a moved or unexpected card)."""
        self.last_zone: dict[str, str] = {}
        """Where each card was last seen where the engine put it."""
        self.view = View()
        self.frame = 0
        self.last_event_time = 0.0
        self.mat_cleared = True
        """The mat was seen empty since the last game ended (a new game may start)."""
        self.rounds: list[RoundResult] = []
        """Each scored round of the game in progress, in order (for the round-end screen)."""

    # -- feeding frames -------------------------------------------------------------

    def observe(self, frame_index: int, now: float, observation: FrameObservation) -> Update:
        self.frame = frame_index
        view = self.settler.update(now, observation)
        return Update() if view is None else self.settled(view)

    def settled(self, view: View) -> Update:
        """Work through one settled view of the table."""
        self.view = view
        found = _Pass()
        cleared = put_right(self.warnings, view)
        found.warnings += duplicates_seen(self.warnings, view, self.frame)
        started = self._maybe_start(view) if self.game is None or self.mat_cleared else False
        for _ in range(MAX_STEPS):
            # Each step applies an event or sets cards aside in a warning, so this ends.
            if self.game is None or not self._step(view, found):
                break
        self._note_positions(view)
        return Update(tuple(found.events), tuple(found.warnings), tuple(cleared), settled=True, started=started,
                      undone=tuple(found.undone))

    # -- commands from the players ------------------------------------------------------

    def new_game(self, first_player: int | None = None) -> None:
        if first_player is not None:
            self.first_player = first_player
        self._forget_game()
        self.game = None
        self.mat_cleared = not self.view.cards

    def _forget_game(self) -> None:
        for kept in (self.events, self.warnings, self.accepted, self.last_zone, self.rounds):
            kept.clear()

    def set_first_player(self, player: int) -> None:
        """Choose who starts; before the first event it also changes the game in progress."""
        self.first_player = player
        if self.game is not None and not self.game.stack:
            self.game = MountainsGame(_setup(player))

    def override(self, warning: object = None) -> TrackedEvent | None:
        """Accept what a warning complains about: its event is applied anyway (after the turn's draw)."""
        if not self.warnings:
            return None
        key = (getattr(warning, "reason", None), getattr(warning, "message", None))
        target = next((w for w in self.warnings if (w.reason, w.message) == key), self.warnings[0])
        self.warnings.remove(target)
        for card in target.cards:
            self.accepted[card] = target.zone
        game = self.game
        if target.event is None or game is None or not isinstance(target.event, StartCard | PlayCard | DiscardCards):
            return None
        event = target.event
        if isinstance(event, PlayCard) and game.phase is Phase.PLAY and game.step == DRAW_STEP:
            low = game.draw_range(event.player)[0]
            if low:
                game.push(DrawCards(event.player, low), force=True)
                self.events.append(TrackedEvent(self.frame, DrawCards(event.player, low), forced=True))
        game.push(event, force=True)
        tracked = TrackedEvent(self.frame, event, forced=True)
        self.events.append(tracked)
        return tracked

    def undo(self) -> MountainsEvent | None:
        """Take back the last move (with the draw written in front of it); its card should leave the table."""
        game = self.game
        if game is None or not game.stack:
            return None
        event: MountainsEvent = game.pop()
        self.events.pop()
        if isinstance(event, PlayCard) and game.stack and isinstance(game.stack[-1][0], DrawCards):
            game.pop()  # the draw the tracker wrote for this play, not a move anybody made
            self.events.pop()
        names = [card_name(c) for c in _cards_of(event)]
        seen = [c for c in names if c in self.view.cards]
        if seen:
            self.warnings.append(Warning(Reason.UNDONE, "The last move was undone.",
                                         warning_text(Reason.UNDONE, seen).fix, tuple(seen), self.view.cards[seen[0]],
                                         self.frame))
        return event

    def confirm_discard(self, count: int) -> None:
        """Nothing to confirm: a discard in this ruleset is exactly down to 6."""

    def resume(self, game: MountainsGame, frames: Sequence[int] | None = None) -> None:
        """Carry on with a game rebuilt from the journal after a restart."""
        self.game = game
        self.first_player = game.first_player
        self.events = TrackedEvent.history(game, frames)
        self.warnings.clear()
        self.rounds = _rounds_of(game)
        self.mat_cleared = False

    # -- starting a game ----------------------------------------------------------------

    def _maybe_start(self, view: View) -> bool:
        """A new game starts when the mat was empty and now shows starting cards on the start row only."""
        if not view.cards:
            self.mat_cleared = True
            return False
        if not self.mat_cleared or any(zone != START_ZONE for zone in view.cards.values()):
            return False
        self._forget_game()
        self.game = MountainsGame(_setup(self.first_player))
        self.mat_cleared = False
        return True

    # -- inference --------------------------------------------------------------------------

    def _step(self, view: View, found: _Pass) -> bool:
        """Infer and apply at most one event; True if something happened."""
        game = self.game
        assert game is not None
        arrivals, moved = self._differences(view, game)
        if moved:
            for zone, cards in moved.items():
                origin = self._place_of(game, cards[0])
                self._warn(found, Reason.MOVED_CARD,
                           f"{_names(cards)} moved from {zones.describe_zone(origin)} to {zones.describe_zone(zone)}.",
                           warning_text(Reason.MOVED_CARD, cards).fix, cards, zone)
            return True
        if not arrivals:
            return False
        for zone, cards in arrivals.items():
            if zone not in (START_ZONE, DISCARD_ZONE, mountain_zone(0), mountain_zone(1)):
                self._warn(found, Reason.UNEXPECTED_CARD,
                           f"{_names(cards)} can't go into {zones.describe_zone(zone)}: nothing is laid there face up.",
                           warning_text(Reason.UNEXPECTED_CARD, cards).fix, cards, zone)
                return True
        # Several changes in one view: the start row, then the mountains, then the discard pile (the order of a turn).
        order = [START_ZONE, mountain_zone(0), mountain_zone(1), DISCARD_ZONE]
        candidates = [(zone, arrivals[zone]) for zone in order if zone in arrivals]
        for zone, cards in candidates:
            if self._try(game, zone, cards, found, only_if_legal=True):
                return True
        zone, cards = candidates[0]
        return self._try(game, zone, cards, found, only_if_legal=False)

    def _differences(self, view: View, game: MountainsGame) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
        """Cards seen off their place: new on the table (arrivals) or moved from where the game has them."""
        quarantined = {card for warning in self.warnings for card in warning.cards}
        start_cards = _start_cards(game)
        arrivals: dict[str, list[str]] = {}
        moved: dict[str, list[str]] = {}
        for name, zone in sorted(view.cards.items()):
            if name in quarantined or name in view.duplicates or self.accepted.get(name) == zone:
                continue
            card = parse_any_card(name)
            expected = _expected_zones(game, card, start_cards)
            if zone in expected:
                continue
            where = game.location(card)
            if where in (*PILES, *GOLDS, OUT) and zone in (START_ZONE, mountain_zone(0), mountain_zone(1)):
                continue  # scored at the round's end: being cleared off the mountains
            if not expected and self.last_zone.get(name) == zone:
                continue  # still lying where it was when the rules took it off the table
            (moved if expected else arrivals).setdefault(zone, []).append(name)
        return arrivals, moved

    def _place_of(self, game: MountainsGame, name: str) -> str:
        zones = _expected_zones(game, parse_any_card(name), _start_cards(game))
        return zones[0] if zones else DECK_ZONE

    def _try(self, game: MountainsGame, zone: str, cards: list[str], found: _Pass, only_if_legal: bool) -> bool:
        """Apply the event the arrivals in ``zone`` show; with ``only_if_legal`` leave the game as it was if the
        rules refuse it, else warn. True when an event was applied or a warning raised."""
        ids = [parse_any_card(c) for c in cards]
        if zone == DISCARD_ZONE:
            return self._discard(game, tuple(ids), cards, found, only_if_legal)
        first, name = ids[0], cards[0]  # one card at a time; the others are the next steps
        event: MountainsEvent = (StartCard(game.turn, first) if zone == START_ZONE
                                 else PlayCard(game.turn, first, 0 if zone == mountain_zone(0) else 1))
        events = [*self._draw_before(game, event), event]
        mark = len(game.stack)
        if self._all_legal(game, events):
            self._commit(game, mark, events, found)
            return True
        self._rewind(game, mark)
        if only_if_legal:
            return False
        for draw in events[:-1]:
            game.push(draw, force=True)
        violation = game.validate(event)
        self._rewind(game, mark)
        if violation is None:  # only the draw in front of it was refused (the deck ran out): the play stands
            violation = game.validate(events[0])
        assert violation is not None
        self._warn_violation(found, violation, [name], zone, event)
        return True

    def _draw_before(self, game: MountainsGame, event: MountainsEvent) -> list[MountainsEvent]:
        """The turn's draw the camera cannot see: up to 6 in front of a play (none for a hand of 6 or more)."""
        if isinstance(event, PlayCard) and game.phase is Phase.PLAY and game.step == DRAW_STEP \
                and event.player == game.turn:
            low = game.draw_range(event.player)[0]
            if low:
                return [DrawCards(event.player, low)]
        return []

    def _discard(self, game: MountainsGame, ids: tuple[Card, ...], cards: list[str], found: _Pass,
                 only_if_legal: bool) -> bool:
        """A discard shows the turn's draw: the hand held 6 + len(ids) after the play. Write the turn again so."""
        turn = self._last_turn(game)
        event = DiscardCards(game.turn if turn is None else turn[1].player, ids)
        if turn is not None:
            start, play = turn
            saved = game.stack[start:]
            self._rewind(game, start)
            count = self._draw_for_discard(game, play.player, len(ids))
            low, high = game.draw_range(play.player)
            events: list[MountainsEvent] = [*([DrawCards(play.player, count)] if count else []), play, event]
            if low <= count <= high and self._all_legal(game, events):
                self._commit(game, start, events, found, replaced=len(saved))
                return True
            self._rewind(game, start)
            for old, forced in saved:
                game.push(old, force=forced)
        violation = game.validate(event)
        if violation is None:
            self._commit(game, len(game.stack), [event], found)
            return True
        if only_if_legal:
            return False
        self._warn_violation(found, violation, cards, DISCARD_ZONE, event)
        return True

    @staticmethod
    def _draw_for_discard(game: MountainsGame, player: Player, discarded: int) -> int:
        """The turn's draw that leaves 6 + ``discarded`` cards in hand after the play."""
        return game.rules.hand_size + 1 + discarded - game.hand_size(player)

    def _last_turn(self, game: MountainsGame) -> tuple[int, PlayCard] | None:
        """The turn a discard may close: (index of its first event, its play).

        Only the last thing done: a play (with the draw in front of it), nothing after it.
        """
        stack = game.stack
        if not stack or not isinstance(stack[-1][0], PlayCard):
            return None
        play = stack[-1][0]
        before = stack[-2][0] if len(stack) > 1 else None
        if isinstance(before, DrawCards) and before.player == play.player:
            return len(stack) - 2, play
        return len(stack) - 1, play

    def _all_legal(self, game: MountainsGame, events: list[MountainsEvent]) -> bool:
        for event in events:
            if game.validate(event) is not None:
                return False
            game.push(event)
        return True

    def _commit(self, game: MountainsGame, mark: int, events: list[MountainsEvent], found: _Pass,
                replaced: int = 0) -> None:
        """Report ``events`` as applied from stack index ``mark`` on (pushing those not pushed yet).

        ``replaced``: events at ``mark`` and after that were reported before and are now written again.
        """
        while len(game.stack) > mark:
            game.pop()
        self._retract(replaced, found)
        for event in events:
            rounds = game.round
            laid = laid_when_scored(game, event)
            game.push(event)
            if game.round != rounds or (game.phase is Phase.OVER and any(
                    game.location(c) != MOUNTAINS[p] for p in (0, 1) for c in laid[p])):
                self.rounds.append(_round_result(game, rounds, laid))
            tracked = TrackedEvent(self.frame, event)
            self.events.append(tracked)
            found.events.append(tracked)
            for card in _cards_of(event):
                name = card_name(card)
                if name in self.view.cards:
                    self.last_zone[name] = self.view.cards[name]
        self.last_event_time = self.view.time

    def _retract(self, count: int, found: _Pass) -> None:
        """Forget the last ``count`` reported events (the game's stack is already rewound)."""
        for _ in range(count):
            tracked = self.events.pop()
            if tracked in found.events:
                found.events.remove(tracked)
            else:
                found.undone.append(tracked)
            if self.rounds and self.game is not None and self.rounds[-1].round >= self.game.round:
                self.rounds.pop()

    def _rewind(self, game: MountainsGame, mark: int) -> None:
        while len(game.stack) > mark:
            game.pop()

    # -- warnings ---------------------------------------------------------------------------

    def _warn_violation(self, found: _Pass, violation: Violation, cards: list[str], zone: str,
                        event: MountainsEvent) -> None:
        self._warn(found, violation.reason.value, violation.message, warning_text(violation.reason, cards).fix,
                   cards, zone, event)

    def _warn(self, found: _Pass, reason: str, message: str, fix: str, cards: Sequence[str], zone: str,
              event: MountainsEvent | None = None) -> None:
        warning = Warning(reason, message, fix, tuple(cards), zone, self.frame, event)
        self.warnings.append(warning)
        found.warnings.append(warning)

    def _note_positions(self, view: View) -> None:
        game = self.game
        if game is None:
            if not view.cards:
                self.mat_cleared = True
            return
        start_cards = _start_cards(game)
        for name, zone in view.cards.items():
            if zone in _expected_zones(game, parse_any_card(name), start_cards):
                self.last_zone[name] = zone
        for name in [c for c in self.last_zone if c not in view.cards]:
            if not _expected_zones(game, parse_any_card(name), start_cards):
                del self.last_zone[name]  # gone from where it lay: if it comes back, it was played again
        if not view.cards and (game.phase is Phase.OVER or game.discard_size):
            # The discard pile leaves the table only when the game is put away: the game is over as
            # far as the table shows, even when the tracker could not see the deck run out.
            self.mat_cleared = True


# -- the game's places, for the camera --------------------------------------------------------


def _setup(first_player: int) -> MountainsSetup:
    size = MountainsGame.rules.hand_size
    return MountainsSetup((size, size), first_player)


def _start_cards(game: MountainsGame) -> frozenset[Card]:
    """The round's starting cards still in their mountains (they lie on the start row)."""
    return frozenset(e.card for e, _ in game.stack if isinstance(e, StartCard) and game.location(e.card) in MOUNTAINS)


def _expected_zones(game: MountainsGame, card: Card, start_cards: frozenset[Card]) -> tuple[str, ...]:
    """Where a card may be seen face up: its mountain board (or the start row, where every column begins),
    the discard pile; nowhere for cards in hands, the deck, score piles or out of the game."""
    where = game.location(card)
    if where in MOUNTAINS:
        board = mountain_zone(MOUNTAINS.index(where))
        return (START_ZONE, board) if card in start_cards else (board, START_ZONE)
    if where == DISCARD:
        return (DISCARD_ZONE,)
    return ()


def _cards_of(event: MountainsEvent) -> tuple[Card, ...]:
    if isinstance(event, StartCard | PlayCard):
        return (event.card,)
    if isinstance(event, DiscardCards):
        return event.cards
    return ()


def _round_result(game: MountainsGame, number: int, laid: tuple[list[Card], list[Card]]) -> RoundResult:
    """How round ``number`` went, from the mountains as they were (``laid``) and where their cards went."""
    marks = ""
    for color in COLORS:
        cards = [c for p in (0, 1) for c in laid[p] if COLOR_OF[c] == color]
        if not cards:
            marks += "-"
        elif game.location(cards[0]) == PILES[0]:
            marks += "1"
        elif game.location(cards[0]) == PILES[1]:
            marks += "2"
        else:
            marks += "="
    gold = tuple(sum(1 for c in laid[p] if COLOR_OF[c] == GOLD) * game.rules.gold_points for p in (0, 1))
    taken = tuple(sum(1 for q in (0, 1) for c in laid[q] if game.location(c) == PILES[p]) for p in (0, 1))
    return RoundResult(number, marks, (gold[0], gold[1]), (taken[0], taken[1]))


def _rounds_of(game: MountainsGame) -> list[RoundResult]:
    """The scored rounds of a game, replayed from its base (after a restart)."""
    replay = game.copy()
    while replay.stack:
        replay.pop()
    rounds: list[RoundResult] = []
    for event, forced in game.stack:
        before, laid = replay.round, laid_when_scored(replay, event)
        replay.push(event, force=forced)
        if replay.round != before:
            rounds.append(_round_result(replay, before, laid))
    return rounds


def majority_letters(result: RoundResult) -> str:
    """``"R1 O2 Y= ..."``: who took each color of a round, for logs."""
    return " ".join(f"{color_letter(c)}{m}" for c, m in zip(COLORS, result.majorities, strict=True) if m != "-")


def _names(cards: Sequence[str]) -> str:
    return " ".join(cards)
