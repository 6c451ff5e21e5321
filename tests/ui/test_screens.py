"""Golden images of every screen, drawn on luma's dummy device and by render()."""

from __future__ import annotations

import pytest
from luma.core.device import dummy
from luma.core.render import canvas
from PIL import Image, ImageChops

from companion.tracker.display import DisplayModel, TableWarning
from companion.ui.samples import MIDGAME, SAMPLES, Sample
from companion.ui.screens import (
    Screen,
    draw_screen,
    render,
    screen_for,
    warning_title,
)
from companion.ui.state import Page, UiState
from tests.ui.golden import assert_matches_reference

SAMPLE_IDS = [s.name for s in SAMPLES]


@pytest.mark.parametrize("sample", SAMPLES, ids=SAMPLE_IDS)
def test_screen_on_dummy_device_matches_reference(sample: Sample) -> None:
    """The pure draw function, drawn through luma's canvas onto the dummy device."""
    device = dummy(width=128, height=64, mode="1")
    with canvas(device) as draw:
        draw_screen(draw, screen_for(sample.model, sample.ui), sample.model, sample.ui)
    assert_matches_reference(device.image, sample.name)


@pytest.mark.parametrize("sample", SAMPLES, ids=SAMPLE_IDS)
def test_render_gives_the_same_frame_as_the_device(sample: Sample) -> None:
    device = dummy(width=128, height=64, mode="1")
    device.display(render(sample.model, sample.ui))
    assert_matches_reference(device.image, sample.name)


def test_every_screen_has_a_sample() -> None:
    from companion.ui.setup_samples import SETUP_SAMPLES

    shown = {screen_for(s.model, s.ui) for s in (*SAMPLES, *SETUP_SAMPLES)}
    assert shown == set(Screen) - {Screen.BLANK}


def test_render_is_a_128x64_one_bit_image() -> None:
    image = render(MIDGAME, UiState())
    assert (image.mode, image.size) == ("1", (128, 64))


def test_blank_power_renders_black() -> None:
    assert render(MIDGAME, UiState(power="blank")).getbbox() is None


def test_shift_moves_the_whole_layout_without_cutting_it() -> None:
    plain = render(MIDGAME, UiState())
    shifted = render(MIDGAME, UiState(shift=(1, 1)))
    box = plain.getbbox()
    assert box is not None and box[2] <= 127 and box[3] <= 63  # room left for the shift
    moved = Image.new("1", plain.size)
    moved.paste(plain, (1, 1))
    assert ImageChops.difference(moved.convert("L"), shifted.convert("L")).getbbox() is None


@pytest.mark.parametrize("sample", SAMPLES, ids=SAMPLE_IDS)
def test_layouts_leave_the_last_column_and_row_free_for_the_shift(sample: Sample) -> None:
    box = render(sample.model, sample.ui).getbbox()
    assert box is not None
    assert box[2] <= 127 and box[3] <= 63


def test_warning_blink_phases_are_inverses_in_the_background() -> None:
    model = DisplayModel(phase="play", turn="p1", warnings=(TableWarning("color-rule", "m", "f"),))
    on = render(model, UiState(blink_on=True))
    off = render(model, UiState(blink_on=False))
    assert bool(on.getpixel((64, 60))) and not off.getpixel((64, 60))


def test_priority_camera_problem_over_warning_over_phase() -> None:
    warning = TableWarning("color-rule", "m", "f", id="7-color-rule-R01")
    model = DisplayModel(phase="play", turn="p1", warnings=(warning,))
    assert screen_for(model, UiState()) is Screen.WARNING
    assert screen_for(model, UiState(acknowledged=frozenset({warning.id}))) is Screen.MAIN
    lost = DisplayModel(phase="play", turn="p1", warnings=(warning,), camera="lost")
    assert screen_for(lost, UiState()) is Screen.PROBLEM
    assert screen_for(lost, UiState(menu=0)) is Screen.MENU


def test_phase_screens_only_on_the_main_page() -> None:
    over = next(s.model for s in SAMPLES if s.name == "over-win")
    assert screen_for(over, UiState()) is Screen.OVER
    assert screen_for(over, UiState(page=Page.TABLE)) is Screen.TABLE


def test_unknown_reason_code_still_gets_a_readable_title() -> None:
    assert warning_title("hand-over-zone") == "HAND OVER ZONE"


def test_show_cups_names_the_player_whose_cup_is_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    # Only P2's starting cup cards are unseen: the screen must not send P1 to turn theirs over.
    from companion.tracker.display import GameOver, PlayerView
    from companion.ui import screens

    lines: list[str] = []
    monkeypatch.setattr(screens.t, "centered", lambda draw, y, text, *args, **kwargs: lines.append(text))
    model = DisplayModel(phase="over", turn="p1", deck=0,
                         players=(PlayerView(hand=0, score=30, unknown_cup=0),
                                  PlayerView(hand=0, score=27, unknown_cup=1)),
                         over=GameOver(scores=(30, 27), winner="p1", cups=(12, 11), unknown=1))
    render(model, UiState())
    assert "P2: show 1 cup cards" in lines
    assert not any("P1:" in line for line in lines)
