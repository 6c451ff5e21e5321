"""``companion markers mat``: the playmat at 1:1 on tiled A4 and Letter pages, scale checked on the pages."""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.markers.mat import BORDER_MM, MARGINS_MM, OVERLAP_MM, mat_pages, tiling
from companion.markers.sheets import PAPERS
from companion.vision.layout import default_layout_path, load_layout

DPI = 150
POINTS_PER_MM = 72 / 25.4


def _markers(page: np.ndarray) -> dict[int, np.ndarray]:
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    corners, ids, _ = detector.detectMarkers(page)
    return {} if ids is None else {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners, strict=True)}


@pytest.mark.parametrize("ruleset", ["mandala", "mountains"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_mat_is_printed_at_1_to_1_on_the_fewest_pages_each_knowing_its_place(ruleset: str, paper: str) -> None:
    layout = load_layout(default_layout_path(ruleset))
    tiles, pages = mat_pages(layout, PAPERS[paper], DPI)
    assert (tiles.columns, tiles.rows, len(pages)) == (4, 2, 8)  # 700 x 400 mm (and the border): 8 sheets
    step_x, step_y = tiles.step_mm
    # Every part of the mat and its border lies on some sheet, and neighbours share the overlap strip.
    assert tiles.columns * step_x + OVERLAP_MM >= layout.size_mm[0] + 2 * BORDER_MM
    assert tiles.rows * step_y + OVERLAP_MM >= layout.size_mm[1] + 2 * BORDER_MM
    px_per_mm = DPI / 25.4
    seen = set()
    spans = 0
    for number, image in enumerate(pages):
        page = np.array(image.convert("L"))
        points_per_px = 72 / DPI  # the PDF page is the paper: its image spans the MediaBox
        found_here = _markers(page)
        for first in found_here:
            for second in found_here:
                if first < second:  # two fiducials on one sheet: their distance in points is the layout's
                    a, b = layout.fiducial(first), layout.fiducial(second)
                    assert a is not None and b is not None
                    apart_pt = float(np.linalg.norm(found_here[first].mean(axis=0) - found_here[second].mean(axis=0)))
                    truth_pt = float(np.hypot(a.center_mm[0] - b.center_mm[0], a.center_mm[1] - b.center_mm[1]))
                    assert apart_pt * points_per_px == pytest.approx(truth_pt * POINTS_PER_MM, abs=1.5)
                    spans += 1
        assert page.shape == (round(tiles.paper_mm[1] * px_per_mm), round(tiles.paper_mm[0] * px_per_mm))
        column, row = number % tiles.columns, number // tiles.columns
        x0, y0 = tiles.origin_mm(column, row)
        for fiducial_id, corners in _markers(page).items():
            fiducial = layout.fiducial(fiducial_id)
            assert fiducial is not None
            side_mm = float(np.mean(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1))) / px_per_mm
            assert side_mm == pytest.approx(fiducial.size_mm, abs=0.3)  # 24 mm: 68 points of paper
            # And where the layout says, on this sheet: margin + (border + centre) - the sheet's origin.
            expected = (MARGINS_MM[0] + BORDER_MM + fiducial.center_mm[0] - x0,
                        MARGINS_MM[1] + BORDER_MM + fiducial.center_mm[1] - y0)
            found = corners.mean(axis=0) / px_per_mm
            assert found == pytest.approx(expected, abs=0.5)
            seen.add(fiducial_id)
    assert seen == {f.id for f in layout.fiducials} and spans >= 2


def test_landscape_is_taken_when_it_needs_fewer_sheets() -> None:
    assert tiling((400.0, 300.0), PAPERS["a4"]).paper_mm == (297.0, 210.0)
    assert tiling((150.0, 150.0), PAPERS["a4"]).pages == 1


def test_the_command_writes_one_pdf_whose_pages_are_the_paper(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mat.pdf"
    assert main(["markers", "mat", "--out", str(out), "--paper", "letter", "--dpi", "100"]) == 0
    assert capsys.readouterr().out.strip() == str(out)
    data = out.read_bytes()
    boxes = re.findall(rb"/MediaBox \[ ?0 0 ([\d.]+) ([\d.]+) ?\]", data)
    assert len(boxes) == 8
    for width, height in boxes:  # points: a zone of 100 mm is 283.5 points on this paper
        assert float(width) / POINTS_PER_MM == pytest.approx(PAPERS["letter"][0], abs=0.3)
        assert float(height) / POINTS_PER_MM == pytest.approx(PAPERS["letter"][1], abs=0.3)
    assert main(["markers", "mat", "--out", str(tmp_path / "mat.png")]) == 2
    assert main(["markers", "mat", "--out", str(out), "--dpi", "5"]) == 2
