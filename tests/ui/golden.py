"""Golden-image comparison against tests/ui/reference/*.png.

To regenerate after an intended change of a screen, run the tests with
``COMPANION_REGENERATE_GOLDEN=1``: each compared image is written to the
reference folder and the test then FAILS on purpose, so a run with the
variable left on can never pass; run again without it, look at the new PNGs
(``git diff --stat tests/ui/reference``) and commit them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

REFERENCE = Path(__file__).parent / "reference"
REGENERATE_VARIABLE = "COMPANION_REGENERATE_GOLDEN"


def regenerating() -> bool:
    return os.environ.get(REGENERATE_VARIABLE) == "1"


def assert_matches_reference(image: Image.Image, name: str) -> None:
    path = REFERENCE / f"{name}.png"
    if regenerating():
        path.parent.mkdir(parents=True, exist_ok=True)
        image.convert("1").save(path)
        pytest.fail(f"regenerated {path.name}; unset {REGENERATE_VARIABLE} and run again")
    if not path.exists():
        pytest.fail(f"no reference {path}; run once with {REGENERATE_VARIABLE}=1 to create it")
    with Image.open(path) as reference:
        expected = reference.convert("1")
    assert image.size == expected.size, f"{name}: size {image.size} != {expected.size}"
    # Compared in "L": ImageChops.difference misreports mode "1" images.
    difference = ImageChops.difference(image.convert("L"), expected.convert("L")).getbbox()
    assert difference is None, f"{name}: pixels differ inside {difference} (see {path})"
