"""The table tracker: settled views of the table in, game events and warnings out.

Each time the table settles (:mod:`companion.tracker.settle`), the tracker
explains what changed (:mod:`companion.tracker.explain`): the short legal
sequence of events of the rules engine that turns the game it follows into
the table it sees. Cards are where they were seen laid, covered or not (a
sticker under a later card is covered, not gone); a claim takes every card of
one color; draws and hidden cards are counts.

What no legal sequence explains is judged one play at a time, as the rules
engine sees it: an illegal play raises a :class:`Warning` with the engine's
reason code that stays until the table is put right (its cards are no longer
seen where they were laid), until a player overrides it, or until the game
moves on with the cards still lying there (the players accepted it: it is
applied, never warned twice). A table that keeps disagreeing with the game
is re-read as it is (a *resync*, journaled as a ``resync`` event).

A game starts from a dealt table (two cards in each mountain, nothing else),
seen or not the empty mat before; a game in progress is joined on request
(:meth:`Tracker.request_join`), adopting the table as it is.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from companion.engine import (
    BaseGame,
    Claim,
    Discard,
    Event,
    FieldPlay,
    Game,
    MountainPlay,
    Phase,
    Refill,
    Resync,
    Reveal,
)
from companion.engine.cards import CARDS, COLOR_OF, COLORS, card_name, color_name, colors_in, parse_card
from companion.engine.game import CUPS, DISCARD, UNSEEN, field_zone, mountain_zone
from companion.engine.mountains.events import DiscardCards, DrawCards, MountainsEvent, PlayCard, StartCard
from companion.engine.position import Position, build
from companion.engine.rules import MANDALA
from companion.errors import PositionError
from companion.tracker import zones
from companion.tracker.anchor import (
    JoinCounts,
    ended,
    joined_position,
    resynced,
    river_gap,
    with_card_in_cup,
    with_cup_cards,
)
from companion.tracker.explain import (
    CATCH_UP_DEPTH,
    DEPTH,
    Correction,
    Evidence,
    Explanation,
    being_grabbed,
    explain,
    table_cards,
)
from companion.tracker.pile import PileWatch, not_ended, shuffled_since_unread_claims
from companion.tracker.settle import COVERED_BY_S, GESTURE_S, Settler, View
from companion.tracker.standins import exchanged, stand_in
from companion.vision.observation import FrameObservation
from companion.vocab import notices
from companion.vocab.reasons import Reason, warning_id, warning_text
from companion.vocab.reasons import title as reason_title

START_MOUNTAIN = MANDALA.mountain_deal
MAX_STEPS = 64
MOUNTAINS_EVENTS = (StartCard, DrawCards, PlayCard, DiscardCards)
"""The other ruleset's events, which never reach this tracker's game (see tracker/mountains.py)."""
BLIND_S = 2.0
"""The camera was away (board not found, no settled view) this long: the next look may need to catch up."""
LONG_GAP_S = 12.0
"""No settled view for this long (hands over the table, a stalled camera): the next look may need to catch up."""
GLIMPSE_KEEP_S = 30.0
"""A card seen for a moment and covered since counts as evidence this long."""
NOTICE_S = 6.0
"""How long a notice ("CAUGHT UP: 2 moves") stays on the screen."""


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
    space: int | None = None
    """The river space the cards belong in (``river-space``): the screens word the fix in any language."""

    @property
    def id(self) -> str:
        """Stable while the warning stands: overrides, the screens and the journal name it by this, not its text."""
        return warning_id(self.frame, self.reason, self.cards)

    def __str__(self) -> str:
        return f"{self.reason}@{self.frame}: {self.message} {self.fix}"


@dataclass(frozen=True, slots=True)
class TrackedEvent:
    frame: int
    event: Event | MountainsEvent
    forced: bool = False
    drew: int = 0
    """Cards the player had to draw after it (a build or a discard), for "P1 DRAW 2"."""

    @classmethod
    def history(cls, game: BaseGame[Any, Any], frames: Sequence[int] | None = None) -> list[TrackedEvent]:
        """A game's events as tracked ones (a game rebuilt from the journal): each with the frame it
        was seen at, ``-1`` where that is not known."""
        marks = list(frames) if frames is not None else [-1] * len(game.stack)
        return [cls(frame, event, forced) for frame, (event, forced) in zip(marks, game.stack, strict=True)]


@dataclass(frozen=True, slots=True)
class Notice:
    """Something the players should know that is no warning: "CAUGHT UP: 2 moves", "RESYNCED"."""

    title: str
    text: str
    time: float
    detail: str = ""
    """What the log says besides (an engine message naming cards and counts): never on the screen."""


@dataclass(frozen=True, slots=True)
class Question:
    """Two explanations fit the table equally and leave the players different things to do: which one?"""

    options: tuple[tuple[Event, ...], tuple[Event, ...]]
    """The applied explanation first, then its rival."""
    applied: int
    """How many events of ``options[0]`` were applied (the last ones of :attr:`Tracker.events`)."""
    time: float


@dataclass(frozen=True, slots=True)
class Update:
    """What one frame changed: new events, new warnings, warnings cleared."""

    events: tuple[TrackedEvent, ...] = ()
    warnings: tuple[Warning, ...] = ()
    cleared: tuple[Warning, ...] = ()
    settled: bool = False
    started: bool = False
    """A new game began with this view (its start is ``tracker.game``'s base)."""
    notices: tuple[Notice, ...] = ()
    undone: tuple[TrackedEvent, ...] = ()
    """Events taken back before ``events`` were applied, last first: a player took a play back, or (the
    mountains tracker) a turn is written again once its discard shows how many cards were drawn."""

    def __bool__(self) -> bool:
        return bool(self.events or self.warnings or self.cleared or self.started or self.notices or self.undone)


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
    notices: list[Notice] = field(default_factory=list)
    undone: list[TrackedEvent] = field(default_factory=list)


class Tracker:
    """Follows one table: the game in progress, its warnings, and what the camera last saw."""

    def __init__(self, settle_s: float = 1.0, first_player: int = 0, claim_confirm_s: float | None = None,
                 miss_s: float = 0.25) -> None:
        self.settler = Settler(settle_s, miss_s)
        self.settle_s = settle_s
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
        """The mat was seen empty since the last game ended."""
        self.discard_question: DiscardQuestion | None = None
        self.question: Question | None = None
        self.notice: Notice | None = None
        self.played_on = False
        """A warned play was left as it lay and applied (the players went on), with no move followed since."""
        self.resumed = False
        """A game was resumed and the table not looked at since."""
        self.glimpses: dict[str, tuple[str, float]] = {}
        """Cards read for a moment, then covered before any settled view showed them: zone and when."""
        self.vanished_at: dict[str, float] = {}
        """When each card last went out of sight."""
        self.sight_since = 0.0
        """When the camera last came back (start, resume, the board found again): lay times before are unknown."""
        self._sight_pending = True
        self.catching_up = True
        self._board_lost_at: float | None = None
        self._pending: tuple[float, str] | None = None
        """An ambiguous explanation waiting for a second look: since when, and the table it was for."""
        self._residual_seen: dict[str, float] = {}
        """Legal plays left over by the search, by card: the first look; applied on a second one."""
        self._deal: tuple[float, tuple[list[str], list[str]]] | None = None
        """A deal with a hidden card seen: since when, and its mountains."""
        self._resynced_at: float | None = None
        self._resynced_table: frozenset[tuple[str, str]] = frozenset()
        self.swept_at: float | None = None
        """When the last destruction's claims were done, and the colors its fields held (whose field)."""
        self.swept_colors: dict[int, int] = {}
        self.swept_since: float | None = None
        """When the last destruction's claims were done (its fields are swept onto the pile then)."""
        self.destruction_seen: set[str] = set()
        self.mismatched: set[str] = set()
        """Cards the reveals showed where the game had them elsewhere (``reveal-mismatch``), this game."""
        self.positions: dict[str, tuple[float, float]] = {}
        """Where each card was last read on the mat (mm)."""
        self.absent_since: dict[str, float] = {}
        """Cards on the table out of sight with nothing over them: since when."""
        """Cards of the mountain being destroyed seen since the destruction began."""
        self.join: JoinCounts | None = None
        """A join requested: the next settled view is adopted as the position."""
        self.asking: JoinCounts | None = None
        """A join requested whose missing values the players are being asked for (on the display)."""
        self.unknown: frozenset[str] = frozenset()
        """Counts of a joined game nobody gave: estimated ("hands", "cups", "deck", "turn")."""
        self.stand_ins: set[str] = set()
        """Cards the game holds for mountain cards nobody read, known by color only (tracker/standins.py)."""
        self.discarded_at: dict[str, float] = {}
        """The last discard's cards and when each was laid on the pile."""
        self.pile = PileWatch()
        """Watches for the discard pile picked up: the deck ran out on the table (tracker/pile.py)."""
        self.beneath: dict[str, str] = {}
        """Mountain cards uncovered where the card over them was grabbed (unread till then): they lie under the
        mountain's other cards and cover none of them, while they lie there (card -> mountain)."""
        self.laid_times: dict[str, float] = {}
        """When each card was last laid where it was read (as the settled views date it)."""
        self.lifted: set[str] = set()
        """Mountain cards out of sight that were lifted off the card they covered (it shows again): taken."""

    # -- feeding frames -----------------------------------------------------------

    def observe(self, frame_index: int, now: float, observation: FrameObservation) -> Update:
        self.frame = frame_index
        if self._sight_pending:
            self._sight_pending = False
            self.sight_since = now  # cards already lying there when the camera came in: laid we do not know when
        self._watch_board(now, observation.board.found)
        view = self.settler.update(now, observation)
        if view is not None:
            self.rest_view = self.view
        elif self.settler.is_settled and self.waiting:
            view = self.settler.view(now)  # the table is still at rest: look again
        if view is None:
            return Update()
        return self.settled(view)

    def _watch_board(self, now: float, found: bool) -> None:
        if not found:
            if self._board_lost_at is None:
                self._board_lost_at = now
            return
        if self._board_lost_at is not None and now - self._board_lost_at >= BLIND_S:
            self.catching_up = True
            self.sight_since = now
        self._board_lost_at = None

    @property
    def waiting(self) -> bool:
        """Something needs another look at the resting table once time has passed."""
        recent = any(self.view.time - since < self.claim_confirm_s for since in self.absent_since.values())
        return bool(self.waiting_for_claim or self._pending is not None or self._residual_seen or recent
                    or self._deal is not None
                    or (self.game is not None and self.game.phase is Phase.REFILL))

    def settled(self, view: View) -> Update:
        """Work through one settled view of the table."""
        if view.time - self.view.time >= LONG_GAP_S and self.view.time:
            self.catching_up = True  # a long hand over the table, a camera that stalled
        self.view = view
        found = _Pass()
        cleared = self._clear_put_right(view)
        self._check_duplicates(view, found)
        self._remember_glimpses(view, frozenset(c for w in (*cleared, *self.warnings) for c in w.cards))
        started = follow = False
        if self.resumed:
            self._prime_after_resume(view)
        if self.join is not None:
            started = self._join(view, found)
        elif self.game is None or self.game.is_over or not self.events:
            started, follow = self._maybe_start(view)
        if self.game is not None and (follow or not started):
            self._follow(view, found)
        self._note_positions(view)
        if found.notices:
            self.notice = found.notices[-1]
        if found.events:
            self.question = None if self.question is None or self.question.time != view.time else self.question
        # Quick moves: a play whose cards lay a settle time is seen while the next player's hand moves.
        self.settler.partial = self.game is not None and self.game.phase is Phase.PLAY
        self.settler.unsure = self._maybe_complete()
        self.settler.kept = frozenset(card_name(c) for c, _ in table_cards(self.game)) if self.game else None
        return Update(tuple(found.events), tuple(found.warnings), tuple(cleared), settled=True, started=started,
                      notices=tuple(found.notices), undone=tuple(found.undone))

    def _maybe_complete(self) -> frozenset[str]:
        """The zones of the mandalas that may have been completed unseen (their known colors and their cards
        nobody read make six): a card grabbed there in a destruction nobody noticed uncovers the card under it,
        which looks like a card laid over it."""
        game = self.game
        unsure: set[str] = set()
        for mandala in (0, 1) if game is not None else ():
            assert game is not None
            unread = game.hidden[mountain_zone(mandala)] + sum(game.hidden[field_zone(mandala, p)] for p in (0, 1))
            if unread and len(colors_in(game.mandala_colors(mandala))) + unread >= len(COLORS):
                unsure |= {zones.mountain(mandala), zones.field(mandala, 0), zones.field(mandala, 1)}
        return frozenset(unsure)

    # -- commands from the players --------------------------------------------------

    def new_game(self, first_player: int | None = None) -> None:
        if first_player is not None:
            self.first_player = first_player
        self.game = None
        self.events.clear()
        self.warnings.clear()
        self.mismatched.clear()
        self.accepted.clear()
        self.last_zone.clear()
        self.question = None
        self.join = None
        self.unknown = frozenset()
        self.mat_cleared = not self.view.cards

    def set_first_player(self, player: int) -> None:
        """Choose who starts; before the first play it also changes the game in progress."""
        self.first_player = player
        if self.game is not None and not self.game.stack:
            self.game = build(replace(_position(self.game), turn=player))

    def request_join(self, counts: JoinCounts) -> None:
        """Join the game on the table: the next settled view becomes the position, with these counts."""
        self.join = counts
        self.asking = None

    @property
    def table_in_play(self) -> bool:
        """No game is followed, yet the table shows one in progress (not empty, not a deal): offer to join."""
        if self.game is not None or self.join is not None:
            return False
        view = self.view
        return bool(view.cards) and self._dealt(view) is None

    def override(self, warning: Warning | str | None = None) -> TrackedEvent | None:
        """Accept what a warning complains about: its event is applied anyway.

        ``warning`` is one of :attr:`warnings` or its :attr:`Warning.id` (what the screens
        and the journal hold); by default the oldest warning. None when there is no such warning.
        """
        key = warning.id if isinstance(warning, Warning) else warning
        target = next((w for w in self.warnings if key is None or w.id == key), None)
        if target is None:
            return None
        return self._accept(target)

    def _accept(self, target: Warning) -> TrackedEvent | None:
        self.warnings.remove(target)
        for card in target.cards:
            self.accepted[card] = target.zone
        if target.event is None or self.game is None or isinstance(target.event, MOUNTAINS_EVENTS):
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
        self.question = None
        cards = tuple(card_name(c) for c in getattr(event, "cards", ()) or ())
        seen = [c for c in cards if c in self.view.cards]
        if seen:
            zone = self.view.cards[seen[0]]
            self.warnings.append(Warning(Reason.UNDONE, "The last move was undone.",
                                         warning_text(Reason.UNDONE, seen).fix, tuple(seen), zone, self.frame))
        return event

    def choose(self, option: int) -> tuple[list[TrackedEvent], list[TrackedEvent]]:
        """Answer the open question: ``option`` 0 keeps what was applied, 1 takes the other explanation.

        Returns the events taken back (last first) and the events applied instead.
        """
        question, self.question = self.question, None
        if question is None or option == 0 or self.game is None:
            return [], []
        if len(self.events) < question.applied:
            return [], []
        undone: list[TrackedEvent] = []
        for _ in range(question.applied):
            self.game.pop()
            undone.append(self.events.pop())
        applied: list[TrackedEvent] = []
        for event in question.options[1]:
            if self.game.validate(event) is not None:
                break
            applied.append(self._push(event, self.frame, forced=True))
        return undone, applied

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

    def _maybe_start(self, view: View) -> tuple[bool, bool]:
        """A new game starts from a dealt table: two cards in each mountain and nothing else.

        The empty mat need not be seen first (people deal, then switch the
        companion on). A mountain card under the other one (its stickers
        hidden) does not hold the game back: one card read in a mountain
        (or glimpsed there before it was covered) and two in the other
        start the game after a few settle times, or at once when the first
        play shows, with the hidden card an unseen card of that mountain.
        Returns whether a game started, and whether this view also holds
        plays to follow (the first play ended the wait for a hidden card).
        """
        if not view.cards:
            self.mat_cleared = True
            self._deal = None
            return False, False
        deal = self._dealt(view)
        if self.game is not None and not self.game.is_over:
            # A game dealt but not yet played: the same deal seen again, or one dealt anew in full.
            before = [{card_name(c) for c in self.game.mountain(m)} for m in (0, 1)]
            same = deal is not None and all(set(deal[m]) <= before[m] for m in (0, 1))
            if deal is None or same or any(len(m) != START_MOUNTAIN for m in deal):
                return False, False
            new = sum(c not in before[m] for m in (0, 1) for c in deal[m])
            if new == 1 and any(c not in deal[m] for m in (0, 1) for c in before[m]):
                # The first play laid in a mountain wholly over a dealt card: the mountain shows two
                # cards again, one of them new (a deal anew changes more than one card).
                return False, False
        pending = self._deal
        if pending is not None:
            dealt = {c for m in pending[1] for c in m}
            kept = any(view.cards.get(c) == zones.mountain(m) for m in (0, 1) for c in pending[1][m])
            if kept and any(c not in dealt for c in view.cards):
                return self._start(pending[1]), True  # the first play came before the hidden card showed
        if deal is None:
            self._deal = None
            played_on = self._dealt_then_played(view)
            if played_on is not None:
                return self._start(played_on), True  # the deal never rested: the first play follows it at once
            return False, False
        if any(len(m) < START_MOUNTAIN for m in deal):
            if pending is None or pending[1] != deal:
                self._deal = (view.time, deal)
                pending = self._deal
            if view.time - pending[0] < self.claim_confirm_s:
                return False, False  # give the hidden card a chance to show
        return self._start(deal), False

    def _dealt(self, view: View) -> tuple[list[str], list[str]] | None:
        """The mountains of a dealt table (one card each may be hidden under the other); None if it is none."""
        mountains = [view.in_zone(zones.mountain(m)) for m in (0, 1)]
        others = [c for c, z in view.cards.items() if z not in (zones.mountain(0), zones.mountain(1))]
        if others or any(len(m) > START_MOUNTAIN for m in mountains) or not all(mountains):
            return None
        for card, (zone, _) in self.glimpses.items():
            for m in (0, 1):
                if zone == zones.mountain(m) and len(mountains[m]) < START_MOUNTAIN and card not in mountains[m]:
                    mountains[m] = [*mountains[m], card]
        return mountains[0], mountains[1]

    def _dealt_then_played(self, view: View) -> tuple[list[str], list[str]] | None:
        """A deal that never came to rest before the first play: its mountains, None if the table is no such one.

        A paced camera on a busy machine drops frames, so a deal resting for
        less than a couple of settle times may never settle before the first
        play lands. The table then shows two cards in each mountain, laid
        before everything else, and a few cards laid after them that the
        camera saw arrive (a companion switched on mid-game sees every card
        at once and joins instead). Only with no game on the table.
        """
        if (self.game is not None and not self.game.is_over) or not self.mat_cleared:
            return None

        def laid(card: str) -> float:
            return view.laid_at.get(card, self.sight_since)

        mountains = [sorted(view.in_zone(zones.mountain(m)), key=lambda c: (laid(c), c)) for m in (0, 1)]
        if any(len(cards) < START_MOUNTAIN for cards in mountains):
            return None
        deal = (mountains[0][:START_MOUNTAIN], mountains[1][:START_MOUNTAIN])
        rest = [c for c in view.cards if c not in deal[0] and c not in deal[1]]
        if not rest or len(rest) > MANDALA.hand_size + 1:
            return None
        dealt_by = max(self.sight_since, *(laid(c) for m in deal for c in m))
        if any(laid(c) < dealt_by + GESTURE_S for c in rest):
            return None  # not seen arriving after the deal
        return deal

    def _start(self, deal: tuple[list[str], list[str]]) -> bool:
        self._deal = None
        unseen = [START_MOUNTAIN - len(m) for m in deal]
        self.game = build(Position(mountains=(tuple(parse_card(c) for c in deal[0]),
                                              tuple(parse_card(c) for c in deal[1])),
                                   unseen_mountains=(unseen[0], unseen[1]), turn=self.first_player))
        self._fresh_game()
        return True

    def _fresh_game(self) -> None:
        self.played_on = False
        self.stand_ins.clear()
        self.pile = PileWatch()
        self.beneath.clear()
        self.lifted.clear()
        self.events.clear()
        self.warnings.clear()
        self.mismatched.clear()
        self.accepted.clear()
        self.question = None
        self.mat_cleared = False
        self.unknown = frozenset()
        for card in [c for c, (z, _) in self.glimpses.items() if zones.parse_zone(z).kind == "mountain"]:
            del self.glimpses[card]

    def _join(self, view: View, found: _Pass) -> bool:
        """Adopt the table as it is as the position of a game in progress."""
        counts = self.join
        assert counts is not None
        if not view.cards:
            return False
        try:
            game, unknown = joined_position(view.cards, counts, self.first_player)
        except PositionError as error:
            # Not a table a game can be read from yet (a card out of sight, a hand): look again at the next rest.
            if self.notice is None or self.notice.title != notices.CANNOT_JOIN:
                text = notices.OUT_OF_SIGHT_TEXT if river_gap(view.cards) else notices.DOES_NOT_FIT_TEXT
                self.notice = Notice(notices.CANNOT_JOIN, text, view.time, detail=str(error))
                found.notices.append(self.notice)
            return False
        self.join = None
        self.game = game
        self._fresh_game()
        self.unknown = unknown
        self.catching_up = False
        for card, zone in view.cards.items():
            self.last_zone[card] = zone
        found.notices.append(Notice(notices.JOINED, notices.JOINED_TEXT, view.time))
        return True

    def resume(self, game: Game, frames: Sequence[int] | None = None) -> None:
        """Carry on with a game rebuilt from the journal after a restart."""
        self.game = game
        self.first_player = game.first_player
        self.events = TrackedEvent.history(game, frames)
        self.warnings.clear()
        self.mismatched.clear()
        self.mat_cleared = False
        self.resumed = True
        self.catching_up = True
        self._sight_pending = True

    def _prime_after_resume(self, view: View) -> None:
        """After a restart, cards the rules already moved off the table may still lie where they were.

        Field cards sent to the discard pile by a destruction, a discard pile
        shuffled into the deck: seen where they lie, they are no new play.
        """
        self.resumed = False
        if self.game is None:
            return
        reshuffled_now = _just_reshuffled(self.game)
        for card, zone in view.cards.items():
            expected = zones.expected_zone(self.game, parse_card(card))
            swept = expected == zones.DISCARD_ZONE and zones.parse_zone(zone).kind in ("mountain", "field")
            reshuffled = expected is None and zone == zones.DISCARD_ZONE and card in reshuffled_now
            if swept or reshuffled:
                self.last_zone[card] = zone

    # -- following the game -----------------------------------------------------------

    def _follow(self, view: View, found: _Pass) -> None:
        game = self.game
        assert game is not None
        self._check_stand_ins(view, found)
        if game.phase is Phase.OVER:
            self._not_over(found)  # the game goes on after all: taken back and made again, in place
        if game.phase is not Phase.OVER:
            self._deck_ran_out(view, found)
            self._explain(view, found)
        if self.game is not None and self.game.phase is Phase.OVER:
            for _ in range(MAX_STEPS):
                arrivals, moved = self._differences(view)
                if not self._reveals(arrivals, moved, found):
                    break
            self._reveal_the_rest(found)

    def _deck_ran_out(self, view: View, found: _Pass) -> None:
        """The players picked the discard pile up and play went on: the deck ran out there, whatever the count."""
        assert self.game is not None
        corrected = self.pile.look(self.game, view, self.vanished_at, self.discarded_at)
        if corrected is not None:
            found.events.append(self._push(Resync(corrected.text()), self.frame, forced=True))

    def _not_over(self, found: _Pass) -> None:
        """The count ended the game by the deck, yet the players refill the mountain, the pile still there."""
        game = self.game
        assert game is not None
        corrected = not_ended(game, self.view, self.last_event_time)
        if corrected is None:
            return
        claim = game.stack[-1][0]
        self._take_back(found, quietly=True)
        found.events.append(self._push(Resync(corrected.text()), self.frame, forced=True))
        found.events.append(self._push(claim, self.frame))

    def _evidence(self, view: View) -> Evidence:
        game = self.game
        assert game is not None
        quarantined = {card for warning in self.warnings for card in warning.cards}
        seen = {card: zone for card, zone in view.cards.items()
                if card not in quarantined and card not in view.duplicates and self.accepted.get(card) != zone}
        glimpses = {card: zone for card, (zone, _) in self.glimpses.items()
                    if card not in view.cards and card not in quarantined and game.location(parse_card(card)) == UNSEEN}
        laid = {card: at for card, at in view.laid_at.items() if at > self.sight_since + GESTURE_S}
        laid.update((card, at) for card, (_, at) in self.glimpses.items() if card in glimpses)
        # A card from a hand read in a mountain for a moment, then on the pile: laid there, then claimed onto it.
        for card, (zone, at) in view.passed.items():
            if view.cards.get(card) == zones.DISCARD_ZONE and zones.parse_zone(zone).kind == "mountain" \
                    and card not in quarantined and game.location(parse_card(card)) == UNSEEN:
                glimpses[card] = zone
                laid[card] = at
        last_claim = self._last_claim_gone(view)
        left_at, long_out = self._left_at(view, last_claim)
        grabbed = self._grabbed(view, long_out)
        if any(card in self.beneath for card in view.cards):
            # A card uncovered where the card over it was grabbed lay under the mountain's cards: it covers none.
            left_at, long_out = self._left_at(view, last_claim)
        uncovered = frozenset(card_name(c) for c, _ in table_cards(game)
                              if card_name(c) not in view.cards and not self._coverable(view, card_name(c)))
        # Cards lying where the game has them may stay there a while after the rules move them on.
        stale = {**{c: z for c, z in seen.items() if zones.expected_zone(game, parse_card(c)) == z}, **self.last_zone}
        self._note_lifted(view)
        gone = self._gone_cards(view)
        if self.catching_up:
            gone.update(self._claimed_while_away(view, gone))
        gone.update(last_claim)
        return Evidence(seen, glimpses, laid, stale, gone,
                        unseen_refill=self._refill_wait_over(view), rest_time=self.rest_view.time,
                        uncovering=frozenset(z for c, z in self.rest_view.cards.items()
                                             if zones.parse_zone(z).kind == "mountain"
                                             and view.cards.get(c, z) != z) | grabbed,  # moved out, not covered
                        uncovered=uncovered, swept_since=self.swept_since, left_at=left_at,
                        swept_at=self.swept_at, swept_colors=self.swept_colors,
                        long_out=long_out,
                        shaken=view.shaken, discarded_at=self.discarded_at, lifted=frozenset(self.lifted),
                        pile_taken=self._pile_taken(view),
                        left_alone=frozenset(c for c in uncovered if c in left_at and not any(
                            other != c and abs(at - left_at[c]) <= TOGETHER_S for other, at in left_at.items())))

    def _pile_taken(self, view: View) -> bool:
        """The deck is out by the count and the discard pile is gone from the table: picked up to be shuffled."""
        game = self.game
        assert game is not None
        pile = zones.DISCARD_ZONE
        on_pile = game.known[DISCARD]
        return game.deck_ran_out and not game.deck_size and bool(on_pile) and not view.in_zone(pile) \
            and not view.unread.get(pile) and not any(card_name(c) in view.cards for c in on_pile)

    def _left_at(self, view: View, last_claim: dict[str, str]) -> tuple[dict[str, float], frozenset[str]]:
        """When each card the game has on the table (and the last claim's) went out of sight, unless a card laid
        in its zone then covered it (a tight fan); and those out of sight longer than a claim takes to show."""
        game = self.game
        assert game is not None
        laid_by_zone: dict[str, list[float]] = {}
        for card, zone in view.cards.items():
            if self.beneath.get(card) != zone:  # a card uncovered where it lay was laid under, not over
                laid_by_zone.setdefault(zone, []).append(view.laid_at.get(card, -math.inf))
        left_at = {name: self.vanished_at[name] for name in [*(card_name(c) for c, _ in table_cards(game)), *last_claim]
                   if name not in view.cards and name in self.vanished_at and not any(
                       -COVERED_BY_S <= self.vanished_at[name] - at <= GESTURE_S
                       for at in laid_by_zone.get(last_claim.get(name) or zones.expected_zone(game, parse_card(name))
                                                  or "", ()))}
        return left_at, frozenset(c for c, at in left_at.items() if view.time - at >= self.claim_confirm_s)

    def _grabbed(self, view: View, long_out: frozenset[str]) -> set[str]:
        """Mountains whose last read card was just grabbed off an unread card, which shows now (noted in
        :attr:`beneath`).

        A mandala with five colors read and an unread mountain card, whose
        mountain cards were taken long ago (nothing laid over them): claims of
        a destruction nobody noticed, the sixth color unread. When the last of
        its read cards leaves, the first laid (the unread card of a deal or
        refill lies under it), and a card shows there the moment it goes, it
        was grabbed, not covered (a hand laying a card over it hides it
        first): what shows lay under it, and under every card of the mountain
        laid since, so it covers none of them.
        """
        game = self.game
        assert game is not None
        self.beneath = {c: z for c, z in self.beneath.items() if view.cards.get(c) == z}
        taken_from = {zones.expected_zone(game, parse_card(c)) for c in long_out}
        grabbed: set[str] = set()
        for c, z in self.rest_view.cards.items():
            ref = zones.parse_zone(z)
            if z not in taken_from or c in view.cards or ref.kind != "mountain" or ref.mandala is None \
                    or not game.hidden[mountain_zone(ref.mandala)] \
                    or any(card_name(m) in view.cards for m in game.mountain(ref.mandala)) \
                    or card_name(game.mountain(ref.mandala)[0]) != c \
                    or len(colors_in(game.mandala_colors(ref.mandala))) != len(COLORS) - 1:
                continue
            under = [other for other, where in view.cards.items() if where == z and other not in self.rest_view.cards
                     and 0.0 <= view.laid_at.get(other, -math.inf) - self.vanished_at.get(c, math.inf) <= UNCOVERED_S]
            if under:
                grabbed.add(z)
                self.beneath.update((other, z) for other in under)
        return grabbed
    def _note_lifted(self, view: View) -> None:
        """Mountain cards lifted off the card they covered: that card shows again where it lay, they do not.

        A card laid in a mountain covers the sticker of the card it lands on
        (that card went out of sight as it was laid). When the card under it
        comes back into sight since the last rest, where it lay, while the card
        that covered it stays out of sight, the card over it is no longer
        there: mountain cards only leave in a claim (or a play taken back), so
        it was taken, whatever still lies over where it was. A hand that hid the
        card underneath for a moment proves nothing: it went out of sight as
        the card over it was laid, and only its coming back after the last rest
        counts.
        """
        game = self.game
        assert game is not None
        on_table = {card_name(c): z for c, z in table_cards(game) if zones.parse_zone(z).kind == "mountain"}
        self.lifted = {c for c in self.lifted if c in on_table and c not in view.cards}
        back = [(card, zone) for card, zone in view.cards.items()
                if on_table.get(card) == zone and card not in self.rest_view.cards and card in self.vanished_at]
        for name, zone in on_table.items():
            laid = self.laid_times.get(name)
            where = self.positions.get(name)
            if name in view.cards or laid is None or where is None:
                continue
            if any(z == zone and -COVERED_BY_S <= self.vanished_at[under] - laid <= GESTURE_S
                   and self.laid_times.get(under, math.inf) < laid and under in view.positions
                   and math.dist(where, view.positions[under]) < COVER_MM for under, z in back):
                self.lifted.add(name)

    def _last_claim_gone(self, view: View) -> dict[str, str]:
        """The cards the last claim took, out of sight: they left the mountain for good, whoever took them.

        Says so to the explanation that takes the claim back to give it to the other player.
        """
        game = self.game
        assert game is not None
        last = game.stack[-1][0] if game.stack else None
        if not isinstance(last, Claim):
            return {}
        before = game.copy()
        before.pop()
        if before.destroying is None:
            return {}
        mountain = zones.mountain(before.destroying)
        return {card_name(c): mountain for c in before.mountain(before.destroying)
                if COLOR_OF[c] == last.color and card_name(c) not in view.cards}

    def _explain(self, view: View, found: _Pass) -> None:
        game = self.game
        assert game is not None
        self._accept_lying_warnings(view, found)
        evidence = self._evidence(view)
        depth = CATCH_UP_DEPTH if self.catching_up else DEPTH
        explanation = explain(game, evidence, depth)
        if explanation.rival is not None and self._worth_waiting(view, explanation):
            return
        self._pending = None
        caught_up = self.catching_up
        self.catching_up = False
        for _ in range(explanation.undo):
            self._take_back(found, quietly=explanation.reread)
        self._apply_all(explanation.events, found)
        if explanation.rival is not None and explanation.events:
            self.question = Question((explanation.events, explanation.rival.events), len(explanation.events),
                                     view.time)
        moves = sum(not isinstance(e, Resync) for e in explanation.events)
        if caught_up and moves >= 2:
            found.notices.append(Notice(notices.CAUGHT_UP, notices.caught_up(moves), view.time))
        self._judge_residual(view, found)

    def _worth_waiting(self, view: View, explanation: Explanation) -> bool:
        """Two explanations fit equally: look again one settle time later before choosing (and asking)."""
        key = explanation.game.text()
        if self._pending is None or self._pending[1] != key:
            self._pending = (view.time, key)
            return True
        return view.time - self._pending[0] < self.settle_s

    def _take_back(self, found: _Pass, quietly: bool = False) -> None:
        """The last play left the table with nothing over its cards: the player took it back.

        ``quietly``: no move was taken back, a reading was corrected (a discard read again as a claim).
        """
        game = self.game
        assert game is not None
        game.pop()
        taken = self.events.pop()
        found.undone.append(taken)
        if not isinstance(taken.event, Claim) and not quietly:  # a claim re-read with its river card: no news
            cards = [card_name(c) for c in getattr(taken.event, "cards", ()) or ()]
            text = notices.taken_back(getattr(taken.event, "player", None), cards, _short(taken.event))
            found.notices.append(Notice(notices.TAKEN_BACK, text, self.view.time))
        if found.events and found.events[-1] is taken:
            found.events.pop()

    def _apply_all(self, events: Sequence[Event], found: _Pass) -> None:
        for event in events:
            found.events.append(self._push(event, self.frame))

    def _push(self, event: Event, frame: int, forced: bool = False) -> TrackedEvent:
        game = self.game
        assert game is not None
        drew = game.required_draws(event) if isinstance(event, MountainPlay | Discard) else 0
        destroying = game.phase is Phase.CLAIM
        unread_swept = destroying and game.destroying is not None and \
            any(game.hidden[field_zone(game.destroying, p)] for p in (0, 1))
        colors = {COLOR_OF[c]: p for p in (0, 1) for c in game.field(game.destroying, p)} \
            if destroying and game.destroying is not None else {}
        game.push(event, force=True)  # validated by the caller, or the players' word
        if destroying and game.phase is not Phase.CLAIM:
            # The claims are done: the fields go onto the pile now. Only cards nobody read there can land
            # on the pile unexplained (a joined game's pile holds uncounted cards: a discard is a discard).
            self.swept_since = self.view.time if unread_swept else None
            self.swept_at, self.swept_colors = self.view.time, colors
        if game.phase is not Phase.CLAIM:
            self.missing_since.clear()
        elif not destroying and game.destroying is not None:  # a destruction begins: what is in sight now
            mountain = zones.mountain(game.destroying)
            # A card seen at the last rest but covered by a card laid over it since (the completing play laid
            # on a tight fan) was not seen in the destruction: it may lie under that card, not be gone.
            laid_there = [laid for c, z in self.view.cards.items() if z == mountain and self.beneath.get(c) != z
                          and (laid := self.view.laid_at.get(c, -math.inf)) > self.rest_view.time]
            self.destruction_seen = {c for v in (self.rest_view, self.view) for c, z in v.cards.items()
                                     if z == mountain and not self._covered_by_play(c, laid_there)}
        self.discard_question = self._discard_doubt(event)
        if isinstance(event, Discard):
            self.discarded_at = {name: at for name in (card_name(c) for c in event.cards)
                                 if (at := self.view.laid_at.get(name, self.glimpses.get(name, ("", None))[1]))
                                 is not None}
        for card in getattr(event, "cards", ()) or ():
            # Where the play was seen is where its cards lie, even if the rules move them on at once
            # (a discard shuffled straight into a new deck): seen there again, they are no new play.
            name = card_name(card)
            self.glimpses.pop(name, None)
            if name in self.view.cards:
                self.last_zone[name] = self.view.cards[name]
        if isinstance(event, Correction):
            self.stand_ins.update(event.stand_ins)
        tracked = TrackedEvent(frame, event, forced=forced, drew=drew)
        self.events.append(tracked)
        self.played_on = self.played_on and forced  # a move the table shows: the game is followed again
        if isinstance(event, FieldPlay):
            self.unknown -= {"turn"}  # a field shows whose play it was: the turn is known from here on
        self.last_event_time = self.view.time
        self._residual_seen.clear()
        return tracked

    def _covered_by_play(self, card: str, laid_there: list[float]) -> bool:
        """``card`` is out of sight now, and went out of sight as a card in ``laid_there`` (lay times) was laid."""
        vanished = self.vanished_at.get(card)
        return card not in self.view.cards and vanished is not None and any(
            -COVERED_BY_S <= vanished - at <= GESTURE_S for at in laid_there)

    def _accept_lying_warnings(self, view: View, found: _Pass) -> None:
        """Warned cards still lying there when another play shows: the players played on, so it stands.

        One problem gives one warning: the warned play is applied (as an
        override would), so the plays that follow it are judged against the
        game as it is on the table, not warned one after another.
        """
        open_warnings = [w for w in self.warnings if w.reason not in (Reason.DUPLICATE_CARD,
                                                                       Reason.UNDONE)]
        if not open_warnings or self.game is None:
            return
        arrivals, moved = self._differences(view)  # without the warned cards
        if not arrivals and not moved:
            return
        for warning in open_warnings:
            event = warning.event
            if event is not None and not isinstance(event, MOUNTAINS_EVENTS) and \
                    self.game.validate(event) is not None and not _still_forcible(self.game, event):
                continue
            tracked = self._accept(warning)
            if tracked is not None:
                found.events.append(tracked)
                self.played_on = True
            # The screen names the warning by its registry title (RULE OF COLOR), never by its code.
            found.notices.append(Notice(notices.PLAYED_ON, notices.played_on(reason_title(warning.reason)), view.time))

    def _differences(self, view: View) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
        """Cards seen off their expected place: new on the table, or moved from another zone; by zone."""
        game = self.game
        assert game is not None
        quarantined = {card for warning in self.warnings for card in warning.cards}
        arrivals: dict[str, list[str]] = {}
        moved: dict[str, list[str]] = {}
        for card, zone in sorted(view.cards.items(), key=lambda item: (view.laid_at.get(item[0], 0.0), item[0])):
            if card in quarantined or card in view.duplicates or self.accepted.get(card) == zone:
                continue
            expected = zones.expected_zone(game, parse_card(card))
            if expected == zone or (self.last_zone.get(card) == zone and expected in (None, zones.DISCARD_ZONE)) \
                    or being_grabbed(game, parse_card(card), zone):
                # In place; or still lying where it was after the rules moved it on: field cards
                # not yet swept onto the discard pile, a discard pile not yet shuffled into the deck.
                continue
            target = arrivals if game.location(parse_card(card)) == UNSEEN else moved
            target.setdefault(zone, []).append(card)
        return arrivals, moved

    # -- what no legal sequence explains ----------------------------------------------

    def _judge_residual(self, view: View, found: _Pass) -> None:
        """Judge, one play at a time, what the search left: illegal plays and moved cards are warned."""
        for _ in range(MAX_STEPS):
            game = self.game
            if game is None or game.phase is Phase.OVER:
                return
            arrivals, moved = self._differences(view)
            if any(zones.parse_zone(z).kind == "reveal" for z in (*arrivals, *moved)):
                # Cups laid out for scoring: the game is over, though the game followed had not ended yet
                # (a deck count off by cards nobody read, or never given when joining).
                found.events.append(self._push(Resync(ended(game).text()), self.frame, forced=True))
                found.notices.append(Notice(notices.GAME_OVER, notices.GAME_OVER_TEXT, view.time))
                self._follow(view, found)
                return
            if game.phase is Phase.PLAY:
                done = self._residual_plays(arrivals, moved, found)
            elif game.phase is Phase.CLAIM:
                done = self._residual_claims(view, arrivals, moved, found)
            else:
                done = self._residual_refill(arrivals, moved, found)
            if not done or self._resynced_at == view.time:
                return

    def _residual_plays(self, arrivals: dict[str, list[str]], moved: dict[str, list[str]], found: _Pass) -> bool:
        if moved:
            return self._warn_moved(moved, found)
        for zone, cards in arrivals.items():
            return self._judge(*self._play_for(zone, cards), found, second_look=True)
        return False

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
        if owner != game.turn and (getattr(last, "player", None) == owner or "turn" in self.unknown):
            return owner
        return game.turn

    def _judge(self, event: Event | None, zone: str, cards: list[str], found: _Pass,
               second_look: bool = False) -> bool:
        """Warn about an illegal event; apply a legal one (with ``second_look``, only on a later look)."""
        game = self.game
        assert game is not None
        if event is None:
            self._warn(found, Reason.UNEXPECTED_CARD,
                       f"{_names(cards)} can't go into {zones.describe_zone(zone)} now.",
                       warning_text(Reason.UNEXPECTED_CARD, cards).fix, cards, zone)
            return True
        violation = game.validate(event)
        if violation is not None and self._learn_the_turn(event, violation.reason):
            assert self.game is not None
            game = self.game
            violation = game.validate(event)
        if violation is not None and self._hand_was_estimated(event, violation.reason):
            found.events.append(self._push(event, self.frame, forced=True))
            return True
        if violation is not None:
            self._warn(found, violation.reason.value, violation.message, warning_text(violation.reason, cards).fix,
                       cards, zone, event)
            return True
        if second_look:
            # Legal, yet the search left it (cards laid at once by two players, say): on a second look it stands.
            first = self._residual_seen.setdefault(",".join(cards), self.view.time)
            if self.view.time - first < self.settle_s:
                return False
        found.events.append(self._push(event, self.frame))
        return True

    def _learn_the_turn(self, event: Event, reason: Reason) -> bool:
        """A joined game nobody said whose turn it was: the first play that names its player tells."""
        game = self.game
        player = getattr(event, "player", None)
        if game is None or "turn" not in self.unknown or reason is not Reason.NOT_YOUR_TURN or player is None:
            return False
        self.game = build(replace(_position(game), turn=player))
        self.unknown -= {"turn"}
        return True

    def _hand_was_estimated(self, event: Event, reason: Reason) -> bool:
        """A joined game's hand sizes nobody gave: a play needing more cards shows the estimate was low."""
        game = self.game
        assert game is not None
        return "hands" in self.unknown and reason in (Reason.MUST_KEEP_ONE_CARD, Reason.CARD_NOT_IN_HAND) and \
            all(game.location(c) == UNSEEN for c in getattr(event, "cards", ()))

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
              event: Event | None = None, space: int | None = None) -> None:
        if self._cascading(found):
            self._resync(found)
            return
        warning = Warning(reason, message, fix, tuple(cards), zone, self.frame, event, space)
        self.warnings.append(warning)
        found.warnings.append(warning)

    def _cascading(self, found: _Pass) -> bool:
        """A new warning while one from an earlier look is still open, or right after a warned play was left as
        it lay with no move followed since: the game and the table have parted.

        Applying a play the players went on from does not mend a game whose
        phase or turn was wrong (a claim expected that never comes): every play
        after it would be warned in turn. The second warning resyncs instead.
        """
        if self.played_on:
            return True
        return any(w.frame != self.frame and w.reason not in (Reason.DUPLICATE_CARD, Reason.UNDONE)
                   for w in self.warnings) and bool(self.events) and self.events[-1].frame > min(
            w.frame for w in self.warnings)

    def _warn_moved(self, moved: dict[str, list[str]], found: _Pass) -> bool:
        game = self.game
        assert game is not None
        if sum(map(len, moved.values())) > MOVED_AT_ONCE:
            self._resync(found)
            return True
        for zone, cards in moved.items():
            origin = zones.expected_zone(game, parse_card(cards[0]))
            # A card the game has out of sight (a cup) was never seen leaving anywhere: say where the game has it.
            where = game.describe_location(parse_card(cards[0]))
            text = f"moved from {zones.describe_zone(origin)} to {zones.describe_zone(zone)}." if origin else \
                f"is in {zones.describe_zone(zone)}, but the game says it is {where}."
            self._warn(found, Reason.MOVED_CARD, f"{_names(cards)} {text}",
                       warning_text(Reason.MOVED_CARD, cards).fix, cards, zone)
        return True

    # -- destruction -----------------------------------------------------------------

    def _residual_claims(self, view: View, arrivals: dict[str, list[str]], moved: dict[str, list[str]],
                         found: _Pass) -> bool:
        game = self.game
        assert game is not None and game.destroying is not None
        mountain = zones.mountain(game.destroying)
        left = game.mountain(game.destroying)
        in_mountain = {COLOR_OF[parse_card(c)] for c in view.in_zone(mountain)}
        evidence = {zone: cards for zone, cards in moved.items()
                    if all(game.location(parse_card(c)) == mountain_zone(game.destroying) for c in cards)}
        for zone, cards in evidence.items():
            color = COLOR_OF[parse_card(cards[0])]
            if color in in_mountain and view.time - self._first_look(cards) < self.claim_confirm_s:
                continue  # a claim taken in several grabs: the rest of the color is still to go
            return self._claim_seen(zone, cards, found)
        stray = {**arrivals, **{z: c for z, c in moved.items() if z not in evidence}}
        if left and mountain in arrivals:
            del stray[mountain]  # the refill, laid before the last claim was seen: wait for it
        for zone, cards in stray.items():
            if zone in evidence:
                continue
            return self._judge(self._play_for(zone, cards)[0], zone, cards, found)
        return False

    def _first_look(self, cards: list[str]) -> float:
        key = "claim:" + ",".join(cards)
        return self._residual_seen.setdefault(key, self.view.time)

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
                self._warn(found, Reason.RIVER_SPACE,
                           f"{cards[0]} belongs in river space {expected_space}, not {ref.space}.",
                           warning_text(Reason.RIVER_SPACE, cards, space=expected_space).fix, cards, zone, event,
                           expected_space)
                return True
            return self._judge(event, zone, cards, found)
        if ref.kind == "discard":
            return self._judge(Claim(game.turn, color), zone, cards, found)
        return self._judge(None, zone, cards, found)

    def _gone_cards(self, view: View) -> dict[str, str]:
        """Mountain cards of the mandala being destroyed that have left for good, as far as can be told.

        A color is gone when none of its cards is seen, and either the rest of
        the mountain is in sight and nothing else went out of sight with it, or
        it has stayed out of sight for :attr:`claim_confirm_s` (a hand may be
        resting over the mountain). A card seen elsewhere on the table (a
        river) has not vanished: where it went is evidence of its own.
        """
        game = self.game
        if game is None:
            return {}
        gone = self._left_the_table(view)
        if game.phase is not Phase.CLAIM or game.destroying is None:
            self.missing_since.clear()
            return gone
        left = game.mountain(game.destroying)
        names = {card_name(c) for c in left}
        for name in set(self.missing_since) - names:
            del self.missing_since[name]  # claimed already
        for name in names:
            if name in view.cards:
                self.missing_since.pop(name, None)
            else:
                self.missing_since.setdefault(name, view.time)
        mountain = zones.mountain(game.destroying)
        self.destruction_seen.update(c for c in names if view.cards.get(c) == mountain)
        by_color: dict[int, list[str]] = {}
        for index, card in enumerate(left):
            # Out of sight is only gone if it cannot be covered: it was seen since the destruction began,
            # or no card that could lie over it is in sight (where it lay unknown: none laid after it).
            name = card_name(card)
            if name in self.positions:
                coverable = self._coverable(view, name)
            elif name in self.stand_ins:
                # Known by color only: it lay unread under some card, where in the mountain nobody knows (a
                # naming puts it on top). Any other card of the mountain in sight may lie over it still.
                coverable = any(view.cards.get(card_name(c)) == mountain for c in left if c != card)
            else:
                coverable = any(view.cards.get(card_name(c)) == mountain for c in left[index + 1:])
            if name in self.destruction_seen or not coverable or name in self.lifted:
                by_color.setdefault(COLOR_OF[card], []).append(card_name(card))
            else:
                by_color.setdefault(COLOR_OF[card], [])
        vanished = {color: cards for color, cards in by_color.items()
                    if cards and not any(card_name(c) in view.cards for c in left if COLOR_OF[c] == color)}
        taken = {c for cards in vanished.values() for c in cards}
        for cards in vanished.values():
            since = max(self.missing_since[c] for c in cards)
            when = max(self.vanished_at.get(c, since) for c in cards)
            # Cards that left with others still out of sight: a hand resting over the table, most likely.
            # Only a long absence makes them gone then.
            if not self._collateral(view, taken, when) or view.time - since >= LONG_ABSENCE_S:
                gone.update((c, mountain) for c in cards)
        return gone

    def _claimed_while_away(self, view: View, gone: dict[str, str]) -> dict[str, str]:
        """After a blind spell: mountain colors wholly out of sight while the rest of their mountain is in sight.

        The restarted (or long blind) tracker saw nothing leave and may know
        no positions, so "nothing could cover it" cannot be told. A whole
        color missing from a mountain whose other cards all lie in sight (or
        that holds new cards: the refill) was claimed in a destruction while
        the camera was away: no hand rests over the mountain (a color half
        in sight says one does, or a fan hides a card: then nothing counts as
        gone). Mountains with unread cards are left out: the color may be
        under one of them.
        """
        game = self.game
        assert game is not None
        found: dict[str, str] = {}
        for mandala in (0, 1):
            mountain = zones.mountain(mandala)
            cards = game.mountain(mandala)
            if game.hidden[mountain_zone(mandala)] or mountain not in view.cards.values():
                continue
            by_color: dict[int, list[str]] = {}
            for card in cards:
                by_color.setdefault(COLOR_OF[card], []).append(card_name(card))
            in_sight = {color: [view.cards.get(n) == mountain for n in names] for color, names in by_color.items()}
            if any(any(seen) and not all(seen) for seen in in_sight.values()):
                continue  # a color half in sight: something lies over the mountain
            found.update((name, mountain) for color, names in by_color.items() if not any(in_sight[color])
                         for name in names if name not in view.cards and name not in gone)
        return found

    def _left_the_table(self, view: View) -> dict[str, str]:
        """Cards the game keeps in a field, a river or a mountain (not being destroyed) that left for good.

        Out of sight with no card laid after them in sight (nothing covers them)
        for :attr:`claim_confirm_s`: taken back, or knocked off the table.
        """
        game = self.game
        assert game is not None
        gone: dict[str, str] = {}
        absent: dict[str, float] = {}
        for card, zone in table_cards(game):
            name = card_name(card)
            if (game.destroying is not None and zone == zones.mountain(game.destroying)) or name in view.cards \
                    or name in view.duplicates:
                continue
            if self._coverable(view, name):
                continue
            absent[name] = self.absent_since.get(name, view.time)
            if view.time - absent[name] >= self.claim_confirm_s:
                gone[name] = zone
        self.absent_since = absent
        return gone

    def _coverable(self, view: View, card: str) -> bool:
        """Another card in sight lies close enough to where ``card`` was last seen to cover it."""
        where = self.positions.get(card)
        if where is None:
            return True  # never seen where it lies: it may well be under something
        return any(other != card and other not in self.beneath and math.dist(where, at) < COVER_MM
                   for other, at in view.positions.items())

    def _collateral(self, view: View, taken: set[str], when: float) -> bool:
        """Other cards the game has on the table went out of sight about when ``taken`` did, and are still.

        A hand over the table hides several cards at once; a claim takes one color.
        """
        game = self.game
        assert game is not None
        for card, _ in table_cards(game):
            name = card_name(card)
            if name in taken or name in view.cards:
                continue
            vanished = self.vanished_at.get(name)
            if vanished is not None and abs(vanished - when) <= TOGETHER_S:
                return True
        return any(card not in view.cards and card not in taken and card not in self.vanished_at
                   and zones.expected_zone(game, parse_card(card)) == zone
                   for card, zone in self.rest_view.cards.items())

    @property
    def waiting_for_claim(self) -> bool:
        """A claim by disappearance is pending: the tracker wants another look once the wait is over."""
        return self.game is not None and self.game.phase is Phase.CLAIM and bool(self.missing_since)

    def _refill_wait_over(self, view: View) -> bool:
        """A refill may be counted with a card unread once one card lies there long enough, or play went on."""
        game = self.game
        if game is None or game.phase is not Phase.REFILL or game.destroying is None:
            return False
        laid = [view.laid_at.get(c, view.time) for c in view.in_zone(zones.mountain(game.destroying))]
        if not laid:
            return False
        arrivals, _ = self._differences(view)
        elsewhere = any(zone != zones.mountain(game.destroying) for zone in arrivals)
        return elsewhere or view.time - min(laid) >= self.claim_confirm_s

    def _residual_refill(self, arrivals: dict[str, list[str]], moved: dict[str, list[str]], found: _Pass) -> bool:
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
                # A cup card the game only knew by its color: this is the card.
                if self._replace_stand_in(CUPS[ref.player], [parse_card(c) for c in cards], found):
                    return True
                # More cup cards than the game counted (a claimed card nobody could read, counts estimated
                # when joining): the revealed cup is the truth.
                try:
                    # A claimed card nobody read was counted onto the pile: shuffled into the deck since, it is
                    # the deck that counted it.
                    recounted = with_cup_cards(game, ref.player, [parse_card(c) for c in cards],
                                               from_deck=shuffled_since_unread_claims(game))
                except PositionError:
                    continue
                found.events.append(self._push(Resync(recounted.text()), self.frame, forced=True))
                return True
        for zone, cards in moved.items():
            ref = zones.parse_zone(zone)
            if ref.kind not in ("reveal", "cup"):
                continue
            mine = [c for c in cards if zones.expected_zone(game, parse_card(c)) == zones.reveal(ref.player or 0)]
            strangers = [c for c in cards if c not in mine and c not in self.mismatched]
            if strangers and ref.player is not None and self._recount_cup(ref.player, strangers[0], found):
                return True
            if strangers and self.mismatched:
                # One problem, one warning: the cups the game counted are off, and each cup card laid out
                # after the first mismatch covers the one before. The open warning names them too.
                self.mismatched.update(strangers)
                known = next((w for w in self.warnings if w.reason == Reason.REVEAL_MISMATCH), None)
                if known is not None:
                    merged = (*known.cards, *strangers)
                    self.warnings[self.warnings.index(known)] = replace(
                        known, cards=merged, fix=warning_text(Reason.REVEAL_MISMATCH, merged).fix)
                continue
            if strangers:
                self.mismatched.update(strangers)
                where = game.describe_location(parse_card(strangers[0]))
                self._warn(found, Reason.REVEAL_MISMATCH,
                           f"{_names(strangers)} is in {zones.describe_zone(zone)}, but the game says it is {where}.",
                           warning_text(Reason.REVEAL_MISMATCH, strangers).fix, strangers, zone)
                return True
        return False

    def _recount_cup(self, player: int, card: str, found: _Pass) -> bool:
        """A card laid out from a cup that the game had out of sight elsewhere (the other cup, under the
        discard pile's top card) is that cup's: the game misread a claim or a discard, and the cups on
        the table are what the players score. Journaled as a correction, shown once; a card the game has
        anywhere in sight (a river, the mat) is no cup card and is warned instead."""
        game = self.game
        assert game is not None
        if card in self.view.duplicates:
            return False
        try:
            recounted = with_card_in_cup(game, player, parse_card(card))
        except PositionError:
            return False
        found.events.append(self._push(Resync(recounted.text()), self.frame, forced=True))
        if self.notice is None or self.notice.title != notices.RESYNCED:
            found.notices.append(Notice(notices.RESYNCED, notices.RESYNCED_TEXT, self.view.time))
            self.notice = found.notices[-1]
        return True

    def _reveal_the_rest(self, found: _Pass) -> None:
        """Cup cards nobody saw (covered in the reveal, or laid while the camera was away) that are determined.

        When every card but one cup's unseen ones is accounted for (deck,
        hands, pile and the other cup counted and known), the cards nobody has
        seen anywhere are that cup's. Otherwise the screen keeps asking for
        the cup cards to be shown.
        """
        game = self.game
        assert game is not None
        unknown = [player for player in (0, 1) if game.hidden[CUPS[player]]]
        if len(unknown) != 1 or sum(game.hidden) != game.hidden[CUPS[unknown[0]]]:
            return
        left = tuple(card for card in CARDS if game.location(card) == UNSEEN)
        event = Reveal(unknown[0], left)
        if game.validate(event) is None:
            found.events.append(self._push(event, self.frame))

    # -- cards known by color only ----------------------------------------------------

    def _check_stand_ins(self, view: View, found: _Pass) -> None:
        """Stand-ins against the table: a real card of their color in sight where they could be is that card.

        A stand-in seen somewhere the game does not have it never lay where it
        was named: another unseen card of its color takes its place. An unseen
        card of a stand-in's color seen where the stand-in may lie (its mountain,
        or a river or the pile while that mountain is being claimed; the pile,
        for a stand-in claimed onto it) is the card that was named.
        """
        game = self.game
        assert game is not None
        for name in sorted(self.stand_ins):
            standing = parse_card(name)
            # Glimpsed counts too: a stand-in dropped onto the squared pile under the next card of a discard.
            zone = view.cards.get(name) or (self.glimpses[name][0] if name in self.glimpses else None)
            if zone is not None and zones.expected_zone(game, standing) != zone:
                if zone in self._stand_in_reach(standing):
                    # Seen where the claim of its mountain takes it (a river, the pile): the named card was
                    # the one lying there after all. It is no stand-in any more; the claim explains it.
                    self.stand_ins.discard(name)
                    continue
                replacement = stand_in(game, COLOR_OF[standing], {*view.cards, *self.glimpses})
                if replacement is None or not self._exchange(standing, replacement, found, real=False):
                    self.stand_ins.discard(name)  # nothing can stand there instead: the card is judged as it is
                continue
            reach = self._stand_in_reach(standing)
            real = next((parse_card(c) for c, z in sorted(view.cards.items()) if z in reach
                         and COLOR_OF[parse_card(c)] == COLOR_OF[standing] and game.location(parse_card(c)) == UNSEEN),
                        None)
            if zone is None and real is not None:
                self._exchange(standing, real, found, real=True)

    def _stand_in_reach(self, standing: int) -> set[str]:
        """Where the real card of a stand-in may show up on the table while the game holds the stand-in."""
        game = self.game
        assert game is not None
        where = game.location(standing)
        if where == DISCARD:
            return {zones.DISCARD_ZONE}
        for mandala in (0, 1):
            if where == mountain_zone(mandala):
                reach = {zones.mountain(mandala)}
                if game.destroying == mandala:
                    reach |= {zones.DISCARD_ZONE} | {zones.river(p, space) for p in (0, 1)
                                                       for space in range(1, MANDALA.river_spaces + 1)}
                return reach
        return set()  # a cup: the real card shows when the cup is laid out

    def _replace_stand_in(self, place: int, cards: Sequence[int], found: _Pass) -> bool:
        """A card of a stand-in's color shows up where the game holds the stand-in (a cup laid out): it is that."""
        game = self.game
        assert game is not None
        for name in sorted(self.stand_ins):
            standing = parse_card(name)
            if game.location(standing) != place:
                continue
            real = next((c for c in cards if COLOR_OF[c] == COLOR_OF[standing] and game.location(c) == UNSEEN), None)
            if real is not None and self._exchange(standing, real, found, real=True):
                return True
        return False

    def _exchange(self, standing: int, other: int, found: _Pass, real: bool) -> bool:
        """Put ``other`` where the stand-in lies: the real card (seen), or another stand-in."""
        game = self.game
        assert game is not None
        try:
            fixed = exchanged(game, standing, other)
        except PositionError:
            return False
        self.stand_ins.discard(card_name(standing))
        if not real:
            self.stand_ins.add(card_name(other))
        found.events.append(self._push(Resync(fixed.text()), self.frame, forced=True))
        return True

    # -- recovery --------------------------------------------------------------------

    def _resync(self, found: _Pass) -> None:
        """Re-read the table as it is: the visible part from the view, hidden counts kept where they fit."""
        game = self.game
        assert game is not None
        table = frozenset(self.view.cards.items())
        if self._resynced_at == self.view.time or table == self._resynced_table:
            return  # once per look, and once per table: re-reading the same table again changes nothing
        self._resynced_at, self._resynced_table = self.view.time, table
        seen = {card: zone for card, zone in self.view.cards.items() if card not in self.view.duplicates}
        try:
            position = resynced(game, seen, self.last_zone)
        except PositionError:
            return
        self.warnings = [w for w in self.warnings if w.reason == Reason.DUPLICATE_CARD]
        self.accepted.clear()
        self.played_on = False
        event = Resync(position.text())
        found.events.append(self._push(event, self.frame, forced=True))
        for card, zone in seen.items():
            if zones.expected_zone(position, parse_card(card)) == zone:
                self.last_zone[card] = zone
        found.notices.append(Notice(notices.RESYNCED, notices.RESYNCED_TEXT, self.view.time))
        self.notice = found.notices[-1]

    # -- keeping track ---------------------------------------------------------------

    def _remember_glimpses(self, view: View, warned: frozenset[str] = frozenset()) -> None:
        for card, (zone, at) in view.gone.items():
            self.vanished_at[card] = at
            hidden = self.game is None or self.game.location(parse_card(card)) == UNSEEN or card in self.stand_ins
            laid = view.gone_laid_at.get(card, at)
            if hidden and (card not in self.rest_view.cards or (
                    self.game is not None and card not in warned and self._laid_over(view, card, zone, laid, at))):
                self.glimpses[card] = (zone, laid)  # when laid, not when covered
        for card in [c for c, (_, at) in self.glimpses.items() if c in view.cards or view.time - at > GLIMPSE_KEEP_S]:
            del self.glimpses[card]

    def _laid_over(self, view: View, card: str, zone: str, laid: float, vanished: float) -> bool:
        """``card``, read at the last rest and not yet explained (the tracker was waiting: a refill's first card
        dealt alone), went out of sight as a card was laid over it in its zone: it still lies there, covered.

        A card read at rest and then gone is otherwise no evidence of a play (a play taken back). A card
        laid over it since the rest, in its zone, close by, after it, the moment it went out of sight,
        says it is covered, not gone.
        """
        where = self.positions.get(card)
        return where is not None and any(
            z == zone and other not in self.rest_view.cards and other in view.positions
            and (at := view.laid_at.get(other, -math.inf)) >= laid and -COVERED_BY_S <= vanished - at <= GESTURE_S
            and math.dist(where, view.positions[other]) < COVER_MM for other, z in view.cards.items())

    def _clear_put_right(self, view: View) -> list[Warning]:
        from companion.tracker.standing import put_right

        return put_right(self.warnings, view)

    def _check_duplicates(self, view: View, found: _Pass) -> None:
        from companion.tracker.standing import duplicates_seen

        found.warnings += duplicates_seen(self.warnings, view, self.frame)

    def _note_positions(self, view: View) -> None:
        self.positions.update(view.positions)
        self.laid_times.update(view.laid_at)
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


UNCOVERED_S = 0.15
"""A card read where another went out of sight this soon after (a frame or two) was under it, lifted off it."""
TOGETHER_S = 1.5
"""Cards that went out of sight this close together went together (under one hand)."""
LONG_ABSENCE_S = 10.0
"""A mountain color out of sight this long is claimed, whatever else is out of sight with it."""
COVER_MM = 100.0
"""A card read this close to where another was last seen may lie over it (sticker centres, 70 mm cards)."""
MOVED_AT_ONCE = 2
"""More cards than this moved at once, outside any play: the game and the table have parted; resync."""

def _still_forcible(game: Game, event: Event) -> bool:
    """A warned play can still be applied as the players left it (its cards are where the play put them)."""
    return not isinstance(event, Claim | Refill | Reveal | Resync)


RESHUFFLE_LOOKBACK = 2
"""Events back in which a discard pile shuffled into the deck may still lie on the table after a restart."""


def _just_reshuffled(game: Game) -> set[str]:
    """Cards the last events shuffled from the discard pile into the deck: they may still lie on the pile."""
    before = game.copy()
    cards: set[str] = set()
    for _ in range(min(RESHUFFLE_LOOKBACK, len(before.stack))):
        before.pop()
        cards.update(card_name(c) for c in before.known[DISCARD] if game.location(c) == UNSEEN)
    return cards


def _position(game: Game) -> Position:
    from companion.engine.position import position_of

    return position_of(game)


def short_event(event: Event) -> str:
    """An event in a few words for the screen: "P1 claims R", "P2 R05 m1"."""
    if isinstance(event, Claim):
        return notices.CLAIM_WORDS.format(player=f"P{event.player + 1}", color=color_name(event.color))
    where = f" m{event.mandala + 1}" if isinstance(event, MountainPlay | FieldPlay) else ""
    return _short(event) + where


def _short(event: Event | MountainsEvent) -> str:
    """An event in a few words for the screen: "P1 R05"."""
    cards = " ".join(card_name(c) for c in getattr(event, "cards", ()) or ())
    player = getattr(event, "player", None)
    who = "" if player is None else f"P{player + 1} "
    return f"{who}{cards}".strip() or type(event).__name__.lower()


def _names(cards: Sequence[str]) -> str:
    return " ".join(cards)
