"""``companion bench markers``: does ``companion markers check`` name every wrong sticker, in any light?

Each frame lays 14 cards apart on the mat, eight of them carrying the
sticker of another color (``PlacedCard.face_color``), under one light of a
sweep: exposure 0.5 .. 1.5, a neutral, warm, cool or green-tinted white
balance, a gradient and vignetting across the table, sensor noise and JPEG;
then the same on the webcam layout (1920x1080, 32 mm stickers). The figures
are per card: a wrong sticker named with its card's true color, one missed
(called right, or another wrong color), "cannot tell" lines, and right
stickers wrongly accused.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import numpy as np

from companion.markers.check import ColorCheck
from companion.sim.scene import PlacedCard, SceneOptions, render_table
from companion.vision.layout import DEFAULT_LAYOUT_PATH, Layout, load_layout

WRONG = {"R07": "orange", "Y09": "orange", "O08": "yellow", "K12": "purple", "P11": "black", "G10": "yellow",
         "R13": "purple", "G14": "black"}
"""Card id (what its stickers say) -> the color of the card they are stuck on."""
CARDS = ("R01", "O02", "Y03", "G04", "P05", "K06", "R07", "O08", "Y09", "G10", "P11", "K12", "R13", "G14")
BALANCES = {"neutral": (1.0, 1.0, 1.0), "warm": (0.75, 1.0, 1.3), "cool": (1.3, 1.0, 0.8),
            "green": (0.9, 1.15, 0.9)}
WEBCAM_LAYOUT = DEFAULT_LAYOUT_PATH.parent / "mandala-playmat-webcam.json"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--gains", default="0.5,0.75,1.0,1.25,1.5", help="exposures swept (default 0.5..1.5)")


def laid_cards(layout: Layout, seed: int) -> list[PlacedCard]:
    """Two rows of seven cards across the mat's middle band, apart, each turned at random."""
    rng = np.random.default_rng(seed)
    width = layout.size_mm[0]
    return [PlacedCard(card_id, (70 + (index % 7) * (width - 140) / 6, 110.0 + (index // 7) * 170),
                       float(rng.uniform(0, 360)), face_color=WRONG.get(card_id))
            for index, card_id in enumerate(CARDS)]


def run(args: argparse.Namespace) -> dict[str, Any]:
    from companion.bench.vision import machine

    gains = [float(g) for g in args.gains.split(",")]
    cases: list[tuple[Path, tuple[int, int], float, str]] = [
        (DEFAULT_LAYOUT_PATH, (4608, 2592), gain, name) for gain in gains for name in BALANCES]
    cases += [(WEBCAM_LAYOUT, (1920, 1080), gain, name) for gain in (0.6, 1.0, 1.4) for name in ("warm", "cool")]
    totals = {"frames": 0, "wrong_stickers": 0, "named": 0, "missed": 0, "cannot_tell": 0, "right_stickers": 0,
              "accused": 0, "unread": 0}
    for seed, (path, resolution, gain, balance) in enumerate(cases):
        layout = load_layout(path)
        options = SceneOptions(resolution=resolution, light_gain=gain, white_balance=BALANCES[balance],
                               gradient=0.25, vignette=0.2, noise_sigma=2.0, jpeg_quality=90, seed=seed)
        check = ColorCheck(layout)
        check.feed(render_table(layout, laid_cards(layout, seed), options).image)
        results = {result.card_id: result for result in check.results()}
        totals["frames"] += 1
        for card_id in CARDS:
            result = results.get(card_id)
            wrong = card_id in WRONG
            totals["wrong_stickers" if wrong else "right_stickers"] += 1
            if result is None:
                totals["unread"] += 1
            elif result.face_color is None:
                totals["cannot_tell"] += 1
            elif wrong:
                totals["named" if result.face_color == WRONG[card_id] else "missed"] += 1
            elif not result.ok:
                totals["accused"] += 1
    return {"machine": machine(), "cases": [f"{r[0]}x{r[1]} gain {g:g} {b}" for _, r, g, b in cases], **totals}
