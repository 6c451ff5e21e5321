"""QR decoders behind one small interface.

Two backends: zxing-cpp (fast, reads small modules well; the default) and
pyzbar (what the product design first named; kept selectable). Both take a
greyscale uint8 image and return every QR symbol with its raw payload bytes
and corner points in that image's pixels, in the symbol's own order: top-left,
top-right, bottom-right, bottom-left as the code is printed (the corner
without a finder pattern third), so a read tells which way the sticker is
turned. Neither trusts the payload: that is :mod:`companion.vision.payload`'s
job.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import cv2
import numpy as np

from companion.errors import ConfigError

Point = tuple[float, float]
Corners = tuple[Point, Point, Point, Point]


@dataclass(frozen=True)
class DecodedSymbol:
    """One QR symbol found in an image: payload bytes and its four corners, top-left first, clockwise as printed."""

    payload: bytes
    corners: Corners

    @property
    def center(self) -> Point:
        xs = [x for x, _ in self.corners]
        ys = [y for _, y in self.corners]
        return (sum(xs) / 4.0, sum(ys) / 4.0)

    def scaled(self, factor: float) -> DecodedSymbol:
        """The same symbol in an image ``factor`` times the size."""
        return DecodedSymbol(
            self.payload,
            tuple((x * factor, y * factor) for x, y in self.corners),  # type: ignore[arg-type]
        )

    def shifted(self, dx: float, dy: float) -> DecodedSymbol:
        """The same symbol in the coordinates of a larger image (crop offset)."""
        c = self.corners
        return DecodedSymbol(
            self.payload,
            (
                (c[0][0] + dx, c[0][1] + dy),
                (c[1][0] + dx, c[1][1] + dy),
                (c[2][0] + dx, c[2][1] + dy),
                (c[3][0] + dx, c[3][1] + dy),
            ),
        )


@dataclass(frozen=True)
class DecodeResult:
    """What a decoder made of an image.

    ``unread`` counts symbols it located but could not decode (blur, damage,
    partial cover), or is None for a decoder that cannot tell; the pipeline
    spends its costlier retries only where something was located.
    ``located`` gives the corners of those symbols (image pixels), so the
    pipeline can tell a sticker it saw but could not read (the size of one)
    from finder patterns of several covered stickers taken for one symbol.
    """

    symbols: tuple[DecodedSymbol, ...]
    unread: int | None
    located: tuple[Corners, ...] = ()


class Decoder(Protocol):
    """What the pipeline needs of a decoder.

    A decoder may also set ``reads_crowds = True`` when it reads several
    symbols side by side in one crop as well as each alone; the pipeline then
    skips cutting large candidates into overlapping tiles.
    """

    name: str

    def decode(self, grey: np.ndarray) -> list[DecodedSymbol]:
        """Every QR symbol read in a 2-D uint8 image; never raises on image content."""
        ...

    def decode_detailed(self, grey: np.ndarray) -> DecodeResult:
        """Like :meth:`decode`, also telling how many located symbols stayed unread."""
        ...


class ZxingDecoder:
    """zxing-cpp: ``read_barcodes`` restricted to QR, raw bytes kept."""

    name = "zxing"
    # Reads a fanned row of stickers from one crop as well as from tiles of it.
    reads_crowds = True

    def __init__(self) -> None:
        import zxingcpp  # lazy: an optional wheel on some machines

        self._zx = zxingcpp
        # Stickers are dark on light, so the inverted pass is wasted time;
        # their modules are 2..4 px, so downscaled passes cannot help either
        # (they halve the time on crops). In zxing-cpp 3 "QRCode" names the family, Micro QR and rMQR
        # included, whose samplers ran on every finder pattern found: our stickers are QR Model 2.
        self._options: dict[str, Any] = {
            "formats": zxingcpp.BarcodeFormat.QRCodeModel2,
            "try_invert": False,
            "try_downscale": False,
            "text_mode": zxingcpp.TextMode.Plain,
        }

    def decode(self, grey: np.ndarray) -> list[DecodedSymbol]:
        return list(self.decode_detailed(grey).symbols)

    def decode_detailed(self, grey: np.ndarray) -> DecodeResult:
        found = self._zx.read_barcodes(grey, **self._options, return_errors=True)
        symbols = tuple(_from_zxing(barcode) for barcode in found if barcode.valid)
        failed = tuple(_from_zxing(barcode).corners for barcode in found if not barcode.valid)
        return DecodeResult(symbols, len(failed), failed)


def _from_zxing(barcode: object) -> DecodedSymbol:
    pos = barcode.position  # type: ignore[attr-defined]
    corners = tuple(
        (float(p.x), float(p.y))
        for p in (pos.top_left, pos.top_right, pos.bottom_right, pos.bottom_left)
    )
    return DecodedSymbol(bytes(barcode.bytes), corners)  # type: ignore[attr-defined,arg-type]


class PyzbarDecoder:
    """pyzbar over libzbar0, QR only (other symbologies off: faster, no false EAN reads)."""

    name = "pyzbar"

    def __init__(self, upscale: float = 1.0) -> None:
        from pyzbar import pyzbar  # type: ignore[import-untyped]  # lazy: needs libzbar0

        self._zbar = pyzbar
        self._symbols = [pyzbar.ZBarSymbol.QRCODE]
        # zbar reads modules of 3 px and less poorly; enlarging small crops
        # helps it (see docs/benchmarks.md).
        self.upscale = upscale

    def decode(self, grey: np.ndarray) -> list[DecodedSymbol]:
        height, width = grey.shape[:2]
        if height < 8 or width < 8:
            return []  # zbar asserts on degenerate images
        factor = self.upscale if max(height, width) * self.upscale <= 1200 else 1.0
        if factor != 1.0:
            grey = cv2.resize(grey, None, fx=factor, fy=factor, interpolation=cv2.INTER_CUBIC)
        found = self._zbar.decode(grey, symbols=self._symbols)
        symbols = [_from_zbar(symbol, grey) for symbol in found if len(symbol.polygon) >= 3]
        return [s.scaled(1.0 / factor) for s in symbols] if factor != 1.0 else symbols

    def decode_detailed(self, grey: np.ndarray) -> DecodeResult:
        return DecodeResult(tuple(self.decode(grey)), None)  # zbar reports only successes


def _from_zbar(symbol: object, grey: np.ndarray) -> DecodedSymbol:
    points = np.array([(p.x, p.y) for p in symbol.polygon], dtype=np.float32)  # type: ignore[attr-defined]
    # zbar returns the polygon of the located symbol, usually its 4 corners but
    # starting at whichever one; its "orientation" is only a quarter turn,
    # ambiguous near 45 degrees. The corners (the minimum-area box when zbar
    # gives more or fewer points), put in the symbol's own order by finding its
    # finder patterns in the image, are what the pipeline needs. (The box of 4
    # corners that are not quite a rectangle sticks out by a module at some.)
    corners = tuple((float(x), float(y)) for x, y in points) if len(points) == 4 else cv2_box_points(points)
    return DecodedSymbol(bytes(symbol.data), symbol_order(grey, corners))  # type: ignore[arg-type,attr-defined]


def cv2_box_points(points: np.ndarray) -> tuple[Point, Point, Point, Point]:
    box = cv2.boxPoints(cv2.minAreaRect(points))
    return tuple((float(x), float(y)) for x, y in box)  # type: ignore[return-value]


def symbol_order(grey: np.ndarray, corners: Corners) -> Corners:
    """A QR symbol's corners, in any order around it, put in the symbol's own order.

    The three finder patterns (a dark 3x3 core in a light ring in a dark
    square) sit at the symbol's top-left, top-right and bottom-left corners:
    the corner without one is the bottom-right. Corners go clockwise as the
    camera sees a printed code (it is never seen mirrored).
    """
    pts = np.array(corners, np.float32)
    if _signed_area(pts) < 0:  # make them clockwise in image coordinates (y down)
        pts = pts[::-1].copy()
    scores = [_finder_score(grey, np.roll(pts, -start, axis=0)) for start in range(4)]
    bottom_right = int(np.argmin(scores))  # the least finder-like corner; the top-left is across from it
    ordered = np.roll(pts, -((bottom_right + 2) % 4), axis=0)
    return tuple((float(x), float(y)) for x, y in ordered)  # type: ignore[return-value]


def _signed_area(pts: np.ndarray) -> float:
    x, y = pts[:, 0], pts[:, 1]
    return float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)) / 2.0


# The finder pattern seen from its outer corner, in modules: (x, y, dark?).
_FINDER_SAMPLES = (
    *((x, y, True) for x in (2.5, 3.5, 4.5) for y in (2.5, 3.5, 4.5)),  # the 3x3 core
    *((x, 1.5, False) for x in (1.5, 3.5, 5.5)), *((1.5, y, False) for y in (3.5, 5.5)),  # the light ring
    *((x, 5.5, False) for x in (3.5, 5.5)), (5.5, 3.5, False),
    *((x, 0.5, True) for x in (0.5, 3.5, 6.5)), *((0.5, y, True) for y in (3.5, 6.5)),  # the dark border
)


def _finder_score(grey: np.ndarray, pts: np.ndarray) -> float:
    """How much the first corner of ``pts`` (clockwise from it) looks like a finder pattern: 0..1."""
    square = np.array([(0, 0), (21, 0), (21, 21), (0, 21)], np.float32)
    to_image = cv2.getPerspectiveTransform(square, pts.astype(np.float32))
    where = np.array([(x, y) for x, y, _ in _FINDER_SAMPLES], np.float32).reshape(-1, 1, 2)
    image_pts = cv2.perspectiveTransform(where, to_image).reshape(-1, 2)
    height, width = grey.shape[:2]
    xs = np.clip(np.round(image_pts[:, 0]).astype(int), 0, width - 1)
    ys = np.clip(np.round(image_pts[:, 1]).astype(int), 0, height - 1)
    values = grey[ys, xs].astype(np.float32)
    dark = np.array([d for _, _, d in _FINDER_SAMPLES])
    threshold = (values.max() + values.min()) / 2.0
    return float(np.mean((values < threshold) == dark))


DECODERS: dict[str, Callable[[], Decoder]] = {
    "zxing": ZxingDecoder,
    "pyzbar": PyzbarDecoder,
    "pyzbar-x2": lambda: PyzbarDecoder(upscale=2.0),
}
DEFAULT_DECODER = "zxing"


def make_decoder(name: str = DEFAULT_DECODER) -> Decoder:
    """The decoder called ``name``; a one-line error names what is missing."""
    if name not in DECODERS:
        raise ConfigError(f"unknown decoder {name!r}: expected one of {', '.join(DECODERS)}")
    try:
        return DECODERS[name]()
    except ImportError as error:
        raise ConfigError(f"decoder {name!r} is not installed: {error}") from None
