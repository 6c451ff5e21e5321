"""Whole simulated games on the table: what a camera would see from the first deal to the reveal.

:func:`script_game` turns a finished full-information game of the rules
engine into a timeline of *shots*, each a still scene (the cards on the mat
and maybe a hand over it) held for some time, as two players would lay the
cards: fans in the mountains and fields with every corner code in view, one
card per river space, fanned discards on a pile that covers what lay there,
face-down cups, field cards swept onto the discard pile, the cups turned up
in the reveal areas a few cards at a time. Along the way a hand now and then
rests over the table, and some plays start with an illegal card that the
player takes back (an *injection*, which the tracker should warn about).

The same script feeds the tracker directly, as ideal camera observations
(:func:`companion.sim.script.script_observations`), or through rendered
frames and the vision pipeline. :mod:`companion.sim.sloppy` lays games the
other way players do.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial

from companion.engine import (
    Claim,
    Discard,
    Event,
    FieldPlay,
    Game,
    MountainPlay,
    Phase,
    Refill,
    card_name,
    color_of,
    parse_card,
)
from companion.engine.cards import Card
from companion.engine.game import CUPS, DECK, DISCARD, HANDS, RIVERS, UNSEEN
from companion.sim.scene import PlacedCard, arm_polygon
from companion.sim.script import GameScript, Injection, Shot
from companion.sim.tables import INSIDE_MM
from companion.tracker import zones
from companion.vision.layout import Layout, Point, polygons_overlap


@dataclass(frozen=True)
class Spacing:
    """How far apart tidy players lay card centres so every top-left corner code stays in view.

    A card covers the previous one from its own left edge on; 25 mm between
    centres leaves the previous card's top-left sticker (16 mm, 4 mm from the
    edge) clear, and so on for each distance with the sticker size.
    """

    card_mm: Point
    sticker_mm: float
    pile_overhang: float = 12.0
    """How far a tidy pile's cards may hang over its zone's border (mm)."""

    @property
    def fan(self) -> float:
        """Between fanned cards: the next card leaves the previous one's code in view."""
        return self.sticker_mm + 9.0

    @property
    def row(self) -> float:
        return self.sticker_mm + 14.0

    @property
    def pile_column(self) -> float:
        return self.sticker_mm + 22.0

    @property
    def pile_row(self) -> float:
        return self.sticker_mm + 8.0


@dataclass(frozen=True)
class Timing:
    """How long each part of a move takes at the table, in seconds."""

    reach_s: float = 0.4
    """A hand over the zone before the cards land."""
    place_s: float = 0.3
    """Cards down, the hand still over them."""
    still_s: float = 1.8
    """The table at rest after a move: more than the tracker's settle time."""
    last_claim_s: float = 4.5
    """Rest after the claim that empties a mountain (nothing left in it to show it is not covered)."""
    linger_s: float = 2.5
    """A hand resting over the table for a while."""
    injected_s: float = 2.4
    """An illegal card lies on the table before its player takes it back."""


@dataclass
class _Table:
    """The physical table while a script is written: cards in drawing order, fan slots per zone."""

    layout: Layout
    rng: random.Random
    spacing: Spacing
    cards: dict[str, PlacedCard] = field(default_factory=dict)
    where: dict[str, str] = field(default_factory=dict)
    slots: dict[str, int] = field(default_factory=dict)
    pile_bounds: dict[str, tuple[float, float, float, float]] = field(default_factory=dict)

    def snapshot(self) -> tuple[PlacedCard, ...]:
        return tuple(self.cards.values())

    def remove(self, card_id: str) -> None:
        self.cards.pop(card_id, None)
        zone = self.where.pop(card_id, None)
        if zone is not None and not any(z == zone for z in self.where.values()):
            self.slots.pop(zone, None)  # an emptied zone is filled from its start again

    def put(self, card_id: str, zone: str, center: Point, rotation: float, face_up: bool = True) -> None:
        self.remove(card_id)
        jitter = (self.rng.uniform(-0.7, 0.7), self.rng.uniform(-0.7, 0.7))
        placed = PlacedCard(card_id, (center[0] + jitter[0], center[1] + jitter[1]),
                            (rotation + self.rng.uniform(-1.5, 1.5)) % 360.0, face_up)
        self.cards[card_id] = placed
        self.where[card_id] = zone

    def fan(self, card_id: str, zone: str) -> None:
        """The next place in a fan: rows along the zone, each card's corner code left in view.

        The first card lies in the zone's corner on its player's left; the
        row stays inside the zone (clear of the fiducials beside it), card
        centres stay :data:`~companion.sim.tables.INSIDE_MM` inside the zone,
        so a second row hangs over the zone's far edge.
        """
        x0, y0, x1, y1 = self._bounds(zone)
        space = self.spacing
        half_w, half_h = self.layout.card_mm[0] / 2, self.layout.card_mm[1] / 2
        per_row = max(1, int((x1 - x0 - 2 * half_w) // space.fan) + 1)
        rows = max(1, int((y1 - y0 - half_h - INSIDE_MM) // space.row) + 1)
        slot = self.slots.get(zone, 0)
        self.slots[zone] = slot + 1
        row, column = divmod(slot % (per_row * rows), per_row)  # a full zone is laid over again
        upside_down = zone.endswith("p2") or zone.startswith("p2")
        if upside_down:  # player 2 lays cards facing them: the first sticker at the card's far corner
            centre = (x1 - half_w - column * space.fan, y1 - half_h - row * space.row)
        else:
            centre = (x0 + half_w + column * space.fan, y0 + half_h + row * space.row)
        self.put(card_id, zone, centre, 180.0 if upside_down else 0.0)

    def fan_all(self, card_ids: Iterable[str], zone: str) -> None:
        """Each card in turn at the next place in the zone's fan."""
        for card_id in card_ids:
            self.fan(card_id, zone)

    def pile_capacity(self, zone: str) -> tuple[int, int]:
        """Cards per column and columns of a pile batch that fit the zone."""
        (x0, y0, x1, y1), space = self._pile_bounds(zone), self.spacing
        per_column = max(1, int((y1 - y0) // space.pile_row) + 1)
        columns = max(1, int((x1 - x0) // space.pile_column) + 1)
        return per_column, columns

    def pile(self, cards: Sequence[str], zone: str) -> None:
        """A batch laid on a pile, in columns, every code in view; it covers what lay there.

        More cards than fit are laid in layers, each over the one before.
        """
        per_column, most_columns = self.pile_capacity(zone)
        layer = per_column * most_columns
        for start in range(0, len(cards), layer):
            self._pile_layer(cards[start:start + layer], zone, per_column)

    def _pile_layer(self, cards: Sequence[str], zone: str, per_column: int) -> None:
        (x0, y0, x1, y1), space = self._pile_bounds(zone), self.spacing
        columns = (len(cards) + per_column - 1) // per_column
        rows = min(len(cards), per_column)
        left = self.rng.uniform(x0, max(x0, x1 - (columns - 1) * space.pile_column))
        top = self.rng.uniform(y0, max(y0, y1 - (rows - 1) * space.pile_row))
        for index, card_id in enumerate(cards):
            column, row = divmod(index, per_column)
            self.put(card_id, zone, (left + column * space.pile_column, top + row * space.pile_row), 0.0)

    def _pile_bounds(self, zone: str) -> tuple[float, float, float, float]:
        """Where a tidy pile's card centres go: the cards inside the zone, give or take the overhang,
        each side pulled in where a card there would lie on a fiducial (tidy players leave them clear)."""
        if zone not in self.pile_bounds:
            self.pile_bounds[zone] = self._clear_pile_bounds(zone)
        return self.pile_bounds[zone]

    def _clear_pile_bounds(self, zone: str) -> tuple[float, float, float, float]:
        x0, y0, x1, y1 = self._bounds(zone)
        inset_x = max(INSIDE_MM, self.layout.card_mm[0] / 2 - self.spacing.pile_overhang)
        inset_y = max(INSIDE_MM, self.layout.card_mm[1] / 2 - self.spacing.pile_overhang)
        left, top = x0 + inset_x, y0 + inset_y
        right, bottom = max(left, x1 - inset_x), max(top, y1 - inset_y)
        markers = [_grown(f.corners_mm(), 2.0) for f in self.layout.fiducials]

        def clear(points: Iterable[Point]) -> bool:
            outlines = [PlacedCard("", p).corners_mm(self.layout.card_mm) for p in points]
            return not any(polygons_overlap(o, m) for o in outlines for m in markers)

        def along_x(y: float) -> list[Point]:
            return [(left + (right - left) * t / 4, y) for t in range(5)]

        def along_y(x: float) -> list[Point]:
            return [(x, top + (bottom - top) * t / 4) for t in range(5)]

        while top < bottom and not clear(along_x(top)):
            top += 1.0
        while bottom > top and not clear(along_x(bottom)):
            bottom -= 1.0
        while left < right and not clear(along_y(left)):
            left += 1.0
        while right > left and not clear(along_y(right)):
            right -= 1.0
        return left, top, right, bottom

    def river(self, card_id: str, zone: str) -> None:
        x, y = self.layout.zone_center(zone)
        self.put(card_id, zone, (x, y), 180.0 if zone.startswith("p2") else 0.0)

    def face_down(self, card_id: str, zone: str) -> None:
        x, y = self.layout.zone_center(zone)
        self.put(card_id, zone, (x, y), 0.0, face_up=False)

    def _bounds(self, zone: str) -> tuple[float, float, float, float]:
        xs = [x for x, _ in self.layout.zones[zone]]
        ys = [y for _, y in self.layout.zones[zone]]
        return min(xs), min(ys), max(xs), max(ys)


class _Writer:
    """Walks through a game's events and writes the shots a camera would see."""

    def __init__(self, game: Game, layout: Layout, rng: random.Random, timing: Timing,
                 inject_p: float, linger_p: float) -> None:
        self.final = game
        self.layout = layout
        self.rng = rng
        self.timing = timing
        self.inject_p = inject_p
        self.linger_p = linger_p
        self.table = _Table(layout, rng, Spacing(layout.card_mm, layout.sticker_mm))
        self.shots: list[Shot] = []
        self.injections: list[Injection] = []
        self.game = type(game).from_snapshot(game.base)
        self._done_at: float | None = 0.0
        """When the event being written shows done on the table (None until its first gesture ends)."""

    @property
    def now(self) -> float:
        return sum(shot.seconds for shot in self.shots)

    def write(self) -> GameScript:
        self._shot(None, self.timing.still_s, "empty mat")
        for mandala in (0, 1):
            for card in self.game.mountain(mandala):
                self.table.fan(card_name(card), zones.mountain(mandala))
        self._shot(None, self.timing.still_s, "deal")
        done: list[float] = []
        for event, _ in self.final.stack:
            if self.rng.random() < self.linger_p:
                self._linger()
            if self.game.phase is Phase.PLAY and self.rng.random() < self.inject_p:
                self._inject()
            self._done_at = None
            self._move(event)
            assert self._done_at is not None
            done.append(self._done_at)
        self._reveal()
        return GameScript(self.final, tuple(self.shots), tuple(self.injections), event_done_s=tuple(done))

    # -- shots

    def _shot(self, hand: tuple[Point, ...] | None, seconds: float, note: str) -> None:
        self.shots.append(Shot(self.table.snapshot(), hand, seconds, note))

    def _arm(self, player: int, zone: str) -> tuple[Point, ...]:
        height = self.layout.size_mm[1]
        tip = self.layout.zone_center(zone)
        start = (tip[0] + self.rng.uniform(-60, 60), height + 150.0 if player == 0 else -150.0)
        return arm_polygon(start, tip, self.rng.uniform(70.0, 90.0))

    def _gesture(self, player: int, zone: str, change: Callable[[], object], note: str,
                 still_s: float | None = None, forget: bool = True) -> None:
        """A hand reaches over ``zone``, the change happens under it, the hand leaves, the table rests.

        With ``forget`` the cards the rules took off the table (a discard pile reshuffled into
        the deck to draw) go at the same time.
        """
        arm = self._arm(player, zone)
        self._shot(arm, self.timing.reach_s, note)
        change()
        if forget:
            self._forget_hidden()
        self._shot(arm, self.timing.place_s, note)
        if self._done_at is None:  # the event's own gesture is its first (a sweep or reshuffle may follow)
            self._done_at = self.now
        self._shot(None, self.timing.still_s if still_s is None else still_s, note)

    def _linger(self) -> None:
        zone = self.rng.choice([z for z in self.layout.zones if z not in ("deck",)])
        self._shot(self._arm(self.rng.randrange(2), zone), self.timing.linger_s, f"hand lingers over {zone}")

    # -- events

    def _move(self, event: Event) -> None:
        before = self.game.copy()
        self.game.push(event, force=True)
        if isinstance(event, MountainPlay):
            zone = zones.mountain(event.mandala)
            self._gesture(event.player, zone, lambda: self.table.fan(card_name(event.cards[0]), zone), str(event))
        elif isinstance(event, FieldPlay):
            zone = zones.field(event.mandala, event.field_owner)
            self._gesture(event.player, zone, lambda: self.table.fan_all((card_name(c) for c in event.cards), zone),
                          str(event))
        elif isinstance(event, Discard):
            # The discarded cards lie on the pile for a moment even when the deck is empty and
            # the pile, with them, is shuffled into a new deck to draw from right after.
            names = [card_name(c) for c in event.cards]
            self._gesture(event.player, zones.DISCARD_ZONE,
                          lambda: self.table.pile(names, zones.DISCARD_ZONE), str(event), forget=False)
            if any(self.game.location(parse_card(n)) != DISCARD for n in self.table.where):
                self._gesture(event.player, zones.DISCARD_ZONE, lambda: None, "reshuffle")
        elif isinstance(event, Claim):
            self._claim(event, before)
        elif isinstance(event, Refill):
            zone = zones.mountain(event.mandala)
            self._gesture(before.turn, zone, lambda: self.table.fan_all((card_name(c) for c in event.cards), zone),
                          str(event))

    def _claim(self, event: Claim, before: Game) -> None:
        mandala = before.destroying
        assert mandala is not None
        taken = [c for c in before.mountain(mandala) if color_of(c) == event.color]
        player = event.player

        def change() -> None:
            for card in taken:
                where = self.game.location(card)
                name = card_name(card)
                if where == RIVERS[player]:
                    self.table.river(name, zones.river(player, self.game.river(player).index(card) + 1))
                elif where == CUPS[player]:
                    self.table.face_down(name, zones.cup(player))
                else:
                    self.table.remove(name)
            on_pile = [card_name(c) for c in taken if self.game.location(c) == DISCARD]
            if on_pile:
                self.table.pile(on_pile, zones.DISCARD_ZONE)

        emptied = not self.game.mountain(mandala)
        self._gesture(player, zones.mountain(mandala), change, str(event),
                      self.timing.last_claim_s if emptied else None)
        if self.game.phase is not Phase.CLAIM:
            self._sweep_fields(before, mandala)

    def _sweep_fields(self, before: Game, mandala: int) -> None:
        """The destroyed mandala's fields go onto the discard pile."""
        cards = [card_name(c) for p in (0, 1) for c in before.field(mandala, p)]
        if cards:
            self._gesture(before.completer or 0, zones.DISCARD_ZONE,
                          lambda: self.table.pile(cards, zones.DISCARD_ZONE), "fields to the discard pile")

    def _forget_hidden(self) -> None:
        """Cards the rules took off the table (a reshuffle into the deck) leave it."""
        for name in list(self.table.cards):
            if self.game.location(parse_card(name)) in (*HANDS, DECK, UNSEEN):
                self.table.remove(name)

    # -- injected mistakes

    def _inject(self) -> None:
        player = self.game.turn
        hand = list(self.game.hand(player))
        self.rng.shuffle(hand)
        for card in hand:
            for zone, event in self._illegal_places(player, card):
                violation = self.game.validate(event)
                if violation is None:
                    continue
                name = card_name(card)
                start = self.now
                self._shot(self._arm(player, zone), self.timing.reach_s, f"illegal {name} in {zone}")
                self.table.fan(name, zone)
                self._shot(self._arm(player, zone), self.timing.place_s, f"illegal {name} in {zone}")
                self._shot(None, self.timing.injected_s, f"illegal {name} in {zone}")
                self.table.remove(name)
                self.injections.append(Injection(name, zone, start, self.now, violation.reason.value))
                self._shot(self._arm(player, zone), self.timing.reach_s, f"{name} taken back")
                return

    def _illegal_places(self, player: int, card: Card) -> list[tuple[str, Event]]:
        places: list[tuple[str, Event]] = []
        for mandala in (0, 1):
            places.append((zones.mountain(mandala), MountainPlay(player, mandala, (card,))))
            places.append((zones.field(mandala, player), FieldPlay(player, mandala, (card,))))
        self.rng.shuffle(places)
        return places

    # -- the end

    def _reveal(self) -> None:
        """Each player turns their cup up in the reveal area, a few cards at a time."""
        for player in (0, 1):
            cup = [card_name(c) for c in self.game.known[CUPS[player]]]
            self.rng.shuffle(cup)
            zone = zones.reveal(player)
            per_column, columns = self.table.pile_capacity(zone)
            for start in range(0, len(cup), per_column * columns):
                batch = cup[start:start + per_column * columns]
                for name in batch:
                    self.table.remove(name)
                self._gesture(player, zone, partial(self.table.pile, batch, zone), f"reveal {batch}")


def script_game(game: Game, layout: Layout, seed: int = 0, timing: Timing = Timing(),
                inject_p: float = 0.06, linger_p: float = 0.05) -> GameScript:
    """The shots of a whole finished game, with injected illegal placements and lingering hands."""
    if not game.is_over:
        raise ValueError("script_game needs a finished game")
    return _Writer(game, layout, random.Random(seed), timing, inject_p, linger_p).write()


def _grown(square: tuple[Point, ...], by: float) -> tuple[Point, ...]:
    """An axis-aligned square (a fiducial) grown by ``by`` mm on every side."""
    xs = [x for x, _ in square]
    ys = [y for _, y in square]
    x0, y0, x1, y1 = min(xs) - by, min(ys) - by, max(xs) + by, max(ys) + by
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
