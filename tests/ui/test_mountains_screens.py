"""Golden images of the mountains ruleset's screens, drawn on luma's dummy device and by render()."""

from __future__ import annotations

import pytest
from luma.core.device import dummy
from luma.core.render import canvas

from companion.errors import DisplayModelError
from companion.tracker.mountains_display import MountainsView, RoundEnd
from companion.ui.mountains_samples import MOUNTAINS_SAMPLES
from companion.ui.samples import Sample
from companion.ui.screens import Screen, draw_screen, render, screen_for
from companion.ui.state import UiState
from tests.ui.golden import assert_matches_reference

IDS = [s.name for s in MOUNTAINS_SAMPLES]


@pytest.mark.parametrize("sample", MOUNTAINS_SAMPLES, ids=IDS)
def test_mountains_screen_matches_reference(sample: Sample) -> None:
    device = dummy(width=128, height=64, mode="1")
    with canvas(device) as draw:
        draw_screen(draw, screen_for(sample.model, sample.ui), sample.model, sample.ui)
    assert_matches_reference(device.image, sample.name)


@pytest.mark.parametrize("sample", MOUNTAINS_SAMPLES, ids=IDS)
def test_render_draws_the_same_mountains_frame(sample: Sample) -> None:
    device = dummy(width=128, height=64, mode="1")
    device.display(render(sample.model, sample.ui))
    assert_matches_reference(device.image, sample.name)


def test_mountains_pages_differ_from_the_official_ones() -> None:
    """The same model without its mountains details draws the official screen, not this one."""
    from dataclasses import replace

    sample = MOUNTAINS_SAMPLES[0]
    official = replace(sample.model, mountains=None)
    assert screen_for(sample.model, UiState()) is Screen.MAIN
    assert render(sample.model, UiState()).tobytes() != render(official, UiState()).tobytes()


def test_a_warning_still_comes_first() -> None:
    from dataclasses import replace

    from companion.tracker.display import TableWarning

    model = replace(MOUNTAINS_SAMPLES[0].model,
                    warnings=(TableWarning("own-mountain-color", "Red is in P2's mountain.", "Take back R07."),))
    assert screen_for(model, UiState()) is Screen.WARNING


def test_bad_mountains_details_are_refused() -> None:
    with pytest.raises(DisplayModelError):
        MountainsView(1, "think", (6, 6), (0, 0), (0, 0), ("", ""), ("", ""))  # type: ignore[arg-type]
    with pytest.raises(DisplayModelError):
        RoundEnd(1, "12=", (0, 0), (0, 0))
