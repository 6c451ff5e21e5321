"""Plausible random tables: where real players would put real cards.

Mountains are fanned rows, fields are piles per color fanned toward their
owner, rivers hold one card per space at any rotation, the discard pile is a
messy heap, deck and cups are face-down stacks. Fans leave each card's
sticker corner in view as players do with square cards (they keep corners
readable), but covering happens: the ground truth of the renderer says which
stickers are fully visible.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np

from companion.markers.codes import CARD_IDS
from companion.sim.scene import PlacedCard, arm_polygon
from companion.vision.layout import Layout, Point, Polygon, point_in_polygon
from companion.vocab import zones

# Base rotations that put the sticker on a given side of the card
# (rotation is counter-clockwise as seen: 0 top-left, 90 bottom-left,
# 180 bottom-right, 270 top-right).
_STICKER_LEFT = (0.0, 90.0)
_STICKER_RIGHT = (180.0, 270.0)
_STICKER_TOP = (0.0, 270.0)
_STICKER_BOTTOM = (90.0, 180.0)
# How far inside its zone every card centre lies (mm). Players lay cards
# inside zones; a card centre a hair from a border has no zone a camera can be
# sure of (a creased cloth alone moves it 1-2 mm).
INSIDE_MM = 3.0


def random_table(
    layout: Layout, rng: np.random.Generator, n_cards: int = 60, *, endgame: bool = False
) -> list[PlacedCard]:
    """A mid-game table of ``n_cards`` distinct cards (all 108 at most), in drawing order.

    With ``endgame`` the cups are revealed: their cards lie face up, fanned,
    in the reveal areas instead of face down in the cups.
    """
    if not 0 <= n_cards <= len(CARD_IDS):
        raise ValueError(f"random_table: n_cards must be 0..{len(CARD_IDS)}, got {n_cards}")
    ids = iter([str(card_id) for card_id in rng.permutation(CARD_IDS)[:n_cards]])
    placer = _Placer(layout, rng, ids)
    budget = _Budget(n_cards, rng)
    placer.stack(zones.DECK, budget.take(3, 9), face_up=False)
    for player in (0, 1):
        if endgame:
            placer.fan(zones.reveal(player), budget.take(3, 10), _STICKER_LEFT, spacing=(12, 20))
        else:
            placer.stack(zones.cup(player), budget.take(2, 5), face_up=False)
        placer.river(player, budget.take(0, 5))
    for mandala in (0, 1):
        placer.fan(zones.mountain(mandala), budget.take(2, 13), _random_side(rng), spacing=(17, 26))
    for field_zone in [zones.field(m, p) for m in (0, 1) for p in (0, 1)]:
        placer.piles(field_zone, budget.take(0, 9))
    placer.heap(zones.DISCARD, budget.rest())
    return placer.cards


def random_hand(layout: Layout, rng: np.random.Generator) -> tuple[Point, ...]:
    """An arm reaching from a player's edge to somewhere over the mat, as a mat-mm polygon."""
    width, height = layout.size_mm
    from_bottom = bool(rng.integers(2))
    start = (float(rng.uniform(0.2, 0.8) * width), height + 120.0 if from_bottom else -120.0)
    tip = (float(rng.uniform(0.1, 0.9) * width), float(rng.uniform(0.25, 0.75) * height))
    return arm_polygon(start, tip, float(rng.uniform(70, 95)))


def _random_side(rng: np.random.Generator) -> tuple[float, float]:
    return _STICKER_LEFT if rng.integers(2) else _STICKER_RIGHT


class _Budget:
    """Hands out the cards: each zone asks for a random share of what is left."""

    def __init__(self, total: int, rng: np.random.Generator) -> None:
        self.left = total
        self.rng = rng

    def take(self, low: int, high: int) -> int:
        count = min(self.left, int(self.rng.integers(low, high + 1)))
        self.left -= count
        return count

    def rest(self) -> int:
        count, self.left = self.left, 0
        return count


class _Placer:
    def __init__(self, layout: Layout, rng: np.random.Generator, ids: Iterator[str]) -> None:
        self.layout = layout
        self.rng = rng
        self.ids = ids
        self.cards: list[PlacedCard] = []

    # -- zone kinds

    def stack(self, zone: str, count: int, *, face_up: bool) -> None:
        """A squared-up pile: deck or cup."""
        cx, cy = self.layout.zone_center(zone)
        for _ in range(count):
            jitter = self.rng.normal(0, 1.5, 2)
            rotation = 90.0 * int(self.rng.integers(4)) + float(self.rng.normal(0, 2))
            self._put(zone, (cx + jitter[0], cy + jitter[1]), rotation, face_up=face_up)

    def river(self, player: int, count: int) -> None:
        """One card per space, from space 1 on, any rotation."""
        for space in range(1, count + 1):
            zone = zones.river(player, space)
            cx, cy = self.layout.zone_center(zone)
            jitter = self.rng.uniform(-4, 4, 2)
            self._put(zone, (cx + jitter[0], cy + jitter[1]), float(self.rng.uniform(0, 360)))

    def heap(self, zone: str, count: int) -> None:
        """A messy pile; only the top card's sticker is surely in view."""
        cx, cy = self.layout.zone_center(zone)
        for _ in range(count):
            jitter = self.rng.uniform(-10, 10, 2)
            self._put(zone, (cx + jitter[0], cy + jitter[1]), float(self.rng.uniform(0, 360)))

    def fan(self, zone: str, count: int, sides: tuple[float, float], spacing: tuple[float, float]) -> None:
        """A row of overlapping cards, each next one laid over the previous one's far side."""
        if count == 0:
            return
        x0, y0, x1, y1 = _bounds(self.layout.zones[zone])
        card_w = self.layout.card_mm[0]
        step = float(self.rng.uniform(*spacing))
        # Stay within 10 mm of the zone's ends so a long fan never covers a fiducial.
        step = min(step, (x1 - x0 - card_w + 20) / max(count - 1, 1))
        length = card_w + step * (count - 1)
        leftward = sides == _STICKER_RIGHT  # sticker on the right: the row grows to the left
        start = (x0 + x1) / 2 + (length / 2 - card_w / 2) * (1 if leftward else -1)
        direction = -1.0 if leftward else 1.0
        cy = (y0 + y1) / 2 + float(self.rng.uniform(-4, 4))
        for index in range(count):
            rotation = float(self.rng.choice(sides)) + float(self.rng.normal(0, 4))
            centre = (start + direction * step * index, cy + float(self.rng.normal(0, 2.5)))
            self._put(zone, centre, rotation)

    def piles(self, zone: str, count: int) -> None:
        """Color piles across a field, each fanned toward the field's owner."""
        if count == 0:
            return
        x0, y0, x1, y1 = _bounds(self.layout.zones[zone])
        toward_bottom = zone.endswith("p1")
        sides = _STICKER_TOP if toward_bottom else _STICKER_BOTTOM
        sizes = _split(count, self.rng)
        slot = (x1 - x0) / len(sizes)
        for pile, size in enumerate(sizes):
            px = x0 + slot * (pile + 0.5) + float(self.rng.uniform(-4, 4))
            step = float(self.rng.uniform(20, 26)) * (1 if toward_bottom else -1)
            first_y = (y0 + y1) / 2 - step * (size - 1) / 2
            for index in range(size):
                rotation = float(self.rng.choice(sides)) + float(self.rng.normal(0, 4))
                self._put(zone, (px + float(self.rng.normal(0, 2)), first_y + step * index), rotation)

    # -- one card

    def _put(self, zone: str, centre: Point, rotation: float, *, face_up: bool = True) -> None:
        """Place the next card, nudged until its centre lies well inside the zone.

        Players lay cards inside zones, not on their borders: the card slides
        toward the zone's centre until its centre is :data:`INSIDE_MM` inside
        every border.
        """
        card_id = next(self.ids)
        polygon = self.layout.zones[zone]
        target = self.layout.zone_center(zone)
        shift = (target[0] - centre[0], target[1] - centre[1])
        for fraction in np.linspace(0.0, 1.0, 21):
            moved = (centre[0] + shift[0] * fraction, centre[1] + shift[1] * fraction)
            if inside_by_mm(moved, polygon) >= INSIDE_MM:
                break
        # With fraction 1 the card lies on the zone's centroid: inside any zone a card fits in.
        self.cards.append(PlacedCard(card_id, moved, rotation % 360.0, face_up))


def inside_by_mm(point: Point, polygon: Polygon) -> float:
    """How far ``point`` lies inside ``polygon`` (distance to its nearest edge); negative outside."""
    px, py = point
    nearest = math.inf
    for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        dx, dy = x1 - x0, y1 - y0
        length2 = dx * dx + dy * dy
        t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - x0) * dx + (py - y0) * dy) / length2))
        nearest = min(nearest, math.hypot(px - (x0 + t * dx), py - (y0 + t * dy)))
    return nearest if point_in_polygon(point, polygon) else -nearest


def _bounds(polygon: Polygon) -> tuple[float, float, float, float]:
    xs = [x for x, _ in polygon]
    ys = [y for _, y in polygon]
    return min(xs), min(ys), max(xs), max(ys)


def _split(count: int, rng: np.random.Generator) -> list[int]:
    """Split cards into piles of 1..3 (a field holds several colors, a few cards each)."""
    sizes = []
    while count > 0:
        size = min(count, int(rng.integers(1, 4)))
        sizes.append(size)
        count -= size
    return sizes
