"""hardware/camera.md's recommended row follows from the layout file (recomputed here)."""

from __future__ import annotations

import json
import math
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_recommended_mount_matches_the_layout() -> None:
    layout = json.loads((ROOT / "calibration/layouts/mandala-playmat.json").read_text())
    width, height = layout["size_mm"]
    module_mm = layout["sticker_mm"] / 29  # 21 modules + 2 x 4 quiet zone
    half_h, half_v = math.tan(math.radians(33)), math.tan(math.radians(20.5))  # CM3 standard: 66 x 41 deg
    mount = max(width * 1.1 / (2 * half_h), height * 1.1 / (2 * half_v))
    # The listed FoVs are not exactly 16:9: take the smaller (conservative) of the two scales.
    px_per_mm = min(4608 / (2 * mount * half_h), 2592 / (2 * mount * half_v))
    doc = (ROOT / "hardware/camera.md").read_text()
    assert f"**{width} × {height} mm**" in doc
    assert f"**{round(mount)} mm**" in doc and f"**{px_per_mm:.2f}**" in doc
    assert f"**{px_per_mm * module_mm:.2f}**" in doc
    assert px_per_mm * module_mm >= 3.0  # the reason full resolution is the default
