"""Sticker candidates: where a decoder is asked to look."""

from __future__ import annotations

import numpy as np

from companion.vision.candidates import StickerScale, find_candidates
from companion.vision.observation import Region

SCALE = StickerScale(sticker_px=60.0, module_px=60.0 / 29)


def textured(width: int, height: int, patches: list[tuple[int, int, int, int]]) -> np.ndarray:
    """A white frame with random black-and-white modules (QR-like texture) in each (x, y, w, h) patch."""
    rng = np.random.default_rng(0)
    frame = np.full((height, width), 235, np.uint8)
    module = round(SCALE.module_px)
    for x, y, w, h in patches:
        cells = rng.integers(0, 2, (h // module + 1, w // module + 1)).astype(np.uint8) * 200 + 20
        frame[y:y + h, x:x + w] = np.kron(cells, np.ones((module, module), np.uint8))[:h, :w]
    return frame


def test_a_row_stays_whole_for_a_decoder_that_reads_crowds_and_a_large_area_is_tiled() -> None:
    row = (100, 100, 360, 45)  # six stickers side by side: a fanned row
    area = (100, 300, 420, 420)  # seven stickers each way: textured areas run together
    frame = textured(700, 800, [row, area])
    boxes = find_candidates(frame, Region(0, 0, 700, 800), SCALE, tile=False)
    in_row = [b for b in boxes if b.y < 250]
    in_area = [b for b in boxes if b.y >= 250]
    assert len(in_row) == 1 and in_row[0].width > 5 * SCALE.sticker_px
    assert len(in_area) > 4
    assert all(max(b.width, b.height) <= 2.5 * SCALE.sticker_px for b in in_area)
    assert len(find_candidates(frame, Region(0, 0, 700, 800), SCALE, tile=True)) > len(boxes)
