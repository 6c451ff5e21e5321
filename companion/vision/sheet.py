"""The lens calibration sheet: a printed ChArUco board, and finding it in a frame.

``companion markers`` prints it on A4 (``calibration-sheet.pdf``). Laid flat
anywhere on the table while ``companion calibrate`` looks, or photographed
in several places (``--sheet IMAGE``), it adds dozens of exactly known
points to the mat's fiducials for the lens fit, where the mat has none.
Its markers come from another ArUco dictionary (5x5) than the mat's
fiducials (4x4), so neither is ever taken for the other.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from companion.vision.frames import to_grey

SHEET_SQUARES = (7, 10)
"""Chessboard squares across and down (A4 portrait)."""
SHEET_SQUARE_MM = 25.0
SHEET_MARKER_MM = 18.0
SHEET_DICTIONARY = cv2.aruco.DICT_5X5_100
MIN_SHEET_CORNERS = 12
"""Fewer chessboard corners than this (a sheet mostly covered) are not worth a view of the fit."""


@dataclass(frozen=True)
class SheetView:
    """The sheet's inner chessboard corners seen in one frame: on the sheet (mm) and in the frame (px)."""

    sheet_mm: npt.NDArray[np.float64]
    image_px: npt.NDArray[np.float64]

    def __len__(self) -> int:
        return len(self.sheet_mm)


def sheet_board() -> cv2.aruco.CharucoBoard:
    dictionary = cv2.aruco.getPredefinedDictionary(SHEET_DICTIONARY)
    return cv2.aruco.CharucoBoard(SHEET_SQUARES, SHEET_SQUARE_MM, SHEET_MARKER_MM, dictionary)


SHEET_MARGIN_MM = 8.0
"""White paper around the board."""


def sheet_size_mm() -> tuple[float, float]:
    """The printed sheet, board and margin: 191 x 266 mm, inside an A4 page's printable area."""
    columns, rows = SHEET_SQUARES
    return columns * SHEET_SQUARE_MM + 2 * SHEET_MARGIN_MM, rows * SHEET_SQUARE_MM + 2 * SHEET_MARGIN_MM


def sheet_image(px_per_mm: float) -> npt.NDArray[np.uint8]:
    """The board with its white margin drawn at ``px_per_mm``, for printing or rendering."""
    columns, rows = SHEET_SQUARES
    margin = round(SHEET_MARGIN_MM * px_per_mm)
    size = (round(columns * SHEET_SQUARE_MM * px_per_mm) + 2 * margin,
            round(rows * SHEET_SQUARE_MM * px_per_mm) + 2 * margin)
    image = sheet_board().generateImage(size, marginSize=margin, borderBits=1)
    return np.asarray(image, np.uint8)


def find_sheet(frame: np.ndarray) -> SheetView | None:
    """The sheet's corners in ``frame`` (OpenCV's ChArUco detector); None when too few are seen."""
    detector = cv2.aruco.CharucoDetector(sheet_board())
    corners, ids, _, _ = detector.detectBoard(to_grey(frame))
    if ids is None or len(ids) < MIN_SHEET_CORNERS:
        return None
    on_sheet = np.asarray(sheet_board().getChessboardCorners(), np.float64)[ids.ravel(), :2]
    return SheetView(on_sheet, np.asarray(corners, np.float64).reshape(-1, 2))
