"""Sticker candidates: where a decoder is asked to look."""

from __future__ import annotations

import numpy as np

from companion.vision.candidates import StickerScale, find_candidates
from companion.vision.frames import Thumbnails, thumbnail
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


def test_shared_thumbnails_give_the_candidates_of_the_frame_itself() -> None:
    grey = textured(700, 800, [(100, 100, 360, 45), (90, 400, 130, 130), (400, 500, 61, 61)])
    frame = np.dstack([grey // 2, grey, 255 - grey])  # BGR: the candidates sample green
    step = max(1, int(SCALE.module_px / 0.75))
    for region in (Region(0, 0, 700, 800), Region(3 * step, 2 * step, 400, 600), Region(1, 0, 600, 700)):
        thumbs = Thumbnails(frame)
        thumbs.at(step)  # taken by an earlier stage, as a scan's fiducial search does
        assert find_candidates(frame, region, SCALE, tile=False, thumbs=thumbs) == find_candidates(
            frame, region, SCALE, tile=False)
    thumbs = Thumbnails(frame)
    view = thumbs.view(step, 2 * step, step, 500, 601)
    assert view is None  # nothing sampled yet at that step
    thumbs.at(step)
    view = thumbs.view(step, 2 * step, step, 500, 601)
    assert view is not None and np.array_equal(view, thumbnail(frame[step:601, 2 * step:500], step))
    assert thumbs.view(step, 2 * step + 1, step, 500, 601) is None  # another sampling grid
