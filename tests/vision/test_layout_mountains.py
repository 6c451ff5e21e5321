"""The mountains ruleset's playmat: its zones, and layouts that name their ruleset."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.errors import LayoutError
from companion.vision.layout import (
    MOUNTAINS_ZONE_NAMES,
    ZONE_NAMES,
    check_layout,
    default_layout_path,
    layout_from_dict,
    layout_to_dict,
    load_layout,
)


def test_the_shipped_mountains_playmat_passes_the_check() -> None:
    layout = load_layout(default_layout_path("mountains"))
    assert layout.ruleset == "mountains" and check_layout(layout) == []
    assert set(layout.zones) == set(MOUNTAINS_ZONE_NAMES)
    for zone in MOUNTAINS_ZONE_NAMES:
        assert layout.zone_at(layout.zone_center(zone)) == zone


def test_the_start_row_lies_between_the_two_mountain_boards() -> None:
    layout = load_layout(default_layout_path("mountains"))
    p2, start, p1 = (layout.zone_center(z)[1] for z in ("p2.mountain", "start", "p1.mountain"))
    assert p2 < start < p1  # player 2 sits at the top edge


def test_a_layout_checks_the_zones_of_its_own_ruleset() -> None:
    document = layout_to_dict(load_layout(default_layout_path("mountains")))
    del document["zones"]["start"]
    problems = check_layout(layout_from_dict(document))
    assert "missing zone 'start'" in problems
    assert not any(name in " ".join(problems) for name in ZONE_NAMES if name not in MOUNTAINS_ZONE_NAMES)


def test_the_official_layout_file_stays_as_it_was() -> None:
    layout = load_layout()
    assert layout.ruleset == "mandala" and "ruleset" not in layout_to_dict(layout)
    assert layout_to_dict(load_layout(default_layout_path("mountains")))["ruleset"] == "mountains"


def test_an_unknown_ruleset_is_one_line(tmp_path: Path) -> None:
    document = layout_to_dict(load_layout())
    document["ruleset"] = "chess"
    path = tmp_path / "mat.json"
    path.write_text(json.dumps(document))
    with pytest.raises(LayoutError, match="'ruleset' must be 'mandala' or 'mountains', not 'chess'"):
        load_layout(path)
    with pytest.raises(LayoutError, match="no playmat for ruleset 'chess'"):
        default_layout_path("chess")


def test_layout_check_accepts_the_mountains_playmat(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    assert main(["layout", "check", str(default_layout_path("mountains"))]) == 0
    assert "'mountains-playmat' (mountains), 700x400 mm, 7 zones" in capsys.readouterr().out
