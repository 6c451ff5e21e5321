"""Teaching the companion a playmat it has never seen (interfaces.md section 9).

People stick four or more fiducials near the corners of their own mat
without measuring anything, then lay one card near the middle of each zone,
in the order of :data:`~companion.vision.layout.ZONE_NAMES`, each left in
place while the next is laid. From frames of that, this module makes a
layout file:

1. **Fiducials from their printed size.** Each fiducial is a square of known
   side. One homography (frame pixels to mat millimetres) and, per fiducial,
   a position and a small turn are fitted together to all their corners
   (Levenberg-Marquardt): the sizes fix the scale, the squares' edges the
   directions, the spread of the markers the perspective. The mat's axes
   are the fiducials' mean orientation (their printed "this edge toward
   player 1" edge), so a marker stuck a few degrees askew moves nothing.
2. **Zones from the cards.** The vision pipeline, given the fiducials just
   found, reads the cards as they are laid; the n-th card to settle is the
   n-th zone's centre.
3. **Zone outlines.** On the first frame (the mat before any card) seen
   straight on, each zone floods outward from its card until it meets
   another zone or the cloth flooding in from the mat's edge (a watershed):
   the borders fall on the lines printed on the mat, a band's edge, a
   space's frame, a circle (:func:`printed_cells`). Without that frame, or
   when it gives an unusable outline, each zone is the part of the mat
   nearer its card than any other's (Voronoi cells, :func:`zone_cells`),
   right where neighbours are alike (the spaces of a river) and only a
   guide where they differ (a long mountain band beside a small deck).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

import cv2
import numpy as np
import numpy.typing as npt

from companion.errors import LayoutError
from companion.vision.fiducials import FiducialSighting
from companion.vision.layout import ZONE_NAMES, Fiducial, Layout, Point, Polygon, check_layout
from companion.vision.observation import FrameObservation

FloatArray = npt.NDArray[np.float64]

MIN_FIDUCIALS = 4
"""Four markers near the corners fix the perspective over the whole mat."""
MAX_TURN_DEG = 12.0
"""A fiducial turned further than this from the others was stuck the wrong way round or badly askew."""
MAT_MARGIN_MM = 4.0
"""The taught mat reaches this far beyond the outermost fiducial margin and card."""
FIDUCIAL_CLEARANCE_MM = 3.0
"""Zones stop this far from a fiducial's printed square (white margin included)."""
BORDER_GAP_MM = 0.2
"""Neighbouring taught zones are this far apart (their outlines are rounded to 0.1 mm)."""
SETTLE_S = 0.5
"""A card counts as laid once it has lain still this long."""
SAME_PLACE_MM = 6.0
"""A card seen again within this distance has not moved."""


class TeachError(LayoutError):
    """The frames do not show what teaching needs; the message says what to do."""


# --------------------------------------------------------------------------- 1. fiducials


@dataclass(frozen=True)
class FiducialFit:
    """Fiducials placed on the mat from their sightings: the mapping and where each one lies."""

    homography: FloatArray
    """Frame pixels -> mat millimetres (the mat's axes along the fiducials' edges)."""
    centres_mm: Mapping[int, Point]
    turns_deg: Mapping[int, float]
    """How far each marker is turned from the mat's axes (stuck askew)."""
    sizes_mm: Mapping[int, float]
    residual_mm: float
    """The largest distance between a corner seen and the fitted square: the fit's own error."""


def fit_fiducials(sightings: Mapping[int, FiducialSighting], sizes_mm: Mapping[int, float]) -> FiducialFit:
    """Positions of fiducials stuck anywhere, from one view of them and their printed sizes."""
    ids = sorted(i for i in sightings if i in sizes_mm)
    if len(ids) < MIN_FIDUCIALS:
        raise TeachError(f"{len(ids)} fiducials seen ({', '.join(map(str, ids)) or 'none'}); at least "
                         f"{MIN_FIDUCIALS} are needed, one near each corner of the mat, all in view")
    corners = np.array([sightings[i].corners for i in ids], np.float64)  # (n, 4, 2)
    sides = np.array([sizes_mm[i] for i in ids], np.float64)
    normal = _normalising(corners.reshape(-1, 2))
    image = _apply(normal, corners.reshape(-1, 2)).reshape(-1, 4, 2)
    params = _initial_guess(image, sides)
    params = _levenberg_marquardt(lambda p: _residuals(p, image, sides), params)
    homography, centres, turns = _unpack(params, len(ids))
    residual = float(np.max(np.linalg.norm(_residuals(params, image, sides)[:-1].reshape(-1, 2), axis=1)))
    # The mat's axes: the markers' mean orientation (each marker's own turn is small and random), the
    # mean of those near the median, so one marker stuck the wrong way round is named, not averaged in.
    median = float(np.median(turns))
    mean_turn = float(np.mean([t for t in turns if abs(math.degrees(t - median)) <= MAX_TURN_DEG]))
    rotate = _rotation(-mean_turn)
    homography = rotate @ homography @ normal
    centres = _apply(rotate, centres)
    turns = np.degrees(turns - mean_turn)
    for fiducial_id, turn in zip(ids, turns, strict=True):
        if abs(turn) > MAX_TURN_DEG:
            raise TeachError(f"fiducial {fiducial_id} is turned {turn:+.0f} degrees from the others: stick it "
                             "square to the mat's edges, its 'toward player 1' edge toward player 1")
    return FiducialFit(homography / homography[2, 2],
                       MappingProxyType({i: (float(x), float(y)) for i, (x, y) in zip(ids, centres, strict=True)}),
                       MappingProxyType({i: float(t) for i, t in zip(ids, turns, strict=True)}),
                       MappingProxyType({i: float(sizes_mm[i]) for i in ids}), residual)


_UNIT_SQUARE = np.array([(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)])


def _normalising(points: FloatArray) -> FloatArray:
    """Hartley's conditioning: centred, mean distance sqrt(2); keeps the fit well scaled."""
    centre = points.mean(axis=0)
    scale = math.sqrt(2) / max(float(np.mean(np.linalg.norm(points - centre, axis=1))), 1e-9)
    return np.array([[scale, 0, -scale * centre[0]], [0, scale, -scale * centre[1]], [0, 0, 1]])


def _initial_guess(image: FloatArray, sides: FloatArray) -> FloatArray:
    """A similarity from the largest marker (scale and turn), the markers placed through it, no turns."""
    reference = int(np.argmax([_side(quad) for quad in image] / sides))
    quad = image[reference]
    scale = sides[reference] / _side(quad)
    along = (quad[1] - quad[0] + quad[2] - quad[3]) / 2
    angle = math.atan2(along[1], along[0])
    cos, sin = math.cos(-angle) * scale, math.sin(-angle) * scale
    similarity = np.array([[cos, -sin, 0.0], [sin, cos, 0.0], [0.0, 0.0, 1.0]])
    centres = _apply(similarity, image.mean(axis=1))
    return np.concatenate([similarity.ravel()[:8], centres.ravel(), np.zeros(len(image))])


def _side(quad: FloatArray) -> float:
    return float(np.mean(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)))


def _unpack(params: FloatArray, count: int) -> tuple[FloatArray, FloatArray, FloatArray]:
    homography = np.append(params[:8], 1.0).reshape(3, 3)
    centres = params[8 : 8 + 2 * count].reshape(count, 2)
    turns = params[8 + 2 * count :]
    return homography, centres, turns


def _residuals(params: FloatArray, image: FloatArray, sides: FloatArray) -> FloatArray:
    """Corners seen, mapped to the mat, minus each marker's square at its place and turn (mm)."""
    homography, centres, turns = _unpack(params, len(image))
    mapped = _apply(homography, image.reshape(-1, 2)).reshape(-1, 4, 2)
    cos, sin = np.cos(turns)[:, None], np.sin(turns)[:, None]
    unit = _UNIT_SQUARE[None] * sides[:, None, None]
    model = np.stack([unit[..., 0] * cos - unit[..., 1] * sin, unit[..., 0] * sin + unit[..., 1] * cos], axis=-1)
    # One marker's place and turn are free only up to the whole mat's: the first marker's turn is
    # held by a soft prior, or the fit could spin the mat with every marker on it.
    result: FloatArray = np.concatenate([(mapped - (model + centres[:, None, :])).ravel(), [turns[0] * 10.0]])
    return result


def _levenberg_marquardt(residuals: object, params: FloatArray, iterations: int = 60) -> FloatArray:
    function = residuals  # (params) -> residual vector
    assert callable(function)
    damping = 1e-3
    current = function(params)
    cost = float(current @ current)
    for _ in range(iterations):
        jacobian = _jacobian(function, params, current)
        gradient = jacobian.T @ current
        normal = jacobian.T @ jacobian
        while True:
            step = np.linalg.solve(normal + damping * np.diag(np.diag(normal) + 1e-12), -gradient)
            trial = params + step
            trial_residuals = function(trial)
            trial_cost = float(trial_residuals @ trial_residuals)
            if trial_cost < cost:
                params, current, cost = trial, trial_residuals, trial_cost
                damping = max(damping / 3, 1e-9)
                break
            damping *= 4
            if damping > 1e9:
                return params
        if float(np.max(np.abs(step))) < 1e-10:
            break
    return params


def _jacobian(function: object, params: FloatArray, at: FloatArray) -> FloatArray:
    assert callable(function)
    jacobian = np.empty((len(at), len(params)))
    for index in range(len(params)):
        delta = 1e-6 * max(1.0, abs(float(params[index])))
        moved = params.copy()
        moved[index] += delta
        jacobian[:, index] = (function(moved) - at) / delta
    return jacobian


def _apply(homography: FloatArray, points: FloatArray) -> FloatArray:
    flat = np.asarray(points, np.float64).reshape(-1, 1, 2)
    mapped: FloatArray = np.asarray(cv2.perspectiveTransform(flat, homography), np.float64).reshape(-1, 2)
    return mapped


def _rotation(angle: float) -> FloatArray:
    cos, sin = math.cos(angle), math.sin(angle)
    return np.array([[cos, -sin, 0.0], [sin, cos, 0.0], [0.0, 0.0, 1.0]])


# --------------------------------------------------------------------------- 2. the cards, in the order laid


@dataclass
class _Card:
    first_frame: int
    place: Point
    still: int = 1
    laid_at: int | None = None
    sum_x: float = 0.0
    sum_y: float = 0.0
    count: int = 0


@dataclass
class LaidCards:
    """Cards in the order they came to lie still, and where: the zones' centres, zone by zone."""

    settle_frames: int
    zones: Sequence[str] = ZONE_NAMES
    _cards: dict[str, _Card] = field(default_factory=dict)

    def add(self, frame: int, observation: FrameObservation) -> None:
        for card in observation.cards:
            known = self._cards.get(card.card_id)
            if known is None:
                self._cards[card.card_id] = _Card(frame, card.center_mm)
                continue
            if math.dist(known.place, card.center_mm) > SAME_PLACE_MM:
                # It moved (still in a hand, or nudged): its place starts again, its turn in the order stays.
                known.place, known.still, known.sum_x, known.sum_y, known.count = card.center_mm, 1, 0.0, 0.0, 0
                continue
            known.still += 1
            if known.still >= self.settle_frames:
                if known.laid_at is None:
                    known.laid_at = frame
                known.sum_x += card.center_mm[0]
                known.sum_y += card.center_mm[1]
                known.count += 1

    def laid(self) -> list[tuple[str, Point]]:
        """(card id, where it lies) of each card laid, in the order laid."""
        cards = sorted((c for c in self._cards.items() if c[1].laid_at is not None and c[1].count),
                       key=lambda item: (item[1].laid_at, item[1].first_frame))
        return [(card_id, (c.sum_x / c.count, c.sum_y / c.count)) for card_id, c in cards]

    def next_zone(self) -> str | None:
        """The zone whose card is to be laid next; None when every zone has one."""
        count = len(self.laid())
        return self.zones[count] if count < len(self.zones) else None

    def centres(self) -> dict[str, Point]:
        """Zone -> centre; TeachError naming the zones still without a card."""
        laid = self.laid()
        if len(laid) < len(self.zones):
            missing = list(self.zones[len(laid):])
            shown = ", ".join(missing[:4]) + (f" and {len(missing) - 4} more" if len(missing) > 4 else "")
            raise TeachError(f"{len(laid)} of {len(self.zones)} zones taught; no card was laid for {shown} "
                             f"(lay one card in each zone, in this order, each left in place)")
        return {zone: place for zone, (_, place) in zip(self.zones, laid, strict=False)}


# --------------------------------------------------------------------------- 3. the layout


def taught_layout(name: str, fit: FiducialFit, centres: Mapping[str, Point], card_mm: Point,
                  sticker_mm: float, fiducial_margin_mm: Mapping[int, float],
                  empty_mat: npt.NDArray[np.uint8] | None = None) -> Layout:
    """The layout: fiducials and zones in a frame whose origin is the top-left of everything taught.

    ``centres`` are in the frame of ``fit`` (the provisional layout's);
    ``fiducial_margin_mm`` is each fiducial's printed white margin;
    ``empty_mat`` a frame of the mat before any card was laid: with it the
    zones' borders follow the lines printed on the mat (:func:`printed_cells`).
    """
    outer = {i: fit.sizes_mm[i] / 2 + fiducial_margin_mm.get(i, 0.0) for i in fit.centres_mm}
    reach = math.hypot(*card_mm) / 2
    xs = [fit.centres_mm[i][0] + s * outer[i] for i in outer for s in (-1, 1)]
    ys = [fit.centres_mm[i][1] + s * outer[i] for i in outer for s in (-1, 1)]
    xs += [x + s * reach for x, _ in centres.values() for s in (-1, 1)]
    ys += [y + s * reach for _, y in centres.values() for s in (-1, 1)]
    left, top = min(xs) - MAT_MARGIN_MM, min(ys) - MAT_MARGIN_MM
    width, height = max(xs) + MAT_MARGIN_MM - left, max(ys) + MAT_MARGIN_MM - top

    def moved(point: Point) -> Point:
        return (round(point[0] - left, 1), round(point[1] - top, 1))

    fiducials = tuple(Fiducial(i, moved(fit.centres_mm[i]), round(fit.sizes_mm[i], 2)) for i in sorted(outer))
    sites = {zone: moved(point) for zone, point in centres.items()}
    keep_out = [(f.center_mm, outer[f.id] + FIDUCIAL_CLEARANCE_MM) for f in fiducials]
    zones = zone_cells(sites, (round(width, 1), round(height, 1)), keep_out)
    if empty_mat is not None:
        to_mat = np.array([[1.0, 0.0, -left], [0.0, 1.0, -top], [0.0, 0.0, 1.0]]) @ fit.homography
        zones = printed_cells(empty_mat, to_mat, sites, (width, height), keep_out) or zones
    layout = Layout(name, (round(width, 1), round(height, 1)), card_mm, sticker_mm, fiducials,
                    MappingProxyType(zones))
    problems = check_layout(layout)
    if problems:
        raise TeachError(f"the taught layout does not hold: {problems[0]}"
                         + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else "")
                         + ": lay each card nearer the middle of its zone, away from the fiducials")
    return layout


RECTIFY_PX_PER_MM = 2.0
"""Scale the empty mat is looked at for its printed lines: a 1 mm line is two pixels wide."""
SEED_MM = 12.0
"""Around each zone's card, the mat is taken as that zone's for sure."""


def printed_cells(frame: npt.NDArray[np.uint8], to_mat: FloatArray, sites: Mapping[str, Point], size_mm: Point,
                  keep_out: Sequence[tuple[Point, float]]) -> dict[str, Polygon] | None:
    """Zones grown from their cards over the empty mat until they meet, their borders on its printed lines.

    A watershed on the mat seen straight on: each zone floods outward from
    its card and stops where it meets another, which is on the strongest
    edge between them, the line the mat's maker printed there (a band's
    edge, a space's frame, a circle). On a plain cloth the borders fall
    where the floods meet. None when a zone's outline comes out unusable.
    """
    scale = RECTIFY_PX_PER_MM
    width, height = (max(1, round(v * scale)) for v in size_mm)
    warp = np.diag([scale, scale, 1.0]) @ to_mat
    flat = cv2.warpPerspective(frame if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR), warp,
                               (width, height), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    markers = np.zeros((height, width), np.int32)
    blocked = len(sites) + 1
    # The mat around the zones floods from its edge: a zone whose printed outline has a gap would
    # otherwise flow out over all the unprinted cloth.
    cv2.rectangle(markers, (0, 0), (width - 1, height - 1), (blocked,), 2)
    # A fiducial floods from its printed square only: its white margin's edge stops it. Seeded with its
    # clearance, it would start on the bare cloth and flow into a zone printed close beside it.
    for (cx, cy), half in keep_out:
        printed = half - FIDUCIAL_CLEARANCE_MM
        x0, y0, x1, y1 = (round(v * scale) for v in (cx - printed, cy - printed, cx + printed, cy + printed))
        cv2.rectangle(markers, (x0, y0), (x1, y1), (blocked,), cv2.FILLED)
    names = list(sites)
    for label, name in enumerate(names, start=1):
        x, y = sites[name]
        cv2.circle(markers, (round(x * scale), round(y * scale)), round(SEED_MM * scale), (label,), cv2.FILLED)
    cv2.watershed(cv2.GaussianBlur(flat, (3, 3), 0), markers)
    for (cx, cy), half in keep_out:  # zones stop short of every fiducial, its clearance included
        x0, y0, x1, y1 = (round(v * scale) for v in (cx - half, cy - half, cx + half, cy + half))
        cv2.rectangle(markers, (x0, y0), (x1, y1), (blocked,), cv2.FILLED)
    cells: dict[str, Polygon] = {}
    for label, name in enumerate(names, start=1):
        mask = cv2.erode((markers == label).astype(np.uint8), np.ones((3, 3), np.uint8))
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if not contours:
            return None
        outline = cv2.approxPolyDP(max(contours, key=cv2.contourArea), 1.5, True).reshape(-1, 2)
        if len(outline) < 3:
            return None
        cells[name] = tuple((round(float(x) / scale, 1), round(float(y) / scale, 1)) for x, y in outline)
    return cells


def zone_cells(sites: Mapping[str, Point], size_mm: Point,
               keep_out: Sequence[tuple[Point, float]] = ()) -> dict[str, Polygon]:
    """Each site's Voronoi cell inside the mat rectangle, cut back from square keep-out areas.

    ``keep_out`` holds (centre, half side) squares (the fiducials): each cell
    is cut by the one edge line of the square that best separates it from the
    cell's site, so cells stay convex and never reach under a fiducial.
    """
    width, height = size_mm
    rectangle: list[Point] = [(0.0, 0.0), (width, 0.0), (width, height), (0.0, height)]
    cells: dict[str, Polygon] = {}
    for name, site in sites.items():
        cell = rectangle
        for other_name, other in sites.items():
            if other_name == name:
                continue
            normal = (other[0] - site[0], other[1] - site[1])
            middle = ((site[0] + other[0]) / 2, (site[1] + other[1]) / 2)
            # A hair short of the bisector, so neighbours rounded to 0.1 mm never overlap.
            gap = BORDER_GAP_MM / 2 * math.hypot(*normal)
            cell = _clip(cell, normal, normal[0] * middle[0] + normal[1] * middle[1] - gap)
        for (cx, cy), half in keep_out:
            cell = _clip(cell, *_separating_edge(site, (cx, cy), half))
        cells[name] = tuple((round(x, 1), round(y, 1)) for x, y in cell)
    return cells


def _separating_edge(site: Point, centre: Point, half: float) -> tuple[Point, float]:
    """The half-plane n.x <= d holding ``site`` beyond one edge of the square at ``centre``."""
    dx, dy = site[0] - centre[0], site[1] - centre[1]
    if abs(dx) >= abs(dy):
        return ((-1.0, 0.0), -(centre[0] + half)) if dx > 0 else ((1.0, 0.0), centre[0] - half)
    return ((0.0, -1.0), -(centre[1] + half)) if dy > 0 else ((0.0, 1.0), centre[1] - half)


def _clip(polygon: Sequence[Point], normal: tuple[float, float], limit: float) -> list[Point]:
    """Sutherland-Hodgman: the part of a convex polygon where normal . x <= limit."""
    result: list[Point] = []
    count = len(polygon)
    for index in range(count):
        a, b = polygon[index], polygon[(index + 1) % count]
        da = normal[0] * a[0] + normal[1] * a[1] - limit
        db = normal[0] * b[0] + normal[1] * b[1] - limit
        if da <= 0:
            result.append(a)
        if (da < 0 < db) or (db < 0 < da):
            t = da / (da - db)
            result.append((a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])))
    return result
