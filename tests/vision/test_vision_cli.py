"""``companion vision detect|show`` on rendered images written to disk."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.sim.scene import ForeignCode
from companion.vision.layout import Layout, layout_to_dict
from tests.vision.conftest import Render, card_in


@pytest.fixture
def layout_file(tmp_path: Path, layout: Layout) -> Path:
    path = tmp_path / "webcam-layout.json"
    path.write_text(json.dumps(layout_to_dict(layout)), encoding="utf-8")
    return path


@pytest.fixture
def table_png(tmp_path: Path, layout: Layout, render: Render) -> Path:
    scene = render([card_in(layout, "R07", "m1.mountain"), card_in(layout, "K02", "discard", 45.0)],
                   foreign_codes=(ForeignCode("MDL-Z99", (150.0, 280.0), 32.0),))
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), scene.image)
    return path


def test_detect_json_is_the_interface_document(table_png: Path, layout_file: Path, layout: Layout,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["vision", "detect", str(table_png), "--layout", str(layout_file), "--json"])
    document = json.loads(capsys.readouterr().out)
    assert status == 0
    assert document["board"]["found"] is True
    assert document["board"]["fiducials"] == list(range(11))
    assert [(c["id"], c["zone"]) for c in document["cards"]] == [("K02", "discard"), ("R07", "m1.mountain")]
    assert all(len(c["center_mm"]) == 2 for c in document["cards"])
    # The card's centre, and the two stickers it was read from, each 15 mm across it and down (32 mm stickers).
    r07 = next(c for c in document["cards"] if c["id"] == "R07")
    assert r07["center_mm"] == pytest.approx(list(layout.zone_center("m1.mountain")), abs=1.5)
    assert len(r07["stickers_mm"]) == 2
    for x, y in r07["stickers_mm"]:
        assert abs(abs(x - r07["center_mm"][0]) - 15) < 1.5 and abs(abs(y - r07["center_mm"][1]) - 15) < 1.5
    assert document["foreign_codes"] == 1
    assert document["duplicates"] == []


def test_detect_exits_3_when_the_board_is_not_found(tmp_path: Path, layout_file: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    blank = tmp_path / "floor.png"
    cv2.imwrite(str(blank), np.full((720, 1280, 3), 90, np.uint8))
    status = main(["vision", "detect", str(blank), "--layout", str(layout_file), "--json"])
    document = json.loads(capsys.readouterr().out)
    assert status == 3
    assert document["board"]["found"] is False
    assert document["cards"] == []


@pytest.mark.parametrize("content", [None, b"", b"not an image at all"], ids=["missing", "empty", "text"])
def test_an_unreadable_image_is_one_line_naming_it(tmp_path: Path, content: bytes | None,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "frame.jpg"
    if content is not None:
        path.write_bytes(content)
    assert main(["vision", "detect", str(path), "--json"]) == 2
    error = capsys.readouterr().err
    assert str(path) in error and error.count("\n") == 1


def test_show_writes_an_annotated_image(tmp_path: Path, table_png: Path, layout_file: Path) -> None:
    out = tmp_path / "annotated.png"
    assert main(["vision", "show", str(table_png), "--layout", str(layout_file), "--out", str(out)]) == 0
    annotated = cv2.imread(str(out))
    original = cv2.imread(str(table_png))
    assert annotated is not None and annotated.shape == original.shape
    assert np.count_nonzero(cv2.absdiff(annotated, original)) > 1000  # zones and reads drawn
