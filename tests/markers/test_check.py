"""``companion markers check``: a sticker on a card of another color is named, in any light."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.markers.check import COLOR_NAMES, classify
from companion.markers.codes import CARD_FACE_BGR, STICKER_PAPER_BGR
from companion.sim.scene import PlacedCard, SceneOptions, render_table
from companion.vision.layout import load_layout

WRONG = {"R07": "orange", "Y09": "orange", "O08": "yellow", "K12": "purple", "P11": "black", "G10": "yellow"}
"""Card id (what its stickers say) -> the color of the card they are stuck on."""
CARDS = ("R01", "O02", "Y03", "G04", "P05", "K06", "R07", "O08", "Y09", "G10", "P11", "K12")


def laid_cards(seed: int) -> list[PlacedCard]:
    rng = np.random.default_rng(seed)
    return [PlacedCard(card_id, (80.0 + (index % 6) * 105, 110.0 + (index // 6) * 170), float(rng.uniform(0, 360)),
                       face_color=WRONG.get(card_id)) for index, card_id in enumerate(CARDS)]


@pytest.mark.parametrize(("gain", "balance"), [(0.5, (0.75, 1.0, 1.3)), (1.0, (1.0, 1.0, 1.0)),
                                               (1.5, (1.3, 1.0, 0.75)), (1.2, (0.8, 1.1, 1.25))])
def test_check_names_every_card_whose_sticker_belongs_to_another_color(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], gain: float, balance: tuple[float, float, float]) -> None:
    options = SceneOptions(light_gain=gain, white_balance=balance, gradient=0.2, vignette=0.15, noise_sigma=2.0,
                           jpeg_quality=90, seed=round(gain * 10))
    image = render_table(load_layout(), laid_cards(round(gain * 10)), options).image
    photo = tmp_path / "mat.jpg"
    cv2.imwrite(str(photo), image)
    assert main(["markers", "check", "--image", str(photo), "--quiet"]) == 1
    lines = capsys.readouterr().out.splitlines()
    named = {line.split(":")[0] for line in lines}
    assert named == set(WRONG), lines
    for line in lines:
        card_id = line.split(":")[0]
        article = "an" if WRONG[card_id][0] in "aeiou" else "a"
        assert f"stuck on {article} {WRONG[card_id]} card" in line


def test_check_passes_a_table_of_right_stickers_and_says_so_in_json(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    cards = [PlacedCard(c.card_id, c.center_mm, c.rotation_deg) for c in laid_cards(2)]
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0000.png"), render_table(load_layout(), cards, SceneOptions(noise_sigma=2.0)).image)
    assert main(["markers", "check", str(frames), "--json", "--quiet"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert len(document["cards"]) == len(CARDS) and document["problems"] == []
    assert all(card["face_color"] == card["sticker_color"] for card in document["cards"])
    # ... | head: a reader that went away ends it with one line.
    from tests.faults.test_every_command import ClosedPipe

    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    status = main(["markers", "check", str(frames), "--json", "--quiet"])
    monkeypatch.undo()
    assert status == 2
    assert capsys.readouterr().err.splitlines() == ["companion: output closed by the reader before the end"]


def test_check_refuses_bad_input_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["markers", "check", "--image", str(tmp_path / "missing.jpg")]) == 2
    assert main(["markers", "check"]) == 2
    empty = tmp_path / "empty.png"
    cv2.imwrite(str(empty), np.full((600, 800, 3), 128, np.uint8))
    assert main(["markers", "check", "--image", str(empty)]) == 2
    errors = capsys.readouterr().err.strip().splitlines()
    assert len(errors) == 3 and "fiducials are not in view" in errors[-1]


@pytest.mark.parametrize("truth", COLOR_NAMES)
def test_every_color_is_told_under_any_light_from_dim_to_clipped(truth: str) -> None:
    """The classifier alone: the white and the face as a camera renders them, exposure 0.5..1.5, tinted lamps."""
    rng = np.random.default_rng(COLOR_NAMES.index(truth))
    paper = np.array(STICKER_PAPER_BGR, np.float64)
    face = np.array(CARD_FACE_BGR[truth], np.float64)
    for _ in range(200):
        gain = rng.uniform(0.5, 1.5) * np.array([rng.uniform(0.75, 1.3), rng.uniform(0.87, 1.15),
                                                 rng.uniform(0.75, 1.3)])
        seen_white = np.minimum(255.0, paper * gain + rng.normal(0, 1.0, 3))
        seen_face = np.minimum(255.0, face * gain + rng.normal(0, 1.0, 3))
        assert classify(seen_white, seen_face).color == truth, (gain, seen_white, seen_face)


def test_a_sticker_is_called_wrong_only_on_two_sides_and_a_clear_majority() -> None:
    from companion.markers.check import SideVerdict, card_verdict

    def sides(*colors: str | None) -> list[SideVerdict]:
        return [SideVerdict(color, 0.01, (0, 0, 0)) for color in colors]

    assert card_verdict("R07", sides("red", "red", None)).ok
    assert card_verdict("R07", sides("green")).face_color is None  # one side: the edge of a neighbour?
    assert card_verdict("R07", sides("green", "green", "red")).face_color == "green"
    assert card_verdict("R07", sides("green", "red")).face_color is None  # a tie: cannot tell
    assert card_verdict("R07", sides()).line().startswith("R07: cannot tell the color")
