"""Playmats of other shapes than the design mat: the game's own, and random ones to teach.

The game's linen playmat (notes/table-facts.md) shows two circular mandalas
side by side, each cut by a horizontal band (the mountain) into a field for
each player, and seven spaces in front of each player: six for the river
and the cup. :func:`mandala_mat` draws that family of mats as layouts (the
circles as polygons), with deck and discard between the mandalas and each
player's reveal area beside their row; :func:`random_mandala_mat` varies it,
and :func:`stick_fiducials` puts fiducials near its corners as a person
would, unmeasured. ``companion layout teach`` is checked on such mats.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from companion.sim.scene import PlacedCard, SceneError
from companion.vision.layout import Fiducial, Layout, Point, Polygon, polygon_centroid, polygons_overlap
from companion.vocab import zones as zones_vocab
from companion.vocab.zones import RIVER_SPACES

ARC_STEPS = 24
"""Segments per half circle of a mandala's outline."""


@dataclass(frozen=True)
class MandalaMat:
    """The measures of a mat of the game's kind, in millimetres."""

    size_mm: Point = (860.0, 560.0)
    radius_mm: float = 180.0
    band_mm: float = 90.0
    """Height of the mountain band across each mandala."""
    gap_mm: float = 90.0
    """Between the two circles (deck and discard lie there)."""
    space_mm: float = 78.0
    """Side of each of the seven square spaces in front of a player."""
    edge_mm: float = 8.0
    """From the mat's edge to the rows of spaces."""
    card_mm: Point = (70.0, 70.0)
    sticker_mm: float = 20.0


def mandala_mat(mat: MandalaMat, name: str, fiducials: tuple[Fiducial, ...] = ()) -> Layout:
    """The layout of a mat of the game's kind with these fiducials."""
    width, height = mat.size_mm
    zones: dict[str, Polygon] = {}
    middle = height / 2
    for mandala, sign in ((0, -1), (1, 1)):
        cx = width / 2 + sign * (mat.radius_mm + mat.gap_mm / 2)
        zones.update(_mandala(mandala, (cx, middle), mat.radius_mm, mat.band_mm / 2))
    row = 7 * mat.space_mm
    left = (width - row) / 2
    for player, top, step, start in ((0, height - mat.edge_mm - mat.space_mm, 1, left),
                                     (1, mat.edge_mm, -1, left + row - mat.space_mm)):
        names = [zones_vocab.river(player, n) for n in range(1, RIVER_SPACES + 1)] + [zones_vocab.cup(player)]
        for index, zone in enumerate(names):
            x = start + step * index * mat.space_mm
            zones[zone] = _box(x, top, mat.space_mm, mat.space_mm)
        reveal_x = left + row + 4 if player == 0 else left - 4 - mat.space_mm * 1.2
        zones[zones_vocab.reveal(player)] = _box(reveal_x, top, mat.space_mm * 1.2, mat.space_mm)
    deck_side = min(mat.gap_mm - 6, 84.0)
    zones[zones_vocab.DECK] = _box(width / 2 - deck_side / 2, middle - deck_side - 4, deck_side, deck_side)
    zones[zones_vocab.DISCARD] = _box(width / 2 - deck_side / 2, middle + 4, deck_side, deck_side)
    return Layout(name, mat.size_mm, mat.card_mm, mat.sticker_mm, fiducials, MappingProxyType(zones))


def _mandala(mandala: int, centre: Point, radius: float, half_band: float) -> dict[str, Polygon]:
    """A circle cut by a horizontal band: the band (mountain) and the segments above (p2) and below (p1)."""
    cx, cy = centre
    edge = math.asin(half_band / radius)
    def arc(start: float, stop: float) -> list[Point]:
        return [(cx + radius * math.cos(a), cy + radius * math.sin(a))
                for a in np.linspace(start, stop, ARC_STEPS + 1)]
    below = arc(edge, math.pi - edge)  # y down: positive angles are below the centre
    above = arc(math.pi + edge, 2 * math.pi - edge)
    band = [*arc(-edge, edge), *arc(math.pi - edge, math.pi + edge)]
    return {zones_vocab.mountain(mandala): tuple(band), zones_vocab.field(mandala, 0): tuple(below),
            zones_vocab.field(mandala, 1): tuple(above)}


def _box(x: float, y: float, width: float, height: float) -> Polygon:
    return ((x, y), (x + width, y), (x + width, y + height), (x, y + height))


def random_mandala_mat(rng: np.random.Generator) -> MandalaMat:
    """A mat of the game's kind with other measures: another cloth, another print run."""
    radius = float(rng.uniform(160, 200))
    space = float(rng.uniform(76, 90))
    gap = float(rng.uniform(80, 110))
    width = max(4 * radius + gap, 7 * space + 2 * 1.2 * space + 16) + float(rng.uniform(40, 90))
    height = 2 * radius + 2 * space + float(rng.uniform(30, 60))
    return MandalaMat((round(width), round(height)), radius, float(rng.uniform(80, 100)), gap, space,
                      float(rng.uniform(6, 12)), (70.0, 70.0), 20.0)


def stick_fiducials(mat: Layout, rng: np.random.Generator, side_mm: float = 30.0,
                    ids: tuple[int, ...] = (0, 1, 2, 3)) -> Layout:
    """``mat`` with one fiducial near each corner where a hand puts it: a few mm in from the edges,
    clear of the printed spaces, unmeasured."""
    width, height = mat.size_mm
    outer = side_mm * 8 / 6 / 2  # half the printed square with its white margin
    corners = ((0, 0), (1, 0), (1, 1), (0, 1))
    placed = []
    for fiducial_id, (right, down) in zip(ids, corners, strict=False):
        for attempt in range(1000):
            # Further in only when the corner is crowded (along one edge or the other, as a hand finds room).
            reach = 12 + attempt * 0.5
            inset_x, inset_y = (outer + float(rng.uniform(2, reach)) for _ in range(2))
            x = width - inset_x if right else inset_x
            y = height - inset_y if down else inset_y
            square = Fiducial(fiducial_id, (x, y), side_mm * 8 / 6 + 6).corners_mm()
            inside = outer <= x <= width - outer and outer <= y <= height - outer
            if inside and not any(polygons_overlap(square, zone) for zone in mat.zones.values()):
                break
        else:
            raise SceneError(f"mat {mat.name!r}: no room for fiducial {fiducial_id} clear of the printed spaces")
        placed.append(Fiducial(fiducial_id, (round(x, 2), round(y, 2)), side_mm))
    return Layout(mat.name, mat.size_mm, mat.card_mm, mat.sticker_mm, tuple(placed), mat.zones)


def teaching_cards(layout: Layout, rng: np.random.Generator, ids: list[str], jitter_mm: float = 4.0,
                   ) -> list[tuple[str, PlacedCard]]:
    """One card per zone in ZONE_NAMES order, each near the zone's middle as a hand lays it."""
    from companion.vision.layout import ZONE_NAMES

    cards = []
    for zone, card_id in zip(ZONE_NAMES, ids, strict=False):
        cx, cy = polygon_centroid(layout.zones[zone])
        dx, dy = rng.normal(0, jitter_mm, 2)
        cards.append((zone, PlacedCard(card_id, (cx + float(dx), cy + float(dy)), float(rng.uniform(0, 360)))))
    return cards
