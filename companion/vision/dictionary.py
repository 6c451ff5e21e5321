"""Reading stickers too small to decode by classifying them against the codes that exist.

At the edges of a wide lens's barrel, 1080p frames leave our stickers 1.9-2.4
px per module; under 1.2-1.4 px of blur the QR decoder no longer finds the
finder patterns (they are grey blobs) and reads nothing. But only 120 codes
can be on the table (the card payloads, :data:`~.payload.CARD_PAYLOADS`), so a
sticker whose pose is known can be *classified* instead of decoded: its
~240 data and format modules, however washed out, correlate strongly with one
code of the dictionary and weakly with every other (any two version-1 level-H
codes differ in at least 18 of their 26 codewords). This is what ArUco does
with its markers.

Where a sticker lies comes from the mat: the mapping knows the table plane
through the lens, so the crop is resampled onto the mat (``cv2.remap``) where
every sticker is a square of known size, at a fixed number of pixels per
module. There the finder patterns are found by template matching (a few
rotations), three of them in an L give the sticker's pose, and
``cv2.findTransformECC`` refines it against what every code shares (finders,
separators, timing, quiet zone). The refined square is compared with every
code, rendered at the same blur; a read is accepted only with a strong score,
a wide margin over the second-best code and a clear structure fit, so that a
foreign code, a blank or a textured patch is never taken for a card: a wrong
id is far worse than a miss (docs/benchmarks.md gives the rates measured).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from companion.vision.decoders import Corners, DecodedSymbol
from companion.vision.frames import grey_crop
from companion.vision.mapping import MatMapping
from companion.vision.observation import Region
from companion.vision.payload import CARD_PAYLOADS
from companion.vision.stickers import QR_MODULES, QUIET_ZONE_MODULES, STICKER_MODULES, qr_matrix

Point = tuple[float, float]
FloatImage = np.ndarray  # float32, as OpenCV hands them back

# Pixels per module the crop is resampled to on the mat: about what the
# frame has where this reader is needed (1.7-2.4 px), so nothing is thrown
# away; 3 px read the same stickers at 2.3 times the cost (benchmarks.md).
MODULE_PX = 2
# Finder centres in the code's own modules: top-left, top-right, bottom-left.
FINDERS = ((3.5, 3.5), (17.5, 3.5), (3.5, 17.5))
FINDER_SPAN = FINDERS[1][0] - FINDERS[0][0]
# A finder pattern and its one-module white ring (separator or quiet zone), matched as a template.
FINDER_RING_MODULES = 9
# The finder as round rings (radii in modules): its 3x3 core, its light ring, its dark ring. The square's
# corners reach further, but a round template matches it at every rotation (measured: every sticker of the
# benchmark's wide-lens tables found, 1.7-3.5 px per module, as with the square turned six ways).
FINDER_CORE_MODULES = 1.7
FINDER_GAP_MODULES = 2.6
FINDER_OUTER_MODULES = 3.8
# Template-matching score a finder candidate must reach, and how many of the strongest are kept per
# sticker area of the region (three finders, and room for the patterns of printed art and half-covered codes).
FINDER_MIN_SCORE = 0.45
FINDER_PEAKS_PER_STICKER = 8
# How far three finder candidates may stray from the square L they make on a sticker (print scale
# 95-105% and a creased cloth included): lengths within 15%, the corner within 15 degrees of square.
SPAN_TOLERANCE = 0.15
SQUARE_TOLERANCE_DEG = 15.0
# Least correlation with the shared structure, at the pose three finders give, worth refining; poses whose
# centres lie within this many modules are one sticker (the likeliest kept).
POSE_MIN = 0.4
SAME_POSE_MODULES = 4.0
# Iterations of the pose refinement (ECC): from three finders' pose it converges in a few.
ECC_STEPS = 15
# Largest side of a region searched at once, in stickers (larger ones are cut into overlapping pieces).
REGION_STICKERS = 6.0
# Blur of the rendered codes, in modules (sigma): each sticker is scored at the blur its best code fits best.
BLUR_MODULES = (0.35, 0.5, 0.65, 0.8)
# Acceptance (measured on the benchmark's wide-lens tables, docs/benchmarks.md): the structure every
# code shares must fit (ECC correlation), the best code must correlate strongly, and clearly better than
# the second. Right codes scored 0.90-0.99 at 1.7-3.5 px per module; with the right code taken out of the
# dictionary (the near miss: a card it does not know) the best other scored at most 0.6.
STRUCTURE_MIN = 0.6
ACCEPT_MIN = 0.8
MARGIN_MIN = 0.2


@dataclass(frozen=True)
class Classified:
    """The best code for a sticker at a pose, and how sure: its score and its lead over the second best."""

    payload: str
    score: float
    margin: float
    structure: float
    corners: Corners  # the code's corners (21 modules) in frame pixels, top-left first as printed

    @property
    def accepted(self) -> bool:
        return self.structure >= STRUCTURE_MIN and self.score >= ACCEPT_MIN and self.margin >= MARGIN_MIN


class CodeDictionary:
    """The codes a sticker can carry, rendered at a few blurs, and the structure they share."""

    def __init__(self, payloads: Sequence[str] = CARD_PAYLOADS) -> None:
        if len(payloads) < 2:
            raise ValueError("a code dictionary needs at least two codes to tell them apart")
        matrices = []
        for payload in payloads:
            modules = qr_matrix(payload)
            if modules is None or modules.shape != (QR_MODULES, QR_MODULES):
                raise ValueError(f"payload {payload!r} is not a version-1 code like a card's")
            matrices.append(np.pad(modules, QUIET_ZONE_MODULES).astype(np.float32))
        self.payloads = tuple(payloads)
        stack = np.stack(matrices)  # (n, 29, 29), 1 for dark
        self._stack = stack
        # Modules where codes differ: the only ones that tell them apart.
        variable = stack.min(axis=0) != stack.max(axis=0)
        self._mask = _upsample(variable.astype(np.float32)) > 0.5
        # What every code shares (finders, separators, timing, quiet zone); grey where they differ.
        self.structure = _render(stack.mean(axis=0), BLUR_MODULES[1])
        self._templates = {blur: self._normalised(blur) for blur in BLUR_MODULES}

    def _normalised(self, blur: float) -> tuple[FloatImage, FloatImage]:
        """The codes at one blur as the dictionary's mean (the shape every code shares, unit norm) and each
        code's own deviation from it (unit norm)."""
        rendered = np.stack([_render(matrix, blur)[self._mask] for matrix in self._stack])
        mean = rendered.mean(axis=0)
        rows = rendered - mean
        rows -= rows.mean(axis=1, keepdims=True)
        rows /= np.linalg.norm(rows, axis=1, keepdims=True)
        shared = mean - mean.mean()
        return shared / np.linalg.norm(shared), rows

    def scores(self, square: FloatImage) -> tuple[float, npt.NDArray[np.float32]]:
        """Each code's correlation with a sticker resampled to its own modules, at the best-fitting blur.

        All codes share much (the same mode, length and ``MDL-`` prefix: a
        code correlates about 0.5 with any other), so what the dictionary's
        mean explains is taken out first, and each code's own deviation from
        the mean is matched with what is left: a right code scores about 0.9,
        others about 0 (docs/benchmarks.md).
        """
        seen = square[self._mask].astype(np.float32)
        seen = seen - seen.mean()
        best: tuple[float, npt.NDArray[np.float32]] | None = None
        for blur, (shared, rows) in self._templates.items():
            rest = seen - float(seen @ shared) * shared
            norm = float(np.linalg.norm(rest))
            scores = rows @ (rest / norm) if norm > 1e-6 else np.zeros(len(self.payloads), np.float32)
            if best is None or float(scores.max()) > float(best[1].max()):
                best = (blur, scores)
        assert best is not None
        return best


@lru_cache(maxsize=1)
def card_dictionary() -> CodeDictionary:
    """The dictionary of every card payload (built once, when first needed: under a second)."""
    return CodeDictionary(CARD_PAYLOADS)


def read_by_dictionary(
    frame: np.ndarray,
    box: Region,
    mapping: MatMapping,
    sticker_mm: float,
    skip: Sequence[Point] = (),
    dictionary: CodeDictionary | None = None,
) -> list[Classified]:
    """Stickers in ``box`` (frame pixels) classified against ``dictionary``: accepted ones only.

    ``skip``: frame points where a sticker was already read; a pose whose
    centre lies within half a sticker of one is not classified again.
    """
    return [c for c in classify_box(frame, box, mapping, sticker_mm, skip, dictionary) if c.accepted]


def classify_box(
    frame: np.ndarray,
    box: Region,
    mapping: MatMapping,
    sticker_mm: float,
    skip: Sequence[Point] = (),
    dictionary: CodeDictionary | None = None,
) -> list[Classified]:
    """Every sticker pose found in ``box`` with its best code, accepted or not (for benchmarks and tests)."""
    codes = dictionary or card_dictionary()
    module_mm = sticker_mm / STICKER_MODULES
    on_mat = _OnMat.of(frame, box, mapping, MODULE_PX / module_mm)
    if on_mat is None:
        return []
    skip_mm = mapping.image_to_mat(np.asarray(skip, np.float64)) if len(skip) else np.zeros((0, 2))
    results: list[Classified] = []
    taken: list[npt.NDArray[np.float64]] = []
    for pose in _poses(on_mat.image, codes.structure):
        centre = on_mat.to_mat(_apply(pose, np.array([_square_px((QR_MODULES / 2.0, QR_MODULES / 2.0))])))[0]
        near = [*skip_mm, *taken]
        if any(math.dist(centre, p) < sticker_mm / 2.0 for p in near):
            continue
        found = _classify(on_mat, pose, codes, mapping)
        if found is not None:
            results.append(found)
            if found.accepted:
                taken.append(centre)
    return results


def search_regions(boxes: Sequence[Region], sticker_px: float) -> list[Region]:
    """Overlapping boxes (a crowd's tiles) joined into the regions they cover, each searched once.

    A region larger than :data:`REGION_STICKERS` stickers is cut into pieces
    that overlap by a sticker and a half, so that every sticker lies whole
    in one of them.
    """
    if not boxes:
        return []
    x0 = min(b.x for b in boxes)
    y0 = min(b.y for b in boxes)
    x1 = max(b.x + b.width for b in boxes)
    y1 = max(b.y + b.height for b in boxes)
    step = max(1, int(sticker_px / 8))  # the union drawn at an eighth of a sticker per cell
    mask = np.zeros(((y1 - y0) // step + 2, (x1 - x0) // step + 2), np.uint8)
    for b in boxes:
        cv2.rectangle(mask, ((b.x - x0) // step, (b.y - y0) // step),
                      ((b.x + b.width - x0) // step, (b.y + b.height - y0) // step), 255, cv2.FILLED)
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    regions = []
    for left, top, width, height, _ in stats[1:count]:
        whole = Region(x0 + int(left) * step, y0 + int(top) * step, int(width) * step, int(height) * step)
        regions += _pieces(whole, sticker_px)
    return regions


def _pieces(region: Region, sticker_px: float) -> list[Region]:
    side = int(REGION_STICKERS * sticker_px)
    stride = max(1, side - int(1.5 * sticker_px))

    def starts(start: int, length: int) -> list[int]:
        if length <= side:
            return [start]
        last = start + length - side
        return [*range(start, last, stride), last]

    return [Region(x, y, min(side, region.width), min(side, region.height))
            for y in starts(region.y, region.height) for x in starts(region.x, region.width)]


@dataclass(frozen=True)
class _OnMat:
    """A crop resampled onto the mat at a fixed scale: image pixel (u, v) is mat point origin + (u, v) / px_per_mm."""

    image: FloatImage
    origin: tuple[float, float]
    px_per_mm: float
    valid: np.ndarray  # every pixel (ECC's mask; its blur-free form wants one)

    @staticmethod
    def of(frame: np.ndarray, box: Region, mapping: MatMapping, px_per_mm: float) -> _OnMat | None:
        x0, y0, x1, y1 = box.x, box.y, box.x + box.width, box.y + box.height
        edge = np.linspace(0.0, 1.0, 5)
        border = np.array(
            [(x0 + t * (x1 - x0), y0) for t in edge] + [(x0 + t * (x1 - x0), y1) for t in edge]
            + [(x0, y0 + t * (y1 - y0)) for t in edge] + [(x1, y0 + t * (y1 - y0)) for t in edge],
            np.float64,
        )
        mat = mapping.image_to_mat(border)
        (mx0, my0), (mx1, my1) = mat.min(axis=0), mat.max(axis=0)
        width, height = int((mx1 - mx0) * px_per_mm), int((my1 - my0) * px_per_mm)
        if min(width, height) < FINDER_RING_MODULES * MODULE_PX:
            return None
        # The mapping is smooth: frame points on a coarse grid, interpolated between.
        step = 8
        us = np.arange(0, width + step, step, dtype=np.float64)
        vs = np.arange(0, height + step, step, dtype=np.float64)
        grid = np.stack(np.meshgrid(mx0 + us / px_per_mm, my0 + vs / px_per_mm), axis=-1).reshape(-1, 2)
        coarse = mapping.mat_to_image(grid).reshape(len(vs), len(us), 2).astype(np.float32)
        fine = cv2.resize(coarse, (len(us) * step, len(vs) * step), interpolation=cv2.INTER_LINEAR)
        # cv2.resize aligns pixel centres: shift by half a coarse step so grid points land on their pixels.
        offset = (step - 1) / 2.0
        shift = np.array([[1, 0, offset], [0, 1, offset]], np.float32)
        fine = cv2.warpAffine(fine, shift, (width, height), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_REPLICATE)
        # Only the frame pixels the map reaches are turned grey.
        low = np.floor(coarse.reshape(-1, 2).min(axis=0)).astype(int) - 1
        high = np.ceil(coarse.reshape(-1, 2).max(axis=0)).astype(int) + 2
        grey = grey_crop(frame, int(low[0]), int(low[1]), int(high[0]), int(high[1]))
        fine -= np.maximum(low, 0).astype(np.float32)
        image = cv2.remap(grey, fine[..., 0], fine[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        darkness = 1.0 - image.astype(np.float32) / 255.0  # as the codes are rendered: 1 for dark
        return _OnMat(darkness, (float(mx0), float(my0)), px_per_mm, np.full(darkness.shape, 255, np.uint8))

    def to_mat(self, points: np.ndarray) -> np.ndarray:
        mat: np.ndarray = np.asarray(points, np.float64) / self.px_per_mm + np.array(self.origin)
        return mat


def _poses(image: FloatImage, structure: FloatImage) -> list[np.ndarray]:
    """Candidate sticker poses in ``image``: affine maps from the sticker's square (MODULE_PX per module,
    quiet zone included) to image pixels, from every three finder candidates that make a square L, the
    likeliest first (by ``structure``, what every code shares, at the pose found); one per place."""
    peaks = _finder_peaks(image)
    if len(peaks) < 3:
        return []
    span = FINDER_SPAN * MODULE_PX
    offsets = peaks[None, :, :] - peaks[:, None, :]  # [a, b]: from a to b
    lengths = np.hypot(offsets[..., 0], offsets[..., 1])
    arm = np.abs(lengths / span - 1.0) <= SPAN_TOLERANCE
    model = np.array([_square_px(finder) for finder in FINDERS], np.float32)
    side = structure.shape[0]
    found: list[tuple[float, np.ndarray, np.ndarray]] = []  # (score, centre, pose)
    for a in range(len(peaks)):
        arms = np.flatnonzero(arm[a])
        for j, b in enumerate(arms):
            for c in arms[j + 1 :]:
                ab, ac = offsets[a, b], offsets[a, c]
                cosine = float(np.dot(ab, ac)) / (lengths[a, b] * lengths[a, c])
                if abs(math.degrees(math.acos(max(-1.0, min(1.0, cosine)))) - 90.0) > SQUARE_TOLERANCE_DEG:
                    continue
                # y down: the top-right finder lies clockwise of the bottom-left one, seen from the corner.
                right, down = (b, c) if ab[0] * ac[1] - ab[1] * ac[0] > 0 else (c, b)
                pose = cv2.getAffineTransform(model, np.array([peaks[a], peaks[right], peaks[down]], np.float32))
                square = cv2.warpAffine(image, pose, (side, side), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                        borderMode=cv2.BORDER_REPLICATE)
                score = _correlation(square, structure)
                if score >= POSE_MIN:
                    found.append((score, (peaks[a] + peaks[right] + peaks[down]) / 3.0, pose.astype(np.float32)))
    found.sort(key=lambda item: -item[0])
    poses: list[tuple[np.ndarray, np.ndarray]] = []
    for _, centre, pose in found:
        if all(math.dist(centre, other) > SAME_POSE_MODULES * MODULE_PX for other, _ in poses):
            poses.append((centre, pose))
    return [pose for _, pose in poses]


def _correlation(one: np.ndarray, two: np.ndarray) -> float:
    x = one.ravel() - float(one.mean())
    y = two.ravel() - float(two.mean())
    norm = float(np.linalg.norm(x) * np.linalg.norm(y))
    return float(x @ y) / norm if norm > 1e-9 else 0.0


def _finder_peaks(image: FloatImage) -> np.ndarray:
    """Where finder patterns may lie: local maxima of the best rotation's template match, strongest first."""
    response = cv2.matchTemplate(image, _finder_template(), cv2.TM_CCOEFF_NORMED)
    size = 2 * MODULE_PX * 2 + 1  # maxima at least two modules apart
    peaks = (response >= cv2.dilate(response, np.ones((size, size), np.uint8))) & (response >= FINDER_MIN_SCORE)
    ys, xs = np.nonzero(peaks)
    stickers = image.size / float(STICKER_MODULES * MODULE_PX) ** 2
    order = np.argsort(-response[ys, xs])[: int(FINDER_PEAKS_PER_STICKER * max(1.0, stickers))]
    half = (FINDER_RING_MODULES * MODULE_PX - 1) / 2.0
    return np.array([(xs[i] + half, ys[i] + half) for i in order], np.float64).reshape(-1, 2)


@lru_cache(maxsize=1)
def _finder_template() -> FloatImage:
    """A finder pattern as rings (dark core, light ring, dark ring), blurred: under the blur that hides
    the modules a turned square finder looks like this at any rotation, so one template finds them all."""
    size = FINDER_RING_MODULES * MODULE_PX
    centre = (size - 1) / 2.0
    ys, xs = np.mgrid[0:size, 0:size]
    radius = np.hypot(xs - centre, ys - centre) / MODULE_PX
    rings = ((radius < FINDER_CORE_MODULES) | ((radius >= FINDER_GAP_MODULES) & (radius < FINDER_OUTER_MODULES)))
    template: FloatImage = cv2.GaussianBlur(rings.astype(np.float32), (0, 0), BLUR_MODULES[1] * MODULE_PX)
    return template


def _classify(on_mat: _OnMat, pose: np.ndarray, codes: CodeDictionary, mapping: MatMapping) -> Classified | None:
    side = STICKER_MODULES * MODULE_PX
    warp = pose.copy()
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, ECC_STEPS, 1e-3)
    try:
        structure, warp = cv2.findTransformECC(codes.structure, on_mat.image, warp, cv2.MOTION_AFFINE, criteria,
                                               on_mat.valid, 1)
    except cv2.error:
        return None  # no convergence: nothing like a sticker there
    square = cv2.warpAffine(on_mat.image, warp, (side, side), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                            borderMode=cv2.BORDER_REPLICATE)
    _, scores = codes.scores(square)
    order = np.argsort(-scores)
    best, second = float(scores[order[0]]), float(scores[order[1]])
    code = np.array([_square_px(corner) for corner in ((0, 0), (QR_MODULES, 0), (QR_MODULES, QR_MODULES),
                                                        (0, QR_MODULES))])
    frame_corners = mapping.mat_to_image(on_mat.to_mat(_apply(warp, code)))
    corners = tuple((float(x), float(y)) for x, y in frame_corners)
    return Classified(codes.payloads[int(order[0])], best, best - second, float(structure),
                      corners)  # type: ignore[arg-type]


def _apply(affine: np.ndarray, points: np.ndarray) -> np.ndarray:
    pts = np.asarray(points, np.float64).reshape(-1, 2)
    out: np.ndarray = pts @ affine[:, :2].T.astype(np.float64) + affine[:, 2].astype(np.float64)
    return out


def _square_px(code_module: Point) -> tuple[float, float]:
    """A point in the code's modules -> pixel coordinates in the sticker's square (quiet zone included)."""
    x, y = code_module
    return ((x + QUIET_ZONE_MODULES) * MODULE_PX - 0.5, (y + QUIET_ZONE_MODULES) * MODULE_PX - 0.5)


def _upsample(modules: np.ndarray) -> FloatImage:
    side = modules.shape[0] * MODULE_PX
    out: FloatImage = cv2.resize(modules.astype(np.float32), (side, side), interpolation=cv2.INTER_NEAREST)
    return out


def _render(modules: np.ndarray, blur_modules: float) -> FloatImage:
    """Modules (1 dark) at MODULE_PX per module, blurred by ``blur_modules``; as darkness 0..1."""
    out: FloatImage = cv2.GaussianBlur(_upsample(modules), (0, 0), blur_modules * MODULE_PX)
    return out


def symbol_of(found: Classified) -> DecodedSymbol:
    """A dictionary read as the decoder would report it."""
    return DecodedSymbol(found.payload.encode("ascii"), found.corners)
