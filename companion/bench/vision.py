"""Vision accuracy and speed on rendered tables (``companion bench vision``).

Frames come from the scene renderer (:mod:`companion.sim.scene`) with their
ground truth. Accuracy: *recall* is the share of visible cards (a sticker
fully in view) read with the right id, their card centre placed within 10 mm
of where the card lies; *precision* is the share of reported cards that are
a real card of that id there, in the right zone (a wrong id or a wrong zone
is an error). Cards read from partially covered stickers are neither
required nor errors.

Speed is this thread's CPU time (``time.thread_time``), so other load on a
shared machine does not inflate it; OpenCV runs on one thread and the
command pins the process to one core.

Scenarios: ``design`` (4608x2592, 16 mm stickers, random disturbances within
the issue's bounds), ``webcam`` (1920x1080, 32 mm stickers), ``steady``
(one card laid on a table already seen; the frame time that matters during
play), ``robustness`` (one disturbance at its limit at a time), and
``whole_frame`` (each decoder alone on whole frames, no pipeline) and
``sloppy`` (tables the sloppy players of :mod:`companion.sim.sloppy` laid,
and their bump frames).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import platform
import statistics
import subprocess
import time
from collections.abc import Iterable, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.sim.scene import (
    CardTruth,
    ForeignCode,
    PlacedCard,
    RenderedScene,
    SceneOptions,
    arm_polygon,
    random_table,
    render_table,
)
from companion.sim.tables import random_hand
from companion.vision.decoders import DECODERS, make_decoder
from companion.vision.frames import to_grey
from companion.vision.layout import Layout, load_layout, polygons_overlap
from companion.vision.lens import LensModel
from companion.vision.observation import FrameObservation
from companion.vision.payload import card_id_from_payload
from companion.vision.pipeline import VisionPipeline

MATCH_MM = 10.0
# A card centre this close to a zone border has no zone a camera can be
# sure of (the cloth alone moves it that much). The random tables keep every
# card centre 3 mm inside its zone, as players do, so precision counts every
# wrong zone; those on a border (a hand-placed card in a scenario) are also
# counted apart. The pipeline lowers its confidence there.
ON_BORDER_MM = 1.0
# Frames of a still table after which "settled" recall is measured (10 fps: half a second).
SETTLE_FRAMES = 5
DESIGN = (4608, 2592)
WEBCAM = (1920, 1080)
FOREIGN_PAYLOADS = ("MDL-Z99", "\x01\x02binary\xff", "https://example.org/menu", "MDL-R07X")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from companion.bench.optics import OPTICS_SCENARIOS  # it builds on this module

    parser.add_argument("--tables", type=int, default=12, help="random tables per scenario (default 12)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per frame; all enter the medians")
    parser.add_argument("--decoders", default=",".join(DECODERS),
                        help=f"comma-separated decoders to compare (default {','.join(DECODERS)})")
    parser.add_argument("--scenarios", default=",".join(("design,webcam,steady,robustness,whole_frame,sloppy",
                                                         *OPTICS_SCENARIOS)),
                        help="comma-separated subset of the scenarios")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--layout", type=Path, default=None, help="layout file (default: the shipped one)")
    parser.add_argument("--bump-games", type=int, default=2,
                        help="bumps scenario: sloppy games also rendered at 12 MP, twice each (default 2)")


def check(args: argparse.Namespace) -> None:
    load_layout(args.layout)


def run(args: argparse.Namespace) -> dict[str, Any]:
    cv2.setNumThreads(1)
    layout = load_layout(args.layout)
    decoders = [name for name in args.decoders.split(",") if name]
    scenarios = set(args.scenarios.split(","))
    bench = _Bench(layout, args.tables, args.repeat, args.seed)
    figures: dict[str, Any] = {"machine": machine()}
    if "design" in scenarios:
        figures["design_4608"] = {name: bench.cold(name, bench.design_scenes()) for name in decoders}
    if "webcam" in scenarios:
        figures["webcam_1080"] = {name: bench.cold(name, bench.webcam_scenes()) for name in decoders}
    if "steady" in scenarios:
        figures["steady_4608"] = bench.steady(decoders[0], DESIGN, layout)
        figures["steady_1080"] = bench.steady(decoders[0], WEBCAM, bench.webcam_layout)
        figures["hand_sweep_4608"] = bench.hand_sweep(decoders[0])
    if "robustness" in scenarios:
        figures["robustness_4608"] = bench.robustness(decoders[0])
    if "whole_frame" in scenarios:
        figures["whole_frame_4608"] = {name: bench.whole_frame(name) for name in decoders}
    if "sloppy" in scenarios:
        figures["sloppy_4608"] = bench.sloppy(decoders[0])
    from companion.bench.optics import run_optics

    figures |= run_optics(bench, decoders[0], scenarios, args.bump_games)
    return figures


# --------------------------------------------------------------------------- scoring


@dataclasses.dataclass
class Score:
    visible: int = 0
    read: int = 0
    reported: int = 0
    wrong_id: int = 0
    wrong_zone: int = 0
    errors_mm: list[float] = dataclasses.field(default_factory=list)
    foreign_placed: int = 0
    foreign_counted: int = 0
    wrong_zone_on_border: int = 0
    unread_reported: int = 0
    visible_not_read: int = 0
    zones: dict[str, np.ndarray] = dataclasses.field(default_factory=dict)

    def _border_mm(self, point: tuple[float, float]) -> float:
        """Distance from a mat point to the nearest zone border."""
        return min((abs(cv2.pointPolygonTest(p, point, True)) for p in self.zones.values()), default=math.inf)

    def add(self, observation: FrameObservation, scene: RenderedScene, foreign_visible: int) -> None:
        truths = scene.truth
        for truth in scene.visible_truth():
            self.visible += 1
            hit = _nearest(truth, observation)
            if hit is not None:
                self.read += 1
                self.errors_mm.append(hit)
            else:
                self.visible_not_read += 1
        self.unread_reported += sum(observation.unread.values())
        for card in observation.cards:
            self.reported += 1
            near = [t for t in truths if t.card_id == card.card_id
                    and math.dist(t.center_mm, card.center_mm) <= MATCH_MM]
            if not near:
                self.wrong_id += 1
            elif all(t.zone != card.zone for t in near):
                self.wrong_zone += 1
                if all(self._border_mm(t.center_mm) < ON_BORDER_MM for t in near):
                    self.wrong_zone_on_border += 1
        self.foreign_placed += foreign_visible
        self.foreign_counted += observation.foreign_codes

    def figures(self) -> dict[str, Any]:
        errors = self.errors_mm or [0.0]
        wrong = self.wrong_id + self.wrong_zone
        return {
            "visible": self.visible,
            "recall": round(self.read / self.visible, 4) if self.visible else None,
            "precision": round(1 - wrong / self.reported, 4) if self.reported else None,
            "reported": self.reported,
            "wrong_id": self.wrong_id,
            "wrong_zone": self.wrong_zone,
            f"wrong_zone_within_{ON_BORDER_MM:g}mm_of_border": self.wrong_zone_on_border,
            "position_error_mm": {"median": round(statistics.median(errors), 2),
                                  "max": round(max(errors), 2)},
            "foreign_codes": {"placed": self.foreign_placed, "counted": self.foreign_counted},
            # FrameObservation.unread against the truth: stickers reported seen
            # but unread, and fully visible stickers that were not read.
            "unread": {"reported": self.unread_reported, "visible_not_read": self.visible_not_read},
        }


def _nearest(truth: CardTruth, observation: FrameObservation) -> float | None:
    distances = [math.dist(truth.center_mm, c.center_mm) for c in observation.cards if c.card_id == truth.card_id]
    best = min(distances, default=math.inf)
    return best if best <= MATCH_MM else None


def _timing_figures(runs: Sequence[FrameObservation]) -> dict[str, Any]:
    stages: dict[str, list[float]] = {}
    for observation in runs:
        for name, ms in observation.timings_ms.items():
            stages.setdefault(name, []).append(ms)
    totals = stages.get("total", [0.0])
    return {
        "frame_ms": {"median": round(statistics.median(totals), 2), "max": round(max(totals), 2)},
        "stages_ms_median": {name: round(statistics.median(v), 2) for name, v in stages.items()},
    }


# --------------------------------------------------------------------------- scenarios


class _Bench:
    def __init__(self, layout: Layout, tables: int, repeat: int, seed: int, lens: LensModel | None = None) -> None:
        self.layout, self.tables, self.repeat, self.seed = layout, tables, repeat, seed
        self.lens = lens
        """A lens model the cold and steady pipelines map through (timing with undistortion on)."""
        self.webcam_layout = dataclasses.replace(layout, sticker_mm=32.0)
        self._cache: dict[str, list[tuple[RenderedScene, int]]] = {}

    def _score(self) -> Score:
        zones = {n: np.array(p, np.float32).reshape(-1, 1, 2) for n, p in self.layout.zones.items()}
        return Score(zones=zones)

    def design_scenes(self) -> list[tuple[RenderedScene, int]]:
        return self._scenes("design", DESIGN, self.layout)

    def webcam_scenes(self) -> list[tuple[RenderedScene, int]]:
        return self._scenes("webcam", WEBCAM, self.webcam_layout)

    def _scenes(self, key: str, resolution: tuple[int, int], layout: Layout) -> list[tuple[RenderedScene, int]]:
        if key not in self._cache:
            rng = np.random.default_rng(self.seed)
            self._cache[key] = [_random_scene(layout, resolution, rng, i) for i in range(self.tables)]
        return self._cache[key]

    def cold(self, decoder: str, scenes: Iterable[tuple[RenderedScene, int]]) -> dict[str, Any]:
        """Cold full scans: accuracy and time per frame; then the recall a still table settles to."""
        score, settled, runs = self._score(), self._score(), []
        rng = np.random.default_rng(self.seed + 3)
        for scene, foreign in scenes:
            layout = self.webcam_layout if scene.image.shape[1] == WEBCAM[0] else self.layout
            pipeline = VisionPipeline(layout, decoder, clock=time.thread_time, lens=self.lens)
            observations = [pipeline.scan(scene.image) for _ in range(self.repeat)]
            runs += observations
            score.add(observations[0], scene, foreign)
            later = observations[-1]
            for _ in range(SETTLE_FRAMES - 1):
                later = pipeline.process(_sensor(scene.image, rng))
            settled.add(later, scene, foreign)
        after = settled.figures()
        return {**score.figures(), **_timing_figures(runs),
                f"recall_after_{SETTLE_FRAMES}_frames": after["recall"],
                f"precision_after_{SETTLE_FRAMES}_frames": after["precision"]}

    def steady(self, decoder: str, resolution: tuple[int, int], layout: Layout) -> dict[str, Any]:
        """A table seen once, then the same table with one more card: the incremental frame."""
        rng = np.random.default_rng(self.seed + 1)
        score, changed_runs, still_runs = self._score(), [], []
        for index in range(self.tables):
            cards = random_table(layout, rng, int(rng.integers(30, 70)))
            options = _options(rng, resolution, index, still=True)
            spare = [c for c in _all_ids() if c not in {card.card_id for card in cards}]
            before = render_table(layout, cards, options)
            new_card = _card_in_random_zone(layout, rng, spare[int(rng.integers(len(spare)))])
            after = render_table(layout, [*cards, new_card], options)
            for _ in range(self.repeat):
                pipeline = VisionPipeline(layout, decoder, clock=time.thread_time, lens=self.lens)
                pipeline.process(_sensor(before.image, rng))
                still_runs.append(pipeline.process(_sensor(before.image, rng)))
                changed = pipeline.process(_sensor(after.image, rng))
                changed_runs.append(changed)
            score.add(changed, after, 0)
        return {
            **score.figures(),
            "one_area_changed": _timing_figures(changed_runs),
            "nothing_changed": _timing_figures(still_runs),
        }

    def hand_sweep(self, decoder: str) -> dict[str, Any]:
        """A hand reaches in, lays a card and leaves: every frame of it, at 12 MP.

        Frames: table, hand over the table (2 positions), hand gone with the
        card laid. Precision is scored on every frame (a half-covered sticker
        must never read wrong); recall on the last one.
        """
        rng = np.random.default_rng(self.seed + 4)
        every, last, runs = self._score(), self._score(), []
        for index in range(max(2, self.tables // 2)):
            cards = random_table(self.layout, rng, int(rng.integers(30, 70)))
            options = _options(rng, DESIGN, index, still=True)
            spare = [c for c in _all_ids() if c not in {card.card_id for card in cards}]
            new_card = _card_in_random_zone(self.layout, rng, spare[int(rng.integers(len(spare)))])
            reach = self.layout.size_mm[1] + 150.0
            hands = [arm_polygon((new_card.center_mm[0] + dx, reach), (new_card.center_mm[0] + dx * 0.3,
                                 new_card.center_mm[1] + dy), 85.0) for dx, dy in ((60.0, 40.0), (20.0, 10.0))]
            scenes = [render_table(self.layout, cards, options)]
            scenes += [render_table(self.layout, [*cards, new_card] if i else cards,
                                    dataclasses.replace(options, hand=hand)) for i, hand in enumerate(hands)]
            scenes.append(render_table(self.layout, [*cards, new_card], options))
            pipeline = VisionPipeline(self.layout, decoder, clock=time.thread_time)
            pipeline.process(_sensor(scenes[0].image, rng))
            for scene in scenes[1:]:
                observation = pipeline.process(_sensor(scene.image, rng))
                runs.append(observation)
                every.add(observation, scene, 0)
            last.add(observation, scenes[-1], 0)
        figures = every.figures()
        on_border = f"wrong_zone_within_{ON_BORDER_MM:g}mm_of_border"
        return {"frames": len(runs), "reported": figures["reported"],
                "precision_every_frame": figures["precision"],
                "wrong_id": figures["wrong_id"],
                "wrong_zone": figures["wrong_zone"], on_border: figures[on_border],
                "recall_after_hand_left": last.figures()["recall"], **_timing_figures(runs)}

    def robustness(self, decoder: str) -> dict[str, Any]:
        """Each disturbance at the limit the issue names, on a few tables."""
        conditions: dict[str, dict[str, Any]] = {
            "tilt_10deg": {"tilt_deg": 10.0},
            "blur_1.5px": {"blur_sigma": 1.5},
            "light_0.5x": {"light_gain": 0.5},
            "light_1.5x": {"light_gain": 1.5},
            "jpeg_q75": {"jpeg_quality": 75},
            "crease_3mm": {"crease": 3.0},
            "glare": {"glare": 0.8},
            "all_at_once": {"tilt_deg": 10.0, "blur_sigma": 1.5, "light_gain": 0.6, "jpeg_quality": 75,
                            "noise_sigma": 3.0, "crease": 3.0, "gradient": 0.3, "vignette": 0.3},
        }
        rng = np.random.default_rng(self.seed + 2)
        count = max(2, self.tables // 4)
        tables = [random_table(self.layout, rng, int(rng.integers(40, 80))) for _ in range(count)]
        figures: dict[str, Any] = {}
        for name, changes in conditions.items():
            score, settled = self._score(), self._score()
            for index, cards in enumerate(tables):
                options = SceneOptions(resolution=DESIGN, tilt_axis_deg=float(rng.uniform(0, 360)),
                                       seed=index, **changes)
                scene = render_table(self.layout, cards, options)
                pipeline = VisionPipeline(self.layout, decoder)
                score.add(pipeline.scan(scene.image), scene, 0)
                # The same still table for a few more frames, each with fresh
                # sensor noise: misses of the cold scan get retried.
                for _ in range(SETTLE_FRAMES - 1):
                    later = pipeline.process(_sensor(scene.image, rng))
                settled.add(later, scene, 0)
            figures[name] = {**score.figures(), f"recall_after_{SETTLE_FRAMES}_frames": settled.figures()["recall"],
                             f"precision_after_{SETTLE_FRAMES}_frames": settled.figures()["precision"]}
        figures["hand_foreign_duplicates"] = self._hands_and_strangers(decoder, rng, count)
        return figures

    def _hands_and_strangers(self, decoder: str, rng: np.random.Generator, count: int) -> dict[str, Any]:
        score = self._score()
        duplicates_reported = duplicates_placed = 0
        for index in range(count):
            cards = random_table(self.layout, rng, int(rng.integers(40, 70)))
            twin = dataclasses.replace(_card_in_random_zone(self.layout, rng, cards[-1].card_id))
            codes = _foreign_codes(self.layout, rng, 3)
            options = SceneOptions(resolution=DESIGN, hand=random_hand(self.layout, rng),
                                   foreign_codes=codes, seed=index)
            scene = render_table(self.layout, [*cards, twin], options)
            observation = VisionPipeline(self.layout, decoder).scan(scene.image)
            score.add(observation, scene, _uncovered(codes, options.hand))
            ids = [t.card_id for t in scene.visible_truth()]
            duplicates_placed += int(ids.count(twin.card_id) > 1)
            duplicates_reported += int(twin.card_id in observation.duplicates)
        return {**score.figures(), "duplicates": {"placed": count, "both_fully_visible": duplicates_placed,
                                                  "reported": duplicates_reported}}

    def sloppy(self, decoder: str) -> dict[str, Any]:
        """Tables the sloppy players laid (:mod:`companion.sim.sloppy`), and the frames of their bumps.

        One resting table per game, past the first third (tight fans either
        way up, one discard stack, cards over zone borders and fiducials),
        under a random camera and light: cold scans, scored like ``design``.
        Then the same table smeared by the game's first bump, fed as the next
        frame: whatever it reports must still be right.
        """
        import random

        from companion.engine import play_random_game
        from companion.sim.styles import lay_game

        rng = np.random.default_rng(self.seed + 5)
        score, runs = self._score(), []
        bumped = {"frames": 0, "board_found": 0, "cards_reported": 0, "wrong": 0}
        for index in range(self.tables):
            game = play_random_game(random.Random(self.seed + index))
            script = lay_game(game, self.layout, "sloppy", seed=self.seed + index)
            rests = [shot for shot in script.shots if shot.hand is None and shot.note in ("rest", "quick")]
            shot = rests[int(rng.integers(len(rests) // 3, len(rests)))]
            options = _options(rng, DESIGN, index, still=False)
            scene = render_table(self.layout, shot.cards, options)
            pipeline = VisionPipeline(self.layout, decoder, clock=time.thread_time)
            observation = pipeline.scan(scene.image)
            runs.append(observation)
            score.add(observation, scene, 0)
            bump = next((s for s in script.shots if s.blur_mm > 0), None)
            if bump is None:
                continue
            smeared = render_table(self.layout, shot.cards, dataclasses.replace(
                options, motion_mm=bump.blur_mm, motion_deg=bump.blur_deg))
            during = pipeline.process(smeared.image)
            bumped["frames"] += 1
            bumped["board_found"] += during.board.found
            bumped["cards_reported"] += len(during.cards)
            bumped["wrong"] += sum(1 for card in during.cards if not any(
                t.card_id == card.card_id and math.dist(t.center_mm, card.center_mm) <= MATCH_MM
                for t in scene.truth))
        return {**score.figures(), **_timing_figures(runs), "bump_frames": bumped}

    def whole_frame(self, decoder: str) -> dict[str, Any]:
        """The decoder alone on whole greyscale frames, as the issue's first measurement did."""
        engine = make_decoder(decoder)
        visible = read = wrong = 0
        times = []
        for scene, _ in self.design_scenes()[: max(2, self.tables // 2)]:
            grey = to_grey(scene.image)
            start = time.thread_time()
            symbols = engine.decode(grey)
            times.append((time.thread_time() - start) * 1000)
            truths = scene.visible_truth()
            found = [(card_id_from_payload(s.payload), s.center) for s in symbols]
            visible += len(truths)
            for truth in truths:  # a card counts as read when one of its visible stickers is
                read += any(i == truth.card_id and math.dist(c, sticker.center_px) < 20
                            for i, c in found for sticker in truth.stickers if sticker.visible)
            wrong += sum(1 for i, _ in found if i is not None and i not in {t.card_id for t in scene.truth})
        return {"visible": visible, "recall": round(read / max(visible, 1), 4), "wrong_id": wrong,
                "frame_ms_median": round(statistics.median(times), 1)}


# --------------------------------------------------------------------------- scene making


def _random_scene(layout: Layout, resolution: tuple[int, int], rng: np.random.Generator,
                  index: int) -> tuple[RenderedScene, int]:
    cards = random_table(layout, rng, int(rng.integers(40, 90)))
    options = _options(rng, resolution, index, still=False)
    codes = _foreign_codes(layout, rng, int(rng.integers(0, 3)))
    options = dataclasses.replace(options, foreign_codes=codes)
    if rng.random() < 0.3:
        options = dataclasses.replace(options, hand=random_hand(layout, rng))
    scene = render_table(layout, cards, options)
    return scene, _uncovered(codes, options.hand)


def _uncovered(codes: Sequence[ForeignCode], hand: Sequence[tuple[float, float]] | None) -> int:
    """Slips lie on top of the cards, but a hand may cover them."""
    if hand is None:
        return len(codes)
    return sum(1 for code in codes if not polygons_overlap(code.corners_mm(), tuple(hand)))


def _options(rng: np.random.Generator, resolution: tuple[int, int], seed: int, *, still: bool) -> SceneOptions:
    """Random camera and light within the issue's bounds (noise added per frame when ``still``)."""
    return SceneOptions(
        resolution=resolution,
        tilt_deg=float(rng.uniform(0, 10)),
        tilt_axis_deg=float(rng.uniform(0, 360)),
        roll_deg=float(rng.uniform(-3, 3)),
        light_gain=float(rng.uniform(0.5, 1.5)),
        gradient=float(rng.uniform(0, 0.3)),
        vignette=float(rng.uniform(0, 0.3)),
        blur_sigma=float(rng.uniform(0, 1.5)),
        noise_sigma=0.0 if still else float(rng.uniform(1, 4)),
        jpeg_quality=None if still else 75,
        glare=float(rng.uniform(0, 0.5)) if rng.random() < 0.3 else 0.0,
        crease=float(rng.uniform(0, 3)),
        seed=seed,
    )


def _sensor(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Fresh sensor noise and JPEG for each frame of a still table, as a camera gives."""
    noise = np.empty(image.shape, np.int16)
    cv2.setRNGSeed(int(rng.integers(1 << 30)))
    cv2.randn(noise, 0.0, 2.5)  # type: ignore[call-overload]
    noisy = cv2.add(image, noise, dtype=cv2.CV_8U)
    ok, encoded = cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, 75])
    return cv2.imdecode(encoded, cv2.IMREAD_COLOR) if ok else noisy


def _all_ids() -> list[str]:
    return [f"{color}{serial:02d}" for color in "ROYGPK" for serial in range(1, 19)]


def _card_in_random_zone(layout: Layout, rng: np.random.Generator, card_id: str) -> PlacedCard:
    """A card laid loosely in a random open zone (rivers, fields, reveal areas), near the zone's centre."""
    names = [n for n in layout.zones if ".river." in n or ".field." in n or n.endswith("reveal")]
    zone = names[int(rng.integers(len(names)))]
    cx, cy = layout.zone_center(zone)
    rotation = float(rng.uniform(0, 360))
    return PlacedCard(card_id, (cx + float(rng.uniform(-5, 5)), cy + float(rng.uniform(-5, 5))), rotation)


def _foreign_codes(layout: Layout, rng: np.random.Generator, count: int) -> tuple[ForeignCode, ...]:
    width, height = layout.size_mm
    return tuple(
        ForeignCode(FOREIGN_PAYLOADS[i % len(FOREIGN_PAYLOADS)],
                    (float(rng.uniform(60, width - 60)), float(rng.uniform(60, height - 60))),
                    size_mm=float(rng.uniform(20, 30)), rotation_deg=float(rng.uniform(0, 360)))
        for i in range(count)
    )


# --------------------------------------------------------------------------- machine


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    return {
        "cpu": _cpu_model(),
        "cores_online": _cores(),
        "python": platform.python_version(),
        "opencv": cv2.__version__,
        "numpy": np.__version__,
        "zxing-cpp": _version("zxing-cpp"),
        "pyzbar": _version("pyzbar"),
        "libzbar0": _dpkg_version("libzbar0"),
        "opencv_threads": cv2.getNumThreads(),
        "timing": "thread CPU time, one core, cv2.setNumThreads(1)",
    }


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _cores() -> int:
    import os

    return os.cpu_count() or 1


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def _dpkg_version(package: str) -> str | None:
    try:
        done = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", package],
                              capture_output=True, text=True, timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None


