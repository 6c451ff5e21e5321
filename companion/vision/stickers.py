"""Where a card's stickers sit on it, and where a card lies given one sticker read.

A card carries two stickers with the same payload in opposite corners of its
face, like the indices of playing cards: one in the top-left corner upright,
one in the bottom-right corner turned half a turn. Each sticker's outer edges
(white margin included) lie :data:`STICKER_INSET_MM` from the card's two
nearest edges. So in each sticker's *own* frame (x along the code's top edge,
y down its left edge, as the QR finder patterns give them) the card's centre
lies at the same offset, down and to the right of the sticker: one read of
either sticker, with its orientation, places the card without knowing which
of the two was read. An old card with one sticker in its top-left corner is
the same formula.

>>> card_offset_mm((70, 70), 16)
(23.0, 23.0)
>>> sticker_offsets_mm((70, 70), 16)
((-23.0, -23.0), (23.0, 23.0))
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from companion.vision.card_codes import STORED, stored_matrix

Point = tuple[float, float]

QR_VERSION = 1
QR_MODULES = 21
"""Modules per side of a version-1 QR code."""
QUIET_ZONE_MODULES = 4
"""The white margin the QR standard asks for, on each side, printed as part of the sticker."""
STICKER_MODULES = QR_MODULES + 2 * QUIET_ZONE_MODULES
"""Modules across a printed sticker: ``sticker_mm`` is this many modules."""
STICKER_INSET_MM = 4.0
"""Gap between a sticker's outer edges (quiet zone included) and the card's two nearest edges."""
STICKER_TURNS_DEG: tuple[float, float] = (0.0, 180.0)
"""How each sticker is turned on the card: the top-left one upright, the bottom-right one half a turn."""


def card_offset_mm(card_mm: Point, sticker_mm: float) -> Point:
    """The card's centre in a sticker's own frame, from the sticker's centre (x right, y down)."""
    return (card_mm[0] / 2 - STICKER_INSET_MM - sticker_mm / 2, card_mm[1] / 2 - STICKER_INSET_MM - sticker_mm / 2)


def sticker_offsets_mm(card_mm: Point, sticker_mm: float) -> tuple[Point, Point]:
    """The two sticker centres relative to the centre of an upright card: top-left, then bottom-right."""
    dx, dy = card_offset_mm(card_mm, sticker_mm)
    return (-dx, -dy), (dx, dy)


def card_center_mm(sticker_corners_mm: Sequence[Point], card_mm: Point, sticker_mm: float) -> Point:
    """Where the card lies, from one sticker's code corners on the mat.

    ``sticker_corners_mm`` are the code's corners in its own order: top-left,
    top-right, bottom-right, bottom-left (the corner without a finder pattern
    is the third). Only their centre and directions are used, so the code's
    corners (21 modules) and the sticker's (29, margin included) give the same
    answer; the directions are the mean of the two edges along each axis, so
    a little perspective does not tilt them.

    >>> card_center_mm([(10, 10), (26, 10), (26, 26), (10, 26)], (70, 70), 16)
    (41.0, 41.0)
    """
    x, y = card_centers_mm(np.array([sticker_corners_mm], np.float64), card_mm, sticker_mm)[0]
    return (float(x), float(y))


def card_centers_mm(
    sticker_corners_mm: npt.NDArray[np.float64], card_mm: Point, sticker_mm: float
) -> npt.NDArray[np.float64]:
    """:func:`card_center_mm` for many stickers at once: corners (n, 4, 2) in, card centres (n, 2) out."""
    corners = np.asarray(sticker_corners_mm, np.float64).reshape(-1, 4, 2)
    tl, tr, br, bl = corners[:, 0], corners[:, 1], corners[:, 2], corners[:, 3]
    right = (tr - tl + br - bl) / 2
    down = (bl - tl + br - tr) / 2
    right /= np.maximum(np.linalg.norm(right, axis=1, keepdims=True), 1e-12)
    down /= np.maximum(np.linalg.norm(down, axis=1, keepdims=True), 1e-12)
    ox, oy = card_offset_mm(card_mm, sticker_mm)
    centres: npt.NDArray[np.float64] = corners.mean(axis=1) + ox * right + oy * down
    return centres


def stickers_clash(card_mm: Point, sticker_mm: float) -> bool:
    """Whether the two stickers of a card would cover each other's code (stickers too large for the card).

    Their white margins may overlap a little (the 32 mm webcam stickers on a
    70 mm card do, by 2 mm in one corner): white on white hides nothing.
    """
    margin = sticker_mm * QUIET_ZONE_MODULES / STICKER_MODULES
    return any(2 * (STICKER_INSET_MM + sticker_mm) - side > margin for side in card_mm)


def qr_matrix(payload: str) -> npt.NDArray[np.bool_] | None:
    """The QR module matrix of a payload (True for dark, no quiet zone), or None if it cannot be encoded.

    The card payloads' matrices are stored (:mod:`companion.vision.card_codes`:
    the encoder's own, without its 4 ms a code); anything else is encoded
    (:func:`encode_qr`). The matrix is read-only.
    """
    return stored_matrix(payload) if payload in STORED else encode_qr(payload)


def encode_qr(payload: str) -> npt.NDArray[np.bool_] | None:
    """The QR module matrix of a payload as OpenCV's encoder makes it, or None if it cannot be encoded.

    Card payloads (short, alphanumeric) get the card format exactly: version
    1, level H, alphanumeric mode (interfaces.md section 1). Anything else
    is encoded in byte mode at whatever version fits, as a stranger's code
    would be. The matrix is read-only.
    """
    card_like = len(payload) <= 10 and all(c in _ALPHANUMERIC for c in payload)
    params = cv2.QRCodeEncoder.Params()
    params.correction_level = cv2.QRCodeEncoder_CORRECT_LEVEL_H
    if card_like:
        params.version = QR_VERSION
        params.mode = cv2.QRCodeEncoder_MODE_ALPHANUMERIC
    else:
        params.version = 0
        params.mode = cv2.QRCodeEncoder_MODE_BYTE
    image = cv2.QRCodeEncoder.create(params).encode(payload)
    if image is None or image.size == 0:
        return None
    dark = image < 128
    # OpenCV's encoder adds its own thin quiet zone: crop to the code.
    rows = np.flatnonzero(dark.any(axis=1))
    cols = np.flatnonzero(dark.any(axis=0))
    modules: npt.NDArray[np.bool_] = dark[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1].copy()
    modules.setflags(write=False)
    return modules


_ALPHANUMERIC = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")
