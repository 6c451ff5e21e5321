"""What the stickers and fiducials are: payloads, module matrices, placement.

A sticker is the QR code (version 1, error correction H, alphanumeric mode,
payload ``MDL-<card id>``, interfaces.md section 1) with its 4-module quiet
zone: 29 x 29 modules printed as a square of ``sticker_mm`` (the layout's).
Each card carries two, with the same payload, in opposite corners of its face
(:mod:`companion.vision.stickers` says exactly where): one corner stays in
view when cards are fanned or turned either way up, and the card's rotation
on the table does not matter because the QR finder patterns give the
orientation.

>>> payload_for("R07"), qr_modules("MDL-R07").shape, sticker_modules("MDL-R07").shape
('MDL-R07', (21, 21), (29, 29))
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from companion.engine.cards import ALL_CARDS, CARDS, GOLD_CARDS, card_name, color_name, color_of
from companion.errors import CompanionError
from companion.vision.stickers import QR_MODULES, QUIET_ZONE_MODULES, STICKER_INSET_MM, STICKER_MODULES

__all__ = [
    "ALL_CARD_IDS",
    "CARD_IDS",
    "GOLD_CARD_IDS",
    "QR_MODULES",
    "QUIET_ZONE_MODULES",
    "STICKER_INSET_MM",
    "STICKER_MODULES",
    "MarkerError",
    "color_name_of",
    "fiducial_cells",
    "payload_for",
    "qr_modules",
    "sticker_modules",
]

BoolMatrix = npt.NDArray[np.bool_]

PAYLOAD_PREFIX = "MDL-"
QR_VERSION = 1
FIDUCIAL_CELLS = 6
"""An ArUco 4x4 marker is 4x4 data cells inside a one-cell black border."""
FIDUCIAL_QUIET_CELLS = 1
"""White margin printed around a fiducial so it stands out on any mat colour."""

CARD_IDS: tuple[str, ...] = tuple(card_name(card) for card in CARDS)
"""All 108 card ids in rulebook order: R01..R18, O01.., Y.., G.., P.., K01..K18."""
GOLD_CARD_IDS: tuple[str, ...] = tuple(card_name(card) for card in GOLD_CARDS)
"""The 12 gold cards of the ``mountains`` ruleset: A01..A12 (payload ``MDL-A01`` like any card)."""
ALL_CARD_IDS: tuple[str, ...] = tuple(card_name(card) for card in ALL_CARDS)
"""Every card id of every ruleset: the 108 colored cards, then the gold ones."""


class MarkerError(CompanionError, ValueError):
    """A payload or marker id that cannot be encoded."""


def payload_for(card_id: str) -> str:
    """The sticker payload of a card: ``MDL-R07``."""
    if card_id not in _CARD_ID_SET:
        raise MarkerError(f"unknown card id {card_id!r}")
    return PAYLOAD_PREFIX + card_id


def color_name_of(card_id: str) -> str:
    """The rulebook color name of a card id (``"R07"`` -> ``"red"``)."""
    return color_name(color_of(ALL_CARD_IDS.index(card_id)))


@lru_cache(maxsize=512)
def qr_modules(payload: str) -> BoolMatrix:
    """The QR module matrix of a payload, True for dark, without quiet zone.

    Card payloads use the card format exactly (version 1, level H,
    alphanumeric). Anything else (foreign codes for tests) is encoded in
    byte mode at whatever version fits, like a stranger's QR code would be.
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
        raise MarkerError(f"cannot encode QR payload {payload!r}")
    modules = _strip_border(image < 128)
    modules.setflags(write=False)
    return modules


def sticker_modules(payload: str) -> BoolMatrix:
    """The printed sticker: the QR modules inside a white quiet zone of 4 modules."""
    return np.pad(qr_modules(payload), QUIET_ZONE_MODULES, constant_values=False)


@lru_cache(maxsize=64)
def fiducial_cells(fiducial_id: int) -> BoolMatrix:
    """The 6x6 cells (black border included) of an ArUco DICT_4X4_50 marker, True for dark."""
    if not 0 <= fiducial_id < 50:
        raise MarkerError(f"fiducial id {fiducial_id} is outside ArUco DICT_4X4_50 (0..49)")
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    cells = cv2.aruco.generateImageMarker(dictionary, fiducial_id, FIDUCIAL_CELLS) < 128
    cells.setflags(write=False)
    return cells


def _strip_border(dark: BoolMatrix) -> BoolMatrix:
    """Crop OpenCV's encoder output to the code (it adds its own thin quiet zone)."""
    rows = np.flatnonzero(dark.any(axis=1))
    cols = np.flatnonzero(dark.any(axis=0))
    return dark[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1].copy()


_CARD_ID_SET = frozenset(ALL_CARD_IDS)
_ALPHANUMERIC = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")
