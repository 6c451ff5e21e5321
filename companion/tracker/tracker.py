"""The table tracker: settled views of the table in, game events and warnings out.

Each time the table settles (:mod:`companion.tracker.settle`), the tracker
compares what the camera sees with where the rules engine says every card
lies face up (:func:`companion.tracker.zones.expected_zone`):

- a card seen where the engine expects it: nothing to do;
- a card the engine does not place on the table (it was in a hand or the
  deck) seen in a zone: it was just played there, so the zone says which play
  (a mountain: build; a field: grow, by the field's owner; the discard pile:
  discard; the destroyed mountain during a refill: the refill);
- during a destruction, a mountain color that left: a claim; the card that
  appears in a river, or on the discard pile, says who claimed;
- at the end, unseen cup cards turning up in the reveal areas;
- a card the engine places on the table but that is not seen: hidden, not
  gone (covered by a later card or a hand). Cards leave the table only when
  the rules move them.

Every inferred event goes to the engine, in table mode. An illegal one is not
applied: it raises a :class:`Warning` that stays until the table is put right
(its cards are no longer seen where they were laid) or a player overrides it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeAlias

from companion.engine import (
    Claim,
    Discard,
    Event,
    FieldPlay,
    Game,
    MountainPlay,
    Phase,
    Refill,
    Reveal,
    Setup,
)
from companion.engine.cards import COLOR_OF, card_name, color_name, parse_card
from companion.engine.game import CUPS, mountain_zone
from companion.engine.mountains.events import DiscardCards, DrawCards, MountainsEvent, PlayCard, StartCard
from companion.tracker import zones
from companion.tracker.settle import Settler, View
from companion.vision.observation import FrameObservation

HAND_SIZE, CUP_SIZE = 6, 2
START_MOUNTAIN = 2
MAX_STEPS = 64
_MOUNTAINS_EVENTS = (StartCard, DrawCards, PlayCard, DiscardCards)
"""The other ruleset's events, which never reach this tracker's game (see tracker/mountains.py)."""


class TrackerReason:
    """Reason codes of warnings only a camera can raise, beside the engine's."""

    MOVED_CARD = "moved-card"
    """A card on the table crossed into another zone outside any play."""
    UNEXPECTED_CARD = "unexpected-card"
    """A card appeared where no play puts one (a river outside a claim, a cup)."""
    DUPLICATE_CARD = "duplicate-card"
    """The same card id is read in two places at once."""
    REVEAL_MISMATCH = "reveal-mismatch"
    """A card in a reveal area that the tracker knows to be somewhere else."""
    RIVER_SPACE = "river-space"
    """A claimed river card laid in another space than the leftmost empty one."""
    UNDONE = "undone"
    """An event was undone: its cards should go back."""


@dataclass(frozen=True, slots=True)
class Warning:
    """An illegal or unexplained change of the table, shown until put right or overridden."""

    reason: str
    message: str
    fix: str
    cards: tuple[str, ...]
    """The cards that raised it, as seen in ``zone``; taking them back clears it."""
    zone: str
    frame: int
    event: Event | MountainsEvent | None = None
    """The event an override applies (None: the override only accepts the table as it is)."""

    def __str__(self) -> str:
        return f"{self.reason}@{self.frame}: {self.message} {self.fix}"


@dataclass(frozen=True, slots=True)
class TrackedEvent:
    frame: int
    event: Event | MountainsEvent
    forced: bool = False
    drew: int = 0
    """Cards the player had to draw after it (a build or a discard), for "P1 DRAW 2"."""


@dataclass(frozen=True, slots=True)
class Update:
    """What one frame changed: new events, new warnings, warnings cleared."""

    events: tuple[TrackedEvent, ...] = ()
    warnings: tuple[Warning, ...] = ()
    cleared: tuple[Warning, ...] = ()
    settled: bool = False
    started: bool = False
    """A new game began with this view (its deal is ``tracker.game``'s base)."""
    undone: tuple[TrackedEvent, ...] = ()
    """Events reported by earlier updates that this one took back, last first (the mountains tracker
    writes a turn again once its discard shows how many cards were drawn); ``events`` replace them."""

    def __bool__(self) -> bool:
        return bool(self.events or self.warnings or self.cleared or self.started or self.undone)


@dataclass(frozen=True, slots=True)
class DiscardQuestion:
    """The camera saw a discard but also stickers on the pile it could not read: how many were there?"""

    player: int
    seen: int
    guess: int


@dataclass
class _Pass:
    """What one settled view produced, collected while it is worked through."""

    events: list[TrackedEvent] = field(default_factory=list)
    warnings: list[Warning] = field(default_factory=list)


class Tracker:
    """Follows one table: the game in progress, its warnings, and what the camera last saw."""

    def __init__(self, settle_s: float = 1.0, first_player: int = 0, claim_confirm_s: float | None = None,
                 miss_s: float = 0.25) -> None:
        self.settler = Settler(settle_s, miss_s)
        self.first_player = first_player
        self.claim_confirm_s = 3 * settle_s if claim_confirm_s is None else claim_confirm_s
        self.game: Game | None = None
        self.events: list[TrackedEvent] = []
        self.warnings: list[Warning] = []
        self.accepted: dict[str, str] = {}
        """Cards a player accepted where they lie (an override of a moved or unexpected card)."""
        self.last_zone: dict[str, str] = {}
        """Where each card was last seen where the engine put it: the pile it is being cleared from."""
        self.missing_since: dict[str, float] = {}
        self.view = View()
        self.rest_view = View()
        """The table at its previous rest, before the change now being worked through."""
        self.frame = 0
        self.last_event_time = 0.0
        self.mat_cleared = True
        """The mat was seen empty since the last game ended (a new deal may start)."""
        self.discard_question: DiscardQuestion | None = None
        self.resumed = False
        """A game was resumed and the table not looked at since."""

    # -- feeding frames -----------------------------------------------------------

    def observe(self, frame_index: int, now: float, observation: FrameObservation) -> Update:
        self.frame = frame_index
        view = self.settler.update(now, observation)
        if view is not None:
            self.rest_view = self.view
        elif self.settler.is_settled and self.waiting_for_claim:
            view = self.settler.view(now)  # the table is still at rest: look again for a claim
        if view is None:
            return Update()
        return self.settled(view)

    def settled(self, view: View) -> Update:
        """Work through one settled view of the table."""
        self.view = view
        found = _Pass()
        cleared = self._clear_put_right(view)
        self._check_duplicates(view, found)
        started = False
        if self.resumed:
            self._prime_after_resume(view)
        if self.game is None:
            started = self._maybe_start(view)
        for _ in range(MAX_STEPS):
            # Each step applies an event or sets cards aside in a warning, so this ends.
            if self.game is None or not self._step(view, found):
                break
        self._note_positions(view)
        return Update(tuple(found.events), tuple(found.warnings), tuple(cleared), settled=True, started=started)

    # -- commands from the players --------------------------------------------------

    def new_game(self, first_player: int | None = None) -> None:
        if first_player is not None:
            self.first_player = first_player
        self.game = None
        self.events.clear()
        self.warnings.clear()
        self.accepted.clear()
        self.last_zone.clear()
        self.mat_cleared = not self.view.cards

    def set_first_player(self, player: int) -> None:
        """Choose who starts; before the first play it also changes the game in progress."""
        self.first_player = player
        if self.game is not None and not self.game.stack:
            self.game = Game(_with_first(_setup_of(self.game), player))

    def override(self, warning: object = None) -> TrackedEvent | None:
        """Accept what a warning complains about: its event is applied anyway.

        ``warning`` is one of :attr:`warnings`, or anything with the same reason and message
        (the screens' copy of it); by default the oldest warning.
        """
        if not self.warnings:
            return None
        key = (getattr(warning, "reason", None), getattr(warning, "message", None))
        target = next((w for w in self.warnings if (w.reason, w.message) == key), self.warnings[0])
        self.warnings.remove(target)
        for card in target.cards:
            self.accepted[card] = target.zone
        if target.event is None or self.game is None or isinstance(target.event, _MOUNTAINS_EVENTS):
            return None
        event = target.event
        drew = self.game.required_draws(event) if isinstance(event, MountainPlay | Discard) else 0
        self.game.push(event, force=True)
        tracked = TrackedEvent(self.frame, event, forced=True, drew=drew)
        self.events.append(tracked)
        return tracked

    def undo(self) -> Event | None:
        """Take back the last event; its cards should then leave the table again."""
        if self.game is None or not self.game.stack:
            return None
        event = self.game.pop()
        self.events.pop()
        cards = tuple(card_name(c) for c in getattr(event, "cards", ()) or ())
        seen = [c for c in cards if c in self.view.cards]
        if seen:
            zone = self.view.cards[seen[0]]
            self.warnings.append(Warning(TrackerReason.UNDONE, "The last move was undone.",
                                         f"Take back {' '.join(seen)}.", tuple(seen), zone, self.frame))
        return event

    def confirm_discard(self, count: int) -> None:
        """A player says how many cards the last discard really had."""
        self.discard_question = None
        if self.game is None or not self.events or not isinstance(self.events[-1].event, Discard):
            return
        last = self.events[-1]
        discard = last.event
        assert isinstance(discard, Discard)
        unseen = max(0, count - len(discard.cards))
        if unseen == discard.unseen:
            return
        self.game.pop()
        corrected = Discard(discard.player, discard.cards, None, unseen)
        self.game.push(corrected, force=True)
        self.events[-1] = TrackedEvent(last.frame, corrected, forced=True, drew=corrected.count)

    # -- starting a game --------------------------------------------------------------

    def _maybe_start(self, view: View) -> bool:
        """A new game starts when the mat was empty and now shows two cards in each mountain."""
        if not view.cards:
            self.mat_cleared = True
            return False
        mountains = [view.in_zone(zones.mountain(m)) for m in (0, 1)]
        others = [c for c, z in view.cards.items() if z not in (zones.mountain(0), zones.mountain(1))]
        if not self.mat_cleared or others or any(len(m) != START_MOUNTAIN for m in mountains):
            return False
        deal = tuple(tuple(parse_card(c) for c in cards) for cards in mountains)
        setup = Setup((deal[0], deal[1]), (HAND_SIZE, HAND_SIZE), (CUP_SIZE, CUP_SIZE), self.first_player)
        self.game = Game(setup)
        self.events.clear()
        self.mat_cleared = False
        return True

    def resume(self, game: Game, frames: Sequence[int] | None = None) -> None:
        """Carry on with a game rebuilt from the journal after a restart."""
        self.game = game
        self.first_player = game.first_player
        marks = list(frames) if frames is not None else [-1] * len(game.stack)
        self.events = [TrackedEvent(frame, event, forced) for frame, (event, forced) in zip(marks, game.stack,
                                                                                              strict=True)]
        self.warnings.clear()
        self.mat_cleared = False
        self.resumed = True

    def _prime_after_resume(self, view: View) -> None:
        """After a restart, cards the rules already sent to the discard pile may still lie where they were."""
        self.resumed = False
        if self.game is None:
            return
        for card, zone in view.cards.items():
            if zones.expected_zone(self.game, parse_card(card)) == zones.DISCARD_ZONE and zone != zones.DISCARD_ZONE:
                self.last_zone[card] = zone

    # -- inference -------------------------------------------------------------------

    def _step(self, view: View, found: _Pass) -> bool:
        """Infer and apply at most one event; True if something happened."""
        game = self.game
        assert game is not None
        arrivals, moved = self._differences(view)
        if game.phase is Phase.PLAY:
            return self._plays(arrivals, moved, found)
        if game.phase is Phase.CLAIM:
            return self._claims(view, arrivals, moved, found)
        if game.phase is Phase.REFILL:
            return self._refill(arrivals, moved, found)
        return self._reveals(arrivals, moved, found)

    def _differences(self, view: View) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
        """Cards seen off their expected place: new on the table, or moved from another zone; by zone."""
        game = self.game
        assert game is not None
        quarantined = {card for warning in self.warnings for card in warning.cards}
        arrivals: dict[str, list[str]] = {}
        moved: dict[str, list[str]] = {}
        for card, zone in sorted(view.cards.items()):
            if card in quarantined or card in view.duplicates or self.accepted.get(card) == zone:
                continue
            expected = zones.expected_zone(game, parse_card(card))
            if expected == zone or (self.last_zone.get(card) == zone and expected in (None, zones.DISCARD_ZONE)):
                # In place; or still lying where it was after the rules moved it on: field cards
                # not yet swept onto the discard pile, a discard pile not yet shuffled into the deck.
                continue
            target = arrivals if expected is None else moved
            target.setdefault(zone, []).append(card)
        return arrivals, moved

    def _plays(self, arrivals: dict[str, list[str]], moved: dict[str, list[str]], found: _Pass) -> bool:
        if moved:
            return self._warn_moved(moved, found)
        candidates = [self._play_for(zone, cards) for zone, cards in arrivals.items()]
        if not candidates:
            return False
        event, zone, cards = _first_legal(self.game, candidates)
        return self._judge(event, zone, cards, found)

    def _play_for(self, zone: str, cards: list[str]) -> tuple[Event | None, str, list[str]]:
        game = self.game
        assert game is not None
        ref = zones.parse_zone(zone)
        ids = tuple(parse_card(c) for c in cards)
        if ref.kind == "mountain" and ref.mandala is not None:
            return MountainPlay(game.turn, ref.mandala, ids), zone, cards
        if ref.kind == "field" and ref.mandala is not None and ref.player is not None:
            return FieldPlay(self._field_actor(ref.player), ref.mandala, ids, field=ref.player), zone, cards
        if ref.kind == "discard":
            return Discard(game.turn, ids), zone, cards
        return None, zone, cards

    def _field_actor(self, owner: int) -> int:
        """Who laid cards in ``owner``'s field: the player to move, unless the owner just played and plays again."""
        game = self.game
        assert game is not None
        last = self.events[-1].event if self.events else None
        if owner != game.turn and getattr(last, "player", None) == owner:
            return owner
        return game.turn

    def _judge(self, event: Event | None, zone: str, cards: list[str], found: _Pass) -> bool:
        game = self.game
        assert game is not None
        if event is None:
            self._warn(found, TrackerReason.UNEXPECTED_CARD,
                       f"{_names(cards)} can't go into {zones.describe_zone(zone)} now.",
                       f"Take back {_names(cards)}.", cards, zone)
            return True
        violation = game.validate(event)
        if violation is not None:
            self._warn(found, violation.reason.value, violation.message, _fix(violation.reason.value, cards),
                       cards, zone, event)
            return True
        self._apply(event, found)
        return True

    def _apply(self, event: Event, found: _Pass) -> None:
        game = self.game
        assert game is not None
        drew = game.required_draws(event) if isinstance(event, MountainPlay | Discard) else 0
        game.push(event, force=True)  # validated by the caller
        if game.phase is not Phase.CLAIM:
            self.missing_since.clear()
        self.discard_question = self._discard_doubt(event)
        for card in getattr(event, "cards", ()):
            # Where the play was seen is where its cards lie, even if the rules move them on at once
            # (a discard shuffled straight into a new deck): seen there again, they are no new play.
            name = card_name(card)
            if name in self.view.cards:
                self.last_zone[name] = self.view.cards[name]
        tracked = TrackedEvent(self.frame, event, drew=drew)
        self.events.append(tracked)
        found.events.append(tracked)
        self.last_event_time = self.view.time

    def _discard_doubt(self, event: Event) -> DiscardQuestion | None:
        """A discard while new unreadable stickers lie on the pile: some discarded cards were not read."""
        if not isinstance(event, Discard):
            return None
        pile = zones.DISCARD_ZONE
        extra = self.view.unread.get(pile, 0) - self.rest_view.unread.get(pile, 0)
        if extra <= 0:
            return None
        return DiscardQuestion(event.player, len(event.cards), len(event.cards) + extra)

    def _warn(self, found: _Pass, reason: str, message: str, fix: str, cards: Sequence[str], zone: str,
              event: Event | None = None) -> None:
        warning = Warning(reason, message, fix, tuple(cards), zone, self.frame, event)
        self.warnings.append(warning)
        found.warnings.append(warning)

    def _warn_moved(self, moved: dict[str, list[str]], found: _Pass) -> bool:
        game = self.game
        assert game is not None
        for zone, cards in moved.items():
            origin = zones.expected_zone(game, parse_card(cards[0])) or zone
            self._warn(found, TrackerReason.MOVED_CARD,
                       f"{_names(cards)} moved from {zones.describe_zone(origin)} to {zones.describe_zone(zone)}.",
                       f"Put {_names(cards)} back.", cards, zone)
        return True

    # -- destruction -----------------------------------------------------------------

    def _claims(self, view: View, arrivals: dict[str, list[str]], moved: dict[str, list[str]],
                found: _Pass) -> bool:
        game = self.game
        assert game is not None and game.destroying is not None
        mountain = zones.mountain(game.destroying)
        evidence = {zone: cards for zone, cards in moved.items()
                    if all(game.location(parse_card(c)) == mountain_zone(game.destroying) for c in cards)}
        for zone, cards in evidence.items():
            return self._claim_seen(zone, cards, found)
        color = self._vanished_color(view, mountain)
        if color is not None:
            self._apply(Claim(game.turn, color), found)
            return True
        stray = {**arrivals, **{z: c for z, c in moved.items() if z not in evidence}}
        if game.mountain(game.destroying) and mountain in arrivals:
            del stray[mountain]  # the refill, laid before the last claim was seen: wait for it
        for zone, cards in stray.items():
            return self._judge(self._play_for(zone, cards)[0], zone, cards, found)
        return False

    def _claim_seen(self, zone: str, cards: list[str], found: _Pass) -> bool:
        """A claimed mountain card turned up in a river or on the discard pile: that shows who claimed."""
        game = self.game
        assert game is not None
        ref = zones.parse_zone(zone)
        color = COLOR_OF[parse_card(cards[0])]
        if ref.kind == "river" and ref.player is not None:
            claimer = ref.player
            event = Claim(claimer, color, parse_card(cards[0]))
            expected_space = len(game.river(claimer)) + 1
            violation = game.validate(event)
            if violation is None and ref.space != expected_space:
                self._warn(found, TrackerReason.RIVER_SPACE,
                           f"{cards[0]} belongs in river space {expected_space}, not {ref.space}.",
                           f"Move {cards[0]} to space {expected_space}.", cards, zone, event)
                return True
            return self._judge(event, zone, cards, found)
        if ref.kind == "discard":
            return self._judge(Claim(game.turn, color), zone, cards, found)
        return self._judge(None, zone, cards, found)

    def _vanished_color(self, view: View, mountain: str) -> int | None:
        """A mountain color none of whose cards has been seen anywhere for long enough.

        A card seen elsewhere on the table (a river, under a warning) has not vanished: where
        it went is evidence, judged as such. A color is claimed at once when the rest of the
        mountain is in sight and nothing else went out of sight with it; otherwise it may be a
        hand resting over the table, and the tracker waits :attr:`claim_confirm_s` first.
        """
        game = self.game
        assert game is not None and game.destroying is not None
        left = game.mountain(game.destroying)
        for name in set(self.missing_since) - {card_name(c) for c in left}:
            del self.missing_since[name]  # claimed already
        for card in left:
            if card_name(card) in view.cards:
                self.missing_since.pop(card_name(card), None)
            else:
                self.missing_since.setdefault(card_name(card), view.time)
        vanished = [color for color in sorted({COLOR_OF[c] for c in left})
                    if not any(card_name(c) in view.cards for c in left if COLOR_OF[c] == color)]
        for color in vanished:
            cards = [card_name(c) for c in left if COLOR_OF[c] == color]
            since = max(self.missing_since[c] for c in cards)
            clear_view = (len(vanished) == 1 and len(self.missing_since) == len(cards)
                          and not self._collateral(view, set(cards)))
            if view.time - since >= (0.0 if clear_view else self.claim_confirm_s):
                return color
        return None

    def _collateral(self, view: View, taken: set[str]) -> bool:
        """Other cards on the table went out of sight since the last rest: something covers the table."""
        game = self.game
        assert game is not None
        return any(card not in view.cards and card not in taken
                   and zones.expected_zone(game, parse_card(card)) == zone
                   for card, zone in self.rest_view.cards.items())

    @property
    def waiting_for_claim(self) -> bool:
        """A claim by disappearance is pending: the tracker wants another look once the wait is over."""
        return self.game is not None and self.game.phase is Phase.CLAIM and bool(self.missing_since)

    def _refill(self, arrivals: dict[str, list[str]], moved: dict[str, list[str]], found: _Pass) -> bool:
        game = self.game
        assert game is not None and game.destroying is not None
        mountain = zones.mountain(game.destroying)
        if moved:
            return self._warn_moved(moved, found)
        if mountain in arrivals:
            cards = arrivals[mountain]
            if len(cards) < game.refill_count():
                return False  # the second card is still on its way
            return self._judge(Refill(game.destroying, tuple(parse_card(c) for c in cards)), mountain, cards, found)
        for zone, cards in arrivals.items():
            return self._judge(self._play_for(zone, cards)[0], zone, cards, found)
        return False

    # -- the end ---------------------------------------------------------------------

    def _reveals(self, arrivals: dict[str, list[str]], moved: dict[str, list[str]], found: _Pass) -> bool:
        game = self.game
        assert game is not None
        for zone, cards in arrivals.items():
            ref = zones.parse_zone(zone)
            if ref.kind in ("reveal", "cup") and ref.player is not None:
                unseen = game.hidden[CUPS[ref.player]]
                if unseen:
                    return self._judge(Reveal(ref.player, tuple(parse_card(c) for c in cards[:unseen])),
                                       zone, cards[:unseen], found)
        for zone, cards in moved.items():
            ref = zones.parse_zone(zone)
            if ref.kind not in ("reveal", "cup"):
                continue
            mine = [c for c in cards if zones.expected_zone(game, parse_card(c)) == zones.reveal(ref.player or 0)]
            strangers = [c for c in cards if c not in mine]
            if strangers:
                where = game.describe_location(parse_card(strangers[0]))
                self._warn(found, TrackerReason.REVEAL_MISMATCH,
                           f"{_names(strangers)} is in {zones.describe_zone(zone)}, but the game says it is {where}.",
                           "Check the cup cards.", strangers, zone)
                return True
        return False

    # -- keeping track ---------------------------------------------------------------

    def _clear_put_right(self, view: View) -> list[Warning]:
        from companion.tracker.standing import put_right

        return put_right(self.warnings, view)

    def _check_duplicates(self, view: View, found: _Pass) -> None:
        from companion.tracker.standing import duplicates_seen

        found.warnings += duplicates_seen(self.warnings, view, self.frame)

    def _note_positions(self, view: View) -> None:
        if self.game is None:
            return
        for card, zone in view.cards.items():
            if zones.expected_zone(self.game, parse_card(card)) == zone:
                self.last_zone[card] = zone
        for card in [c for c in self.last_zone if c not in view.cards]:
            if zones.expected_zone(self.game, parse_card(card)) is None:
                del self.last_zone[card]  # gone from where it lay: if it comes back, it was played again
        if self.game.is_over and not view.cards:
            self.mat_cleared = True

    def record_events(self) -> list[Event | MountainsEvent]:
        return [t.event for t in self.events]


Candidate: TypeAlias = "tuple[Event | None, str, list[str]]"


def _first_legal(game: Game | None, candidates: list[Candidate]) -> Candidate:
    """Several plays seen at once: take first one the rules allow now (so in the order they were made)."""
    assert game is not None
    for candidate in candidates:
        if candidate[0] is not None and game.is_legal(candidate[0]):
            return candidate
    return candidates[0]


def _names(cards: Sequence[str]) -> str:
    return " ".join(cards)


def _fix(reason: str, cards: Sequence[str]) -> str:
    colors = sorted({color_name(COLOR_OF[parse_card(c)]) for c in cards})
    what = f"the {colors[0]} card" if len(cards) == 1 else f"the {' and '.join(colors)} cards"
    if reason == "mountain-one-card":
        return "Leave only one card in the mountain."
    if reason == "draw-count":
        return "Draw the right number of cards."
    return f"Take back {what} ({_names(cards)})."


def _setup_of(game: Game) -> Setup:
    from companion.engine.record import setup_of

    return setup_of(game)


def _with_first(setup: Setup, player: int) -> Setup:
    return Setup(setup.mountains, setup.hands, setup.cups, player)


