"""Vision tests render their frames with the scene renderer (companion.sim.scene).

Frames are webcam-sized (1920x1080 with 32 mm stickers, the issue's second
design point) so the suite stays fast; full-resolution figures are the
benchmark's (``companion bench vision``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import cv2
import pytest

from companion.sim.scene import PlacedCard, RenderedScene, SceneOptions, render_table
from companion.vision.layout import Layout, load_layout

WEBCAM = (1920, 1080)

Render = Callable[..., RenderedScene]


@pytest.fixture(autouse=True, scope="session")
def one_thread() -> None:
    # The pipeline is designed for one core.
    cv2.setNumThreads(1)


@pytest.fixture(scope="session")
def layout() -> Layout:
    """The shipped playmat with 32 mm stickers, as a webcam table would use."""
    return dataclasses.replace(load_layout(), sticker_mm=32.0)


@pytest.fixture(scope="session")
def render(layout: Layout) -> Render:
    def draw(cards: Sequence[PlacedCard], **options: Any) -> RenderedScene:
        return render_table(layout, list(cards), SceneOptions(resolution=WEBCAM, **options))

    return draw


def card_in(layout: Layout, card_id: str, zone: str, rotation: float = 0.0,
            shift: tuple[float, float] = (0.0, 0.0)) -> PlacedCard:
    """A card whose centre lies at the zone's centre (plus ``shift``)."""
    cx, cy = layout.zone_center(zone)
    return PlacedCard(card_id, (cx + shift[0], cy + shift[1]), rotation)
