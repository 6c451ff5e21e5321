"""The regeneration switch of the golden-image helper cannot pass silently."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from tests.ui import golden


def test_regeneration_writes_the_reference_and_fails(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(golden, "REFERENCE", tmp_path)
    monkeypatch.setenv(golden.REGENERATE_VARIABLE, "1")
    with pytest.raises(pytest.fail.Exception, match="regenerated"):
        golden.assert_matches_reference(Image.new("1", (4, 4), 1), "white")
    assert (tmp_path / "white.png").exists()


def test_a_different_image_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(golden, "REFERENCE", tmp_path)
    monkeypatch.delenv(golden.REGENERATE_VARIABLE, raising=False)
    Image.new("1", (4, 4)).save(tmp_path / "black.png")
    golden.assert_matches_reference(Image.new("1", (4, 4)), "black")
    one_pixel = Image.new("1", (4, 4))
    one_pixel.putpixel((2, 1), 1)
    with pytest.raises(AssertionError, match=r"\(2, 1, 3, 2\)"):
        golden.assert_matches_reference(one_pixel, "black")


def test_a_missing_reference_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(golden, "REFERENCE", tmp_path)
    monkeypatch.delenv(golden.REGENERATE_VARIABLE, raising=False)
    with pytest.raises(pytest.fail.Exception, match="no reference"):
        golden.assert_matches_reference(Image.new("1", (4, 4)), "absent")
