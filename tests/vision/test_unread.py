"""``FrameObservation.unread``: cards with a sticker seen but not read (and none read), per zone."""

from __future__ import annotations

import numpy as np

from companion.sim.scene import RenderedScene
from companion.vision.layout import Layout
from companion.vision.pipeline import VisionPipeline
from tests.vision.conftest import Render, card_in


def deface(scene: RenderedScene, card_id: str, module_px: float, stickers: tuple[int, ...] = (0, 1)) -> np.ndarray:
    """The frame with ink over data modules of some of a card's stickers (the card lies upright).

    More than error correction level H restores, yet the three finder
    patterns and the white margin stay intact: a scribbled-over code. The
    first sticker is upright (its data corner toward the bottom right), the
    second turned half a turn (toward the top left).
    """
    truth = next(t for t in scene.truth if t.card_id == card_id)
    image = scene.image.copy()
    start, end = int(1.0 * module_px), int(9.5 * module_px)
    for number in stickers:
        cx, cy = (int(v) for v in truth.stickers[number].center_px)
        if number == 0:
            image[cy + start : cy + end, cx + start : cx + end] = 40
        else:
            image[cy - end : cy - start, cx - end : cx - start] = 40
    return image


def test_a_clean_table_has_nothing_unread(layout: Layout, render: Render) -> None:
    cards = [card_in(layout, "R07", "m1.mountain", 20.0), card_in(layout, "K18", "discard", 135.0),
             card_in(layout, "G02", "p1.river.1")]
    observation = VisionPipeline(layout).scan(render(cards).image)
    assert len(observation.cards) == 3
    assert observation.unread == {}


def test_a_defaced_sticker_on_the_discard_pile_is_counted_unread(layout: Layout, render: Render) -> None:
    cards = [card_in(layout, "K05", "discard"), card_in(layout, "R07", "p1.river.2")]
    scene = render(cards)
    module_px = layout.sticker_mm / 29 * scene.px_per_mm
    frame = deface(scene, "K05", module_px)
    pipeline = VisionPipeline(layout)
    observation = pipeline.scan(frame)
    assert {c.card_id for c in observation.cards} == {"R07"}
    assert observation.unread == {"discard": 1}  # one card, though both its stickers failed
    # Still unread on the next, unchanged frames (retried, still failing) ...
    assert pipeline.process(frame.copy()).unread == {"discard": 1}
    # ... and gone once the sticker reads.
    assert pipeline.process(scene.image).unread == {}


def test_a_card_read_from_its_other_sticker_is_not_unread(layout: Layout, render: Render) -> None:
    scene = render([card_in(layout, "K05", "discard")])
    frame = deface(scene, "K05", layout.sticker_mm / 29 * scene.px_per_mm, stickers=(0,))
    observation = VisionPipeline(layout).scan(frame)
    assert [(c.card_id, c.zone, len(c.stickers_mm)) for c in observation.cards] == [("K05", "discard", 1)]
    assert observation.unread == {}


def test_a_sticker_partly_under_another_card_is_not_unread(layout: Layout, render: Render) -> None:
    under = card_in(layout, "K05", "discard")
    # A card laid over the lower right of the first sticker hides data, not its finder patterns.
    sticker = next(t for t in render([under]).truth).stickers[0].center_mm
    over = card_in(layout, "G01", "discard", 0.0, shift=(12.0, 12.0))
    assert over.center_mm[0] > sticker[0]
    observation = VisionPipeline(layout).scan(render([under, over]).image)
    assert "K05" not in {c.card_id for c in observation.cards}
    assert observation.unread == {}
