"""Teaching a playmat: fiducials placed from their printed size, zones from the cards laid, the command."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from companion.cli import main
from companion.vision.fiducials import FiducialSighting
from companion.vision.layout import ZONE_NAMES, Layout, check_layout, load_layout
from companion.vision.teach import TeachError, fit_fiducials, zone_cells


def sightings(homography: np.ndarray, placed: dict[int, tuple[float, float, float]], side: float,
              noise_px: float, rng: np.random.Generator) -> dict[int, FiducialSighting]:
    """What a camera with this mat -> frame homography sees of squares at (x, y, turn in degrees)."""
    import cv2

    seen = {}
    for fiducial_id, (x, y, turn) in placed.items():
        a = math.radians(turn)
        square = [(-side / 2, -side / 2), (side / 2, -side / 2), (side / 2, side / 2), (-side / 2, side / 2)]
        corners = np.array([(x + u * math.cos(a) - v * math.sin(a), y + u * math.sin(a) + v * math.cos(a))
                            for u, v in square])
        image = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), homography).reshape(-1, 2)
        image += rng.normal(0, noise_px, image.shape)
        seen[fiducial_id] = FiducialSighting(fiducial_id, tuple(map(tuple, image)))  # type: ignore[arg-type]
    return seen


def test_fiducials_stuck_anywhere_are_placed_from_their_size() -> None:
    """A tilted, rolled camera; four markers stuck askew near the corners of an 880 x 560 mm mat."""
    rng = np.random.default_rng(3)
    placed = {0: (22.0, 27.0, 2.0), 1: (851.0, 31.0, -3.0), 2: (855.0, 532.0, 1.0), 3: (25.0, 536.0, -1.5)}
    homography = np.array([[4.1, 0.35, 300.0], [-0.3, 4.0, 180.0], [0.00004, 0.00002, 1.0]])
    fit = fit_fiducials(sightings(homography, placed, 30.0, 0.3, rng), dict.fromkeys(placed, 30.0))
    # Distances between markers are what a layout keeps (its frame's origin and axes are its own).
    for first in placed:
        for second in placed:
            truth = math.dist(placed[first][:2], placed[second][:2])
            # The scale is the markers' printed size seen over 120 px: 0.3 px of noise is 0.3% of it.
            assert math.dist(fit.centres_mm[first], fit.centres_mm[second]) == pytest.approx(truth, rel=0.004)
    mean_turn = np.mean([turn for _, _, turn in placed.values()])
    for fiducial_id, (_, _, turn) in placed.items():
        assert fit.turns_deg[fiducial_id] == pytest.approx(turn - mean_turn, abs=0.5)
    assert fit.residual_mm < 0.5


def test_three_fiducials_or_one_stuck_the_wrong_way_are_refused() -> None:
    rng = np.random.default_rng(1)
    homography = np.diag([4.0, 4.0, 1.0])
    three = {0: (20.0, 20.0, 0.0), 1: (600.0, 20.0, 0.0), 2: (600.0, 400.0, 0.0)}
    with pytest.raises(TeachError, match="3 fiducials seen"):
        fit_fiducials(sightings(homography, three, 24.0, 0.0, rng), dict.fromkeys(three, 24.0))
    turned = {**three, 3: (20.0, 400.0, 90.0)}
    with pytest.raises(TeachError, match="fiducial 3 is turned"):
        fit_fiducials(sightings(homography, turned, 24.0, 0.0, rng), dict.fromkeys(turned, 24.0))


def test_zone_cells_are_voronoi_cells_clear_of_the_fiducials() -> None:
    design = load_layout()
    sites = {name: design.zone_center(name) for name in ZONE_NAMES}
    keep_out = [(f.center_mm, f.size_mm / 2 + 7) for f in design.fiducials]
    cells = zone_cells(sites, design.size_mm, keep_out)
    layout = Layout("cells", design.size_mm, design.card_mm, design.sticker_mm, design.fiducials, cells)
    assert [problem for problem in check_layout(layout) if "overlap" in problem] == []
    assert all(layout.zone_at(site) == name for name, site in sites.items())


@pytest.mark.slow
def test_a_mat_of_another_shape_taught_from_frames_puts_cards_in_the_right_zones(tmp_path: Path) -> None:
    """interfaces.md section 9 end to end: frames of the teaching on a random mat of the game's kind."""
    import cv2

    from companion.bench.teach import read_tables
    from companion.sim.mats import mandala_mat, random_mandala_mat, stick_fiducials, teaching_cards
    from companion.sim.scene import Renderer, SceneOptions
    from companion.vision.layout import Fiducial, layout_to_dict

    rng = np.random.default_rng(11)
    truth = stick_fiducials(mandala_mat(random_mandala_mat(rng), "their-mat"), rng, side_mm=24.0)
    options = SceneOptions(resolution=(4608, 2592), noise_sigma=2.0)
    frames = tmp_path / "frames"
    frames.mkdir()
    renderer = Renderer(truth, options)
    laid = []
    shots = [[] for _ in range(5)]
    for _, card in teaching_cards(truth, rng, [f"G{n:02d}" for n in range(1, 19)] + [f"K{n:02d}" for n in range(1, 7)]):
        laid.append(card)
        shots += [list(laid)] * 2
    for index, cards in enumerate(shots):
        cv2.imwrite(str(frames / f"{index:04d}.jpg"), renderer.render(cards, seed=index),
                    [cv2.IMWRITE_JPEG_QUALITY, 90])
    source = tmp_path / "source.json"  # the design layout, printed with 20 mm stickers for this larger mat
    document = layout_to_dict(load_layout())
    document["sticker_mm"] = truth.sticker_mm
    source.write_text(json.dumps(document))
    out = tmp_path / "taught.json"
    assert main(["layout", "teach", str(frames), "--from", str(source), "--out", str(out), "--fps", "2"]) == 0
    assert main(["layout", "check", str(out)]) == 0
    taught = load_layout(out)
    assert all(isinstance(f, Fiducial) for f in taught.fiducials)
    score = read_tables(truth, taught, options, rng, 2)
    assert score.wrong == 0 and score.right >= 0.995 * score.visible, score
