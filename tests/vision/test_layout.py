"""The playmat layout file, its checks and ``companion layout check``."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import layout_cmds
from companion.errors import CompanionError, LayoutError
from companion.vision.layout import (
    DEFAULT_LAYOUT_PATH,
    ZONE_NAMES,
    Layout,
    check_layout,
    layout_from_dict,
    layout_to_dict,
    load_layout,
    polygons_overlap,
)


@pytest.fixture(scope="module")
def layout() -> Layout:
    return load_layout()


def _document() -> dict[str, Any]:
    return json.loads(DEFAULT_LAYOUT_PATH.read_text(encoding="utf-8"))


def _write(tmp_path: Path, document: object) -> Path:
    path = tmp_path / "layout.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_zone_names_follow_interfaces_md() -> None:
    assert len(ZONE_NAMES) == 24  # interfaces.md section 2 lists 24 names
    assert ZONE_NAMES[:6] == (
        "m1.mountain",
        "m1.field.p1",
        "m1.field.p2",
        "m2.mountain",
        "m2.field.p1",
        "m2.field.p2",
    )
    assert ZONE_NAMES[-6:] == ("p1.cup", "p2.cup", "p1.reveal", "p2.reveal", "deck", "discard")


def test_default_layout_is_clean_and_complete(layout: Layout) -> None:
    assert DEFAULT_LAYOUT_PATH.name == "mandala-playmat.json"
    assert check_layout(layout) == []
    assert set(ZONE_NAMES) <= set(layout.zones)
    assert layout.card_mm == (70.0, 70.0)
    assert layout.sticker_mm == 16.0


def test_default_layout_geometry_matches_the_table(layout: Layout) -> None:
    width, height = layout.size_mm
    # About 700x400 mm so a 4608x2592 frame gives ~3.3 px per 0.55 mm module.
    assert 650 <= width <= 720 and 380 <= height <= 420
    center_y = {name: layout.zone_center(name)[1] for name in ZONE_NAMES}
    center_x = {name: layout.zone_center(name)[0] for name in ZONE_NAMES}
    for mandala in ("m1", "m2"):
        # p2 field above the mountain, p1 field below.
        assert center_y[f"{mandala}.field.p2"] < center_y[f"{mandala}.mountain"]
        assert center_y[f"{mandala}.mountain"] < center_y[f"{mandala}.field.p1"]
    assert center_x["m1.mountain"] < center_x["m2.mountain"]
    # Rivers at each player's edge: p1 at the bottom, p2 at the top, in each
    # player's own reading order (p2 sits opposite, so its river runs right to left).
    p1 = [center_x[f"p1.river.{i}"] for i in range(1, 7)]
    p2 = [center_x[f"p2.river.{i}"] for i in range(1, 7)]
    assert p1 == sorted(p1) and p2 == sorted(p2, reverse=True)
    assert all(center_y[f"p1.river.{i}"] > center_y["m1.field.p1"] for i in range(1, 7))
    assert all(center_y[f"p2.river.{i}"] < center_y["m1.field.p2"] for i in range(1, 7))


def test_mountain_holds_a_dozen_fanned_cards(layout: Layout) -> None:
    xs = [x for x, _ in layout.zones["m1.mountain"]]
    ys = [y for _, y in layout.zones["m1.mountain"]]
    # Twelve 70 mm cards fanned 16 mm apart, each keeping its corner sticker in view.
    assert max(xs) - min(xs) >= 70 + 11 * 16
    assert max(ys) - min(ys) >= 70


def test_more_than_four_fiducials_including_the_middle(layout: Layout) -> None:
    assert len(layout.fiducials) > 4
    width, height = layout.size_mm
    middle = [
        f
        for f in layout.fiducials
        if abs(f.center_mm[0] - width / 2) < width / 4
        and abs(f.center_mm[1] - height / 2) < height / 4
    ]
    assert middle, "a creased cloth needs fiducials away from the corners"


def test_zone_at(layout: Layout) -> None:
    for name in ZONE_NAMES:
        assert layout.zone_at(layout.zone_center(name)) == name
    assert layout.zone_at((-5.0, 10.0)) is None
    assert layout.zone_at(layout.fiducials[0].center_mm) is None
    # A shared border belongs to exactly one zone, the same one every time.
    assert layout.zone_at((100.0, 160.0)) == "m1.mountain"


def test_unknown_zone_center_is_a_layout_error(layout: Layout) -> None:
    with pytest.raises(LayoutError, match=r"no zone 'm3\.mountain'"):
        layout.zone_center("m3.mountain")


def test_round_trip_through_dict(layout: Layout) -> None:
    again = layout_from_dict(json.loads(json.dumps(layout_to_dict(layout))))
    assert again == layout and hash(again) == hash(layout)


def test_check_finds_missing_zone_overlap_and_fiducial_problems() -> None:
    document = _document()
    del document["zones"]["discard"]
    document["zones"]["deck"] = [[290, 80], [404, 80], [404, 186], [290, 186]]  # into m1 field p2
    document["fiducials"][0]["center_mm"] = [5, 5]  # hangs off the corner
    document["fiducials"][1]["center_mm"] = [100, 200]  # on the mountain
    document["fiducials"][2]["id"] = 3  # twice
    document["zones"]["p1.cup"] = [[488, 320], [530, 320], [530, 398], [488, 398]]  # too narrow
    document["zones"]["p2.reveal"] = [[32, -10], [136, -10], [136, 80], [32, 80]]  # off the mat
    document["sticker_mm"] = 34  # two of them on a 70 mm card: their codes would overlap
    problems = check_layout(layout_from_dict(document))
    text = "\n".join(problems)
    assert "missing zone 'discard'" in text
    assert "zones 'm1.field.p2' and 'deck' overlap" in text
    assert "fiducial 0 at (5, 5) is not inside the mat" in text
    assert "fiducial 1 at (100, 200) overlaps zone 'm1.mountain'" in text
    assert "fiducial 3: id used twice" in text
    assert "zone 'p1.cup' is too small" in text
    assert "zone 'p2.reveal' is not inside" in text
    assert "sticker_mm 34 is too large for two stickers on a (70, 70) mm card" in text
    assert all("\n" not in problem for problem in problems)


def test_polygons_touching_do_not_overlap_but_nested_ones_do() -> None:
    square = ((0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0))
    right = ((10.0, 0.0), (20.0, 0.0), (20.0, 10.0), (10.0, 10.0))
    inner = ((2.0, 2.0), (4.0, 2.0), (4.0, 4.0), (2.0, 4.0))
    assert not polygons_overlap(square, right)
    assert polygons_overlap(square, inner) and polygons_overlap(inner, square)
    assert polygons_overlap(square, square)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[]", "must be a JSON object"),
        ('{"name": "x"}', "missing key 'size_mm'"),
        (
            '{"name": "x", "size_mm": [700], "card_mm": [70, 70], "sticker_mm": 16, '
            '"fiducials": [], "zones": {}}',
            "size_mm must be a pair",
        ),
        (
            '{"name": "x", "size_mm": [700, 400], "card_mm": [70, 70], "sticker_mm": -1, '
            '"fiducials": [], "zones": {}}',
            "sticker_mm must be positive",
        ),
        (
            '{"name": "x", "size_mm": [700, 400], "card_mm": [70, 70], "sticker_mm": 16, '
            '"fiducials": [{"id": "a", "center_mm": [1, 1], "size_mm": 2}], "zones": {}}',
            r"fiducials\[0\].id must be an integer",
        ),
        (
            '{"name": "x", "size_mm": [700, 400], "card_mm": [70, 70], "sticker_mm": 16, '
            '"fiducials": [], "zones": {"deck": [[0, 0], [1, 1]]}}',
            "zones.deck must be a list",
        ),
    ],
)
def test_malformed_files_raise_one_line_naming_the_file(
    tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(LayoutError, match=message) as caught:
        load_layout(path)
    assert str(path) in str(caught.value) and "\n" not in str(caught.value)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, CompanionError)


def test_missing_file_raises_layout_error(tmp_path: Path) -> None:
    with pytest.raises(LayoutError, match="cannot read layout"):
        load_layout(tmp_path / "nowhere.json")


def test_load_with_check_rejects_a_broken_layout(tmp_path: Path) -> None:
    document = _document()
    del document["zones"]["deck"]
    path = _write(tmp_path, document)
    with pytest.raises(LayoutError, match="missing zone 'deck'"):
        load_layout(path)
    assert "deck" not in load_layout(path, check=False).zones


def test_cli_check_ok(capsys: pytest.CaptureFixture[str]) -> None:
    status = layout_cmds.run_check(argparse.Namespace(file=DEFAULT_LAYOUT_PATH))
    out = capsys.readouterr().out
    assert status == 0 and out.startswith("ok:") and "24 zones" in out


def test_cli_check_lists_every_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = _document()
    del document["zones"]["deck"], document["zones"]["p1.river.3"]
    status = layout_cmds.run_check(argparse.Namespace(file=_write(tmp_path, document)))
    lines = capsys.readouterr().err.splitlines()
    assert status == 2
    assert any("missing zone 'deck'" in line for line in lines)
    assert any("missing zone 'p1.river.3'" in line for line in lines)
