"""``companion markers check``: is every sticker on a card of its own color?

A sticker stuck on a card of another color (a red card carrying ``G07``)
silently corrupts every game: the companion believes what the sticker says.
The check looks at the card face right beside each sticker read and asks
which printed card color it is.

Light changes what a color looks like, so the face is never judged alone:
the sticker's white quiet zone lies under the same lamp, a hand's breadth
away, and is the white to measure it against. A camera sees each channel
``c`` of a surface of reflectance ``r`` as ``min(255, K_c * r)``, with one
exposure ``K`` and a white balance (``K_c = K * w_c``) for the whole patch.
For each card color of :data:`~companion.markers.codes.CARD_FACE_BGR` the
exposure and white balance that best explain both the white and the face
are searched (each channel's level on a fine grid, joined within the
bounds a lamp allows); the color whose best explanation fits, clearly
better than any other's, is the card's. Clipping is in the model, so an over-exposed table
(whites at 255, an orange face's red channel clipped) is read as well as a
dim one.

The face is sampled on the two sides of the sticker that face the card's
middle (the sticker sits in a corner: its other sides are 4 mm from the
card's edge), beside the code and beyond the label strip, each on its own;
a side covered by another card or a finger disagrees or fits no color, and
the other sides (and frames) decide.

Gold cards (the ``mountains`` ruleset): a gold sticker's card is told among
the six colors and gold. Under a lamp of unknown tint gold looks like orange
or yellow and they like it, so a gold sticker is called wrong only on a card
clearly of another color (red, green, purple, black); on one that reads
orange or yellow the player is asked to look. A colored sticker's card is
never compared with gold (yellow cards under warm light would be called
gold): a colored sticker on a gold card reads "cannot tell" or as orange or
yellow.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from companion.errors import CompanionError
from companion.markers.codes import (
    CARD_FACE_BGR,
    GOLD_CARD_IDS,
    GOLD_FACE_BGR,
    LABEL_MODULES,
    STICKER_PAPER_BGR,
    color_name_of,
)
from companion.vision.layout import Layout
from companion.vision.pipeline import VisionPipeline
from companion.vision.stickers import QR_MODULES, QUIET_ZONE_MODULES

Point = tuple[float, float]
Corners = tuple[Point, Point, Point, Point]
FloatArray = npt.NDArray[np.float64]

COLOR_NAMES: tuple[str, ...] = tuple(CARD_FACE_BGR)
"""The six card colors: what a colored sticker's card face is told among."""
GOLD = color_name_of(GOLD_CARD_IDS[0])
WITH_GOLD: tuple[str, ...] = (*COLOR_NAMES, GOLD)
"""What a gold sticker's card face (``mountains``) is told among: gold too."""
NEAR_GOLD = ("orange", "yellow")
"""The colors a tinted lamp makes look like gold, and gold like them (a face only ever compared with
the sticker's white cannot tell them apart for sure): a gold sticker's card read as one of these is
"check by eye", never "wrong". Gold is not a candidate for colored stickers at all, or yellow cards
under warm light would be called gold."""
_FACES = {**CARD_FACE_BGR, GOLD: GOLD_FACE_BGR}
_REFLECTANCE = np.array([[c / p for c, p in zip(_FACES[name], STICKER_PAPER_BGR, strict=True)]
                         for name in WITH_GOLD])  # (colors, 3): each face against the sticker's white

_LEVELS = np.geomspace(24.0, 720.0, 401)
"""Each channel's level of the sticker's white, as it would read unclipped (a 0.85% grid)."""
EXPOSURE = (40.0, 430.0)
"""Green's level of the white, from a dim table (a sixth of full scale) to one lit 1.7 times as brightly as clips
it (exposure 0.5 .. 1.5 times the design's, a green-tinted lamp on top). Brighter still, a yellow face under a
clipped white could be an orange one lit brighter (the white tells no more): such a side is unsure, never wrong."""
BALANCE = (0.6, 1.6)
"""Blue's and red's level against green's: lamps from candle-warm to shade-blue."""
FIT_LIMIT = 0.06
"""A color explains a face when its worst channel is off by no more than this (of the white's level)."""
MARGIN = 2.0
"""... and the next best color is off this many times as much (or more): otherwise the side is unsure."""

QUIET_BAND = (-3.0, -1.0)
"""Where the white is sampled, in modules from the code's edge: the middle of the 4-module quiet zone."""
FACE_BAND = (1.5, 5.0)
"""Where the face is sampled, in modules beyond the sticker's edge (quiet zone included): right of it, and below
its label strip (the two sides that face the card's middle)."""


class CheckInputError(CompanionError, ValueError):
    """The frames do not show what the check needs (the mat, a card); the message says what to do."""


@dataclass(frozen=True)
class SideVerdict:
    """One side of one sticker: the color that explains it (None: none does, or two do)."""

    color: str | None
    error: float
    face_bgr: tuple[int, int, int]


@dataclass(frozen=True)
class CardCheck:
    """One card: its sticker's color, what its face looks like, and whether they agree."""

    card_id: str
    sticker_color: str
    face_color: str | None
    """The printed color read around its stickers; None when no side gave a clear answer."""
    sides: tuple[SideVerdict, ...]
    near_gold: str | None = None
    """For a gold sticker whose card reads orange or yellow: that color (the light cannot tell it from gold)."""

    @property
    def ok(self) -> bool:
        return self.face_color == self.sticker_color

    def line(self) -> str:
        """The one line ``companion markers check`` prints for a card that is not right."""
        if self.near_gold is not None:
            return (f"{self.card_id}: its card looks {self.near_gold}, which this light cannot tell from gold: "
                    f"check by eye that {self.card_id}'s sticker is on a gold card")
        if self.face_color is None:
            return (f"{self.card_id}: cannot tell the color of the card around its sticker (covered, in shadow "
                    "or glare?): lay it on its own, face up, in even light")
        return (f"{self.card_id}: this sticker belongs on {_a(self.sticker_color)} card but is stuck on "
                f"{_a(self.face_color)} card: peel it off and stick {self.card_id}'s sticker on "
                f"{_a(self.sticker_color)} card")


def _a(color: str) -> str:
    """The color with its article: "a red", "an orange"."""
    return f"an {color}" if color[0] in "aeiou" else f"a {color}"


def card_verdict(card_id: str, verdicts: Sequence[SideVerdict]) -> CardCheck:
    """The card's face color: what the sides say by a clear majority (twice the next color's votes).

    Saying a sticker is wrong takes two sides at least (one side alone may
    be the edge of a neighbouring card): one is "cannot tell", never "wrong".
    """
    sticker = color_name_of(card_id)
    ranked = Counter(v.color for v in verdicts if v.color is not None).most_common()
    face = None
    if ranked and (len(ranked) == 1 or ranked[0][1] >= 2 * ranked[1][1]):
        face = ranked[0][0]
    if face is not None and face != sticker and ranked[0][1] < 2:
        face = None
    if sticker == GOLD and face in NEAR_GOLD:
        return CardCheck(card_id, sticker, None, tuple(verdicts), near_gold=face)
    return CardCheck(card_id, sticker, face, tuple(verdicts))


def sticker_sides(image: npt.NDArray[np.uint8], corners: Corners,
                  colors: tuple[str, ...] = COLOR_NAMES) -> list[SideVerdict]:
    """The verdicts of the two sides of a sticker that face its card's middle (right and below it, as printed),
    each told among ``colors``."""
    to_image = np.asarray(cv2.getPerspectiveTransform(
        np.array([(0, 0), (QR_MODULES, 0), (QR_MODULES, QR_MODULES), (0, QR_MODULES)], np.float32),
        np.array(corners, np.float32)), np.float64)
    white = _white(image, to_image)
    if white is None:
        return []
    edge = QR_MODULES + QUIET_ZONE_MODULES
    near, far = FACE_BAND
    beside = (edge + near, edge + far)
    below = (edge + LABEL_MODULES + near, edge + LABEL_MODULES + far)  # beyond the label strip
    right = _sample(image, to_image, beside, (1.0, QR_MODULES - 1.0))
    under = _sample(image, to_image, (1.0, QR_MODULES - 1.0), below)
    verdicts = []
    for pixels in (right, under):
        if len(pixels) < 6:
            continue
        face = np.median(pixels, axis=0)
        verdicts.append(classify(white, face, colors))
    return verdicts


def classify(white_bgr: FloatArray, face_bgr: FloatArray, colors: tuple[str, ...] = COLOR_NAMES) -> SideVerdict:
    """Which card color of ``colors``, lit by some exposure and white balance, shows this white and this face.

    Each channel's level is free within the light's bounds (green's within
    :data:`EXPOSURE`, blue's and red's within :data:`BALANCE` of green's), so
    the fit is done per channel on a fine grid of levels, then joined: for
    each green level the best blue and red levels in the window the balance
    allows (a sliding minimum).
    """
    white = np.asarray(white_bgr, np.float64)
    face = np.asarray(face_bgr, np.float64)
    seen = np.minimum(_LEVELS, 255.0)  # the white as seen at each level
    white_error = np.abs(seen[None, :] - white[:, None]) / seen  # (3, levels)
    reflectance = _REFLECTANCE[[WITH_GOLD.index(name) for name in colors]]
    predicted = np.minimum(_LEVELS[None, None, :] * reflectance[:, :, None], 255.0)  # (colors, 3, levels)
    error = np.maximum(white_error[None], np.abs(predicted - face[None, :, None]) / seen)
    step = math.log(_LEVELS[1] / _LEVELS[0])
    low, high = math.floor(math.log(BALANCE[0]) / step), math.ceil(math.log(BALANCE[1]) / step)
    padded = np.pad(error, ((0, 0), (0, 0), (-low, high)), constant_values=np.inf)
    window = np.lib.stride_tricks.sliding_window_view(padded, high - low + 1, axis=2).min(axis=3)
    levels, (dimmest, brightest) = _LEVELS, EXPOSURE
    green = (levels >= dimmest) & (levels <= brightest)
    total = np.maximum(error[:, 1], np.maximum(window[:, 0], window[:, 2]))[:, green]  # (colors, green levels)
    best = total.min(axis=1)
    order = np.argsort(best)
    first, second = float(best[order[0]]), float(best[order[1]])
    sure = first <= FIT_LIMIT and second >= MARGIN * first
    shown = (round(float(face[0])), round(float(face[1])), round(float(face[2])))
    return SideVerdict(colors[int(order[0])] if sure else None, round(first, 4), shown)


def _white(image: npt.NDArray[np.uint8], to_image: FloatArray) -> FloatArray | None:
    """The sticker's white: its quiet zone, the brighter half (a dark module smeared in, a shadow, stays out)."""
    low, high = QUIET_BAND
    span = (low, QR_MODULES - low)
    pixels = np.concatenate([
        _sample(image, to_image, (low, high), span),
        _sample(image, to_image, (QR_MODULES - high, QR_MODULES - low), span),
        _sample(image, to_image, span, (low, high)),
        _sample(image, to_image, span, (QR_MODULES - high, QR_MODULES - low)),
    ])
    if len(pixels) < 12:
        return None
    brightness = pixels.sum(axis=1)
    bright = pixels[brightness >= np.median(brightness)]
    white: FloatArray = np.median(bright, axis=0)
    return white


def _sample(image: npt.NDArray[np.uint8], to_image: FloatArray, us: tuple[float, float],
            vs: tuple[float, float]) -> FloatArray:
    """Pixels of the frame in a box of the code's own coordinates (modules), about one sample per pixel."""
    module_px = float(np.linalg.norm(to_image[:2, 0])) or 1.0
    steps_u = max(2, int((us[1] - us[0]) * module_px / 1.5))
    steps_v = max(2, int((vs[1] - vs[0]) * module_px / 1.5))
    grid_u, grid_v = np.meshgrid(np.linspace(*us, steps_u), np.linspace(*vs, steps_v))
    points = np.stack([grid_u.ravel(), grid_v.ravel()], axis=1).reshape(-1, 1, 2)
    xy = cv2.perspectiveTransform(points, to_image).reshape(-1, 2)
    x, y = np.rint(xy[:, 0]).astype(int), np.rint(xy[:, 1]).astype(int)
    inside = (x >= 0) & (y >= 0) & (x < image.shape[1]) & (y < image.shape[0])
    result: FloatArray = image[y[inside], x[inside]].astype(np.float64).reshape(-1, 3)
    return result


class ColorCheck:
    """Frames of cards on the mat in, a verdict per card out: the set-up screen and the command feed it.

    The vision pipeline reads the stickers (it needs the mat's fiducials);
    every frame in which a card's sticker is read adds the verdicts of its
    sides, so a hand passing over one frame is outvoted by the others.
    """

    def __init__(self, layout: Layout, decoder: str | None = None) -> None:
        self.pipeline = VisionPipeline(layout) if decoder is None else VisionPipeline(layout, decoder)
        self.frames = 0
        self.board_seen = False
        self._sides: dict[str, list[SideVerdict]] = {}

    def feed(self, image: npt.NDArray[np.uint8]) -> None:
        observation = self.pipeline.process(image)
        self.frames += 1
        self.board_seen |= observation.board.found
        for read in self.pipeline.reads:
            if read.card_id is not None:
                colors = WITH_GOLD if read.card_id in GOLD_CARD_IDS else COLOR_NAMES
                self._sides.setdefault(read.card_id, []).extend(sticker_sides(image, read.corners, colors))

    def results(self) -> list[CardCheck]:
        """Every card read so far, in card id order."""
        return [card_verdict(card_id, verdicts) for card_id, verdicts in sorted(self._sides.items())]
