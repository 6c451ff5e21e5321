"""The printable markers in hardware/markers are what the code prints today."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main

COMMITTED = Path(__file__).resolve().parents[2] / "hardware" / "markers"


@pytest.mark.slow  # renders every page again
def test_committed_marker_pages_are_current(tmp_path: Path) -> None:
    assert main(["markers", "--out", str(tmp_path)]) == 0
    made = sorted(p.name for p in tmp_path.glob("*.png"))
    assert made == sorted(p.name for p in COMMITTED.glob("*.png"))
    for name in made:
        assert (tmp_path / name).read_bytes() == (COMMITTED / name).read_bytes(), (
            f"hardware/markers/{name} is out of date: run `companion markers --out hardware/markers`")
