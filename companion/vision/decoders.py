"""QR decoders behind one small interface.

Two backends: zxing-cpp (fast, reads small modules well; the default) and
pyzbar (what the product design first named; kept selectable). Both take a
greyscale uint8 image and return every QR symbol with its raw payload bytes
and corner points in that image's pixels. Neither trusts the payload: that is
:mod:`companion.vision.payload`'s job.
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
    """One QR symbol found in an image: payload bytes and its four corners."""

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
        # (they halve the time on crops).
        self._options: dict[str, Any] = {
            "formats": zxingcpp.BarcodeFormat.QRCode,
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
        symbols = [_from_zbar(symbol) for symbol in found if len(symbol.polygon) >= 3]
        return [s.scaled(1.0 / factor) for s in symbols] if factor != 1.0 else symbols

    def decode_detailed(self, grey: np.ndarray) -> DecodeResult:
        return DecodeResult(tuple(self.decode(grey)), None)  # zbar reports only successes


def _from_zbar(symbol: object) -> DecodedSymbol:
    points = np.array([(p.x, p.y) for p in symbol.polygon], dtype=np.float32)  # type: ignore[attr-defined]
    # zbar returns the polygon of the located symbol, not always 4 points in
    # a fixed order; the minimum-area box is what the pipeline needs.
    box = cv2_box_points(points)
    return DecodedSymbol(bytes(symbol.data), box)  # type: ignore[attr-defined]


def cv2_box_points(points: np.ndarray) -> tuple[Point, Point, Point, Point]:
    box = cv2.boxPoints(cv2.minAreaRect(points))
    return tuple((float(x), float(y)) for x, y in box)  # type: ignore[return-value]


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
