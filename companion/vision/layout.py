"""The playmat layout: its size, fiducials and zones, in mat millimetres.

The layout file is the contract of ``interfaces.md`` section 2: origin at the
mat's top-left corner as the camera sees it, x to the right, y down, player 1
at the bottom edge. A card belongs to the zone that contains the centre of
the card (:meth:`Layout.zone_at`), found from whichever of its two stickers
are read (:mod:`companion.vision.stickers`).

>>> layout = load_layout()
>>> layout.zone_at(layout.zone_center("m1.mountain"))
'm1.mountain'
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from companion.errors import LayoutError, LimitError
from companion.limits import MAX_LAYOUT_BYTES, parse_json, read_bytes
from companion.vision.stickers import stickers_clash
from companion.vocab.zones import MOUNTAINS_ZONE_NAMES as MOUNTAINS_ZONE_NAMES  # each ruleset's zones: defined
from companion.vocab.zones import ZONE_NAMES as ZONE_NAMES  # once there

Point = tuple[float, float]
Polygon = tuple[Point, ...]

ZONES_OF_RULESET: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {"mandala": ZONE_NAMES, "mountains": MOUNTAINS_ZONE_NAMES})
"""The zones of each ruleset's playmat, by ruleset name (a layout names its ruleset; default mandala)."""

LAYOUTS_DIR: Path = Path(__file__).resolve().parents[2] / "calibration" / "layouts"
DEFAULT_LAYOUT_PATH: Path = LAYOUTS_DIR / "mandala-playmat.json"


def default_layout_path(ruleset: str = "mandala") -> Path:
    """Each ruleset's shipped playmat: ``calibration/layouts/<ruleset>-playmat.json``."""
    if ruleset not in ZONES_OF_RULESET:
        raise LayoutError(f"no playmat for ruleset {ruleset!r}: expected {' or '.join(ZONES_OF_RULESET)}")
    return LAYOUTS_DIR / f"{ruleset}-playmat.json"

ARUCO_DICTIONARY_SIZE = 50
"""Fiducial ids come from ArUco ``DICT_4X4_50``: 0..49."""
_EPSILON_MM = 1e-6


@dataclass(frozen=True)
class Fiducial:
    """One ArUco marker on the mat: its id, centre and printed side (black border included)."""

    id: int
    center_mm: Point
    size_mm: float

    def corners_mm(self) -> Polygon:
        """The marker's square, clockwise from its top-left corner (as ArUco reports them)."""
        x, y = self.center_mm
        half = self.size_mm / 2
        return (
            (x - half, y - half),
            (x + half, y - half),
            (x + half, y + half),
            (x - half, y + half),
        )


@dataclass(frozen=True)
class Layout:
    """A playmat: its size, the card and sticker sizes, fiducials and named zones."""

    name: str
    size_mm: Point
    card_mm: Point
    sticker_mm: float
    fiducials: tuple[Fiducial, ...]
    zones: Mapping[str, Polygon]
    ruleset: str = "mandala"
    """The game this mat is printed for (``"ruleset"`` in the file; its zones are that game's)."""

    def __hash__(self) -> int:
        # zones is a mapping, which is not hashable; hash its items so a layout
        # can key caches (the renderer caches the mat texture per layout).
        return hash(
            (
                self.name,
                self.size_mm,
                self.card_mm,
                self.sticker_mm,
                self.fiducials,
                tuple(sorted(self.zones.items())),
                self.ruleset,
            )
        )

    def zone_at(self, point_mm: Point) -> str | None:
        """The zone containing the point (boundary included), or None outside every zone.

        Zones must not overlap (:func:`check_layout`); on a shared border the
        first zone in :data:`ZONE_NAMES` order wins, so the answer is stable.
        """
        for name in self.zone_order():
            if point_in_polygon(point_mm, self.zones[name]):
                return name
        return None

    def zone_center(self, name: str) -> Point:
        """The centroid of a zone's polygon; raises KeyError (a LayoutError) for an unknown name."""
        try:
            polygon = self.zones[name]
        except KeyError:
            raise LayoutError(f"layout {self.name!r} has no zone {name!r}") from None
        return polygon_centroid(polygon)

    def fiducial(self, fiducial_id: int) -> Fiducial | None:
        """The fiducial with this ArUco id, or None."""
        return next((f for f in self.fiducials if f.id == fiducial_id), None)

    @property
    def zone_names(self) -> tuple[str, ...]:
        """The zones this layout's ruleset requires, in interfaces.md order."""
        return ZONES_OF_RULESET.get(self.ruleset, ZONE_NAMES)

    def zone_order(self) -> Iterator[str]:
        """The zone names in the order :meth:`zone_at` tries them: interfaces.md's first, then any others."""
        names = self.zone_names
        yield from (name for name in names if name in self.zones)
        yield from (name for name in self.zones if name not in names)


# --------------------------------------------------------------------------- loading


def load_layout(path: str | Path | None = None, *, check: bool = True) -> Layout:
    """Read a layout file (default :data:`DEFAULT_LAYOUT_PATH`).

    Raises :class:`LayoutError` with one line naming the file and the problem,
    for unreadable or malformed files and, when ``check`` is true, for the
    first problems :func:`check_layout` finds (``companion layout check``
    passes ``check=False`` to list them all).
    """
    file = Path(path) if path is not None else DEFAULT_LAYOUT_PATH
    try:
        document = parse_json(read_bytes(file, MAX_LAYOUT_BYTES).decode("utf-8"), max_chars=MAX_LAYOUT_BYTES)
    except OSError as error:
        raise LayoutError(f"{file}: cannot read layout: {error.strerror or error}") from None
    except LimitError as error:
        raise LayoutError(f"{file}: {error}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise LayoutError(f"{file}: not valid JSON: {error}") from None
    try:
        layout = layout_from_dict(document)
    except LayoutError as error:
        raise LayoutError(f"{file}: {error}") from None
    if check:
        problems = check_layout(layout)
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise LayoutError(f"{file}: {problems[0]}{more}")
    return layout


def layout_from_dict(document: Any) -> Layout:
    """Build a layout from the parsed JSON document; LayoutError names the bad key."""
    if not isinstance(document, dict):
        raise LayoutError("layout must be a JSON object")
    name = document.get("name", "")
    if not isinstance(name, str) or not name:
        raise LayoutError("'name' must be a non-empty string")
    size = _positive_pair(_required(document, "size_mm"), "size_mm")
    card = _positive_pair(_required(document, "card_mm"), "card_mm")
    sticker = _positive_number(_required(document, "sticker_mm"), "sticker_mm")
    raw_fiducials = _required(document, "fiducials")
    if not isinstance(raw_fiducials, list):
        raise LayoutError("'fiducials' must be a list")
    fiducials = tuple(_fiducial(item, index) for index, item in enumerate(raw_fiducials))
    raw_zones = _required(document, "zones")
    if not isinstance(raw_zones, dict):
        raise LayoutError("'zones' must be an object of name -> polygon")
    zones = {str(zone): _polygon(points, f"zones.{zone}") for zone, points in raw_zones.items()}
    ruleset = document.get("ruleset", "mandala")
    if ruleset not in ZONES_OF_RULESET:
        raise LayoutError(f"'ruleset' must be {' or '.join(map(repr, ZONES_OF_RULESET))}, not {ruleset!r}")
    return Layout(name, size, card, sticker, fiducials, MappingProxyType(zones), ruleset)


def layout_to_dict(layout: Layout) -> dict[str, Any]:
    """The JSON document of a layout (inverse of :func:`layout_from_dict`)."""
    document: dict[str, Any] = {"name": layout.name}
    if layout.ruleset != "mandala":  # the official game's files stay as interfaces.md shows them
        document["ruleset"] = layout.ruleset
    return document | {
        "size_mm": list(layout.size_mm),
        "card_mm": list(layout.card_mm),
        "sticker_mm": layout.sticker_mm,
        "fiducials": [
            {"id": f.id, "center_mm": list(f.center_mm), "size_mm": f.size_mm}
            for f in layout.fiducials
        ],
        "zones": {
            name: [list(point) for point in polygon] for name, polygon in layout.zones.items()
        },
    }


def _required(document: dict[str, Any], key: str) -> Any:
    if key not in document:
        raise LayoutError(f"missing key {key!r}")
    return document[key]


MAX_MM = 10_000.0
"""Every length of a layout is within 10 m: a playmat is under 1 m; beyond that a number is a slip."""


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise LayoutError(f"{where} must be a finite number, got {value!r}")
    if abs(value) > MAX_MM:
        raise LayoutError(f"{where} must be within {MAX_MM:g} mm, got {value!r}")
    return float(value)


def _positive_number(value: Any, where: str) -> float:
    number = _number(value, where)
    if number <= 0:
        raise LayoutError(f"{where} must be positive, got {value!r}")
    return number


def _pair(value: Any, where: str) -> Point:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise LayoutError(f"{where} must be a pair [x, y], got {value!r}")
    return (_number(value[0], where), _number(value[1], where))


def _positive_pair(value: Any, where: str) -> Point:
    x, y = _pair(value, where)
    if x <= 0 or y <= 0:
        raise LayoutError(f"{where} must be positive, got {value!r}")
    return (x, y)


def _fiducial(item: Any, index: int) -> Fiducial:
    where = f"fiducials[{index}]"
    if not isinstance(item, dict):
        raise LayoutError(f"{where} must be an object with id, center_mm, size_mm")
    raw_id = _required_in(item, "id", where)
    if isinstance(raw_id, bool) or not isinstance(raw_id, int):
        raise LayoutError(f"{where}.id must be an integer, got {raw_id!r}")
    center = _pair(_required_in(item, "center_mm", where), f"{where}.center_mm")
    size = _positive_number(_required_in(item, "size_mm", where), f"{where}.size_mm")
    return Fiducial(raw_id, center, size)


def _required_in(item: dict[str, Any], key: str, where: str) -> Any:
    if key not in item:
        raise LayoutError(f"{where} is missing {key!r}")
    return item[key]


def _polygon(points: Any, where: str) -> Polygon:
    if not isinstance(points, list) or len(points) < 3:
        raise LayoutError(f"{where} must be a list of at least 3 [x, y] points")
    return tuple(_pair(point, where) for point in points)


# --------------------------------------------------------------------------- checking


def check_layout(layout: Layout) -> list[str]:
    """Everything wrong with a layout, one human line each; [] when it is fine."""
    problems: list[str] = []
    problems += [f"missing zone {name!r}" for name in layout.zone_names if name not in layout.zones]
    if stickers_clash(layout.card_mm, layout.sticker_mm):
        problems.append(f"sticker_mm {layout.sticker_mm:g} is too large for two stickers on a "
                        f"{_fmt(layout.card_mm)} mm card: their codes would cover each other")
    problems += _fiducial_problems(layout)
    problems += _zone_shape_problems(layout)
    problems += _overlap_problems(layout)
    return problems


def _fiducial_problems(layout: Layout) -> list[str]:
    problems: list[str] = []
    seen: set[int] = set()
    for fiducial in layout.fiducials:
        label = f"fiducial {fiducial.id}"
        if not 0 <= fiducial.id < ARUCO_DICTIONARY_SIZE:
            problems.append(
                f"{label}: id must be 0..{ARUCO_DICTIONARY_SIZE - 1} (ArUco DICT_4X4_50)"
            )
        if fiducial.id in seen:
            problems.append(f"{label}: id used twice")
        seen.add(fiducial.id)
        if not _inside_mat(fiducial.corners_mm(), layout.size_mm):
            problems.append(f"{label} at {_fmt(fiducial.center_mm)} is not inside the mat")
        for zone, polygon in layout.zones.items():
            if polygons_overlap(fiducial.corners_mm(), polygon):
                problems.append(f"{label} at {_fmt(fiducial.center_mm)} overlaps zone {zone!r}")
    problems += _fiducial_pair_problems(layout.fiducials)
    if len(layout.fiducials) < 4:
        problems.append(f"only {len(layout.fiducials)} fiducials; a homography needs at least 4")
    return problems


def _fiducial_pair_problems(fiducials: Sequence[Fiducial]) -> list[str]:
    problems = []
    for index, first in enumerate(fiducials):
        for second in fiducials[index + 1 :]:
            if polygons_overlap(first.corners_mm(), second.corners_mm()):
                problems.append(f"fiducials {first.id} and {second.id} overlap")
    return problems


def _zone_shape_problems(layout: Layout) -> list[str]:
    problems = []
    card_w, card_h = layout.card_mm
    for name, polygon in layout.zones.items():
        if abs(polygon_area(polygon)) < _EPSILON_MM:
            problems.append(f"zone {name!r} has no area")
            continue
        if not _inside_mat(polygon, layout.size_mm):
            problems.append(f"zone {name!r} is not inside the {_fmt(layout.size_mm)} mm mat")
        if not _fits_card(polygon, layout.card_mm):
            problems.append(
                f"zone {name!r} is too small for a {card_w:g}x{card_h:g} mm card around its centre"
            )
    return problems


def _overlap_problems(layout: Layout) -> list[str]:
    names = list(layout.zones)
    problems = []
    for index, first in enumerate(names):
        for second in names[index + 1 :]:
            if polygons_overlap(layout.zones[first], layout.zones[second]):
                problems.append(f"zones {first!r} and {second!r} overlap")
    return problems


def _inside_mat(polygon: Polygon, size_mm: Point) -> bool:
    width, height = size_mm
    return all(
        -_EPSILON_MM <= x <= width + _EPSILON_MM and -_EPSILON_MM <= y <= height + _EPSILON_MM
        for x, y in polygon
    )


def _fits_card(polygon: Polygon, card_mm: Point) -> bool:
    """Whether an upright card centred on the zone's centroid lies inside the zone."""
    cx, cy = polygon_centroid(polygon)
    half_w, half_h = card_mm[0] / 2, card_mm[1] / 2
    card = (
        (cx - half_w, cy - half_h),
        (cx + half_w, cy - half_h),
        (cx + half_w, cy + half_h),
        (cx - half_w, cy + half_h),
    )
    inside = all(point_in_polygon(corner, polygon) for corner in card)
    return inside and not _edges_cross(card, polygon)


def _fmt(point: Point) -> str:
    return f"({point[0]:g}, {point[1]:g})"


# --------------------------------------------------------------------------- geometry
# Small, dependency-free polygon helpers; zones are few and simple, so clarity
# wins over speed here.


def polygon_area(polygon: Polygon) -> float:
    """Signed area (shoelace); positive for clockwise polygons in y-down coordinates."""
    return 0.5 * sum(
        x0 * y1 - x1 * y0
        for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1], strict=True)
    )


def polygon_centroid(polygon: Polygon) -> Point:
    """The area centroid of a simple polygon (vertex mean when it has no area)."""
    area = polygon_area(polygon)
    if abs(area) < _EPSILON_MM:
        xs, ys = zip(*polygon, strict=True)
        return (sum(xs) / len(xs), sum(ys) / len(ys))
    cx = cy = 0.0
    for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        cross = x0 * y1 - x1 * y0
        cx += (x0 + x1) * cross
        cy += (y0 + y1) * cross
    return (cx / (6 * area), cy / (6 * area))


def point_in_polygon(point: Point, polygon: Polygon) -> bool:
    """Whether the point lies inside the polygon or on its border."""
    x, y = point
    inside = False
    for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        if _on_segment(point, (x0, y0), (x1, y1)):
            return True
        if (y0 > y) != (y1 > y):
            crossing_x = x0 + (y - y0) * (x1 - x0) / (y1 - y0)
            if x < crossing_x:
                inside = not inside
    return inside


def polygons_overlap(first: Polygon, second: Polygon) -> bool:
    """Whether two polygons share interior area (touching borders do not count)."""
    if _edges_cross(first, second):
        return True
    # No proper crossing: either disjoint, touching, or one inside the other.
    # Test a point strictly inside each polygon against the other.
    return any(
        _strictly_inside(_interior_point(a), b) for a, b in ((first, second), (second, first))
    )


def _edges_cross(first: Polygon, second: Polygon) -> bool:
    """Whether an edge of one properly crosses an edge of the other (not just touching)."""
    edges_a = list(zip(first, first[1:] + first[:1], strict=True))
    edges_b = list(zip(second, second[1:] + second[:1], strict=True))
    return any(_segments_cross(a0, a1, b0, b1) for a0, a1 in edges_a for b0, b1 in edges_b)


def _segments_cross(a0: Point, a1: Point, b0: Point, b1: Point) -> bool:
    d1, d2 = _orient(b0, b1, a0), _orient(b0, b1, a1)
    d3, d4 = _orient(a0, a1, b0), _orient(a0, a1, b1)
    return d1 * d2 < 0 and d3 * d4 < 0


def _orient(a: Point, b: Point, c: Point) -> float:
    value = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return 0.0 if abs(value) < _EPSILON_MM else value


def _on_segment(point: Point, start: Point, end: Point) -> bool:
    if _orient(start, end, point) != 0.0:
        return False
    return (
        min(start[0], end[0]) - _EPSILON_MM <= point[0] <= max(start[0], end[0]) + _EPSILON_MM
        and min(start[1], end[1]) - _EPSILON_MM <= point[1] <= max(start[1], end[1]) + _EPSILON_MM
    )


def _strictly_inside(point: Point, polygon: Polygon) -> bool:
    return point_in_polygon(point, polygon) and not any(
        _on_segment(point, a, b) for a, b in zip(polygon, polygon[1:] + polygon[:1], strict=True)
    )


def _interior_point(polygon: Polygon) -> Point:
    """A point strictly inside a simple polygon: the centroid when it is, else a nudged vertex."""
    centroid = polygon_centroid(polygon)
    if _strictly_inside(centroid, polygon):
        return centroid
    # Non-convex polygon whose centroid falls outside: step from each vertex
    # a little toward the centroid until a point lands inside.
    for x, y in polygon:
        for fraction in (0.01, 0.1, 0.3):
            candidate = (x + (centroid[0] - x) * fraction, y + (centroid[1] - y) * fraction)
            if _strictly_inside(candidate, polygon):
                return candidate
    return centroid
