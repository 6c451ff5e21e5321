"""``companion calibrate`` on rendered frames: a good set-up and one of each problem."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw

from companion.app.calibrate import (
    MAX_BLUR_PX,
    MIN_PX_PER_MODULE,
    Calibration,
    calibrate,
    pick_mode,
    screen_verdict,
)
from companion.cli import main
from companion.sim.scene import PlacedCard, SceneOptions, render_table
from companion.ui.samples import CALIBRATION_SAMPLES, CalibrationSample
from companion.ui.screens import draw_calibration
from companion.vision.layout import Layout, load_layout
from tests.ui.golden import assert_matches_reference

WEBCAM = (1920, 1080)
WEBCAM_LAYOUT = Path(__file__).resolve().parents[2] / "calibration/layouts/mandala-playmat-webcam.json"


@pytest.fixture(scope="module")
def layout() -> Layout:
    return load_layout(WEBCAM_LAYOUT)


def card_at(layout: Layout, card_id: str, zone: str, rotation: float = 0.0) -> PlacedCard:
    """A card lying on the zone's centre."""
    return PlacedCard(card_id, layout.zone_center(zone), rotation)


def table(layout: Layout) -> list[PlacedCard]:
    return [card_at(layout, "R07", "m1.mountain", 20.0), card_at(layout, "K18", "p2.river.3", 135.0),
            card_at(layout, "G02", "discard")]


def frame(layout: Layout, cards: list[PlacedCard] | None = None, **options: Any) -> np.ndarray:
    cards = table(layout) if cards is None else cards
    return render_table(layout, cards, SceneOptions(resolution=WEBCAM, **options)).image


def codes(calibration: Calibration) -> list[str]:
    return [problem.code for problem in calibration.problems]


def test_a_good_set_up_is_ready(layout: Layout) -> None:
    calibration, observation = calibrate(frame(layout, tilt_deg=4.0, tilt_axis_deg=30.0), layout)
    assert calibration.ok, calibration.problems
    assert observation is not None and len(observation.cards) == 3
    assert calibration.px_per_module_from == "stickers"
    assert calibration.px_per_module is not None and 2.6 <= calibration.px_per_module <= 2.9
    assert calibration.blur_px is not None and calibration.blur_px < 1.0
    assert calibration.mode == WEBCAM  # no Camera Module 3: keeps its resolution
    assert calibration.zones_out_of_view == () and calibration.fiducials_missing == ()


def test_a_far_tilted_camera_has_too_few_pixels_per_module(layout: Layout) -> None:
    calibration, _ = calibrate(frame(layout, fill=0.55, tilt_deg=10.0, tilt_axis_deg=90.0), layout)
    assert calibration.px_per_module is not None and calibration.px_per_module < MIN_PX_PER_MODULE
    assert calibration.px_per_module_min is not None
    assert calibration.px_per_module_min < calibration.px_per_module  # the far side is smaller still
    problem = next(p for p in calibration.problems if p.code == "too-few-pixels")
    assert problem.fix.startswith("lower the camera by about")


def test_an_empty_mat_measures_pixels_per_module_from_the_fiducials(layout: Layout) -> None:
    calibration, _ = calibrate(frame(layout, cards=[]), layout)
    assert calibration.ok and calibration.stickers_read == 0
    assert calibration.px_per_module_from == "fiducials"
    assert calibration.px_per_module is not None and 2.5 <= calibration.px_per_module <= 2.9


def test_a_hidden_fiducial_names_it_and_where_it_is(layout: Layout) -> None:
    corner = next(f for f in layout.fiducials if f.center_mm == (16.0, 16.0))
    cover = PlacedCard("P03", (corner.center_mm[0] + 25.0, corner.center_mm[1] + 25.0), 0.0)
    calibration, _ = calibrate(frame(layout, [*table(layout), cover]), layout)
    assert calibration.board_found and corner.id in calibration.fiducials_missing
    problem = next(p for p in calibration.problems if p.code == "fiducial-hidden")
    assert problem.message == f"fiducial {corner.id} not seen (top-left corner)"
    assert "clear the mat's top-left corner" in problem.fix


def test_a_blurred_frame_asks_for_focus(layout: Layout) -> None:
    calibration, _ = calibrate(frame(layout, blur_sigma=2.5), layout)
    assert calibration.blur_px is not None and calibration.blur_px > MAX_BLUR_PX
    problem = next(p for p in calibration.problems if p.code == "blurred")
    assert "LensPosition" in problem.fix


def test_zones_out_of_view_ask_to_raise_the_camera(layout: Layout) -> None:
    # A little too close: the mat overflows the frame, yet the fiducials still give the board.
    calibration, _ = calibrate(frame(layout, fill=1.02), layout)
    assert calibration.board_found
    assert {"p1.river.1", "p2.river.1"} <= set(calibration.zones_out_of_view)
    assert codes(calibration) == ["out-of-view"]
    assert calibration.problems[0].fix == "raise the camera by about 5 cm"


def test_an_off_centre_mat_asks_to_move_the_camera_not_to_clear_markers(layout: Layout) -> None:
    calibration, _ = calibrate(frame(layout, shift_px=(150.0, 0.0)), layout)
    assert calibration.board_found and {1, 2, 6} <= set(calibration.fiducials_missing)
    assert codes(calibration) == ["out-of-view"]  # the markers are out of the picture, not covered
    problem = calibration.problems[0]
    assert problem.message.startswith("out of view: fiducials 1, 2")
    assert "toward the mat's right edge" in problem.fix and problem.short.startswith("Move the camera")


def test_no_mat_and_garbage_are_verdicts_not_crashes(layout: Layout) -> None:
    grey = np.full((1080, 1920, 3), 120, np.uint8)
    calibration, _ = calibrate(grey, layout)
    assert codes(calibration) == ["board-not-found"] and not calibration.ok
    garbage, observation = calibrate("not a frame", layout)
    assert codes(garbage) == ["unusable-frame"] and observation is None
    assert garbage.to_dict()["verdict"]["ok"] is False


def test_the_binned_mode_only_when_it_keeps_three_px_per_module() -> None:
    assert pick_mode((4608, 2592), 3.2, "picamera2 0") == (4608, 2592)  # 16 mm stickers
    assert pick_mode((4608, 2592), 6.4, "picamera2 0") == (2304, 1296)  # 32 mm stickers
    assert pick_mode((2304, 1296), 1.6, "image") == (4608, 2592)
    assert pick_mode((1920, 1080), 2.7, "v4l2 0") == (1920, 1080)


def test_a_binned_frame_of_small_stickers_asks_for_the_full_mode() -> None:
    layout = load_layout()  # 16 mm stickers
    image = render_table(layout, [], SceneOptions(resolution=(2304, 1296))).image
    calibration, _ = calibrate(image, layout)
    assert calibration.mode == (4608, 2592)
    problem = next(p for p in calibration.problems if p.code == "resolution")
    assert problem.fix == "use the 4608x2592 mode: camera.resolution = [4608, 2592]"


def test_cli_writes_json_and_png_and_exits_by_verdict(layout: Layout, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    good, blurred = tmp_path / "good.png", tmp_path / "blurred.png"
    cv2.imwrite(str(good), frame(layout))
    cv2.imwrite(str(blurred), frame(layout, blur_sigma=2.5))
    state = tmp_path / "state"
    common = ["--layout", str(WEBCAM_LAYOUT), "--state-dir", str(state), "--display", "dummy"]
    assert main(["calibrate", "--image", str(good), *common]) == 0
    assert "OK: the camera is ready" in capsys.readouterr().out
    document = json.loads((state / "calibration.json").read_text())
    assert document["verdict"] == {"ok": True, "problems": []}
    assert document["resolution"] == [1920, 1080] and len(document["homography"]) == 3
    assert {"date", "camera", "px_per_module", "focus", "mode"} <= set(document)
    assert cv2.imread(str(state / "calibration.png")).shape == (1080, 1920, 3)

    out = tmp_path / "annotated.png"
    assert main(["calibrate", "--image", str(blurred), "--out", str(out), "--json", *common]) == 1
    printed = json.loads(capsys.readouterr().out)
    assert [p["code"] for p in printed["verdict"]["problems"]] == ["blurred"]
    assert out.is_file()


def test_cli_unreadable_image_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.png"
    bad.write_bytes(b"not a png")
    assert main(["calibrate", "--image", str(bad), "--state-dir", str(tmp_path), "--display", "none"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bad.png" in err


def test_cli_grabs_from_the_configured_camera(layout: Layout, tmp_path: Path) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0001.png"), frame(layout))
    config = tmp_path / "config.toml"
    config.write_text(f'state_dir = "{tmp_path / "state"}"\n[camera]\nsource = "path"\ndevice = "{frames}"\n'
                      f'[layout]\npath = "{WEBCAM_LAYOUT}"\n[display]\ndisplay = "none"\n')
    assert main(["calibrate", "--config", str(config)]) == 0
    document = json.loads((tmp_path / "state" / "calibration.json").read_text())
    assert document["camera"] == f"path {frames}"


def test_the_verdict_screen(layout: Layout) -> None:
    calibration, _ = calibrate(frame(layout, blur_sigma=2.5), layout)
    verdict = screen_verdict(calibration)
    assert not verdict.ok and verdict.fix == "Focus the lens" and verdict.count == 1
    ready = screen_verdict(dataclasses.replace(calibration, problems=()))
    assert ready.ok and ready.mode == "1920x1080"


@pytest.mark.parametrize("sample", CALIBRATION_SAMPLES, ids=[s.name for s in CALIBRATION_SAMPLES])
def test_calibration_screen_matches_reference(sample: CalibrationSample) -> None:
    image = Image.new("1", (128, 64))
    draw_calibration(ImageDraw.Draw(image), sample.verdict)
    box = image.getbbox()
    assert box is not None and box[2] <= 127 and box[3] <= 63  # room for the burn-in shift
    assert_matches_reference(image, sample.name)
