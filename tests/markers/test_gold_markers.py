"""Stickers for the mountains ruleset's 12 gold cards: ids A01..A12, payload MDL-A01 like any card."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from companion.markers.codes import ALL_CARD_IDS, CARD_IDS, GOLD_CARD_IDS, color_name_of, payload_for
from companion.markers.sheets import sticker_places
from companion.vision.decoders import make_decoder
from companion.vision.payload import card_id_from_payload


def test_gold_card_ids_and_payloads() -> None:
    assert tuple(f"A{n:02d}" for n in range(1, 13)) == GOLD_CARD_IDS
    assert ALL_CARD_IDS == CARD_IDS + GOLD_CARD_IDS
    assert payload_for("A07") == "MDL-A07" and color_name_of("A07") == "gold"


@pytest.mark.parametrize("payload, card", [(b"MDL-A01", "A01"), (b"MDL-A12", "A12"), (b"MDL-A13", None),
                                           (b"MDL-A00", None), (b"MDL-A1", None)])
def test_vision_reads_gold_payloads_and_nothing_beyond(payload: bytes, card: str | None) -> None:
    assert card_id_from_payload(payload) == card


def test_the_sticker_sheets_hold_every_card_of_the_ruleset() -> None:
    places = sticker_places(16.0, card_ids=ALL_CARD_IDS)
    assert len(places) == 2 * 120 and places[-1].card_id == "A12"
    assert len(sticker_places(16.0)) == 2 * 108


def test_markers_for_the_mountains_ruleset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    assert main(["markers", "--ruleset", "mountains", "--dpi", "150", "--out", str(tmp_path)]) == 0
    written = capsys.readouterr().out.split()
    assert str(tmp_path / "stickers-4.png") in written and str(tmp_path / "guide.png") in written
    with Image.open(tmp_path / "stickers-4.png") as page:  # the last page holds the gold cards
        grey = np.asarray(page.convert("L"))
    read = {card_id_from_payload(symbol.payload) for symbol in make_decoder("zxing").decode(grey)}
    assert "A12" in read
