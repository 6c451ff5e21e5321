"""Printable markers: right codes, exact sizes at 600 dpi, A4 and Letter PDF pages, labels inside the cuts.

The files are written once per module (about 3 s) and measured on their
pixels: the QR module pitch, the fiducial side, and the PDF's MediaBox.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image
from pyzbar import pyzbar

from companion.cli import markers_cmds
from companion.markers.codes import (
    CARD_IDS,
    FIDUCIAL_CELLS,
    FIDUCIAL_LABEL_CELLS,
    MarkerError,
    payload_for,
    qr_modules,
    sticker_cut_mm,
)
from companion.markers.sheets import A4_MM, PAPERS, sticker_places
from companion.vision.layout import Layout, load_layout
from companion.vision.stickers import sticker_offsets_mm

DPI = 600
PX_PER_MM = DPI / 25.4
POINTS_PER_MM = 72 / 25.4


@pytest.fixture(scope="module")
def layout() -> Layout:
    return load_layout()


@pytest.fixture(scope="module")
def out_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("markers")
    status = markers_cmds.run(argparse.Namespace(out=out, layout=None, dpi=DPI))
    assert status == 0
    return out


def _grey(path: Path) -> np.ndarray:
    return np.asarray(Image.open(path).convert("L"))


def test_card_ids_and_payloads() -> None:
    assert len(CARD_IDS) == 108 and len(set(CARD_IDS)) == 108
    assert CARD_IDS[:2] == ("R01", "R02") and CARD_IDS[-1] == "K18"
    assert {card_id[0] for card_id in CARD_IDS} == set("ROYGPK")
    assert payload_for("P13") == "MDL-P13"
    with pytest.raises(MarkerError, match="'Z99'"):
        payload_for("Z99")


def test_qr_is_version_1_level_h() -> None:
    modules = qr_modules("MDL-K18")
    assert modules.shape == (21, 21)  # version 1
    # Format information next to the top-left finder: 15 bits XOR 0x5412, whose
    # two top bits give the error-correction level (H = 0b10).
    bits = [modules[8, c] for c in (0, 1, 2, 3, 4, 5, 7, 8)] + [modules[r, 8] for r in (7, 5, 4, 3, 2, 1, 0)]
    word = int("".join("1" if b else "0" for b in bits), 2) ^ 0x5412
    assert word >> 13 == 0b10


def test_stickers_sit_in_opposite_card_corners() -> None:
    assert sticker_offsets_mm((70, 70), 16) == ((-23.0, -23.0), (23.0, 23.0))


@pytest.mark.slow  # the printable pages are rendered once for these (about 10 s)
def test_files_written(out_dir: Path) -> None:
    names = sorted(path.name for path in out_dir.iterdir())
    assert names == ["calibration-sheet.pdf", "calibration-sheet.png", "fiducials.pdf", "fiducials.png",
                     "guide.pdf", "guide.png", "players.pdf", "players.png",
                     "stickers-1.png", "stickers-2.png", "stickers-3.png", "stickers.pdf"]


@pytest.mark.slow  # the printable pages are rendered once for these (about 10 s)
def test_pngs_are_a4_at_600_dpi(out_dir: Path) -> None:
    for path in out_dir.glob("*.png"):
        image = Image.open(path)
        assert image.info["dpi"] == pytest.approx((DPI, DPI), abs=0.01)
        assert image.size == (round(A4_MM[0] * PX_PER_MM), round(A4_MM[1] * PX_PER_MM))


@pytest.mark.slow  # the printable pages are rendered once for these (about 10 s)
def test_pdfs_are_a4_pages(out_dir: Path) -> None:
    for name, pages in (("stickers", 3), ("fiducials", 1), ("guide", 1), ("calibration-sheet", 1)):
        data = (out_dir / f"{name}.pdf").read_bytes()
        boxes = re.findall(rb"/MediaBox \[ ?0 0 ([\d.]+) ([\d.]+) ?\]", data)
        assert len(boxes) == pages
        for width, height in boxes:
            # Within 0.05 mm of A4 (the raster is whole 600 dpi pixels).
            assert float(width) / POINTS_PER_MM == pytest.approx(A4_MM[0], abs=0.05)
            assert float(height) / POINTS_PER_MM == pytest.approx(A4_MM[1], abs=0.05)


@pytest.mark.slow  # the printable pages are rendered once for these (about 10 s)
def test_every_sticker_decodes_with_exact_module_pitch(out_dir: Path, layout: Layout) -> None:
    pages = [_grey(out_dir / f"stickers-{n}.png") for n in (1, 2, 3)]
    expected_pitch = layout.sticker_mm / 29 * PX_PER_MM  # 29 modules with the quiet zone
    read: list[str] = []
    for place in sticker_places(layout.sticker_mm):
        left, top = round(place.left_mm * PX_PER_MM), round(place.top_mm * PX_PER_MM)
        side = round(layout.sticker_mm * PX_PER_MM)
        crop = pages[place.page][top - 20 : top + side, left - 20 : left + side + 20]  # the label strip below
        symbols = pyzbar.decode(cv2.resize(crop, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA))
        assert [s.data for s in symbols] == [payload_for(place.card_id).encode()]
        read.append(place.card_id)
        dark_rows = np.flatnonzero((crop < 128).any(axis=1))
        dark_cols = np.flatnonzero((crop < 128).any(axis=0))
        # 21 dark-bounded modules; the quiet zone (4 modules) is white on all sides.
        assert (dark_cols[-1] - dark_cols[0] + 1) / 21 == pytest.approx(expected_pitch, abs=0.1)
        assert (dark_rows[-1] - dark_rows[0] + 1) / 21 == pytest.approx(expected_pitch, abs=0.1)
        assert dark_cols[0] - 20 == pytest.approx(4 * expected_pitch, abs=1.5)
    assert sorted(read) == sorted(CARD_IDS * 2)  # two stickers for every card


@pytest.mark.slow  # the printable pages are rendered once for these (about 10 s)
def test_fiducials_at_layout_size(out_dir: Path, layout: Layout) -> None:
    page = _grey(out_dir / "fiducials.png")
    small = cv2.resize(page, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    corners, ids, _ = detector.detectMarkers(small)
    assert ids is not None and sorted(ids.ravel()) == sorted(f.id for f in layout.fiducials)
    for marker, marker_id in zip(corners, ids.ravel(), strict=True):
        fiducial = layout.fiducial(int(marker_id))
        assert fiducial is not None
        side_px = np.linalg.norm(marker[0, 1] - marker[0, 0]) * 4
        assert side_px / PX_PER_MM == pytest.approx(fiducial.size_mm, abs=0.5)


@pytest.mark.slow  # the printable pages are rendered once for these (about 10 s)
def test_each_sticker_carries_its_label_inside_its_cut_and_the_quiet_zone_stays_white(
        out_dir: Path, layout: Layout) -> None:
    pages = [_grey(out_dir / f"stickers-{n}.png") for n in (1, 2, 3)]
    cut_w, cut_h = sticker_cut_mm(layout.sticker_mm)
    quiet = layout.sticker_mm * 4 / 29
    for place in sticker_places(layout.sticker_mm)[::7]:
        page = pages[place.page]

        def box(x0: float, y0: float, x1: float, y1: float, page: np.ndarray = page,
                at: tuple[float, float] = (place.left_mm, place.top_mm)) -> np.ndarray:
            """The page's pixels in a box given in mm from the sticker's top-left corner."""
            return page[round((at[1] + y0) * PX_PER_MM) : round((at[1] + y1) * PX_PER_MM),
                        round((at[0] + x0) * PX_PER_MM) : round((at[0] + x1) * PX_PER_MM)]

        side = layout.sticker_mm
        assert box(0.1, 0.1, side - 0.1, quiet - 0.1).min() == 255  # quiet zone above the code
        assert box(0.1, side - quiet + 0.1, side - 0.1, side - 0.05).min() == 255  # and below it
        label = box(0.1, side + 0.05, cut_w - 0.1, cut_h - 0.1)
        assert (label < 128).mean() > 0.05  # id, color name and the corner mark, inside the cut
        corner = box(cut_w - 1.2, cut_h - 0.9, cut_w - 0.4, cut_h - 0.4)
        assert corner.max() < 128  # the orientation mark fills the strip's corner toward the card's middle
        assert box(cut_w + 0.3, -0.5, cut_w + 0.9, cut_h + 0.5).min() == 255  # nothing printed just outside


@pytest.mark.slow  # the printable pages are rendered once for these (about 10 s)
def test_each_fiducial_carries_its_id_and_player_1_edge_inside_its_cut(out_dir: Path, layout: Layout) -> None:
    page = _grey(out_dir / "fiducials.png")
    size = layout.fiducials[0].size_mm
    cell = size / FIDUCIAL_CELLS
    side, strip = size + 2 * cell, FIDUCIAL_LABEL_CELLS * cell
    left, top = 10.0 + 6, 10.0 + 6  # the first fiducial's cut (MARGIN_MM + 6)
    label = page[round((top + side) * PX_PER_MM) : round((top + side + strip) * PX_PER_MM),
                 round(left * PX_PER_MM) : round((left + side) * PX_PER_MM)]
    assert (label < 128).mean() > 0.05
    # The edge toward player 1 is underlined right along the cut's bottom.
    bottom = label[-round(0.9 * PX_PER_MM) : -round(0.3 * PX_PER_MM)]
    assert (bottom < 128).any(axis=0).mean() > 0.8


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_page_fits_its_paper_with_the_scale_bar_clear_of_the_edges(tmp_path: Path, paper: str) -> None:
    from companion.cli import main

    assert main(["markers", "--out", str(tmp_path), "--dpi", "150", "--paper", paper]) == 0
    width_mm, height_mm = PAPERS[paper]
    px_per_mm = 150 / 25.4
    for path in tmp_path.glob("*.png"):
        page = _grey(path)
        assert page.shape == (round(height_mm * px_per_mm), round(width_mm * px_per_mm)), path.name
        rows = np.flatnonzero((page < 128).any(axis=1))
        cols = np.flatnonzero((page < 128).any(axis=0))
        edge = 4.0 * px_per_mm  # what most printers cannot print on
        assert rows[0] >= edge and rows[-1] <= page.shape[0] - edge, path.name
        assert cols[0] >= edge and cols[-1] <= page.shape[1] - edge, path.name
    data = (tmp_path / "stickers.pdf").read_bytes()
    for box_width, box_height in re.findall(rb"/MediaBox \[ ?0 0 ([\d.]+) ([\d.]+) ?\]", data):
        assert float(box_width) / POINTS_PER_MM == pytest.approx(width_mm, abs=0.2)
        assert float(box_height) / POINTS_PER_MM == pytest.approx(height_mm, abs=0.2)


def test_bad_dpi_is_refused(tmp_path: Path) -> None:
    assert markers_cmds.run(argparse.Namespace(out=tmp_path, layout=None, dpi=20)) == 2


def test_the_calibration_sheet_is_found_whole(out_dir: Path) -> None:
    from companion.vision.sheet import SHEET_SQUARE_MM, SHEET_SQUARES, find_sheet

    page = cv2.cvtColor(_grey(out_dir / "calibration-sheet.png"), cv2.COLOR_GRAY2BGR)
    small = cv2.resize(page, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)  # 5.9 px per mm, as a camera
    view = find_sheet(small)
    assert view is not None and len(view) == (SHEET_SQUARES[0] - 1) * (SHEET_SQUARES[1] - 1)
    # True size: neighbouring corners one square apart on the paper.
    pitch = np.median(np.linalg.norm(np.diff(view.image_px[: SHEET_SQUARES[0] - 1], axis=0), axis=1))
    assert pitch / (PX_PER_MM * 0.25) == pytest.approx(SHEET_SQUARE_MM, abs=0.2)


def _markers(tmp_path: Path, *extra: str) -> int:
    from companion.cli import main

    return main(["markers", "--out", str(tmp_path), "--dpi", "150", *extra])


LARGE_MAT = Path(__file__).resolve().parents[2] / "calibration/layouts/mandala-playmat-90x60.json"


def test_sticker_size_for_the_mat_and_camera(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _markers(tmp_path / "big", "--sticker-mm", "24") == 0
    written = load_layout(tmp_path / "big" / "layout.json")
    assert written.sticker_mm == 24.0 and written.zones == load_layout().zones
    assert "24 mm stickers: 4.88 px per QR module" in capsys.readouterr().err
    assert _markers(tmp_path / "auto", "--layout", str(LARGE_MAT), "--sticker-mm", "auto") == 0
    assert "24 mm stickers: 3.25 px per QR module" in capsys.readouterr().err
    assert not (tmp_path / "auto" / "layout.json").exists()  # the layout's own size
    assert _markers(tmp_path / "wide", "--layout", str(LARGE_MAT), "--sticker-mm", "auto", "--lens", "wide") == 0
    assert load_layout(tmp_path / "wide" / "layout.json").sticker_mm == 28.0


@pytest.mark.parametrize(("extra", "said"), [
    (("--sticker-mm", "40"), "two 40 mm stickers do not fit on a 70x70 mm card"),
    (("--sticker-mm", "big"), "--sticker-mm 'big': a size in mm"),
    (("--layout", str(LARGE_MAT), "--sticker-mm", "auto", "--resolution", "2304x1296"), "no sticker that fits"),
    (("--resolution", "huge"), "expected WIDTHxHEIGHT"),
])
def test_sticker_sizes_that_cannot_be_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   extra: tuple[str, ...], said: str) -> None:
    assert _markers(tmp_path, *extra) == 2
    error = capsys.readouterr().err
    assert said in error and error.count("\n") == 1
