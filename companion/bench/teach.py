"""``companion bench teach``: a layout taught on a mat of another size and geometry puts cards in the right zones.

For each trial a mat of the game's kind with random measures
(:func:`companion.sim.mats.random_mandala_mat`) gets four fiducials stuck
near its corners at random, unmeasured; the teaching is rendered as a
person does it (the empty mat, then one card near the middle of each zone
in order, a hand laying each) and taught with :class:`companion.app.teach.Teaching`
from the printed sizes of the design layout's fiducials alone. Then random
tables on the true mat are read with the taught layout, and each visible
card's zone is compared with the true one: recall (right zone / visible)
and wrong zones (a zone that is not the true one) are the figures.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from companion.app.teach import Teaching
from companion.markers.codes import CARD_IDS
from companion.sim.mats import mandala_mat, random_mandala_mat, stick_fiducials, teaching_cards
from companion.sim.scene import Renderer, SceneOptions, arm_polygon, render_table
from companion.sim.tables import random_table
from companion.vision.layout import Layout, load_layout
from companion.vision.pipeline import VisionPipeline

TEACH_FPS = 4.0
FRAMES_PER_CARD = 3
"""Still frames after each card is laid (with the hand frame before: 1 s at 4 frames a second)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--mats", type=int, default=3, help="mats taught (default 3)")
    parser.add_argument("--tables", type=int, default=10, help="random tables read per mat (default 10)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--resolution", default="4608x2592", help="WxH (default 4608x2592)")


@dataclass
class Score:
    visible: int = 0
    right: int = 0
    wrong: int = 0
    missed: int = 0

    def add(self, other: Score) -> None:
        self.visible += other.visible
        self.right += other.right
        self.wrong += other.wrong
        self.missed += other.missed

    def as_dict(self) -> dict[str, Any]:
        return {"visible": self.visible, "right_zone": self.right, "wrong_zone": self.wrong, "missed": self.missed,
                "recall": round(self.right / self.visible, 4) if self.visible else None}


def teach_mat(truth: Layout, options: SceneOptions, rng: np.random.Generator) -> tuple[Layout, int]:
    """Render the teaching of ``truth`` and teach it; the taught layout and the frames it took."""
    source = replace(load_layout(), sticker_mm=truth.sticker_mm)  # the design's 24 mm fiducials, 20 mm stickers
    renderer = Renderer(truth, options)
    teaching = Teaching(source, TEACH_FPS)
    ids = [str(card) for card in rng.permutation(CARD_IDS)[:24]]
    laid: list[Any] = []
    index = 0
    for _ in range(5):
        teaching.feed(index, renderer.render(laid, seed=index))
        index += 1
    for _, card in teaching_cards(truth, rng, ids):
        hand = arm_polygon((card.center_mm[0], truth.size_mm[1] + 100.0), card.center_mm)
        teaching.feed(index, renderer.render(laid, hand=hand, seed=index))
        index += 1
        laid.append(card)
        for _ in range(FRAMES_PER_CARD):
            teaching.feed(index, renderer.render(laid, seed=index))
            index += 1
    return teaching.layout(), index


def read_tables(truth: Layout, taught: Layout, options: SceneOptions, rng: np.random.Generator,
                tables: int) -> Score:
    score = Score()
    for table in range(tables):
        scene = render_table(truth, random_table(truth, rng, 60), replace(options, seed=table))
        zones = {card.card_id: card.zone for card in VisionPipeline(taught).scan(scene.image).cards}
        for card in scene.visible_truth():
            score.visible += 1
            if card.card_id not in zones:
                score.missed += 1
            elif zones[card.card_id] == card.zone:
                score.right += 1
            else:
                score.wrong += 1
    return score


def run(args: argparse.Namespace) -> dict[str, Any]:
    from companion.bench.vision import machine
    from companion.sim.scene import parse_resolution

    options = SceneOptions(resolution=parse_resolution(args.resolution), noise_sigma=2.0)
    total = Score()
    mats = []
    for trial in range(args.mats):
        rng = np.random.default_rng(args.seed + trial)
        truth = stick_fiducials(mandala_mat(random_mandala_mat(rng), f"mat-{trial}"), rng, side_mm=24.0)
        started = time.perf_counter()
        taught, frames = teach_mat(truth, options, rng)
        taught_s = time.perf_counter() - started
        score = read_tables(truth, taught, options, rng, args.tables)
        total.add(score)
        mats.append({"size_mm": list(truth.size_mm), "teaching_frames": frames,
                     "teach_s": round(taught_s, 1), **score.as_dict()})
    return {"machine": machine(), "resolution": args.resolution, "mats": mats, "total": total.as_dict()}
