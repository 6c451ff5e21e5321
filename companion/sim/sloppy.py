"""A second way of laying a whole game: players with loose habits.

Written apart from :mod:`companion.sim.game` (the tidy players), so the
tracker is tried on tables its own simulator did not shape. These players:

- fan mountains and fields tightly, each card laid over most of the one
  before, turned any way up (the two corner stickers mean a fanned card
  usually still shows one, but not always); when a row runs out of room
  they start another one across it;
- in fields, either keep one fan per color or one fan for everything
  (a habit each player keeps for the whole game);
- keep the discard pile as one squared face-up stack: each discarded card
  covers the one before, several cards of one discard are dropped one after
  the other with the hand pulled back in between (each shows for a moment);
- lay cards carelessly, up to :attr:`Habits.overhang_mm` across a zone's
  border (the card's centre always stays in its zone);
- take claimed cards out of a mountain in several grabs, putting each grab
  away (river, cup, discard pile) before the next, sometimes pausing longer
  than the companion's settle time in between;
- sweep a destroyed mandala's fields onto the discard pile in one or two
  grabs, dropped as a stack;
- refill an emptied mountain with both cards in one go, or deal them from
  the deck one at a time, the first card sometimes lying alone for longer
  than a settle time before the second comes;
- rest a hand over the mat longer than a settle time, now and then;
- play quickly: sometimes the next player moves before the table has been
  still for a settle time;
- bump the table: a few motion-blurred frames, after which some cards lie a
  millimetre or two off and turned a little;
- sometimes lay an illegal card and take it back, like the tidy players
  (an :class:`~companion.sim.script.Injection`).

Everything comes from one seed. :func:`script_sloppy_game` returns a
:class:`~companion.sim.script.GameScript` like the tidy writer's, so
rendering, the ideal camera and the benchmarks take either.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass, field, replace

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
    parse_card,
)
from companion.engine.cards import Card, color_of
from companion.engine.game import CUPS, DISCARD, RIVERS
from companion.sim.scene import PlacedCard, arm_polygon
from companion.sim.script import GameScript, Injection, Shot
from companion.sim.tables import INSIDE_MM, inside_by_mm
from companion.tracker import zones
from companion.vision.layout import Layout, Point
from companion.vision.stickers import card_offset_mm

Range = tuple[float, float]


@dataclass(frozen=True)
class Habits:
    """How these players lay cards and how fast they play; every range is drawn from uniformly."""

    fan_step_mm: Range = (15.0, 30.0)
    """Between the centres of two cards fanned one after the other (a card is 70 mm)."""
    fan_drift_mm: float = 3.5
    """Sideways wander of each fanned card (standard deviation)."""
    turns: tuple[tuple[float, float], ...] = ((0.0, 0.35), (180.0, 0.35), (90.0, 0.15), (270.0, 0.15))
    """Quarter turns a card is laid at, with their weights: either way up, now and then sideways."""
    skew_deg: float = 5.0
    """Standard deviation of the angle off the quarter turn."""
    overhang_mm: float = 10.0
    """How far a card may reach across its zone's border."""
    color_fans_p: float = 0.5
    """Chance that a player keeps one fan per color in their fields (else one fan for all)."""
    stack_jitter_mm: float = 3.0
    """Scatter of cards on the squared discard stack and in cups (standard deviation)."""
    reveal_step_mm: Range = (23.0, 30.0)
    """The end-game reveal is spread so every card can be counted."""
    reach_s: Range = (0.3, 0.8)
    place_s: Range = (0.2, 0.6)
    rest_s: Range = (1.2, 3.5)
    """The table left alone after a move."""
    quick_p: float = 0.2
    """Chance that the next move starts before the table has rested a settle time."""
    quick_rest_s: Range = (0.15, 0.7)
    drop_s: Range = (0.3, 0.6)
    """Each card of a multi-card discard shows this long before the next one covers it."""
    grabs: tuple[int, int] = (1, 3)
    """Grabs a claim takes (never more than its cards)."""
    grab_pause_s: Range = (0.3, 2.2)
    linger_p: float = 0.08
    linger_s: Range = (1.3, 5.0)
    bump_p: float = 0.04
    bump_frames_s: Range = (0.1, 0.4)
    bump_blur_mm: Range = (1.5, 14.0)
    bump_shift_mm: float = 1.5
    inject_p: float = 0.06
    injected_s: Range = (2.2, 3.5)
    deal_one_by_one_p: float = 0.4
    """Chance that a refill's cards are dealt one at a time, the hand going back to the deck in between."""
    deal_pause_s: Range = (0.4, 2.6)
    """How long the first refill card lies alone while the dealer takes the next one."""


@dataclass
class _Fan:
    """Where the next card of a fan goes: its row's line, and the position along it."""

    along: float
    across: float
    direction: float
    rows: int = 1


@dataclass
class _Mat:
    """The cards on the mat in drawing order, and where each zone's fans have got to."""

    layout: Layout
    rng: random.Random
    habits: Habits
    cards: dict[str, PlacedCard] = field(default_factory=dict)
    zone_of: dict[str, str] = field(default_factory=dict)
    fans: dict[str, _Fan] = field(default_factory=dict)
    stack_point: dict[str, Point] = field(default_factory=dict)

    def snapshot(self) -> tuple[PlacedCard, ...]:
        return tuple(self.cards.values())

    def take(self, card_id: str) -> None:
        self.cards.pop(card_id, None)
        zone = self.zone_of.pop(card_id, None)
        if zone is not None and zone not in self.zone_of.values():
            # An emptied zone starts afresh: a new fan, a new place for the stack.
            self.fans = {key: fan for key, fan in self.fans.items() if not key.startswith(f"{zone}#")}
            self.stack_point.pop(zone, None)

    def lay(self, card_id: str, zone: str, centre: Point, rotation: float, face_up: bool = True) -> None:
        """Put a card down (on top of everything), its centre kept inside the zone."""
        self.take(card_id)
        centre = self._inside(zone, centre, rotation)
        self.cards[card_id] = PlacedCard(card_id, centre, rotation % 360.0, face_up)
        self.zone_of[card_id] = zone

    # -- the ways these players lay cards

    def fan(self, card_id: str, zone: str, player: int, key: str = "") -> None:
        """The next card of a tight fan along the zone; ``key`` names one of several fans in it."""
        box = _box(self.layout, zone)
        name = f"{zone}#{key}"
        fan = self.fans.get(name)
        step = self.rng.uniform(*self.habits.fan_step_mm)
        if fan is None:
            fan = self.fans[name] = self._new_fan(zone, player, box, key)
        else:
            fan.along += fan.direction * step
        low, high = self._along_limits(box)
        if not low <= fan.along <= high:
            self._next_row(fan, box, low, high)
        drift = self.rng.gauss(0.0, self.habits.fan_drift_mm)
        self.lay(card_id, zone, (fan.along, fan.across + drift), self._turn())

    def stack(self, card_id: str, zone: str, face_up: bool = True) -> None:
        """A squared pile: each card covers the one before."""
        if zone not in self.stack_point:
            cx, cy = self.layout.zone_center(zone)
            spread = self.habits.overhang_mm
            self.stack_point[zone] = (cx + self.rng.uniform(-spread, spread), cy + self.rng.uniform(-spread, spread))
        x, y = self.stack_point[zone]
        jitter = self.habits.stack_jitter_mm
        centre = (x + self.rng.gauss(0.0, jitter), y + self.rng.gauss(0.0, jitter))
        self.lay(card_id, zone, centre, self.rng.uniform(0.0, 360.0) if face_up else self._turn(), face_up)

    def single(self, card_id: str, zone: str) -> None:
        """A card alone in its space (a river), laid carelessly: anywhere its overhang allows."""
        x0, y0, x1, y1 = _box(self.layout, zone)
        over = self.habits.overhang_mm
        slack_x = (x1 - x0 - self.layout.card_mm[0]) / 2 + over
        slack_y = (y1 - y0 - self.layout.card_mm[1]) / 2 + over
        cx, cy = self.layout.zone_center(zone)
        centre = (cx + self.rng.uniform(-slack_x, slack_x), cy + self.rng.uniform(-slack_y, slack_y))
        self.lay(card_id, zone, centre, self._turn())

    def spread(self, card_ids: list[str], zone: str, player: int) -> None:
        """Cards spread so each one can be counted (the end-game reveal).

        Rows and columns stepped wide enough for the corner of each card that
        the later cards leave free (the player's top left as they face the
        mat) to show a whole sticker, the cards either way up (not sideways:
        a sticker must lie in that corner). At most :meth:`spread_capacity`
        cards.
        """
        x0, y0, x1, y1 = _box(self.layout, zone)
        columns, rows = self.spread_capacity(zone)
        room_x, room_y = self._spread_room(zone)
        step = self.rng.uniform(max(self.habits.reveal_step_mm[0], _corner_strip_mm(self.layout)),
                                max(self.habits.reveal_step_mm[1], _corner_strip_mm(self.layout)))
        step = min(step, room_x / max(columns - 1, 1))
        row_step = room_y / max(rows - 1, 1)
        width, height = _tilted_card(self.layout)
        reach_x, reach_y = width / 2 - self.habits.overhang_mm, height / 2 - self.habits.overhang_mm
        facing = -1.0 if player == 1 else 1.0
        for index, card_id in enumerate(card_ids[: columns * rows]):
            row, column = divmod(index, columns)
            x = (x0 + reach_x + column * step) if facing > 0 else (x1 - reach_x - column * step)
            y = (y0 + reach_y + row * row_step) if facing > 0 else (y1 - reach_y - row * row_step)
            turn = self.rng.choice((0.0, 180.0)) + self.rng.gauss(0.0, SPREAD_TILT_DEG / 3)
            self.lay(card_id, zone, (x + self.rng.gauss(0.0, 1.0), y + self.rng.gauss(0.0, 1.0)), turn)

    def spread_capacity(self, zone: str) -> tuple[int, int]:
        """Columns and rows of a reveal spread in ``zone`` that leave a whole sticker of each card in view."""
        strip = _corner_strip_mm(self.layout)
        room_x, room_y = self._spread_room(zone)
        return int(room_x // strip) + 1, int(room_y // strip) + 1

    def _spread_room(self, zone: str) -> tuple[float, float]:
        """How far card centres may range across ``zone`` (the overhang allowed), along x and y."""
        x0, y0, x1, y1 = _box(self.layout, zone)
        width, height = _tilted_card(self.layout)
        over = self.habits.overhang_mm
        return max(0.0, x1 - x0 - width + 2 * over), max(0.0, y1 - y0 - height + 2 * over)

    def bump(self) -> None:
        """The table was knocked: some cards slide a little and turn a little."""
        shift = self.habits.bump_shift_mm
        for card_id, card in list(self.cards.items()):
            if self.rng.random() < 0.4:
                x, y = card.center_mm
                turned = (card.rotation_deg + self.rng.uniform(-1.5, 1.5)) % 360.0
                moved = (x + self.rng.uniform(-shift, shift), y + self.rng.uniform(-shift, shift))
                moved = self._inside(self.zone_of[card_id], moved, turned)
                self.cards[card_id] = PlacedCard(card_id, moved, turned, card.face_up)

    # -- geometry

    def _turn(self) -> float:
        turns, weights = zip(*self.habits.turns, strict=True)
        return float(self.rng.choices(turns, weights)[0]) + self.rng.gauss(0.0, self.habits.skew_deg)

    def _new_fan(self, zone: str, player: int, box: tuple[float, float, float, float], key: str) -> _Fan:
        low, high = self._along_limits(box)
        across_low, across_high = self._across_limits(box)
        # Each player fans from their own left: player 2 sits across the table.
        direction = -1.0 if player == 1 else 1.0
        start = low if direction > 0 else high
        if key:  # another color's fan: next to the fans already in this zone
            others = [card.center_mm[0] for cid, card in self.cards.items() if self.zone_of.get(cid) == zone]
            if others:
                edge = max(others) if direction > 0 else min(others)
                start = edge + direction * self.rng.uniform(35.0, 60.0)
                if not low <= start <= high:
                    start = self.rng.uniform(low, high)
        start += direction * self.rng.uniform(0.0, 12.0)
        across = self.rng.uniform(across_low, across_high)
        return _Fan(min(max(start, low), high), across, direction)

    def _next_row(self, fan: _Fan, box: tuple[float, float, float, float], low: float, high: float) -> None:
        """Out of room: a new row, across the earlier one, starting again at the player's left."""
        across_low, across_high = self._across_limits(box)
        fan.rows += 1
        offset = self.rng.uniform(8.0, 16.0) * (1 if fan.rows % 2 == 0 else -1)
        fan.across = min(max(fan.across + offset, across_low), across_high)
        fan.along = (low if fan.direction > 0 else high) + fan.direction * self.rng.uniform(0.0, 20.0)

    def _along_limits(self, box: tuple[float, float, float, float]) -> Range:
        x0, _, x1, _ = box
        reach = self.layout.card_mm[0] / 2 - self.habits.overhang_mm
        return (x0 + reach, max(x0 + reach, x1 - reach))

    def _across_limits(self, box: tuple[float, float, float, float]) -> Range:
        _, y0, _, y1 = box
        reach = self.layout.card_mm[1] / 2 - self.habits.overhang_mm
        return (y0 + reach, max(y0 + reach, y1 - reach))

    def _inside(self, zone: str, centre: Point, rotation: float) -> Point:
        """The centre moved as little as needed: at most the overhang across any border, and inside."""
        x0, y0, x1, y1 = _box(self.layout, zone)
        angle = math.radians(rotation)
        half_x = abs(math.cos(angle)) * self.layout.card_mm[0] / 2 + abs(math.sin(angle)) * self.layout.card_mm[1] / 2
        half_y = abs(math.sin(angle)) * self.layout.card_mm[0] / 2 + abs(math.cos(angle)) * self.layout.card_mm[1] / 2
        over = self.habits.overhang_mm
        x = _clamp(centre[0], x0 + half_x - over, x1 - half_x + over)
        y = _clamp(centre[1], y0 + half_y - over, y1 - half_y + over)
        polygon = self.layout.zones[zone]
        target = self.layout.zone_center(zone)
        for fraction in (0.0, 0.25, 0.5, 0.75, 1.0):  # a zone of another shape: slide toward its middle
            moved = (x + (target[0] - x) * fraction, y + (target[1] - y) * fraction)
            if inside_by_mm(moved, polygon) >= INSIDE_MM:
                return moved
        return target


class _SloppyWriter:
    """Walks through the game's events, laying each the way these players do."""

    def __init__(self, game: Game, layout: Layout, rng: random.Random, habits: Habits,
                 variety: random.Random | None = None) -> None:
        self.final = game
        self.layout = layout
        self.rng = rng
        self.variety = variety or random.Random(0)
        """Draws for habits added later (the refill dealt card by card), kept apart from :attr:`rng` so
        that adding one leaves the rest of every seed's game laid as before."""
        self.habits = habits
        self.mat = _Mat(layout, rng, habits)
        self.game = Game.from_snapshot(game.base)
        self.shots: list[Shot] = []
        self.injections: list[Injection] = []
        self.color_fans = tuple(rng.random() < habits.color_fans_p for _ in (0, 1))

    @property
    def now(self) -> float:
        return sum(shot.seconds for shot in self.shots)

    def write(self) -> GameScript:
        self._hold(None, self.rng.uniform(1.5, 3.0), "empty mat")
        dealer = self.rng.randrange(2)
        for mandala in (0, 1):
            for card in self.game.mountain(mandala):
                self.mat.fan(card_name(card), zones.mountain(mandala), dealer)
        self._hold(None, self.rng.uniform(*self.habits.rest_s), "deal")
        events = [event for event, _ in self.final.stack]
        done: list[float] = []
        for index, event in enumerate(events):
            if self.rng.random() < self.habits.linger_p:
                self._linger()
            if self.game.phase is Phase.PLAY and self.rng.random() < self.habits.inject_p:
                self._inject()
            done.append(self._event(event))
            last = index == len(events) - 1
            quick = not last and self.rng.random() < self.habits.quick_p
            rest = self.habits.quick_rest_s if quick else self.habits.rest_s
            self._hold(None, self.rng.uniform(*rest), "quick" if quick else "rest")
            if not last and self.rng.random() < self.habits.bump_p:
                self._bump()
        self._reveal()
        return GameScript(self.final, tuple(self.shots), tuple(self.injections), style="sloppy",
                          event_done_s=tuple(done))

    # -- shots

    def _hold(self, hand: tuple[Point, ...] | None, seconds: float, note: str,
              blur_mm: float = 0.0, blur_deg: float = 0.0) -> None:
        self.shots.append(Shot(self.mat.snapshot(), hand, seconds, note, blur_mm, blur_deg))

    def _arm(self, player: int, zone: str, back_mm: float = 0.0,
             rng: random.Random | None = None) -> tuple[Point, ...]:
        """An arm from the player's edge to over ``zone``; ``back_mm`` pulls the hand back toward the player."""
        rng = rng or self.rng
        height = self.layout.size_mm[1]
        tip_x, tip_y = self.layout.zone_center(zone)
        tip_x += rng.uniform(-25.0, 25.0)
        edge = height + 150.0 if player == 0 else -150.0
        tip_y += back_mm if player == 0 else -back_mm
        start = (tip_x + rng.uniform(-90.0, 90.0), edge)
        return arm_polygon(start, (tip_x, tip_y), rng.uniform(65.0, 95.0))

    def _reach(self, player: int, zone: str, note: str) -> tuple[Point, ...]:
        arm = self._arm(player, zone)
        self._hold(arm, self.rng.uniform(*self.habits.reach_s), note)
        return arm

    def _placed(self, arm: tuple[Point, ...], note: str) -> None:
        self._hold(arm, self.rng.uniform(*self.habits.place_s), note)

    def _linger(self) -> None:
        zone = self.rng.choice([z for z in self.layout.zones if z != zones.DECK_ZONE])
        self._hold(self._arm(self.rng.randrange(2), zone), self.rng.uniform(*self.habits.linger_s),
                   f"hand rests over {zone}")

    def _bump(self) -> None:
        """A knock on the table: a few smeared frames, then some cards lie slightly off."""
        angle = self.rng.uniform(0.0, 180.0)
        length = self.rng.uniform(*self.habits.bump_blur_mm)
        self._hold(None, self.rng.uniform(*self.habits.bump_frames_s), "bump", length, angle)
        self.mat.bump()
        self._hold(None, self.rng.uniform(*self.habits.bump_frames_s), "bump", length / 3, angle + 90.0)
        self._hold(None, self.rng.uniform(*self.habits.rest_s), "after the bump")

    # -- events

    def _event(self, event: Event) -> float:
        """Lay one event; returns when the table shows it done (a sweep or reshuffle may follow)."""
        before = self.game.copy()
        self.game.push(event, force=True)
        done = 0.0
        if isinstance(event, MountainPlay):
            zone = zones.mountain(event.mandala)
            arm = self._reach(event.player, zone, str(event))
            self.mat.fan(card_name(event.cards[0]), zone, event.player)
            self._placed(arm, str(event))
            done = self.now
        elif isinstance(event, FieldPlay):
            zone = zones.field(event.mandala, event.field_owner)
            arm = self._reach(event.player, zone, str(event))
            for card in event.cards:
                self.mat.fan(card_name(card), zone, event.field_owner, self._fan_key(event.field_owner, card))
            self._placed(arm, str(event))
            done = self.now
        elif isinstance(event, Discard):
            self._drop_on_stack(event.player, [card_name(c) for c in event.cards], str(event))
            done = self.now
        elif isinstance(event, Claim):
            done = self._claim(event, before)
        elif isinstance(event, Refill):
            self._refill(event, before.turn)
            done = self.now
        self._pick_up_reshuffled()
        return done

    def _refill(self, event: Refill, player: int) -> None:
        """The player whose turn comes next deals the refill from the deck: both cards in one go, or one
        at a time, going back to the deck for the second while the first lies alone in the mountain."""
        zone, note = zones.mountain(event.mandala), str(event)
        one_by_one = len(event.cards) > 1 and self.variety.random() < self.habits.deal_one_by_one_p
        arm = self._reach(player, zone, note)
        for index, card in enumerate(event.cards):
            self.mat.fan(card_name(card), zone, player)
            if one_by_one and index < len(event.cards) - 1:
                self._hold(arm, self.variety.uniform(*self.habits.place_s), note)
                deck = self._arm(player, zones.DECK_ZONE, rng=self.variety)
                self._hold(deck, self.variety.uniform(*self.habits.deal_pause_s), f"{note}: next card")
                arm = self._arm(player, zone, rng=self.variety)
                self._hold(arm, self.variety.uniform(*self.habits.reach_s), note)
        self._placed(arm, note)

    def _fan_key(self, player: int, card: Card) -> str:
        return str(color_of(card)) if self.color_fans[player] else ""

    def _drop_on_stack(self, player: int, names: list[str], note: str) -> None:
        """Cards dropped on the discard stack one after the other, each seen a moment before the next."""
        zone = zones.DISCARD_ZONE
        arm = self._reach(player, zone, note)
        for index, name in enumerate(names):
            self.mat.stack(name, zone)
            if index < len(names) - 1:  # the hand pulls back to take the next card
                self._hold(self._arm(player, zone, back_mm=110.0), self.rng.uniform(*self.habits.drop_s), note)
        self._placed(arm, note)

    def _claim(self, event: Claim, before: Game) -> float:
        """The claimed cards leave the mountain in a few grabs, each put away before the next; returns
        when the last grab is put away (the destroyed mandala's fields may follow)."""
        mandala = before.destroying
        assert mandala is not None
        taken = [c for c in before.mountain(mandala) if color_of(c) == event.color]
        self.rng.shuffle(taken)
        river = [c for c in taken if self.game.location(c) == RIVERS[event.player]]
        taken = river + [c for c in taken if c not in river]  # the river card goes first
        count = min(len(taken), self.rng.randint(*self.habits.grabs))
        cuts = sorted(self.rng.sample(range(1, len(taken)), count - 1)) if count > 1 else []
        note = str(event)
        for number, grab in enumerate(_split(taken, cuts)):
            if number:
                self._hold(None, self.rng.uniform(*self.habits.grab_pause_s), f"{note}: between grabs")
            arm = self._reach(event.player, zones.mountain(mandala), f"{note}: grab {number + 1}")
            for card in grab:
                self.mat.take(card_name(card))
            self._placed(arm, f"{note}: grab {number + 1}")
            self._put_away(event.player, grab, note)
        done = self.now
        if self.game.phase is not Phase.CLAIM:
            self._sweep_fields(before, mandala)
        return done

    def _put_away(self, player: int, cards: list[Card], note: str) -> None:
        """Claimed cards go where the rules sent them: the river, the cup face down, the discard stack."""
        for card in cards:
            where, name = self.game.location(card), card_name(card)
            if where == RIVERS[player]:
                zone = zones.river(player, self.game.river(player).index(card) + 1)
                arm = self._reach(player, zone, f"{note}: {name} to the river")
                self.mat.single(name, zone)
                self._placed(arm, f"{note}: {name} to the river")
        cup = [card_name(c) for c in cards if self.game.location(c) == CUPS[player]]
        if cup:
            arm = self._reach(player, zones.cup(player), f"{note}: to the cup")
            for name in cup:
                self.mat.stack(name, zones.cup(player), face_up=False)
            self._placed(arm, f"{note}: to the cup")
        pile = [card_name(c) for c in cards if self.game.location(c) == DISCARD]
        if pile:
            arm = self._reach(player, zones.DISCARD_ZONE, f"{note}: to the discard pile")
            for name in pile:
                self.mat.stack(name, zones.DISCARD_ZONE)
            self._placed(arm, f"{note}: to the discard pile")

    def _sweep_fields(self, before: Game, mandala: int) -> None:
        """The destroyed mandala's fields go onto the discard stack, in a grab or two, squared up."""
        player = before.completer if before.completer is not None else before.turn
        for owner in (0, 1):
            names = [card_name(c) for c in before.field(mandala, owner)]
            if not names:
                continue
            self.rng.shuffle(names)
            arm = self._reach(player, zones.field(mandala, owner), "fields to the discard pile")
            for name in names:
                self.mat.take(name)
            self._placed(arm, "fields to the discard pile")
            arm = self._reach(player, zones.DISCARD_ZONE, "fields to the discard pile")
            for name in names:
                self.mat.stack(name, zones.DISCARD_ZONE)
            self._placed(arm, "fields to the discard pile")

    def _pick_up_reshuffled(self) -> None:
        """When the deck ran out the discard pile became the deck: those cards leave the mat."""
        gone = [name for name, zone in self.mat.zone_of.items()
                if zone == zones.DISCARD_ZONE and self.game.location(parse_card(name)) != DISCARD]
        if gone:
            arm = self._reach(self.game.turn, zones.DISCARD_ZONE, "reshuffle")
            for name in gone:
                self.mat.take(name)
            self._placed(arm, "reshuffle")

    # -- injected mistakes

    def _inject(self) -> None:
        """A card laid where the rules forbid it, left a moment, then taken back."""
        player = self.game.turn
        hand = list(self.game.hand(player))
        self.rng.shuffle(hand)
        places: list[tuple[str, MountainPlay | FieldPlay]] = [
            (zones.mountain(m), MountainPlay(player, m, (c,))) for m in (0, 1) for c in hand
        ]
        places += [(zones.field(m, player), FieldPlay(player, m, (c,))) for m in (0, 1) for c in hand]
        self.rng.shuffle(places)
        for zone, event in places:
            violation = self.game.validate(event)
            if violation is None:
                continue
            name = card_name(event.cards[0])
            start = self.now
            arm = self._reach(player, zone, f"illegal {name} in {zone}")
            fans = {key: replace(fan) for key, fan in self.mat.fans.items()}
            key = self._fan_key(player, event.cards[0]) if isinstance(event, FieldPlay) else ""
            self.mat.fan(name, zone, player, key)
            self._placed(arm, f"illegal {name} in {zone}")
            self._hold(None, self.rng.uniform(*self.habits.injected_s), f"illegal {name} in {zone}")
            arm = self._reach(player, zone, f"{name} taken back")
            self.mat.take(name)
            self.mat.fans = fans  # the fan goes on where it was
            self.injections.append(Injection(name, zone, start, self.now, violation.reason.value))
            self._placed(arm, f"{name} taken back")
            return

    # -- the end

    def _reveal(self) -> None:
        """Each player turns the cup up in the reveal area, spread to be counted, a row or two at a time."""
        for player in (0, 1):
            cup = [card_name(c) for c in self.game.known[CUPS[player]]]
            self.rng.shuffle(cup)
            zone = zones.reveal(player)
            columns, rows = self.mat.spread_capacity(zone)
            batch = min(self.rng.randint(4, 6), columns * rows)
            for start in range(0, len(cup), batch):
                names = cup[start:start + batch]
                for name in names:
                    self.mat.take(name)
                arm = self._reach(player, zone, f"reveal {names}")
                self.mat.spread(names, zone, player)
                self._placed(arm, f"reveal {names}")
                self._hold(None, self.rng.uniform(*self.habits.rest_s), "reveal")


def script_sloppy_game(game: Game, layout: Layout, seed: int = 0, habits: Habits = Habits()) -> GameScript:
    """The shots of a whole finished game as these players would lay it."""
    if not game.is_over:
        raise ValueError("script_sloppy_game needs a finished game")
    return _SloppyWriter(game, layout, random.Random(seed), habits, random.Random(f"sloppy variety {seed}")).write()


def _box(layout: Layout, zone: str) -> tuple[float, float, float, float]:
    xs = [x for x, _ in layout.zones[zone]]
    ys = [y for _, y in layout.zones[zone]]
    return min(xs), min(ys), max(xs), max(ys)


SPREAD_TILT_DEG = 4.5
"""The most a card of the reveal spread is turned off square (three standard deviations)."""


def _tilted_card(layout: Layout) -> tuple[float, float]:
    """The width and height a card of the reveal spread may take on the mat, turned a little off square."""
    tilt = math.radians(SPREAD_TILT_DEG)
    return (layout.card_mm[0] * math.cos(tilt) + layout.card_mm[1] * math.sin(tilt),
            layout.card_mm[1] * math.cos(tilt) + layout.card_mm[0] * math.sin(tilt))


def _corner_strip_mm(layout: Layout) -> float:
    """How much of a card's corner must show for its sticker there to be in view whole.

    6 mm to spare: the cards of a spread are turned and laid a little off.
    """
    dx, dy = card_offset_mm(layout.card_mm, layout.sticker_mm)
    return max(layout.card_mm[0] / 2 - dx, layout.card_mm[1] / 2 - dy) + layout.sticker_mm / 2 + 6.0


def _clamp(value: float, low: float, high: float) -> float:
    return min(max(value, low), high) if low <= high else (low + high) / 2


def _split(cards: list[Card], cuts: list[int]) -> list[list[Card]]:
    bounds = [0, *cuts, len(cards)]
    return [cards[a:b] for a, b in itertools.pairwise(bounds)]

