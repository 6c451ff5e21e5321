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
from companion.vision.payload import PAYLOAD_PREFIX
from companion.vision.stickers import (
    QR_MODULES,
    QUIET_ZONE_MODULES,
    STICKER_INSET_MM,
    STICKER_MODULES,
    qr_matrix,
)

__all__ = [
    "ALL_CARD_IDS",
    "CARD_FACE_BGR",
    "CARD_IDS",
    "GOLD_CARD_IDS",
    "GOLD_FACE_BGR",
    "LABEL_MODULES",
    "PRINT_BLACK_BGR",
    "QR_MODULES",
    "QUIET_ZONE_MODULES",
    "STICKER_INSET_MM",
    "STICKER_MODULES",
    "STICKER_PAPER_BGR",
    "MarkerError",
    "color_name_of",
    "fiducial_cells",
    "label_strip_width_mm",
    "payload_for",
    "qr_modules",
    "sticker_cut_mm",
    "sticker_modules",
]

BoolMatrix = npt.NDArray[np.bool_]

FIDUCIAL_CELLS = 6
"""An ArUco 4x4 marker is 4x4 data cells inside a one-cell black border."""
FIDUCIAL_QUIET_CELLS = 1
"""White margin printed around a fiducial so it stands out on any mat colour."""
LABEL_MODULES = 8
"""A sticker's label strip (id, color name, orientation mark), this many modules tall, printed below the quiet
zone inside the cut: it goes toward the card's middle, so the code sits in the corner as before."""
FIDUCIAL_LABEL_CELLS = 1.5
"""A fiducial's label strip (id, "this edge toward player 1") below its white margin, inside the cut."""


def sticker_cut_mm(sticker_mm: float) -> tuple[float, float]:
    """The piece cut out for one sticker: the code with its quiet zone, and its label strip below."""
    return sticker_mm, sticker_mm * (1 + LABEL_MODULES / (QR_MODULES + 2 * QUIET_ZONE_MODULES))


LABEL_CLEARANCE_MM = 0.5
"""A shortened label strip stops this far short of the other sticker's quiet zone (a cut is never exact)."""


def label_strip_width_mm(card_mm: tuple[float, float], sticker_mm: float) -> float:
    """How wide a sticker's label strip is printed: the code's width, less what would lie on the other sticker.

    On a card too small for two stickers side by side (32 mm webcam stickers
    on a 70 mm card overlap by 2 mm), the strip's end toward the card's
    middle would cover the other sticker's quiet zone: white on white is
    harmless, but the strip's text and corner mark are not. The strip is
    then cut short by the overlap and a little more, its corner mark at the
    new end.
    """
    overlap = 2 * (STICKER_INSET_MM + sticker_mm) - card_mm[0]
    return sticker_mm if overlap <= 0 else sticker_mm - overlap - LABEL_CLEARANCE_MM

CARD_IDS: tuple[str, ...] = tuple(card_name(card) for card in CARDS)
"""All 108 card ids in rulebook order: R01..R18, O01.., Y.., G.., P.., K01..K18."""
GOLD_CARD_IDS: tuple[str, ...] = tuple(card_name(card) for card in GOLD_CARDS)
"""The 12 gold cards of the ``mountains`` ruleset: A01..A12 (payload ``MDL-A01`` like any card)."""
ALL_CARD_IDS: tuple[str, ...] = tuple(card_name(card) for card in ALL_CARDS)
"""Every card id of every ruleset: the 108 colored cards, then the gold ones."""

CARD_FACE_BGR: dict[str, tuple[int, int, int]] = {
    "red": (46, 40, 196),
    "orange": (34, 120, 232),
    "yellow": (52, 200, 236),
    "green": (70, 150, 60),
    "purple": (140, 62, 124),
    "black": (44, 38, 36),
}
"""The printed face color of each card color (BGR, 8 bit, under daylight white): what the simulator
paints and what ``companion markers check`` compares a card's face with, against the sticker's white."""
GOLD_FACE_BGR = (48, 166, 206)
"""The gold cards' face (the ``mountains`` ruleset): what the simulator paints. Not a color
``markers check`` tells apart: under warm light it lies between orange and yellow."""
STICKER_PAPER_BGR = (242, 244, 245)
"""Sticker paper (the QR quiet zone) under the same light: the white every card face is measured against."""
PRINT_BLACK_BGR = (28, 26, 26)
"""Printed black of the QR modules."""


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
    byte mode at whatever version fits, like a stranger's QR code would be
    (:func:`companion.vision.stickers.qr_matrix`, which vision's dictionary
    reader shares).
    """
    modules = qr_matrix(payload)
    if modules is None:
        raise MarkerError(f"cannot encode QR payload {payload!r}")
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


_CARD_ID_SET = frozenset(ALL_CARD_IDS)
