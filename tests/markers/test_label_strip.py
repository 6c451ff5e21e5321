"""Label strips never cover the other sticker's quiet zone, on the guide's card, on the sheet and in the sim.

32 mm webcam stickers on a 70 mm card overlap by 2 mm: the label strip of
each would reach that far into the other's white margin, its corner mark
right on it. The strip is cut short there.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from companion.markers.codes import LABEL_CLEARANCE_MM, STICKER_INSET_MM, label_strip_width_mm, sticker_cut_mm
from companion.markers.sheets import guide_page, sticker_pages, sticker_places
from companion.vision.layout import load_layout
from companion.vision.stickers import QUIET_ZONE_MODULES, STICKER_MODULES, sticker_offsets_mm

DPI = 300
PX_PER_MM = DPI / 25.4
WEBCAM = load_layout(None).card_mm, 32.0


def test_the_strip_is_the_code_wide_where_two_stickers_fit_and_shorter_where_they_overlap() -> None:
    assert label_strip_width_mm((70.0, 70.0), 16.0) == 16.0
    assert label_strip_width_mm((70.0, 70.0), 31.0) == 31.0  # 2 x (4 + 31) = 70: side by side exactly
    overlap = 2 * (STICKER_INSET_MM + 32.0) - 70.0
    assert label_strip_width_mm(*WEBCAM) == pytest.approx(32.0 - overlap - LABEL_CLEARANCE_MM)


def _ink(pixels: np.ndarray, box_mm: tuple[float, float, float, float]) -> int:
    x0, y0, x1, y1 = (round(v * PX_PER_MM) for v in box_mm)
    return int((pixels[y0:y1, x0:x1] < 128).sum())


def _quiet_bands(left: float, top: float, side: float) -> list[tuple[float, float, float, float]]:
    """The four white margins of a code square at (left, top), 0.15 mm in from every edge."""
    quiet, e = side * QUIET_ZONE_MODULES / STICKER_MODULES, 0.15
    return [(left + e, top + e, left + side - e, top + quiet - e),
            (left + e, top + e, left + quiet - e, top + side - e),
            (left + side - quiet + e, top + e, left + side - e, top + side - e),
            (left + e, top + side - quiet + e, left + side - e, top + side - e)]


def test_on_the_guides_card_the_32_mm_stickers_keep_each_others_quiet_zones_clear() -> None:
    card_mm, sticker_mm = WEBCAM
    layout = dataclasses.replace(load_layout(None), sticker_mm=sticker_mm)
    pixels = np.array(guide_page(layout, sticker_mm, DPI).convert("L"))
    left, top = 10.0, 24.0  # where the guide draws its card (MARGIN_MM, MARGIN_MM + 14)
    overlap = 2 * (STICKER_INSET_MM + sticker_mm) - card_mm[0]
    squares = [(left + card_mm[0] / 2 + dx - sticker_mm / 2, top + card_mm[1] / 2 + dy - sticker_mm / 2)
               for dx, dy in sticker_offsets_mm(card_mm, sticker_mm)]
    for x, y in squares:
        for band in _quiet_bands(x, y, sticker_mm):
            # The two margins share a white corner of overlap x overlap mm, where the cut outlines cross.
            x0, y0, x1, y1 = band
            shared = (squares[0][0] + sticker_mm - overlap - 0.3, squares[0][1] + sticker_mm - overlap - 0.3,
                      squares[0][0] + sticker_mm + 0.3, squares[0][1] + sticker_mm + 0.3)
            clear = [band]
            if x1 > shared[0] and x0 < shared[2] and y1 > shared[1] and y0 < shared[3]:
                clear = [(x0, y0, min(x1, shared[0]), y1), (x0, y0, x1, min(y1, shared[1])),
                         (max(x0, shared[2]), y0, x1, y1), (x0, max(y0, shared[3]), x1, y1)]
            for part in clear:
                if part[2] > part[0] and part[3] > part[1]:
                    assert _ink(pixels, part) == 0, (band, part)


def test_on_the_sheet_the_short_strip_ends_before_the_code_does_and_its_step_is_outside_the_piece() -> None:
    card_mm, sticker_mm = WEBCAM
    pixels = np.array(sticker_pages(sticker_mm, DPI, card_ids=("R01",), card_mm=card_mm)[0].convert("L"))
    place = sticker_places(sticker_mm, card_ids=("R01",))[0]
    cut_w, cut_h = sticker_cut_mm(sticker_mm)
    strip_w = label_strip_width_mm(card_mm, sticker_mm)
    strip = (place.left_mm + 0.2, place.top_mm + sticker_mm + 0.2, place.left_mm + strip_w - 0.2,
             place.top_mm + cut_h - 0.2)
    assert _ink(pixels, strip) > 0  # the id, the color and the corner mark
    beyond = (place.left_mm + strip_w + 0.3, place.top_mm + sticker_mm + 0.3, place.left_mm + cut_w + 0.5,
              place.top_mm + cut_h + 0.5)
    assert _ink(pixels, beyond) == 0  # where the other sticker's margin lies on the card: nothing printed
    corner = (place.left_mm + strip_w - 1.2, place.top_mm + cut_h - 0.9, place.left_mm + strip_w - 0.4,
              place.top_mm + cut_h - 0.4)
    assert _ink(pixels, corner) > 0  # the corner mark moved to the strip's new end


def test_the_sim_paints_the_same_short_strip() -> None:
    from companion.sim.scene import _PAD_PX, _card_texture

    card_mm, sticker_mm = WEBCAM
    scale = 8.0
    face = np.asarray(_card_texture("G07", True, card_mm, sticker_mm, scale).bgra)[_PAD_PX:-_PAD_PX,
                                                                                     _PAD_PX:-_PAD_PX, :3]
    grey = face.astype(float).mean(axis=2)
    (first, second) = [(card_mm[0] / 2 + dx - sticker_mm / 2, card_mm[1] / 2 + dy - sticker_mm / 2)
                       for dx, dy in sticker_offsets_mm(card_mm, sticker_mm)]
    quiet = sticker_mm * QUIET_ZONE_MODULES / STICKER_MODULES
    cut_h = sticker_cut_mm(sticker_mm)[1]

    def white(x0: float, y0: float, x1: float, y1: float) -> bool:
        return bool(grey[round(y0 * scale):round(y1 * scale), round(x0 * scale):round(x1 * scale)].min() > 200)

    # The bottom-right sticker's left margin, beside the top-left one's strip; and the other way round.
    assert white(second[0] + 0.3, first[1] + sticker_mm + 0.3, second[0] + quiet - 0.3, first[1] + cut_h - 0.3)
    assert white(first[0] + sticker_mm - quiet + 0.3, second[1] - (cut_h - sticker_mm) + 0.3,
                 first[0] + sticker_mm - 0.3, second[1] - 0.3)
