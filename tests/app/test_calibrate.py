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


def test_beside_the_running_service_it_pauses_it_and_keeps_the_lens_position(
        layout: Layout, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A live camera the service holds: stop the service, grab, save the lens position, start it again."""
    from companion.app import camera as camera_module
    from companion.app import service
    from companion.app.calibrate import saved_lens_position
    from companion.app.camera import FileSource
    from tests.app.test_service import Systemctl

    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0001.png"), frame(layout))

    class FocusedCamera(FileSource):
        lens_position = 1.69  # where a Camera Module 3's sweep would have left the lens

        def open(self) -> None:
            assert not systemctl.active, "the service still holds the camera"
            super().open()

    systemctl = Systemctl(active=True)
    monkeypatch.setattr(service, "systemctl", systemctl)
    monkeypatch.setattr(camera_module, "make_camera", lambda settings, **kw: FocusedCamera(frames))
    config = tmp_path / "config.toml"
    config.write_text(f'state_dir = "{tmp_path / "state"}"\n[camera]\nsource = "v4l2"\n'
                      f'[layout]\npath = "{WEBCAM_LAYOUT}"\n[display]\ndisplay = "none"\n')
    assert main(["calibrate", "--config", str(config)]) == 0
    assert [call[0] for call in systemctl.calls] == ["is-active", "stop", "start"] and systemctl.active
    assert saved_lens_position(tmp_path / "state") == 1.69  # the service sets it at its next start
    assert main(["calibrate", "--config", str(config), "--keep-stopped"]) == 0
    assert not systemctl.active


def test_a_saved_lens_position_needs_good_focus(tmp_path: Path) -> None:
    from companion.app.calibrate import saved_lens_position

    assert saved_lens_position(tmp_path) is None  # no calibration yet
    (tmp_path / "calibration.json").write_text('{"focus": {"ok": false, "lens_position": 1.7}}')
    assert saved_lens_position(tmp_path) is None  # a blurred calibration is not repeated
    (tmp_path / "calibration.json").write_text('{"focus": {"ok": true, "lens_position": 1.7}}')
    assert saved_lens_position(tmp_path) == 1.7
    (tmp_path / "calibration.json").write_text("{not json")
    assert saved_lens_position(tmp_path) is None


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


# -- the lens, the focus sweep, the sticker size --------------------------------------------------

WIDE_LENS = {"hfov_deg": 102.0, "distortion": (-0.3, 0.1, 0.0, 0.0, 0.0)}


def test_a_wide_lens_is_fitted_and_read_through_everywhere(layout: Layout, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """calibrate --image FRAME --out FILE writes the lens; run, replay and vision detect read it."""
    empty, played = tmp_path / "empty.png", tmp_path / "played.png"
    cv2.imwrite(str(empty), frame(layout, cards=[], **WIDE_LENS))
    cards = [card_at(layout, "R07", "p2.river.4", 20.0), card_at(layout, "K18", "m2.field.p1", 135.0)]
    cv2.imwrite(str(played), frame(layout, cards=cards, **WIDE_LENS))
    out = tmp_path / "cal.json"
    # Exit 1: the barrel leaves the mat's edges 2.1 px per module; the lens is written all the same.
    assert main(["calibrate", "--image", str(empty), "--out", str(out), "--lens", "wide", "--layout",
                 str(WEBCAM_LAYOUT), "--display", "none", "--json"]) == 1
    printed = json.loads(capsys.readouterr().out)
    assert [p["code"] for p in printed["verdict"]["problems"]] == ["small-edges"]
    assert printed["written"] == str(out) and printed["annotated"] == str(tmp_path / "cal.png")
    document = json.loads(out.read_text())
    assert document["lens"]["fitted_to"] == ["fiducials"] and document["lens"]["rms_px"] < 1.0
    k1, k2 = document["lens"]["model"]["distortion"][:2]
    assert k1 < -0.2 and k2 > 0.05  # the barrel, found from the mat's own fiducials
    assert (tmp_path / "cal.png").is_file() and not (tmp_path / "state").exists()

    def detect(*extra: str) -> dict[str, Any]:
        main(["vision", "detect", str(played), "--layout", str(WEBCAM_LAYOUT), "--json", *extra])
        return dict(json.loads(capsys.readouterr().out))

    through = detect("--calibration", str(out))
    assert {(c["id"], c["zone"]) for c in through["cards"]} == {("R07", "p2.river.4"), ("K18", "m2.field.p1")}
    plain = detect()
    river = [c for c in plain["cards"] if c["id"] == "R07"]
    assert not plain["board"]["found"] or abs(river[0]["center_mm"][0] - through["cards"][0]["center_mm"][0]) > 3

    frames = tmp_path / "frames"
    frames.mkdir()
    for index in range(3):
        cv2.imwrite(str(frames / f"{index:04d}.png"), cv2.imread(str(played)))
    assert main(["replay", str(frames), "--layout", str(WEBCAM_LAYOUT), "--calibration", str(out), "--json"]) == 0
    capsys.readouterr()
    assert main(["vision", "detect", str(played), "--calibration", str(tmp_path / "nothing.json")]) == 2
    assert "nothing.json: no such calibration file" in capsys.readouterr().err


@pytest.mark.parametrize(("resolution", "scene", "rms_px"), [
    # 12 MP, cloth creased 2.8 mm: the fiducials 2.4 px (0.4 mm) off any lens; a 2 px limit threw it away.
    ((4608, 2592), {"tilt_deg": 2.5, "tilt_axis_deg": 60.0, "roll_deg": -2.8, "blur_sigma": 1.36,
                    "noise_sigma": 3.2, "crease": 2.8, "seed": 5}, (2.0, 3.0)),
    # 1080p tilted 9 degrees, glare, the cloth lifted up to 8 mm: 6 fiducials, 1.4 px, which is more than
    # 0.8 mm there (the edge markers are small). Without the lift the fit is 0.5 px (it was 1.5 px while the
    # small edge markers' corners came out 3 px off: tests/vision/test_fiducials.py).
    ((1920, 1080), {"tilt_deg": 9.06, "tilt_axis_deg": 273.7, "roll_deg": -0.94, "light_gain": 1.44, "glare": 0.35,
                    "noise_sigma": 2.9, "crease": 0.83, "lift_mm": 8.0, "seed": 4}, (1.0, 2.0)),
])
def test_a_wide_lens_fit_is_kept_within_a_few_pixels_or_a_millimetre(
        layout: Layout, resolution: tuple[int, int], scene: dict[str, Any], rms_px: tuple[float, float]) -> None:
    """A fit many times better than the start is kept while within 2 px or 0.8 mm on the mat, whichever is more."""
    options = SceneOptions(resolution=resolution, jpeg_quality=75, **scene, **WIDE_LENS)
    calibration, observation = calibrate(render_table(layout, [], options).image, layout, lens="wide")
    assert calibration.lens is not None and calibration.lens.fitted_to == ("fiducials",)
    assert calibration.lens.rms_px is not None and rms_px[0] < calibration.lens.rms_px < rms_px[1]
    assert calibration.lens.rms_px < 0.25 * (calibration.lens.start_rms_px or 0.0)
    assert calibration.lens.model.distortion[0] < -0.25 and observation.board.found


def test_the_lens_run_uses(tmp_path: Path) -> None:
    from companion.app.calibrate import lens_for_run
    from companion.app.config import parse_config

    config = parse_config({"state_dir": str(tmp_path)})
    assert lens_for_run(config) is None  # standard lens, no calibration: pinhole as before
    wide = parse_config({"state_dir": str(tmp_path), "camera": {"lens": "wide"}})
    lens = lens_for_run(wide)
    assert lens is not None and lens.name == "wide"
    fitted = {"lens": {"model": {"name": "calibrated", "resolution": [4608, 2592], "distortion": [-0.1, 0, 0, 0, 0],
                                 "camera_matrix": [[3400, 0, 2303.5], [0, 3400, 1295.5], [0, 0, 1]]}}}
    (tmp_path / "calibration.json").write_text(json.dumps(fitted))
    saved = lens_for_run(config)
    assert saved is not None and saved.distortion[0] == -0.1
    (tmp_path / "other.json").write_text("{}")
    with pytest.raises(ValueError, match=r"other\.json: holds no lens model"):
        lens_for_run(config, tmp_path / "other.json")


def _photograph_sheet(lens: Any, rvec: tuple[float, float, float], tvec: tuple[float, float, float]) -> np.ndarray:
    """The calibration sheet lying in front of a camera with this lens: pinhole pose, then the lens's distortion."""
    from companion.vision.sheet import sheet_image

    board = sheet_image(4.0)  # 4 px per mm
    h, w = board.shape
    corners_mm = np.array([[0, 0, 0], [w / 4, 0, 0], [w / 4, h / 4, 0], [0, h / 4, 0]], np.float64)
    pinhole, _ = cv2.projectPoints(corners_mm, np.array(rvec), np.array(tvec), lens.matrix, np.zeros(5))
    to_pinhole = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]),
                                             pinhole.reshape(4, 2).astype(np.float32))
    xs, ys = np.meshgrid(np.arange(0, WEBCAM[0], 8.0), np.arange(0, WEBCAM[1], 8.0))
    ideal = lens.undistort(np.column_stack([xs.ravel(), ys.ravel()]))
    source = cv2.perspectiveTransform(ideal.reshape(-1, 1, 2), np.linalg.inv(to_pinhole)).reshape(*xs.shape, 2)
    maps = [cv2.resize(source[..., i].astype(np.float32), WEBCAM, interpolation=cv2.INTER_LINEAR) for i in (0, 1)]
    picture = cv2.remap(board, maps[0], maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=200)
    return cv2.cvtColor(picture, cv2.COLOR_GRAY2BGR)


def test_the_calibration_sheet_adds_points(layout: Layout) -> None:
    from companion.sim.scene import scene_camera

    truth = scene_camera(layout.size_mm, SceneOptions(resolution=WEBCAM, **WIDE_LENS)).lens
    assert truth is not None
    pictures = [_photograph_sheet(truth, (0.3, -0.2, 0.1), (-120.0, -140.0, 420.0)),
                _photograph_sheet(truth, (-0.2, 0.3, -0.4), (30.0, -20.0, 380.0))]
    calibration, _ = calibrate(frame(layout, **WIDE_LENS), layout, lens="wide", sheets=pictures)
    assert calibration.lens is not None and calibration.lens.fitted_to == ("fiducials", "sheet images")
    assert calibration.lens.points > 44 + 80 and calibration.lens.rms_px is not None
    assert calibration.lens.rms_px < 0.5
    with pytest.raises(ValueError, match="not from this camera"):
        calibrate(frame(layout), layout, sheets=[np.zeros((480, 640, 3), np.uint8)])


def test_calibrate_sweeps_a_movable_lens(layout: Layout, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.app import camera as camera_module
    from companion.app import service
    from companion.app.camera import FocusingCamera
    from tests.app.test_service import Systemctl

    lens = FocusingCamera(layout, table(layout), SceneOptions(resolution=WEBCAM, blur_sigma=0.5), corner_blur=3.0)
    monkeypatch.setattr(service, "systemctl", Systemctl(active=False))
    monkeypatch.setattr(camera_module, "make_camera", lambda settings, **kw: lens)
    config = tmp_path / "config.toml"
    config.write_text(f'state_dir = "{tmp_path / "state"}"\n[camera]\nsource = "picamera2"\n'
                      f'[layout]\npath = "{WEBCAM_LAYOUT}"\n[display]\ndisplay = "none"\n')
    assert main(["calibrate", "--config", str(config)]) == 1  # 1920x1080 frames: a Camera Module 3 has a better mode
    document = json.loads((tmp_path / "state" / "calibration.json").read_text())
    assert [problem["code"] for problem in document["verdict"]["problems"]] == ["resolution"]
    assert document["focus"]["sweep"]["best"] == document["focus"]["lens_position"] == lens.lens_position
    assert len(lens.moves) >= 3 and document["focus"]["soft_zones"] == []


def test_a_large_mat_asks_for_larger_stickers() -> None:
    from companion.markers.sizing import choose_sticker_mm

    large = load_layout(Path(__file__).resolve().parents[2] / "calibration/layouts/mandala-playmat-90x60.json")
    small_stickers = dataclasses.replace(large, sticker_mm=16.0)
    image = render_table(small_stickers, [], SceneOptions(resolution=(4608, 2592), fill=0.9)).image
    calibration, _ = calibrate(image, small_stickers, "picamera2 0")
    problem = next(p for p in calibration.problems if p.code == "too-few-pixels")
    assert calibration.sticker_mm_needed == 24.0 and "print 24 mm stickers" in problem.fix
    assert problem.short == "Print 24 mm stickers"
    chosen = choose_sticker_mm(large.size_mm, large.card_mm, "standard", (4608, 2592))
    assert chosen is not None and chosen.sticker_mm == large.sticker_mm == 24.0


def test_the_system_state_folder_is_never_made_off_the_service(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """As root or a user, without --state-dir: /var/lib/... is the service's to make (with its owner and mode)."""
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    folder = Path("/var/lib/mandala-companion-never-made")
    config = tmp_path / "config.toml"
    config.write_text(f'state_dir = "{folder}"\n[display]\ndisplay = "none"\n')
    image = tmp_path / "table.png"
    cv2.imwrite(str(image), np.full((40, 40, 3), 200, np.uint8))
    assert main(["calibrate", "--config", str(config), "--image", str(image)]) == 2
    err = capsys.readouterr().err
    assert f"state folder {folder} does not exist" in err and "--state-dir" in err and err.count("\n") == 1
    assert not folder.exists()


@pytest.mark.parametrize(("scene", "code"), [
    # The wide lens's barrel, the camera tilted 3.5 degrees: the pinhole scale differs by more than 15%
    # over the mat, yet the barrel makes most of the loss at the edges: straightening would not do.
    ({"tilt_deg": 3.5, "tilt_axis_deg": 200.0, **WIDE_LENS}, "small-edges"),
    # The standard lens tilted 10 degrees: the middle has 2.66 px per module, only the far side falls short.
    ({"tilt_deg": 10.0, "tilt_axis_deg": 90.0, "fill": 0.9}, "tilted"),
])
def test_small_edges_are_told_from_a_tilted_camera(layout: Layout, scene: dict[str, Any], code: str) -> None:
    lens = "wide" if "distortion" in scene else "standard"
    calibration, _ = calibrate(frame(layout, cards=[], **scene), layout, lens=lens)
    edge = [p.code for p in calibration.problems if p.code in ("tilted", "small-edges")]
    assert edge == [code], calibration.problems
