"""The dictionary reader: stickers too small and soft to decode, classified against the codes that exist.

Each test draws stickers the way the wide lens's edges show them at 1080p
(about 2 px per module, blur of 0.6 modules, sensor noise) on a card face
of a flat mat, and checks the reader names the right card, and never a wrong
one: a foreign code, a card whose code is not in the dictionary, blank or
textured areas are never accepted.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from companion.markers.codes import ALL_CARD_IDS, payload_for, sticker_modules
from companion.sim.scene import SceneOptions, render_table
from companion.vision.decoders import DecodedSymbol, DecodeResult
from companion.vision.dictionary import (
    CodeDictionary,
    card_dictionary,
    classify_box,
    read_by_dictionary,
    search_regions,
)
from companion.vision.fiducials import FiducialSighting
from companion.vision.layout import Layout
from companion.vision.mapping import FiducialPlace, MatMapping
from companion.vision.observation import Region
from companion.vision.payload import CARD_PAYLOADS
from companion.vision.pipeline import VisionPipeline
from companion.vision.stickers import STICKER_MODULES
from tests.vision.conftest import Render, card_in

STICKER_MM = 32.0
PX_PER_MM = 2.1 * STICKER_MODULES / STICKER_MM  # 2.1 px per module, the barrel's edges at 1080p
SIZE = (480, 320)  # frame pixels: a 228 x 152 mm piece of mat
PLACES = {i: FiducialPlace(i, centre, 20.0) for i, centre in enumerate([(15, 15), (210, 15), (210, 135), (15, 135)])}


def mapping() -> MatMapping:
    seen = {i: FiducialSighting(i, tuple(map(tuple, p.corners_mm() * PX_PER_MM))) for i, p in PLACES.items()}
    return MatMapping(seen, PLACES)  # type: ignore[arg-type]


def draw_sticker(frame: np.ndarray, payload: str, centre_px: tuple[float, float], turn_deg: float) -> None:
    """Paint a sticker (paper, quiet zone, code) into ``frame``, turned and placed, sharp."""
    fine = 8  # pixels per module of the drawing, then warped down
    modules = sticker_modules(payload)
    ink = np.where(np.kron(modules, np.ones((fine, fine), bool)), 30.0, 235.0).astype(np.float32)
    side = ink.shape[0]
    scale = PX_PER_MM * STICKER_MM / side
    turn = cv2.getRotationMatrix2D(((side - 1) / 2.0, (side - 1) / 2.0), turn_deg, scale)
    turn[:, 2] += np.array(centre_px) - (side - 1) / 2.0
    height, width = frame.shape
    painted = cv2.warpAffine(ink, turn, (width, height), flags=cv2.INTER_AREA, borderValue=-1.0)
    inside = cv2.warpAffine(np.ones_like(ink), turn, (width, height), flags=cv2.INTER_LINEAR, borderValue=0.0)
    frame[:] = np.where(inside > 0.5, painted / np.maximum(inside, 1e-3), frame)


def table(stickers: list[tuple[str, tuple[float, float], float]], seed: int = 0, blur_px: float = 1.3,
          background: float = 110.0) -> np.ndarray:
    """A card-coloured frame with ``stickers`` (payload, centre px, turn), blurred and noisy as at the barrel's edge."""
    frame = np.full((SIZE[1], SIZE[0]), background, np.float32)
    for payload, centre, turn in stickers:
        draw_sticker(frame, payload, centre, turn)
    frame = cv2.GaussianBlur(frame, (0, 0), blur_px)
    frame += np.random.default_rng(seed).normal(0.0, 3.0, frame.shape).astype(np.float32)
    return np.clip(frame, 0, 255).astype(np.uint8)


WHOLE = Region(0, 0, SIZE[0], SIZE[1])


@pytest.mark.parametrize(("card", "turn"), [("R07", 0.0), ("K18", 37.0), ("A03", 180.0), ("G11", 290.0)])
def test_a_tiny_blurred_sticker_is_named_and_placed(card: str, turn: float) -> None:
    payload = payload_for(card)
    frame = table([(payload, (240.0, 160.0), turn)], seed=len(card) + int(turn))
    reads = read_by_dictionary(frame, WHOLE, mapping(), STICKER_MM)
    assert [r.payload for r in reads] == [payload]
    corners = np.array(reads[0].corners)
    assert math.dist(tuple(corners.mean(axis=0)), (240.0, 160.0)) < 1.5
    # The corners come in the code's own order: top-left first, its top edge along the sticker's turn.
    top = corners[1] - corners[0]
    assert abs((math.degrees(math.atan2(-top[1], top[0])) - turn + 180) % 360 - 180) < 4.0
    assert math.dist(corners[0], corners[1]) == pytest.approx(21 * STICKER_MM / STICKER_MODULES * PX_PER_MM, rel=0.05)


def test_several_stickers_in_one_region_are_each_named() -> None:
    stickers = [(payload_for("O05"), (110.0, 100.0), 10.0), (payload_for("P16"), (330.0, 110.0), 200.0),
                (payload_for("Y02"), (220.0, 240.0), 95.0)]
    reads = read_by_dictionary(table(stickers, seed=3), WHOLE, mapping(), STICKER_MM)
    assert sorted(r.payload for r in reads) == sorted(p for p, _, _ in stickers)


def test_a_sticker_already_read_is_not_classified_again() -> None:
    frame = table([(payload_for("R01"), (240.0, 160.0), 0.0)])
    assert read_by_dictionary(frame, WHOLE, mapping(), STICKER_MM, skip=[(243.0, 158.0)]) == []


def test_a_foreign_code_of_the_same_format_is_never_a_card() -> None:
    # MDL-Z99 and MDL-R07X: version 1, level H, alphanumeric, like a card's, but no card's payload.
    frame = table([("MDL-Z99", (130.0, 160.0), 20.0), ("MDL-R07X", (350.0, 160.0), 0.0)], seed=5)
    found = classify_box(frame, WHOLE, mapping(), STICKER_MM)
    assert found, "the poses are found: the codes are rejected on their content"
    assert not [f for f in found if f.accepted]


@pytest.mark.parametrize("card", ["R07", "K01", "O08", "A12"])
def test_a_card_whose_code_is_not_in_the_dictionary_reads_as_nothing(card: str) -> None:
    """The near miss: a real sticker, classified against every other code (a wrong id would be the worst)."""
    payload = payload_for(card)
    others = CodeDictionary([p for p in CARD_PAYLOADS if p != payload])
    frame = table([(payload, (240.0, 160.0), 15.0)], seed=7)
    assert read_by_dictionary(frame, WHOLE, mapping(), STICKER_MM, dictionary=others) == []
    assert [r.payload for r in read_by_dictionary(frame, WHOLE, mapping(), STICKER_MM)] == [payload]


@pytest.mark.parametrize("kind", ["blank", "noise", "checkerboard", "blobs"])
def test_blank_and_textured_areas_read_as_nothing(kind: str) -> None:
    rng = np.random.default_rng(11)
    if kind == "blank":
        frame = np.full((SIZE[1], SIZE[0]), 140, np.uint8)
    elif kind == "noise":
        frame = rng.integers(0, 256, (SIZE[1], SIZE[0])).astype(np.uint8)
    elif kind == "checkerboard":  # module-sized squares: finder-like corners everywhere
        ys, xs = np.mgrid[0 : SIZE[1], 0 : SIZE[0]]
        frame = np.where(((xs // 4) + (ys // 4)) % 2 == 0, 40, 220).astype(np.uint8)
    else:  # dark blobs of a finder's size on paper: the printed art of a card face
        frame = np.full((SIZE[1], SIZE[0]), 220, np.uint8)
        for x, y in rng.uniform((10, 10), (SIZE[0] - 10, SIZE[1] - 10), (120, 2)):
            cv2.circle(frame, (int(x), int(y)), int(rng.integers(3, 9)), int(rng.integers(20, 120)), -1)
    frame = cv2.GaussianBlur(frame, (0, 0), 1.2)
    assert read_by_dictionary(frame, WHOLE, mapping(), STICKER_MM) == []


def test_the_dictionary_holds_every_card_and_only_the_modules_that_differ_tell_them_apart() -> None:
    codes = card_dictionary()
    assert codes.payloads == tuple(payload_for(card) for card in ALL_CARD_IDS)
    with pytest.raises(ValueError, match="version-1"):
        CodeDictionary(["MDL-R01", "https://example.com/a-long-foreign-code"])


def test_overlapping_tiles_become_one_region_and_large_ones_pieces() -> None:
    tiles = [Region(0, 0, 60, 60), Region(30, 0, 60, 60), Region(200, 200, 40, 40)]
    regions = search_regions(tiles, sticker_px=60.0)
    assert len(regions) == 2
    assert any(r.x <= 0 and r.x + r.width >= 90 and r.width < 110 for r in regions)
    big = search_regions([Region(0, 0, 1000, 100)], sticker_px=50.0)
    assert len(big) > 1 and all(r.width <= 300 for r in big)
    covered = set()
    for r in big:  # every sticker-sized stretch lies whole in one piece
        covered |= {x for x in range(r.x, r.x + r.width - 75)}
    assert set(range(0, 1000 - 75)) <= covered


class _BlindDecoder:
    """A decoder that neither reads nor locates anything: what zxing-cpp makes of the barrel's edges."""

    name = "blind"

    def decode(self, grey: np.ndarray) -> list[DecodedSymbol]:
        return []

    def decode_detailed(self, grey: np.ndarray) -> DecodeResult:
        return DecodeResult((), 0)


def test_the_pipeline_reads_by_dictionary_only_where_modules_are_tiny(layout: Layout, render: Render) -> None:
    cards = [card_in(layout, "R07", "m1.mountain", 20.0), card_in(layout, "K18", "p2.river.3", 135.0),
             card_in(layout, "A05", "p1.river.2", 250.0)]
    # 2.0 px per module: the barrel's edges at 1080p
    small = render_table(layout, cards, SceneOptions(resolution=(1440, 810), blur_sigma=1.2, noise_sigma=2.0, seed=4))
    seen = VisionPipeline(layout, _BlindDecoder()).scan(small.image)
    assert {(c.card_id, c.zone) for c in seen.cards} == {("R07", "m1.mountain"), ("K18", "p2.river.3"),
                                                         ("A05", "p1.river.2")}
    for card in seen.cards:
        truth = next(t for t in small.truth if t.card_id == card.card_id)
        assert math.dist(card.center_mm, truth.center_mm) < 3.0
    assert seen.unread == {}  # what the dictionary read is no longer reported unread
    assert "dictionary" in seen.timings_ms
    assert VisionPipeline(layout, _BlindDecoder(), dictionary_reads=False).scan(small.image).cards == ()
    # At the design point (2.7 px per module) the decoder's passes are enough: no dictionary search.
    design = render(cards, blur_sigma=1.2, noise_sigma=2.0, seed=4)
    assert VisionPipeline(layout, _BlindDecoder()).scan(design.image).cards == ()
