"""Settling: turn a noisy stream of frames into views of a table at rest.

A card enters the *current view* as soon as it is read; it leaves only after
it has gone unread for ``miss_s`` (one missed read is noise, not a removal).
A card read in another zone moves at once, unless the read is unsure (a
sticker on a zone border) and the card was already placed. The table is
*settled* once the current view has not changed for ``settle_s`` while the
board was found; each time it settles, :meth:`Settler.update` returns the view
once. Hands over the table, blur and a hidden fiducial change nothing then:
they only delay the next settled view. A card read late (vision retried its
unchanged sticker until it read) counts as laid when its pixels last changed,
not when it was finally read.

A smeared frame (a bumped table or camera: ``FrameObservation.board.smeared``)
tells nothing: every card placed stays as it was, the rest the sharp frames
before it began goes on, and no view settles on it; reads resume on the
first sharp frame, which settles the table if it has rested long enough and
shows nothing changed. A card of a smeared zone
(``FrameObservation.smeared_zones``) that was not read is kept likewise.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from companion.vision.observation import FrameObservation

COVER_MEMORY_S = 30.0
"""A card that shows again where it lay within this time was covered (a hand, a card), not laid anew."""
FRAME_HISTORY = 256
"""Frame times kept to date late reads back (18 s at 14 fps; a read later than that dates to then)."""
SHAKEN_S = 0.5
"""A card first read this soon after a smeared or blind frame (a bumped table) was shaken into sight."""
COVERED_BY_S = 1.5
"""A card that went out of sight this shortly before another was laid in its zone (the hand laying it first) was
covered by it, not taken away."""
GESTURE_S = 0.3
"""Cards laid closer together than this were laid by one hand in one move (so a card that went out of sight this
shortly after another was laid in its zone was covered by it too)."""


@dataclass(frozen=True, slots=True)
class View:
    """A settled table: which card lies in which zone, as far as the camera sees."""

    cards: Mapping[str, str] = field(default_factory=dict)
    duplicates: frozenset[str] = frozenset()
    time: float = 0.0
    unread: Mapping[str, int] = field(default_factory=dict)
    """Per zone, stickers the camera saw but could not read (in the latest frame)."""
    positions: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    """Where each card in view was last read on the mat (its sticker, mm)."""
    laid_at: Mapping[str, float] = field(default_factory=dict)
    """When each card in view was laid where it lies (its first read there, dated back for late reads)."""
    gone: Mapping[str, tuple[str, float]] = field(default_factory=dict)
    """Cards that went out of sight since the previous settled view: the zone each lay in, and when it was
    last read. A card laid and covered by the next one before the table came to rest is only here."""
    shaken: frozenset[str] = frozenset()
    """Cards in view first read where they lie just after a bumped table's smeared (or blind) frames: a bump
    shifts cards, so a sticker under another may come into sight with no hand laying anything."""
    gone_laid_at: Mapping[str, float] = field(default_factory=dict)
    """For cards of ``gone``: when each was laid where it was last read (its last read is when it was
    covered, not laid: a card glimpsed on the pile and covered by the next player's discard was laid well
    before that discard, not at the same instant)."""
    passed: Mapping[str, tuple[str, float]] = field(default_factory=dict)
    """Cards in view that lay in another zone since the previous settled view, read there for a moment: that
    zone, and when the card was laid there (a card laid into a mountain and at once claimed onto the pile)."""

    def __str__(self) -> str:
        cards = " ".join(f"{card}@{zone}" for card, zone in sorted(self.cards.items()))
        return f"t={self.time:.2f} {cards}" + (f" dup={','.join(sorted(self.duplicates))}" if self.duplicates else "")

    def in_zone(self, zone: str) -> list[str]:
        return sorted(card for card, where in self.cards.items() if where == zone)


class Settler:
    def __init__(self, settle_s: float = 1.0, miss_s: float = 0.25, partial: bool = False) -> None:
        if settle_s <= 0 or miss_s < 0:
            raise ValueError(f"settle time must be > 0 and miss time >= 0, got {settle_s} and {miss_s}")
        self.settle_s = settle_s
        self.miss_s = miss_s
        self.zones: dict[str, str] = {}
        self.last_read: dict[str, float] = {}
        self.duplicates: frozenset[str] = frozenset()
        self.unread: dict[str, int] = {}
        self.changed_at: float | None = None
        """When the current view last changed; None until the board is found."""
        self.reported = False
        self._frame_times: deque[float] = deque(maxlen=FRAME_HISTORY)
        self.laid: dict[str, float] = {}
        self.gone: dict[str, tuple[str, float]] = {}
        """Cards forgotten since the last report, with their zone and last read."""
        self.gone_laid: dict[str, float] = {}
        """When each card of ``gone`` had been laid there."""
        self.positions: dict[str, tuple[float, float]] = {}
        self._covered: dict[str, tuple[str, float]] = {}
        self._laid_before: dict[str, float] = {}
        """When each card out of sight had been laid: a card uncovered where it lay keeps its lay time."""
        self._blurred_at: float | None = None
        """The last smeared or blind frame."""
        self.shaken: set[str] = set()
        self.partial = partial
        """Also report a card laid and left alone for a settle time while the table elsewhere still moves
        (:meth:`_partial_view`)."""
        self.unsure: frozenset[str] = frozenset()
        """Zones where a card going out of sight as another shows may be a grab uncovering it, not a card laid
        over it (a mandala that may be complete unseen): a partial view waits there."""
        self.kept: frozenset[str] | None = None
        """The cards whose going matters to a partial view (those the game has on the table); None: all."""
        self._placed: dict[str, float] = {}
        """Cards laid in a zone since the last view, not yet in any view: when each was laid."""
        self._last_view = -1.0
        """The time of the last view reported."""

    def update(self, now: float, frame: FrameObservation) -> View | None:
        """Feed one frame; returns the view when the table has just settled."""
        if frame.board.found and frame.board.smeared:
            # A smear hides the cards, it does not take them away: they stay, and the table's rest
            # goes on (or not) as the sharp frames before and after it say. Nothing settles on it.
            self._blurred_at = now
            self._keep(now, set(self.zones.values()))
            self._frame_times.append(now)
            return None
        if not frame.board.found:
            self._blurred_at = now
            self.changed_at = None  # nothing counts as rest while the board is not seen
            self._frame_times.clear()
            return None
        self._frame_times.append(now)
        self.unread = dict(frame.unread)
        changes = self._read(now, frame)
        self._keep(now, set(frame.smeared_zones))
        if self._forget(now):
            changes.append(now)
        if self.changed_at is None:
            changes.append(now)
        if changes:
            self.changed_at = max(changes) if self.changed_at is None else max(self.changed_at, *changes)
            self.reported = False
        if not self.reported and self.changed_at is not None and now - self.changed_at >= self.settle_s:
            self.reported = True
            view = self.view(now)
            self.gone, self.gone_laid = {}, {}
            self._placed.clear()
            self._last_view = now
            for card in [c for c, (_, at) in self._covered.items() if now - at > COVER_MEMORY_S]:
                del self._covered[card]
                self._laid_before.pop(card, None)
            return view
        if self.partial and not self.reported:
            return self._partial_view(now)
        return None

    def _partial_view(self, now: float) -> View | None:
        """The table as it was a settle time ago, once a card laid since the last view has lain there that long.

        Quick moves leave the table no rest: the next player's hand is over
        the mat before the last move's cards have lain a settle time. A card
        laid, its zone left alone since (nothing laid there or gone from
        there for a settle time), is as settled as a card on a table at rest,
        whatever a hand does elsewhere. Only while the players play (the
        tracker sets :attr:`partial`): cards then never leave the table, so
        every card gone since the last view is either under a card laid in
        its zone as it went (covered) or went within the settle time (a hand
        passing over it: still there). A card gone any other way (taken back,
        picked up), or in a zone of :attr:`unsure`, waits for the table's rest;
        one the game does not have on the table (:attr:`kept`) does not. The view is the table a settle
        time ago: cards laid since are left out (their move may not be done).
        Its time is that moment, so a card laid after it is new at the next view.
        """
        then = now - self.settle_s
        if then <= self._last_view:
            return None
        recent = {zone for card, zone in self.zones.items() if self.laid.get(card, now) > then}
        recent |= {zone for card, (zone, at) in self.gone.items() if at > then and self.zones.get(card) != zone}
        if not recent:
            return None  # nothing moves: the table itself settles (a card that left counts once missed)
        ready = [card for card, laid in self._placed.items()
                 if laid <= then and card in self.zones and self.zones[card] not in recent]
        if not ready:
            return None
        old = {card: (zone, at) for card, (zone, at) in self.gone.items()
               if at <= then and self.zones.get(card) != zone}  # gone, or lying somewhere else now
        for card, (zone, at) in old.items():
            if self.kept is not None and card not in self.kept:
                continue  # a card the game has nowhere on the table (a warned card taken back): nothing to tell
            if zone in self.unsure or not any(
                    where == zone and -COVERED_BY_S <= at - self.laid[other] <= GESTURE_S and self.laid[other] <= then
                    for other, where in self.zones.items() if other in self._placed):
                return None  # gone, and not under a card laid there: only a table at rest says where it went
        cards = {card: zone for card, zone in self.zones.items() if self.laid.get(card, now) <= then}
        cards.update((card, zone) for card, (zone, at) in self.gone.items() if at > then and card not in cards)
        laid = {card: at for card, at in self.laid.items() if card in cards}
        laid.update((card, at) for card, at in self.gone_laid.items() if card in cards and card not in laid)
        view = View(MappingProxyType(cards), self.duplicates, then, MappingProxyType(dict(self.unread)),
                    MappingProxyType({c: p for c, p in self.positions.items() if c in cards}),
                    MappingProxyType(laid), MappingProxyType({c: g for c, g in old.items() if c not in cards}),
                    frozenset(c for c in self.shaken if c in cards),
                    MappingProxyType({c: at for c, at in self.gone_laid.items() if c in old and c not in cards}),
                    MappingProxyType({c: (zone, self.gone_laid.get(c, at)) for c, (zone, at) in old.items()
                                      if c in cards}))
        for card in old:
            del self.gone[card]
            self.gone_laid.pop(card, None)
        for card in [c for c, at in self._placed.items() if at <= then]:
            del self._placed[card]
        self._last_view = then
        return view

    def view(self, now: float) -> View:
        return View(MappingProxyType(dict(self.zones)), self.duplicates, now, MappingProxyType(dict(self.unread)),
                    MappingProxyType({c: p for c, p in self.positions.items() if c in self.zones}),
                    MappingProxyType(dict(self.laid)),
                    MappingProxyType({c: g for c, g in self.gone.items() if c not in self.zones}),
                    frozenset(c for c in self.shaken if c in self.zones),
                    MappingProxyType({c: at for c, at in self.gone_laid.items() if c not in self.zones}),
                    MappingProxyType({c: (zone, self.gone_laid.get(c, at)) for c, (zone, at) in self.gone.items()
                                      if self.zones.get(c, zone) != zone}))

    @property
    def is_settled(self) -> bool:
        return self.reported

    def _read(self, now: float, frame: FrameObservation) -> list[float]:
        """Take in the frame's reads; returns when each change of the view happened at the table."""
        changes: list[float] = []
        duplicates = frozenset(frame.duplicates)
        if duplicates != self.duplicates:
            self.duplicates = duplicates
            changes.append(now)
        for card in frame.cards:
            if card.zone is None or card.card_id in duplicates:
                continue
            placed = self.zones.get(card.card_id)
            self.last_read[card.card_id] = now
            self.positions[card.card_id] = card.center_mm
            if placed == card.zone:
                continue
            self.zones[card.card_id] = card.zone
            if self._blurred_at is not None and now - self._blurred_at <= SHAKEN_S:
                self.shaken.add(card.card_id)
            else:
                self.shaken.discard(card.card_id)
            laid = self._lay_time(card.still_frames)
            earlier = self.gone.get(card.card_id) or self._covered.get(card.card_id)
            if earlier is not None and earlier[0] == card.zone and now - earlier[1] <= COVER_MEMORY_S:
                self.laid[card.card_id] = self._laid_before.get(card.card_id, laid)  # uncovered, not laid anew
            else:
                self.laid[card.card_id] = laid
                self._placed[card.card_id] = laid
            changes.append(laid)
        return changes

    def _lay_time(self, still_frames: int) -> float:
        """When a card read now was laid: a late read (its pixels unchanged for a while) dates back.

        A sticker read only after a few retries (blur, a hand's shadow) lay
        there since its pixels last changed; dating it to the late read would
        make the table wait a whole settle time more for nothing.
        """
        back = min(still_frames, len(self._frame_times) - 1)
        return self._frame_times[-1 - back]

    def _keep(self, now: float, zones: set[str]) -> None:
        """Cards placed in these zones count as read now: the frame could not tell whether they are there."""
        for card, zone in self.zones.items():
            if zone in zones:
                self.last_read[card] = now

    def _forget(self, now: float) -> bool:
        gone = [card for card, seen in self.last_read.items() if now - seen > self.miss_s]
        for card in gone:
            seen = self.last_read.pop(card)
            zone = self.zones.pop(card, None)
            laid = self.laid.pop(card, None)
            self.shaken.discard(card)
            if zone is not None:
                self.gone[card] = (zone, seen)
                self._covered[card] = (zone, seen)
                if laid is not None:
                    self._laid_before[card] = laid
                    self.gone_laid[card] = laid
        return bool(gone)
