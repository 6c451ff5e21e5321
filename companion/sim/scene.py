"""Render one camera frame of a Mandala table, with its ground truth.

The pipeline, chosen for speed and for honest pixels:

1. the mat (printed zones, mandalas, fiducials) is drawn once per layout and
   scale into a texture at about the frame's pixels per millimetre, and
   warped into the frame with the camera homography;
2. each card (and foreign code) is drawn once into its own texture, its
   sticker's modules painted with exact area coverage
   (:mod:`companion.markers.paint`), and warped straight into the frame with the
   composed card -> mat -> image homography, so every card is resampled once,
   near 1:1, with anti-aliased edges; later cards cover earlier ones;
3. a hand and its shadow; then the camera model of :mod:`companion.sim.optics`
   in one remap: the cloth pulled in its plane and lifted off the table (seen
   in parallax), the lens's distortion (the mat and cards are drawn into a
   pinhole canvas large enough for it); then light (gain, gradient,
   vignette, glare), motion blur, defocus (uniform, or growing toward the
   corners with field curvature), sensor noise and JPEG.

Truth is geometric: a sticker is visible when no later card, foreign code
or the hand overlaps its square (quiet zone included) and the square lies in
the frame; a card is visible when one of its stickers is. Glare, blur and
noise do not change it; measuring what they cost is the benchmark's job.

A card carries two stickers (:mod:`companion.vision.stickers`): one upright
in its top-left corner, one turned half a turn in its bottom-right corner;
an old card (``stickers=1``) only the first. Rotation convention:
``rotation_deg`` turns a card counter-clockwise as the camera sees it. At 0
the first sticker is at the card's top-left, at 90 bottom-left, at 180
bottom-right, at 270 top-right.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING

import cv2
import numpy as np
import numpy.typing as npt

from companion.errors import CompanionError
from companion.markers.codes import (
    ALL_CARD_IDS,
    CARD_FACE_BGR,
    GOLD_FACE_BGR,
    PRINT_BLACK_BGR,
    STICKER_PAPER_BGR,
    color_name_of,
    label_strip_width_mm,
    payload_for,
    sticker_cut_mm,
    sticker_modules,
)
from companion.markers.paint import paint_modules
from companion.sim.optics import Cloth, cloth_of, field_blur, field_sigma, resample, to_frame
from companion.vision.framing import SceneCamera, place_camera
from companion.vision.layout import Layout, Point, Polygon
from companion.vision.stickers import STICKER_TURNS_DEG, sticker_offsets_mm
from companion.vocab import zones as zone_names

if TYPE_CHECKING:
    from cv2.typing import MatLike

Image = npt.NDArray[np.uint8]
Matrix = npt.NDArray[np.float64]


def _u8(result: MatLike) -> Image:
    """An OpenCV result known to be uint8 (OpenCV keeps its input's depth; its stubs only say "numeric")."""
    return np.asarray(result, dtype=np.uint8)


def _f64(result: MatLike) -> npt.NDArray[np.float64]:
    """An OpenCV result known to be float64 (as :func:`_u8`)."""
    return np.asarray(result, dtype=np.float64)


class SceneError(CompanionError, ValueError):
    """A scene that cannot be rendered: bad option value, unknown card id."""


# --------------------------------------------------------------------------- scene values


@dataclass(frozen=True)
class PlacedCard:
    """A card on the table: its centre on the mat, rotation (CCW as seen), face up or down.

    ``stickers`` is 2 for the printed set (top-left and bottom-right corners)
    and 1 for an old card with only the top-left sticker. ``face_color`` is
    the color printed on the card when it is not the color of ``card_id``:
    a card stuck with a sticker of another color (``companion markers check``
    finds those); the stickers always carry ``card_id``.
    """

    card_id: str
    center_mm: Point
    rotation_deg: float = 0.0
    face_up: bool = True
    stickers: int = 2
    face_color: str | None = None

    def to_mat(self, offset_mm: Point) -> Point:
        """Mat position of a point given relative to the upright card's centre."""
        return _rotate_translate(offset_mm, self.rotation_deg, self.center_mm)

    def corners_mm(self, card_mm: Point) -> Polygon:
        """The card's outline on the mat."""
        half_w, half_h = card_mm[0] / 2, card_mm[1] / 2
        return _square_at(self, (0.0, 0.0), (half_w, half_h))

    def sticker_centers_mm(self, card_mm: Point, sticker_mm: float) -> tuple[Point, ...]:
        """Where this card's sticker centres lie on the mat, top-left sticker first."""
        return tuple(self.to_mat(offset) for offset in sticker_offsets_mm(card_mm, sticker_mm)[: self.stickers])

    def sticker_squares_mm(self, card_mm: Point, sticker_mm: float) -> tuple[Polygon, ...]:
        """Each sticker's square (quiet zone included) on the mat, its corners in the code's own
        order: top-left, top-right, bottom-right, bottom-left of the code as printed."""
        half = sticker_mm / 2
        squares = []
        for offset, turn in zip(sticker_offsets_mm(card_mm, sticker_mm)[: self.stickers], STICKER_TURNS_DEG,
                                strict=False):
            square = _square_at(self, offset, (half, half))
            steps = round(turn / 90) % 4  # the code's top-left is the square's corner turned with it
            squares.append(square[steps:] + square[:steps])
        return tuple(squares)


@dataclass(frozen=True)
class ForeignCode:
    """A QR code that is not ours (a stranger's slip, ``MDL-Z99``, binary junk) lying on the mat."""

    payload: str
    center_mm: Point
    size_mm: float = 16.0
    """Side of the white slip; the code with its quiet zone fills it."""
    rotation_deg: float = 0.0

    def corners_mm(self) -> Polygon:
        half = self.size_mm / 2
        placed = PlacedCard("", self.center_mm, self.rotation_deg)
        return _square_at(placed, (0.0, 0.0), (half, half))


@dataclass(frozen=True)
class SceneOptions:
    """Camera, light and disturbances of one frame. The defaults are a clean, straight-down view."""

    resolution: tuple[int, int] = (4608, 2592)
    """Frame (width, height) in pixels."""
    sticker_mm: float | None = None
    """Printed sticker side; None takes the layout's."""
    hfov_deg: float = 66.0
    """Horizontal field of view (Camera Module 3 standard lens: 66)."""
    fill: float = 0.9
    """Fraction of the frame the untilted mat fills along its tighter dimension."""
    tilt_deg: float = 0.0
    """Camera tilt away from straight down (perspective)."""
    tilt_axis_deg: float = 0.0
    """Direction of the tilt axis in the mat plane (0: the mat's x axis)."""
    roll_deg: float = 0.0
    """Rotation of the mat in the frame."""
    shift_px: tuple[float, float] = (0.0, 0.0)
    """Where the mat centre sits relative to the frame centre."""
    light_gain: float = 1.0
    """Overall exposure, 0.5 (dim) .. 1.5 (bright, whites clip)."""
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0)
    """Gain of the blue, green and red channels on top of ``light_gain``: a warm lamp (red up, blue down),
    daylight, a camera's white balance off (each 0.5 .. 2)."""
    gradient: float = 0.0
    """Light falling off across the table: relative gain difference edge to edge (0..1)."""
    vignette: float = 0.0
    """Relative darkening in the frame corners (0..1)."""
    blur_sigma: float = 0.0
    """Gaussian defocus blur, pixels."""
    motion_mm: float = 0.0
    """Motion blur (a bumped table or camera): length of the smear in millimetres of the mat."""
    motion_deg: float = 0.0
    """Direction of the motion blur in the frame, counter-clockwise from the x axis."""
    noise_sigma: float = 0.0
    """Gaussian sensor noise, grey levels."""
    jpeg_quality: int | None = None
    """JPEG round trip at this quality (None: none)."""
    glare: float = 0.0
    """Strength of a specular glare spot (0..1), somewhere on the mat (from the seed)."""
    hand: tuple[Point, ...] | None = None
    """Polygon in mat millimetres of a hand/arm over the table (see :func:`arm_polygon`)."""
    crease: float = 0.0
    """Largest displacement in mm of the creased cloth, in the table's plane, from where the mat's plane puts it."""
    lift_mm: float = 0.0
    """Largest height in mm of the cloth above the table (fold ridges, soft bumps), seen in parallax."""
    distortion: tuple[float, ...] = ()
    """The lens's distortion, OpenCV's (k1, k2, p1, p2, k3) on the focal length of ``hfov_deg``; () none."""
    corner_blur: float = 0.0
    """Defocus blur sigma (px) in the frame corners with the lens focused for the centre (field curvature)."""
    focus: float = 0.0
    """Where the lens is focused: 0 for the centre, 1 for the frame corners, beyond either the lens is further
    off (see :mod:`companion.sim.optics`)."""
    foreign_codes: tuple[ForeignCode, ...] = ()
    seed: int = 0

    def __post_init__(self) -> None:
        width, height = self.resolution
        checks = (
            (width >= 16 and height >= 16, f"resolution {self.resolution} too small"),
            (self.sticker_mm is None or self.sticker_mm > 0, "sticker_mm must be positive"),
            (0 < self.hfov_deg < 170, f"hfov_deg {self.hfov_deg} out of range"),
            (0 < self.fill <= 2, f"fill {self.fill} out of range"),
            (0 <= self.tilt_deg < 60, f"tilt_deg {self.tilt_deg} out of 0..60"),
            (self.light_gain > 0, "light_gain must be positive"),
            (len(self.white_balance) == 3 and all(0.5 <= w <= 2 for w in self.white_balance),
             f"white_balance {self.white_balance}: three channel gains in 0.5..2"),
            (0 <= self.gradient <= 1 and 0 <= self.vignette <= 1, "gradient/vignette out of 0..1"),
            (self.blur_sigma >= 0 and self.noise_sigma >= 0, "blur/noise sigma must be >= 0"),
            (self.motion_mm >= 0, "motion_mm must be >= 0"),
            (self.jpeg_quality is None or 1 <= self.jpeg_quality <= 100, "jpeg_quality out of 1..100"),
            (0 <= self.glare <= 1, f"glare {self.glare} out of 0..1"),
            (self.crease >= 0 and self.lift_mm >= 0, "crease and lift_mm must be >= 0"),
            (len(self.distortion) in (0, 2, 4, 5), "distortion takes 2, 4 or 5 coefficients"),
            (self.corner_blur >= 0 and -2 <= self.focus <= 3, "corner_blur must be >= 0 and focus in -2..3"),
            (self.hand is None or len(self.hand) >= 3, "hand polygon needs at least 3 points"),
        )
        for ok, message in checks:
            if not ok:
                raise SceneError(f"scene options: {message}")


@dataclass(frozen=True)
class StickerTruth:
    """One sticker of a card: where it lies and whether a perfect reader sees it."""

    center_mm: Point
    """Sticker centre on the mat, in the mat's own (cloth) coordinates."""
    visible: bool
    """Face up, fully unoccluded by later cards, codes or the hand, and inside the frame."""
    center_px: Point = (math.nan, math.nan)
    """Sticker centre in the frame (pixel centres at integers), crease included."""


@dataclass(frozen=True)
class CardTruth:
    """What a perfect reader would report for one card on the table."""

    card_id: str
    zone: str | None
    """The zone containing the card's centre (None: outside every zone)."""
    center_mm: Point
    """Card centre on the mat, in the mat's own (cloth) coordinates."""
    visible: bool
    """At least one of its stickers is visible (face up, fully unoccluded, inside the frame)."""
    center_px: Point = (math.nan, math.nan)
    """Card centre in the frame (pixel centres at integers), crease included."""
    face_up: bool = True
    stickers: tuple[StickerTruth, ...] = ()
    """Each sticker, top-left first."""


@dataclass(frozen=True)
class RenderedScene:
    image: Image
    """BGR uint8 frame."""
    truth: tuple[CardTruth, ...]
    """One entry per placed card, in drawing order."""
    mat_to_image: Matrix
    """3x3 homography from mat mm to pinhole frame pixels (nominal: before the cloth and the lens)."""
    px_per_mm: float = field(default=0.0)
    """Nominal scale at the mat centre."""
    camera: SceneCamera | None = None
    """The camera that took it (its ``lens`` is the true lens model)."""

    def visible_truth(self) -> tuple[CardTruth, ...]:
        return tuple(t for t in self.truth if t.visible)


def parse_resolution(text: str) -> tuple[int, int]:
    """``"4608x2592"`` -> (4608, 2592); a ConfigError naming the text otherwise (or a size no image may have)."""
    from companion.errors import ConfigError
    from companion.vision.frames import MAX_IMAGE_PIXELS

    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise ConfigError(f"--resolution {text!r}: expected WIDTHxHEIGHT, like 4608x2592") from None
    if not (16 <= width <= 16384 and 16 <= height <= 16384 and width * height <= MAX_IMAGE_PIXELS):
        raise ConfigError(f"--resolution {text}: each side 16..16384 pixels, at most "
                          f"{MAX_IMAGE_PIXELS // 1_000_000} MP in all (the camera's is 4608x2592)")
    return width, height


# --------------------------------------------------------------------------- rendering


def render_table(layout: Layout, cards: Sequence[PlacedCard], options: SceneOptions = SceneOptions()) -> RenderedScene:
    """Render the table as the camera sees it; cards are drawn in order, later on top."""
    _check_cards(cards)
    sticker_mm = options.sticker_mm or layout.sticker_mm
    camera = scene_camera(layout.size_mm, options)
    homography = camera.homography
    texture_scale = _texture_scale(homography, layout.size_mm)
    offset, canvas, size = _canvas(camera)

    image = _warp_mat(layout, canvas, texture_scale, size)
    for card in cards:
        texture = _card_texture(card.card_id, card.face_up, layout.card_mm, sticker_mm, texture_scale, card.stickers,
                                card.face_color)
        _composite(image, texture, canvas, card.center_mm, card.rotation_deg, layout.card_mm)
    for code in options.foreign_codes:
        texture = _slip_texture(code.payload, code.size_mm, texture_scale)
        _composite(image, texture, canvas, code.center_mm, code.rotation_deg, (code.size_mm, code.size_mm))
    if options.hand is not None:
        _draw_hand(image, canvas, options.hand)
    cloth = cloth_of(camera, layout.size_mm, options.crease, options.lift_mm, options.seed)
    image = resample(image, camera, cloth, offset)
    image = _photometric(image, homography, layout.size_mm, options)

    truth = _truth(layout, cards, options, sticker_mm, camera, cloth)
    return RenderedScene(image, truth, homography, _scale_at(homography, _center(layout.size_mm)), camera)


class Renderer:
    """Renders a sequence of related scenes faster than :func:`render_table` one by one.

    Consecutive shots of a game mostly add cards on top of the last ones or
    pass a hand over them: the mat with the cards is kept, and only new cards
    are laid on it; a hand, the crease and the light are applied afresh each
    time. The images are the same as :func:`render_table` gives.
    """

    def __init__(self, layout: Layout, options: SceneOptions = SceneOptions()) -> None:
        self.layout = layout
        self.options = options
        self.sticker_mm = options.sticker_mm or layout.sticker_mm
        self.camera = scene_camera(layout.size_mm, options)
        self.homography = self.camera.homography
        self.scale = _texture_scale(self.homography, layout.size_mm)
        self._offset, self._canvas, self._size = _canvas(self.camera)
        self._mat: Image | None = None
        self._cards: tuple[PlacedCard, ...] = ()
        self._laid: Image | None = None

    def render(self, cards: Sequence[PlacedCard], hand: tuple[Point, ...] | None = None, seed: int = 0,
               motion_mm: float = 0.0, motion_deg: float = 0.0) -> Image:
        """The frame of these cards (and hand); ``motion_mm`` > 0 smears it as a bumped table would."""
        options = replace(self.options, hand=hand, seed=seed, motion_mm=motion_mm, motion_deg=motion_deg)
        image = self._with_cards(tuple(cards)).copy()
        for code in options.foreign_codes:
            texture = _slip_texture(code.payload, code.size_mm, self.scale)
            _composite(image, texture, self._canvas, code.center_mm, code.rotation_deg, (code.size_mm, code.size_mm))
        if hand is not None:
            _draw_hand(image, self._canvas, hand)
        cloth = cloth_of(self.camera, self.layout.size_mm, options.crease, options.lift_mm, options.seed)
        image = resample(image, self.camera, cloth, self._offset)
        return _photometric(image, self.homography, self.layout.size_mm, options)

    def _with_cards(self, cards: tuple[PlacedCard, ...]) -> Image:
        _check_cards(cards)
        if self._mat is None:
            self._mat = _warp_mat(self.layout, self._canvas, self.scale, self._size)
        known = len(self._cards)
        if self._laid is not None and cards[:known] == self._cards:
            image, new = self._laid.copy(), cards[known:]
        else:
            image, new = self._mat.copy(), cards
        for card in new:
            texture = _card_texture(
                card.card_id, card.face_up, self.layout.card_mm, self.sticker_mm, self.scale, card.stickers,
                card.face_color,
            )
            _composite(image, texture, self._canvas, card.center_mm, card.rotation_deg, self.layout.card_mm)
        self._cards, self._laid = cards, image
        return image


def _check_cards(cards: Sequence[PlacedCard]) -> None:
    for card in cards:
        if card.card_id not in _CARD_ID_SET:
            raise SceneError(f"scene: unknown card id {card.card_id!r}")
        if card.face_color is not None and card.face_color not in _FACE_BGR:
            raise SceneError(f"scene: card {card.card_id}: unknown face color {card.face_color!r} "
                             f"(one of {', '.join(_FACE_BGR)})")


def scene_truth(
    layout: Layout, cards: Sequence[PlacedCard], options: SceneOptions = SceneOptions()
) -> tuple[CardTruth, ...]:
    """What :func:`render_table` would report as truth, without rendering (observation-level simulation)."""
    sticker_mm = options.sticker_mm or layout.sticker_mm
    camera = scene_camera(layout.size_mm, options)
    cloth = cloth_of(camera, layout.size_mm, options.crease, options.lift_mm, options.seed)
    return _truth(layout, cards, options, sticker_mm, camera, cloth)


def scene_camera(size_mm: Point, options: SceneOptions = SceneOptions()) -> SceneCamera:
    """The camera above the mat centre, tilted and rolled, at the height where the mat fills ``fill``."""
    axis_angle = math.radians(options.tilt_axis_deg)
    tilt = _axis_rotation((math.cos(axis_angle), math.sin(axis_angle), 0.0), options.tilt_deg)
    rotation = _axis_rotation((0.0, 0.0, 1.0), options.roll_deg) @ tilt
    return place_camera(size_mm, options.resolution, options.hfov_deg, options.fill, rotation,
                        options.shift_px, options.distortion)


def camera_homography(size_mm: Point, options: SceneOptions = SceneOptions()) -> Matrix:
    """Mat mm -> pinhole frame pixels for the camera of :func:`scene_camera` (before cloth and lens)."""
    return scene_camera(size_mm, options).homography


def _canvas(camera: SceneCamera) -> tuple[tuple[int, int], Matrix, tuple[int, int]]:
    """Where the flat scene is drawn: its offset in the pinhole canvas, the canvas homography, its size.

    A barrel lens shows more than the pinhole frame: the canvas reaches beyond it.
    """
    ox, oy = camera.canvas_margin()
    width, height = camera.resolution
    shift = np.array([[1.0, 0.0, ox], [0.0, 1.0, oy], [0.0, 0.0, 1.0]])
    return (ox, oy), shift @ camera.homography, (width + 2 * ox, height + 2 * oy)


def project(homography: Matrix, points_mm: Sequence[Point] | npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Apply a homography to mat points; returns an (n, 2) array of pixels."""
    points = np.asarray(points_mm, dtype=np.float64).reshape(-1, 1, 2)
    return _f64(cv2.perspectiveTransform(points, homography)).reshape(-1, 2)


def arm_polygon(start_mm: Point, tip_mm: Point, width_mm: float = 85.0) -> tuple[Point, ...]:
    """A hand-and-forearm outline: a capsule from ``start_mm`` (off the mat edge) to ``tip_mm``."""
    (x0, y0), (x1, y1) = start_mm, tip_mm
    angle = math.atan2(y1 - y0, x1 - x0)
    radius = width_mm / 2
    points: list[Point] = []
    for end, (cx, cy) in ((1, (x1, y1)), (-1, (x0, y0))):
        base = angle - math.pi / 2 if end == 1 else angle + math.pi / 2
        for step in range(13):
            theta = base + math.pi * step / 12
            points.append((cx + radius * math.cos(theta), cy + radius * math.sin(theta)))
    return tuple(points)


def random_table(
    layout: Layout, rng: np.random.Generator, n_cards: int = 60, *, endgame: bool = False
) -> list[PlacedCard]:
    """A plausible random table; see :func:`companion.sim.tables.random_table`."""
    from companion.sim.tables import random_table as make_table  # tables builds on this module

    return make_table(layout, rng, n_cards, endgame=endgame)


# --------------------------------------------------------------------------- geometry helpers


def _rotate_translate(offset: Point, rotation_deg: float, centre: Point) -> Point:
    angle = math.radians(rotation_deg)
    cos, sin = math.cos(angle), math.sin(angle)
    u, v = offset
    # Counter-clockwise as seen by a camera whose image has y pointing down.
    return (centre[0] + u * cos + v * sin, centre[1] - u * sin + v * cos)


def _square_at(card: PlacedCard, offset: Point, half: Point) -> Polygon:
    ox, oy = offset
    hx, hy = half
    corners = ((ox - hx, oy - hy), (ox + hx, oy - hy), (ox + hx, oy + hy), (ox - hx, oy + hy))
    return tuple(card.to_mat(corner) for corner in corners)


def _card_to_mat(center_mm: Point, rotation_deg: float, size_mm: Point) -> Matrix:
    """Affine (3x3) from upright-card mm (origin at its top-left) to mat mm."""
    angle = math.radians(rotation_deg)
    cos, sin = math.cos(angle), math.sin(angle)
    to_centre = np.array([[1.0, 0.0, -size_mm[0] / 2], [0.0, 1.0, -size_mm[1] / 2], [0, 0, 1]], dtype=np.float64)
    rotate = np.array([[cos, sin, center_mm[0]], [-sin, cos, center_mm[1]], [0, 0, 1]], dtype=np.float64)
    return rotate @ to_centre


def _axis_rotation(axis: tuple[float, float, float], degrees: float) -> Matrix:
    vector = np.asarray(axis, dtype=np.float64) * math.radians(degrees)
    rotation, _ = cv2.Rodrigues(vector)
    return np.asarray(rotation, dtype=np.float64)


def _center(size_mm: Point) -> Point:
    return (size_mm[0] / 2, size_mm[1] / 2)


def _scale_at(homography: Matrix, point: Point) -> float:
    """Largest stretch (px per mm) of the homography around a mat point."""
    x, y = point
    a, b, c = project(homography, [(x, y), (x + 1, y), (x, y + 1)])
    return float(max(np.linalg.norm(b - a), np.linalg.norm(c - a)))


def _texture_scale(homography: Matrix, size_mm: Point) -> float:
    """Texture px/mm: the largest frame scale over the mat, rounded up to a 1/4 px step
    so textures cache across frames of similar framing."""
    width, height = size_mm
    samples = [(x * width, y * height) for x in (0.0, 0.5, 1.0) for y in (0.0, 0.5, 1.0)]
    largest = max(_scale_at(homography, point) for point in samples)
    return max(1.0, math.ceil(largest * 4) / 4)


# Pixel-centre convention: a texture made at `scale` px/mm has its pixel (i, j)
# centred at mm ((i + 0.5) / scale, (j + 0.5) / scale).
def _texture_to_mm(scale: float) -> Matrix:
    return np.array([[1 / scale, 0.0, 0.5 / scale], [0.0, 1 / scale, 0.5 / scale], [0, 0, 1]])


# --------------------------------------------------------------------------- the mat

_TABLE_BGR = (38, 52, 72)  # dark wood around the mat
_LINEN_BGR = (178, 196, 208)
_INK_BGR = (96, 110, 128)


def _warp_mat(layout: Layout, homography: Matrix, scale: float, size: tuple[int, int]) -> Image:
    texture = _mat_texture(layout, scale)
    warp = homography @ _texture_to_mm(scale)
    return _u8(
        cv2.warpPerspective(
            texture, warp, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=_TABLE_BGR
        )
    )


@lru_cache(maxsize=4)
def _mat_texture(layout: Layout, scale: float) -> Image:
    """The printed cloth at ``scale`` px/mm: linen, mandalas, zone lines, labels, fiducials."""
    width, height = round(layout.size_mm[0] * scale), round(layout.size_mm[1] * scale)
    texture = _linen((height, width), scale)
    thickness = max(1, round(0.8 * scale))
    for mandala in (0, 1):
        _draw_mandala(texture, layout, mandala, scale, thickness)
    for name, polygon in layout.zones.items():
        points = np.round(np.asarray(polygon) * scale * 16).astype(np.int32)
        cv2.polylines(texture, [points], True, _INK_BGR, thickness, cv2.LINE_AA, shift=4)
        _label(texture, name, layout.zone_center(name), polygon, scale)
    for fiducial in layout.fiducials:
        _paint_fiducial(texture, fiducial.id, fiducial.center_mm, fiducial.size_mm, scale)
    texture.setflags(write=False)
    return texture


def _linen(shape: tuple[int, int], scale: float) -> Image:
    """Off-white cloth: soft blotches plus a fine weave, cheap to make at any size."""
    height, width = shape
    rng = np.random.default_rng(7)  # the cloth is the same cloth in every frame
    blotches = cv2.resize(
        rng.normal(0, 6, (max(2, height // 60), max(2, width // 60))).astype(np.float32),
        (width, height),
        interpolation=cv2.INTER_CUBIC,
    )
    weave_period = max(2, round(0.6 * scale))
    rows = (np.arange(height) // weave_period % 2).astype(np.float32)[:, None]
    cols = (np.arange(width) // weave_period % 2).astype(np.float32)[None, :]
    shade = blotches + 3.0 * (rows + cols - 1.0)
    base = np.asarray(_LINEN_BGR, dtype=np.float32)
    return np.clip(base + shade[..., None], 0, 255).astype(np.uint8)


def _draw_mandala(texture: Image, layout: Layout, mandala: int, scale: float, thickness: int) -> None:
    """The printed circle of a mandala, spanning its fields and mountain band."""
    names = (zone_names.field(mandala, 1), zone_names.field(mandala, 0))
    zones = [layout.zones[name] for name in names if name in layout.zones]
    if not zones:
        return
    xs = [x for polygon in zones for x, _ in polygon]
    ys = [y for polygon in zones for _, y in polygon]
    centre = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
    radius = min(max(xs) - min(xs), max(ys) - min(ys)) / 2 - 4
    cx, cy = round(centre[0] * scale * 16), round(centre[1] * scale * 16)
    for fraction, tint in ((1.0, (150, 170, 196)), (0.8, (165, 182, 204)), (0.45, (150, 170, 196))):
        cv2.circle(texture, (cx, cy), round(radius * fraction * scale * 16), tint, thickness, cv2.LINE_AA, shift=4)


def _label(texture: Image, name: str, centre: Point, polygon: Polygon, scale: float) -> None:
    """A small printed label in the zone's bottom-left corner, like a printed mat would have."""
    text = name.split(".")[-1] if name.split(".")[-1].isdigit() else name
    x = min(px for px, _ in polygon) + 3
    y = max(py for _, py in polygon) - 3
    font_scale = 0.09 * scale
    cv2.putText(
        texture,
        text,
        (round(x * scale), round(y * scale)),
        cv2.FONT_HERSHEY_SIMPLEX,
        font_scale,
        _INK_BGR,
        max(1, round(0.3 * scale)),
        cv2.LINE_AA,
    )
    del centre


def _paint_fiducial(texture: Image, fiducial_id: int, centre: Point, size_mm: float, scale: float) -> None:
    """An ArUco marker of side ``size_mm`` on a white margin of one cell, and its label strip below, as printed
    (``companion markers``: "id N" and "this edge toward player 1", underlined along the strip's bottom edge)."""
    from companion.markers.codes import FIDUCIAL_CELLS, FIDUCIAL_LABEL_CELLS, FIDUCIAL_QUIET_CELLS, fiducial_cells

    cells = np.pad(fiducial_cells(fiducial_id), FIDUCIAL_QUIET_CELLS, constant_values=False)
    cell_mm = size_mm / FIDUCIAL_CELLS
    side_mm = cell_mm * cells.shape[0]
    origin = ((centre[0] - side_mm / 2) * scale, (centre[1] - side_mm / 2) * scale)
    paper, ink = (236, 238, 240), (20, 20, 20)
    paint_modules(texture, cells, origin, cell_mm * scale, dark=ink, light=paper)
    _paint_fiducial_label(texture, fiducial_id, (centre[0] - side_mm / 2, centre[1] + side_mm / 2), side_mm,
                          size_mm * FIDUCIAL_LABEL_CELLS / FIDUCIAL_CELLS, scale, paper, ink)


def _paint_fiducial_label(texture: Image, fiducial_id: int, top_left_mm: Point, width_mm: float, height_mm: float,
                          scale: float, paper: tuple[int, int, int], ink: tuple[int, int, int]) -> None:
    """The strip under a fiducial's white margin (inside its cut), clipped where it leaves the mat."""
    x0, y0 = round(top_left_mm[0] * scale), round(top_left_mm[1] * scale)
    width, height = max(2, round(width_mm * scale)), max(2, round(height_mm * scale))
    strip = np.empty((height, width, 3), np.uint8)
    strip[...] = paper
    margin = max(1, round(width * 0.03))
    for text, top, tall in ((f"id {fiducial_id}", 0.05, 0.36), ("this edge toward player 1", 0.47, 0.26)):
        font_scale = height * tall / 22.0  # Hershey simplex capitals are about 22 units tall at scale 1
        (text_w, _), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, font_scale, 1)
        font_scale *= min(1.0, (width - 2 * margin) / max(text_w, 1))
        cv2.putText(strip, text, (margin, round(height * (top + tall))), cv2.FONT_HERSHEY_SIMPLEX, font_scale, ink,
                    max(1, round(height / 30)), cv2.LINE_AA)
    underline = max(1, round(0.5 * scale))
    strip[height - round(0.6 * scale) - underline : height - round(0.6 * scale), margin : width - margin] = ink
    x1, y1 = min(texture.shape[1], x0 + width), min(texture.shape[0], y0 + height)
    x0c, y0c = max(0, x0), max(0, y0)
    if x1 > x0c and y1 > y0c:
        texture[y0c:y1, x0c:x1] = strip[y0c - y0 : y1 - y0, x0c - x0 : x1 - x0]


# --------------------------------------------------------------------------- cards and codes

_PAD_PX = 2  # transparent border so warped edges are anti-aliased
_BACK_BGR = (120, 84, 52)
_CARD_ID_SET = frozenset(ALL_CARD_IDS)
_FACE_BGR = {**CARD_FACE_BGR, "gold": GOLD_FACE_BGR}
"""Every face the simulator paints: the six colors and the mountains ruleset's gold."""


@dataclass(frozen=True)
class _Texture:
    """A premultiplied BGRA texture and its px/mm along x and y (exact for its pixel size)."""

    bgra: Image
    scale_xy: tuple[float, float]


@lru_cache(maxsize=512)
def _card_texture(
    card_id: str, face_up: bool, card_mm: Point, sticker_mm: float, scale: float, stickers: int = 2,
    face_color: str | None = None,
) -> _Texture:
    width, height = round(card_mm[0] * scale), round(card_mm[1] * scale)
    scale_xy = (width / card_mm[0], height / card_mm[1])
    color = _FACE_BGR[face_color or color_name_of(card_id)] if face_up else _BACK_BGR
    face = np.empty((height, width, 3), np.uint8)
    face[...] = color
    _draw_card_art(face, color, face_up)
    if face_up:
        modules = sticker_modules(payload_for(card_id))
        module_mm = sticker_mm / modules.shape[0]
        for paper, turn in zip(sticker_offsets_mm(card_mm, sticker_mm)[:stickers], STICKER_TURNS_DEG, strict=False):
            left_mm = card_mm[0] / 2 + paper[0] - sticker_mm / 2
            top_mm = card_mm[1] / 2 + paper[1] - sticker_mm / 2
            paint_modules(
                face,
                np.rot90(modules, round(turn / 90)),
                (left_mm * scale_xy[0], top_mm * scale_xy[1]),
                module_mm * scale_xy[0],
                dark=PRINT_BLACK_BGR,
                light=STICKER_PAPER_BGR,
            )
            _paint_label(face, card_id, (left_mm, top_mm), sticker_mm, scale_xy, round(turn / 90) % 4 == 2,
                         label_strip_width_mm(card_mm, sticker_mm))
    corner_px = 3.0 * scale_xy[0]
    return _Texture(_premultiplied(face, corner_px), scale_xy)


def _paint_label(face: Image, card_id: str, code_mm: Point, sticker_mm: float, scale_xy: tuple[float, float],
                 upside_down: bool, strip_w_mm: float) -> None:
    """The sticker's label strip (``companion markers`` prints it inside the cut): white, the card id and
    color name in black, the corner mark; below the code as printed, so above it when stuck upside down;
    ``strip_w_mm`` wide from its printed left end (shorter than the code on a card too small for two)."""
    cut_w, cut_h = sticker_cut_mm(sticker_mm)
    strip_mm = cut_h - sticker_mm
    width, height = max(2, round(strip_w_mm * scale_xy[0])), max(2, round(strip_mm * scale_xy[1]))
    strip = np.empty((height, width, 3), np.uint8)
    strip[...] = STICKER_PAPER_BGR
    text = f"{card_id} {color_name_of(card_id)}"
    font_scale = height * 0.6 / 22.0  # Hershey simplex capitals are about 22 units tall at scale 1
    (text_w, _), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, font_scale, 1)
    font_scale *= min(1.0, width * 0.78 / max(text_w, 1))
    cv2.putText(strip, text, (round(width * 0.04), round(height * 0.78)), cv2.FONT_HERSHEY_SIMPLEX, font_scale,
                PRINT_BLACK_BGR, max(1, round(height / 14)), cv2.LINE_AA)
    mark = round(height * 0.6)
    corner = np.array([(width - 1, height - 1), (width - 1 - mark, height - 1), (width - 1, height - 1 - mark)])
    cv2.fillConvexPoly(strip, corner, PRINT_BLACK_BGR, cv2.LINE_AA)
    left_mm, top_mm = code_mm
    top_mm = top_mm - strip_mm if upside_down else top_mm + sticker_mm
    left_mm = left_mm + cut_w - strip_w_mm if upside_down else left_mm
    x0, y0 = round(left_mm * scale_xy[0]), round(top_mm * scale_xy[1])
    if upside_down:
        strip = np.rot90(strip, 2)
    x1, y1 = min(face.shape[1], x0 + width), min(face.shape[0], y0 + height)
    x0c, y0c = max(0, x0), max(0, y0)
    face[y0c:y1, x0c:x1] = strip[y0c - y0 : y1 - y0, x0c - x0 : x1 - x0]


@lru_cache(maxsize=64)
def _slip_texture(payload: str, size_mm: float, scale: float) -> _Texture:
    side = round(size_mm * scale)
    slip = np.empty((side, side, 3), np.uint8)
    slip[...] = STICKER_PAPER_BGR
    modules = sticker_modules(payload)
    paint_modules(slip, modules, (0.0, 0.0), side / modules.shape[0], dark=PRINT_BLACK_BGR, light=STICKER_PAPER_BGR)
    return _Texture(_premultiplied(slip, 0.0), (side / size_mm, side / size_mm))


def _draw_card_art(face: Image, color: tuple[int, int, int], face_up: bool) -> None:
    """A simple mandala motif: rings and petals in lighter and darker shades of the card color."""
    height, width = face.shape[:2]
    lighter = tuple(min(255, c + 50) for c in color)
    darker = tuple(max(0, c - 40) for c in color)
    centre = (width * 8, height * 8)  # shift=4 sub-pixel units
    unit = width / 70 * 16
    thickness = max(1, round(width / 140))
    for radius_mm, tint in ((28, lighter), (20, darker), (9, lighter)):
        cv2.circle(face, centre, round(radius_mm * unit), tint, thickness * 2, cv2.LINE_AA, shift=4)
    for petal in range(8 if face_up else 12):
        angle = petal * (45 if face_up else 30)
        cv2.ellipse(
            face, centre, (round(16 * unit), round(5 * unit)), angle, 0, 360, lighter, thickness, cv2.LINE_AA, shift=4
        )
    border = max(1, round(width / 35))
    cv2.rectangle(face, (0, 0), (width - 1, height - 1), lighter, border)


def _premultiplied(face: Image, corner_px: float) -> Image:
    """BGRA with rounded corners and a transparent pad, colour premultiplied by alpha."""
    height, width = face.shape[:2]
    alpha = np.zeros((height + 2 * _PAD_PX, width + 2 * _PAD_PX), np.uint8)
    radius = max(0, round(corner_px))
    inner = (_PAD_PX + radius, _PAD_PX + radius, _PAD_PX + width - 1 - radius, _PAD_PX + height - 1 - radius)
    cv2.rectangle(alpha, (inner[0], _PAD_PX), (inner[2], _PAD_PX + height - 1), (255,), cv2.FILLED)
    cv2.rectangle(alpha, (_PAD_PX, inner[1]), (_PAD_PX + width - 1, inner[3]), (255,), cv2.FILLED)
    if radius:
        for cx, cy in ((inner[0], inner[1]), (inner[2], inner[1]), (inner[0], inner[3]), (inner[2], inner[3])):
            cv2.circle(alpha, (cx, cy), radius, (255,), cv2.FILLED, cv2.LINE_AA)
    bgra = np.zeros((height + 2 * _PAD_PX, width + 2 * _PAD_PX, 4), np.uint8)
    bgra[_PAD_PX:-_PAD_PX, _PAD_PX:-_PAD_PX, :3] = face
    bgra[..., :3] = (bgra[..., :3].astype(np.uint16) * alpha[..., None] // 255).astype(np.uint8)
    bgra[..., 3] = alpha
    bgra.setflags(write=False)
    return bgra


def _composite(
    image: Image, texture: _Texture, homography: Matrix, centre: Point, rotation_deg: float, size_mm: Point
) -> None:
    """Warp a premultiplied texture onto the frame (in place), only over its bounding box."""
    sx, sy = texture.scale_xy
    # texture px (centre convention, pad included) -> upright object mm (edge convention)
    texture_to_object = np.array([[1 / sx, 0.0, (0.5 - _PAD_PX) / sx], [0.0, 1 / sy, (0.5 - _PAD_PX) / sy], [0, 0, 1]])
    warp = homography @ _card_to_mat(centre, rotation_deg, size_mm) @ texture_to_object
    tex_h, tex_w = texture.bgra.shape[:2]
    corners = cv2.perspectiveTransform(
        np.array(
            [[[-0.5, -0.5]], [[tex_w - 0.5, -0.5]], [[tex_w - 0.5, tex_h - 0.5]], [[-0.5, tex_h - 0.5]]],
            dtype=np.float64,
        ),
        warp,
    ).reshape(-1, 2)
    left, top = np.floor(corners.min(axis=0)).astype(int)
    right, bottom = np.ceil(corners.max(axis=0)).astype(int) + 1
    left, top = max(left, 0), max(top, 0)
    right, bottom = min(right, image.shape[1]), min(bottom, image.shape[0])
    if right <= left or bottom <= top:
        return
    shift = np.array([[1.0, 0.0, -left], [0.0, 1.0, -top], [0.0, 0.0, 1.0]])
    warped = cv2.warpPerspective(
        texture.bgra,
        shift @ warp,
        (right - left, bottom - top),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0,),
    )
    region = image[top:bottom, left:right]
    keep = cv2.cvtColor(255 - warped[..., 3], cv2.COLOR_GRAY2BGR)
    region[...] = cv2.add(cv2.multiply(region, keep, scale=1 / 255), warped[..., :3])


# --------------------------------------------------------------------------- hand, crease, light

_SKIN_BGR = (112, 146, 196)


def _draw_hand(image: Image, homography: Matrix, polygon_mm: Sequence[Point]) -> None:
    """A skin-coloured hand/arm with a soft shadow cast toward the bottom right.

    Works only inside the bounding box of hand and shadow, and blurs the
    shadow at quarter resolution: a whole-frame blur of that size costs a second.
    """
    outline = project(homography, polygon_mm)
    scale = _scale_at(homography, tuple(np.mean(np.asarray(polygon_mm), axis=0)))
    shadow_outline = outline + np.array([10.0, 14.0]) * scale
    blur_px = 8 * scale
    both = np.vstack([outline, shadow_outline])
    left, top = np.floor(both.min(axis=0) - 3 * blur_px).astype(int)
    right, bottom = np.ceil(both.max(axis=0) + 3 * blur_px).astype(int)
    left, top = max(left, 0), max(top, 0)
    right, bottom = min(right, image.shape[1]), min(bottom, image.shape[0])
    if right <= left or bottom <= top:
        return
    region = image[top:bottom, left:right]
    size = (right - left, bottom - top)
    origin = np.array([left, top], dtype=np.float64)
    small = (max(1, size[0] // 4), max(1, size[1] // 4))
    shadow_small = _polygon_mask((small[1], small[0]), (shadow_outline - origin) / 4, blur_px / 4)
    shadow = cv2.resize(shadow_small, size, interpolation=cv2.INTER_LINEAR)
    hand = _polygon_mask((size[1], size[0]), outline - origin, 0.0) / 255.0
    shade = np.linspace(1.08, 0.85, size[1], dtype=np.float32)[:, None, None]
    skin = np.asarray(_SKIN_BGR, np.float32) * shade
    darkened = region * (1.0 - 0.45 * shadow[..., None] / 255.0)
    mixed = darkened * (1.0 - hand[..., None]) + skin * hand[..., None]
    region[...] = np.clip(mixed + 0.5, 0, 255).astype(np.uint8)


def _polygon_mask(shape: tuple[int, int], outline: npt.NDArray[np.float64], blur_px: float) -> npt.NDArray[np.float32]:
    mask = np.zeros(shape, np.uint8)
    cv2.fillPoly(mask, [np.round(outline * 16).astype(np.int32)], (255,), cv2.LINE_AA, shift=4)
    if blur_px > 0:
        mask = _u8(cv2.GaussianBlur(mask, (0, 0), blur_px))
    return mask.astype(np.float32)


def _photometric(image: Image, homography: Matrix, size_mm: Point, options: SceneOptions) -> Image:
    rng = np.random.default_rng(options.seed)
    height, width = image.shape[:2]
    gain = _gain_map((width, height), options, rng)
    balance = options.white_balance
    if gain is not None:
        gains = cv2.cvtColor(gain, cv2.COLOR_GRAY2BGR)
        if balance != (1.0, 1.0, 1.0):
            gains = _u8(np.clip(gains * np.asarray(balance, np.float32) + 0.5, 0, 255))
        image = _u8(cv2.multiply(image, gains, scale=1 / 128))
    elif balance != (1.0, 1.0, 1.0):
        image = _u8(np.clip(image * np.asarray(balance, np.float32) + 0.5, 0, 255))
    if options.glare > 0:
        image = _u8(cv2.add(image, _glare_map(image.shape[:2], homography, size_mm, options.glare, rng)))
    if options.motion_mm > 0:
        image = _motion_blur(image, options.motion_mm * _scale_at(homography, _center(size_mm)), options.motion_deg)
    if options.corner_blur > 0:
        width, height = options.resolution  # the lens's axis: the principal point
        centre = ((width - 1) / 2 + options.shift_px[0], (height - 1) / 2 + options.shift_px[1])
        image = field_blur(image, field_sigma(options.resolution, options.blur_sigma, options.corner_blur,
                                              options.focus, centre))
    elif options.blur_sigma > 0:
        image = _u8(cv2.GaussianBlur(image, (0, 0), options.blur_sigma))
    if options.noise_sigma > 0:
        noise = np.empty(image.shape, np.int16)
        cv2.setRNGSeed(options.seed)
        sigma = options.noise_sigma
        # One mean and sigma per channel: a scalar would only fill channel 0.
        cv2.randn(noise, np.array((0.0, 0.0, 0.0)), np.array((sigma, sigma, sigma)))
        image = _u8(cv2.add(image, noise, dtype=cv2.CV_8U))
    if options.jpeg_quality is not None:
        ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, options.jpeg_quality])
        if not ok:
            raise SceneError("scene: JPEG encoding failed")
        image = _u8(cv2.imdecode(encoded, cv2.IMREAD_COLOR))
    return image


def _motion_blur(image: Image, length_px: float, angle_deg: float) -> Image:
    """Smear the frame along a line of ``length_px``, as the shutter sees a shaken camera.

    A smear of L pixels leaves no detail finer than L, so long smears are
    made on a frame shrunk to keep the kernel about 8 pixels long and enlarged
    back: the same look for a fraction of the work on a 12 MP frame.
    """
    if length_px < 1.0:
        return image
    shrink = max(1.0, length_px / 8.0)
    height, width = image.shape[:2]
    small = image if shrink == 1.0 else _u8(
        cv2.resize(image, (max(1, round(width / shrink)), max(1, round(height / shrink))),
                   interpolation=cv2.INTER_AREA))
    length = length_px / shrink
    size = math.ceil(length) | 1
    kernel = np.zeros((size, size), np.float32)
    half = length / 2
    dx, dy = math.cos(math.radians(angle_deg)) * half, -math.sin(math.radians(angle_deg)) * half
    centre = size // 2
    cv2.line(kernel, (round((centre - dx) * 16), round((centre - dy) * 16)),
             (round((centre + dx) * 16), round((centre + dy) * 16)), (1.0,), 1, cv2.LINE_AA, shift=4)
    kernel /= max(float(kernel.sum()), 1e-6)
    smeared = _u8(cv2.filter2D(small, -1, kernel, borderType=cv2.BORDER_REPLICATE))
    if shrink == 1.0:
        return smeared
    return _u8(cv2.resize(smeared, (width, height), interpolation=cv2.INTER_LINEAR))


def _gain_map(size: tuple[int, int], options: SceneOptions, rng: np.random.Generator) -> Image | None:
    """Per-pixel gain x128 (uint8) from exposure, a linear gradient and vignetting; None if flat."""
    if options.light_gain == 1.0 and options.gradient == 0 and options.vignette == 0:
        return None
    width, height = size
    small_w, small_h = max(2, width // 16), max(2, height // 16)
    xs, ys = np.meshgrid(np.linspace(-1, 1, small_w), np.linspace(-1, 1, small_h))
    direction = rng.uniform(0, 2 * math.pi)
    along = (xs * math.cos(direction) + ys * math.sin(direction)) / 2  # about -0.7..0.7
    radius2 = (xs**2 + ys**2) / 2  # 1 in the corners
    gain = options.light_gain * (1 + options.gradient * along) * (1 - options.vignette * radius2)
    small = np.clip(gain * 128, 0, 255).astype(np.float32)
    full = cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)
    per_pixel: Image = np.clip(full + 0.5, 0, 255).astype(np.uint8)
    return per_pixel


def _glare_map(
    shape: tuple[int, int], homography: Matrix, size_mm: Point, strength: float, rng: np.random.Generator
) -> Image:
    """A soft, slightly elongated specular spot somewhere over the mat."""
    height, width = shape
    spot = project(homography, [(rng.uniform(0.2, 0.8) * size_mm[0], rng.uniform(0.2, 0.8) * size_mm[1])])[0]
    radius = rng.uniform(40, 90) * _scale_at(homography, _center(size_mm))
    small_w, small_h = max(2, width // 8), max(2, height // 8)
    xs, ys = np.meshgrid((np.arange(small_w) + 0.5) * 8, (np.arange(small_h) + 0.5) * 8)
    blob = np.exp(-(((xs - spot[0]) / (1.6 * radius)) ** 2 + ((ys - spot[1]) / radius) ** 2))
    small = (blob * 230 * strength).astype(np.float32)
    full = cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR).astype(np.uint8)
    return _u8(cv2.cvtColor(full, cv2.COLOR_GRAY2BGR))


# --------------------------------------------------------------------------- ground truth


def _truth(
    layout: Layout,
    cards: Sequence[PlacedCard],
    options: SceneOptions,
    sticker_mm: float,
    camera: SceneCamera,
    cloth: Cloth,
) -> tuple[CardTruth, ...]:
    if not cards:
        return ()
    width, height = options.resolution
    outlines = np.array([card.corners_mm(layout.card_mm) for card in cards], np.float64)
    centres = np.array([card.center_mm for card in cards], np.float64)
    squares = [np.array(card.sticker_squares_mm(layout.card_mm, sticker_mm), np.float64).reshape(-1, 4, 2)
               for card in cards]
    sticker_centres = [card.sticker_centers_mm(layout.card_mm, sticker_mm) for card in cards]
    covers = [np.array([code.corners_mm() for code in options.foreign_codes], np.float64).reshape(-1, 4, 2)]
    if options.hand is not None:
        covers.append(np.array(options.hand, np.float64)[None])
    # Every point to the frame at once: each card's sticker corners, sticker centres and its centre.
    points = [p for card, quads, middles in zip(cards, squares, sticker_centres, strict=True)
              for p in (*quads.reshape(-1, 2), *middles, card.center_mm)]
    in_frame_px = to_frame(camera, cloth, points)
    reach = math.hypot(*layout.card_mm)
    truths = []
    first = 0
    for index, card in enumerate(cards):
        quads, count = squares[index], len(squares[index])
        near = np.hypot(*(centres[index + 1 :] - centres[index]).T) < reach
        covered: npt.NDArray[np.bool_] = np.asarray(_overlapping(quads, outlines[index + 1 :][near]).any(axis=1))
        for cover in covers:
            covered |= np.asarray(_overlapping(quads, cover).any(axis=1))
        corners_px = in_frame_px[first : first + 4 * count].reshape(count, 4, 2)
        inside: npt.NDArray[np.bool_] = np.asarray(
            ((corners_px >= -0.5) & (corners_px <= [width - 0.5, height - 0.5])).all(axis=(1, 2)))
        middles_px = in_frame_px[first + 4 * count : first + 5 * count]
        card_px = in_frame_px[first + 5 * count]
        first += 5 * count + 1
        stickers = tuple(
            StickerTruth(centre, bool(card.face_up and inside[n] and not covered[n]),
                         (float(middles_px[n, 0]), float(middles_px[n, 1])))
            for n, centre in enumerate(sticker_centres[index])
        )
        truths.append(
            CardTruth(
                card.card_id,
                _zone_at(layout, card.center_mm),
                card.center_mm,
                visible=any(sticker.visible for sticker in stickers),
                center_px=(float(card_px[0]), float(card_px[1])),
                face_up=card.face_up,
                stickers=stickers,
            )
        )
    return tuple(truths)


def _overlapping(quads: npt.NDArray[np.float64], others: npt.NDArray[np.float64]) -> npt.NDArray[np.bool_]:
    """Which convex polygons ``others`` (n, k, 2) share interior area with each convex quad of ``quads`` (q, 4, 2).

    Returns a (q, n) matrix. Separating axes: two convex polygons are apart
    exactly when their projections on one of their edge normals do not
    overlap. Touching edges do not count as overlapping (as
    :func:`~companion.vision.layout.polygons_overlap`). Cards, stickers,
    slips and the hand (a capsule) are all convex.
    """
    q, n = len(quads), len(others)
    if n == 0:
        return np.zeros((q, 0), bool)
    edges_own = quads[:, [1, 2, 3, 0]] - quads
    edges_other = np.roll(others, -1, axis=1) - others
    normals_own = np.stack([edges_own[..., 1], -edges_own[..., 0]], axis=-1)
    normals_other = np.stack([edges_other[..., 1], -edges_other[..., 0]], axis=-1)
    axes = np.concatenate([
        np.broadcast_to(normals_own[:, None], (q, n, 4, 2)),
        np.broadcast_to(normals_other[None], (q, n, others.shape[1], 2)),
    ], axis=2)
    axes = axes / np.maximum(np.linalg.norm(axes, axis=-1, keepdims=True), 1e-12)
    mine = np.einsum("qnad,qkd->qnak", axes, quads)
    theirs = np.einsum("qnad,nkd->qnak", axes, others)
    apart = (mine.max(-1) <= theirs.min(-1) + 1e-6) | (theirs.max(-1) <= mine.min(-1) + 1e-6)
    result: npt.NDArray[np.bool_] = ~apart.any(axis=2)
    return result


@lru_cache(maxsize=8192)
def _zone_at(layout: Layout, point: Point) -> str | None:
    """:meth:`Layout.zone_at`, remembered: shots of a game show the same cards where they lay."""
    return layout.zone_at(point)
