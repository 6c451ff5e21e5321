"""Vision through real optics (``companion bench vision --scenarios ...``): the scenarios of issue 13.

Frames come from the renderer's camera model (:mod:`companion.sim.optics`):
a wide lens's barrel distortion, a cloth lifted off the table (seen in
parallax), field curvature (soft corners), motion smear, a 90x60 cm mat.
Each table has its own random camera and light within the design bounds
(:func:`companion.bench.vision._options`), as in ``design``.

*With calibration* means what a person setting up does: ``companion
calibrate`` (:func:`companion.app.calibrate.calibrate`) on a frame of the
empty mat from the same camera, then the tables read through the lens model
it fitted; for soft corners, its focus sweep on a camera whose lens has
field curvature (:class:`companion.app.camera.FocusingCamera`), the tables
then rendered with the lens where the sweep left it. *Without* is the
pipeline with no lens model and the lens focused for the middle. Recall and
precision are scored as in ``design``, on the cold scan and after
:data:`SETTLE_FRAMES` frames of the still table.

``motion``: a still table seen, then one frame smeared by 6-15 px in any
direction, then a sharp one: what the smeared frame reports must be right,
every card it lost must be in a zone it reports smeared, and the next sharp
frame must read again. ``bumps``: whole games of the sloppy players (their
bumps smear frames by 1.5-14 mm), fed to the tracker twice, as played and
with every bump frame sharp: whatever differs was caused by the smear.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from companion.bench.table import decision, expected_decisions
from companion.bench.vision import (
    DESIGN,
    SETTLE_FRAMES,
    WEBCAM,
    Score,
    _Bench,
    _options,
    _sensor,
    _timing_figures,
)
from companion.engine import Resync, Reveal
from companion.sim.scene import RenderedScene, SceneOptions, render_table
from companion.sim.sloppy import Habits, script_sloppy_game
from companion.sim.tables import random_table
from companion.vision.layout import Layout, load_layout
from companion.vision.lens import nominal_lens
from companion.vision.observation import FrameObservation
from companion.vision.pipeline import VisionPipeline

OPTICS_SCENARIOS = ("distortion", "crease", "corner_blur", "motion", "large_mat", "bumps", "lens_timing")
WIDE_HFOV = 102.0
WIDE_K1 = (-0.05, -0.15, -0.3)
"""Barrel distortion of the wide-lens scenarios (OpenCV's k1; k2 = -k1 / 3 keeps the lens from folding)."""
LIFT_MM = 10.0
CORNER_BLUR_PX = (2.5, 3.5)
MOTION_PX = (6.0, 15.0)
SWAY = Habits(bump_p=0.08, bump_frames_s=(1.0, 2.0), bump_blur_mm=(1.0, 2.6))
"""Sloppy players under a camera on a swaying arm: longer smears of 6-15 px at 12 MP (5.9 px per mm)."""
SWEEP_FRAME_S = 0.2
"""A lens move and a frame of a Camera Module 3, for the focus sweep's clock in the benchmark."""
LARGE_MAT = Path(__file__).resolve().parents[2] / "calibration" / "layouts" / "mandala-playmat-90x60.json"


def run_optics(bench: _Bench, decoder: str, scenarios: set[str], bump_games: int = 2) -> dict[str, Any]:
    optics = _Optics(bench, decoder, bump_games)
    figures: dict[str, Any] = {}
    if "distortion" in scenarios:
        figures["distortion"] = optics.distortion()
    if "crease" in scenarios:
        figures["crease"] = optics.crease()
    if "corner_blur" in scenarios:
        figures["corner_blur"] = optics.corner_blur()
    if "motion" in scenarios:
        figures["motion"] = optics.motion()
    if "large_mat" in scenarios:
        figures["large_mat"] = optics.large_mat()
    if "bumps" in scenarios:
        figures["bumps"] = optics.bumps()
    if "lens_timing" in scenarios:
        figures["lens_timing"] = optics.lens_timing()
    return figures


class _Optics:
    def __init__(self, bench: _Bench, decoder: str, bump_games: int) -> None:
        self.bench, self.decoder, self.bump_games = bench, decoder, bump_games
        self.layouts = {DESIGN: bench.layout, WEBCAM: bench.webcam_layout}

    # ------------------------------------------------------------------ scenarios

    def distortion(self) -> dict[str, Any]:
        """A wide lens's barrel, uncorrected and through the lens model calibrate fits to the empty mat."""
        figures = {}
        for resolution in (DESIGN, WEBCAM):
            for k1 in WIDE_K1:
                def camera(options: SceneOptions, k1: float = k1) -> SceneOptions:
                    return dataclasses.replace(options, hfov_deg=WIDE_HFOV, distortion=(k1, -k1 / 3, 0.0, 0.0, 0.0))
                figures[f"{_name(resolution)}_k1_{k1:g}"] = self._with_and_without(resolution, camera, "wide")
        return figures

    def crease(self) -> dict[str, Any]:
        """The cloth lifted up to LIFT_MM off the table (folds and bumps, in parallax) and pulled up to 3 mm."""
        return {_name(resolution): self._with_and_without(
                    resolution, lambda o: dataclasses.replace(o, lift_mm=LIFT_MM, crease=3.0), "standard")
                for resolution in (DESIGN, WEBCAM)}

    def corner_blur(self) -> dict[str, Any]:
        """Field curvature: focused for the middle, the corners blurred by sigma c; then calibrate's focus sweep."""
        figures: dict[str, Any] = {}
        for resolution in (DESIGN, WEBCAM):
            for blur in CORNER_BLUR_PX:
                figures[f"{_name(resolution)}_corner_{blur:g}px"] = self._corner_blur(resolution, blur)
        return figures

    def motion(self) -> dict[str, Any]:
        return {_name(resolution): self._motion(resolution) for resolution in (DESIGN, WEBCAM)}

    def large_mat(self) -> dict[str, Any]:
        """A 90 x 60 cm mat (its own layout): the stickers calibrate asks for, against 16 mm ones."""
        from companion.app.calibrate import calibrate

        large = load_layout(LARGE_MAT)
        figures: dict[str, Any] = {}
        for resolution, sticker_mm in ((DESIGN, 16.0), (DESIGN, large.sticker_mm), (WEBCAM, 32.0)):
            layout = dataclasses.replace(large, sticker_mm=sticker_mm)
            rng = np.random.default_rng(self.bench.seed + 21)
            score, settled = Score(zones=_zones(layout)), Score(zones=_zones(layout))
            verdicts = []
            for index in range(self.bench.tables):
                options = _options(rng, resolution, index, still=False)
                calibration, _ = calibrate(render_table(layout, [], options).image, layout, "bench")
                verdicts.append((calibration.px_per_module_min, calibration.sticker_mm_needed,
                                 [p.code for p in calibration.problems]))
                scene = render_table(layout, random_table(layout, rng, int(rng.integers(40, 90))), options)
                self._read(VisionPipeline(layout, self.decoder), scene, rng, score, settled)
            worst = [v[0] for v in verdicts if v[0] is not None]
            figures[f"{_name(resolution)}_{sticker_mm:g}mm"] = {
                **_scored(score, settled),
                "calibrate_px_per_module_worst_zone": round(min(worst), 2) if worst else None,
                "calibrate_sticker_mm_needed": sorted({v[1] for v in verdicts}, key=lambda v: v or math.inf),
                "calibrate_problems": sorted({code for v in verdicts for code in v[2]}),
            }
        return figures

    def bumps(self) -> dict[str, Any]:
        """Whole sloppy games, as played and with their bump frames sharp: what the smear alone changed.

        Two kinds of players: the sloppy ones as they are (a bump smears a
        few frames by 1.5-14 mm, for 0.2-0.8 s), and the same players under a
        camera on a swaying arm (:data:`SWAY`: each bump smears 1-2.6 mm, 6-15
        px at 12 MP, for 1-2 s, longer than a settle time, and they bump twice
        as often). Each game runs through the ideal camera as played, with its
        bump frames sharp, and as played but with the smear fields blanked (a
        vision that reported smeared frames as empty); a few sway games also
        rendered at 12 MP through vision.
        """
        from companion.sim.script import script_observations

        figures: dict[str, Any] = {}
        for name, habits in (("sloppy", None), ("sway", SWAY)):
            ideal: Counter[str] = Counter()
            for index in range(self.bench.tables):
                script, layout = self._sloppy(index, habits)
                smeared = _track(script_observations(script, layout, 14.0, seed=index))
                sharp = _track(script_observations(_sharp_bumps(script), layout, 14.0, seed=index))
                blind = _track(_unflagged(script_observations(script, layout, 14.0, seed=index)))
                truth = expected_decisions(script.game)
                ideal += (_compare(smeared, sharp, "", smeared.smeared, truth=truth)
                          + _compare(blind, sharp, "without_smear_field_", smeared.smeared, truth=truth)
                          + Counter(games=1, smeared_frames=smeared.smeared_frames))
            figures[f"{name}_ideal_camera"] = dict(ideal)
        rendered: Counter[str] = Counter()
        details: list[str] = []
        for index in range(self.bump_games):
            script, layout = self._sloppy(index, SWAY)
            smeared = _track_rendered(script, layout)
            sharp = _track_rendered(_sharp_bumps(script), layout)
            rendered += _compare(smeared, sharp, "", smeared.smeared, truth=expected_decisions(script.game)) + Counter(
                games=1, smeared_frames=smeared.smeared_frames, sharp_game_smeared_frames=sharp.smeared_frames)
            details += [f"game {index} {item}" for item in _differences(smeared, sharp)]
        figures["sway_rendered_4608"] = {**rendered, "differences": details}
        return figures

    def lens_timing(self) -> dict[str, Any]:
        """Cold and steady frames of ``design`` and ``webcam`` with a lens model to map through (undistortion
        on), each against the same frames without one, back to back in ABBA order.

        The lens is the wide one's starting model: any lens with distortion
        sends every point through undistortion. On a shared machine only the
        ratio of the two means much; the medians of each pass are given too.
        """
        figures: dict[str, Any] = {}
        for resolution, scenes in ((DESIGN, self.bench.design_scenes()), (WEBCAM, self.bench.webcam_scenes())):
            lens = nominal_lens("wide", resolution)
            layout = self.layouts[resolution]
            passes: dict[str, list[dict[str, Any]]] = {"without": [], "with": []}
            for name in ("without", "with", "with", "without"):
                timed = _Bench(self.bench.layout, self.bench.tables, self.bench.repeat, self.bench.seed,
                               lens=lens if name == "with" else None)
                cold = timed.cold(self.decoder, scenes)
                steady = timed.steady(self.decoder, resolution, layout)
                passes[name].append({
                    "cold_ms": cold["frame_ms"]["median"], "cold_max_ms": cold["frame_ms"]["max"],
                    "cold_recall": cold["recall"], "cold_precision": cold["precision"],
                    "steady_one_card_ms": steady["one_area_changed"]["frame_ms"]["median"],
                    "steady_nothing_changed_ms": steady["nothing_changed"]["frame_ms"]["median"],
                    "cold_stages_ms_median": cold["stages_ms_median"]})
            figures[_name(resolution)] = {**passes, "ratio_with_to_without": {
                key: round(statistics.median(w[key] / o[key] for w, o in zip(passes["with"], passes["without"],
                                                                          strict=True)), 3)
                for key in ("cold_ms", "steady_one_card_ms", "steady_nothing_changed_ms")}}
        return figures

    # ------------------------------------------------------------------ helpers

    def _with_and_without(self, resolution: tuple[int, int], camera: Any, lens: str) -> dict[str, Any]:
        """Tables under one camera condition, read without a lens model and with the one calibrate fits."""
        from companion.app.calibrate import calibrate

        layout = self.layouts[resolution]
        rng = np.random.default_rng(self.bench.seed + 17)
        scores = {name: (Score(zones=_zones(layout)), Score(zones=_zones(layout))) for name in ("without", "with")}
        fits = []
        for index in range(self.bench.tables):
            options = camera(_options(rng, resolution, index, still=False))
            calibration, _ = calibrate(render_table(layout, [], options).image, layout, "bench", lens=lens)
            fitted = calibration.lens.model if calibration.lens is not None else None
            fits.append(calibration.lens.rms_px if calibration.lens and calibration.lens.rms_px else math.nan)
            scene = render_table(layout, random_table(layout, rng, int(rng.integers(40, 90))), options)
            for name, model in (("without", None), ("with", fitted)):
                self._read(VisionPipeline(layout, self.decoder, lens=model), scene, rng, *scores[name])
        result = {name: _scored(*pair) for name, pair in scores.items()}
        result["with"]["lens_fit_rms_px_median"] = round(float(np.nanmedian(fits)), 3) if fits else None
        return result

    def _corner_blur(self, resolution: tuple[int, int], blur: float) -> dict[str, Any]:
        from companion.app.calibrate import worst_zone_blur
        from companion.app.camera import FocusingCamera
        from companion.app.focus import sweep_focus

        layout = self.layouts[resolution]
        rng = np.random.default_rng(self.bench.seed + 19)
        without, without_settled = Score(zones=_zones(layout)), Score(zones=_zones(layout))
        with_, with_settled = Score(zones=_zones(layout)), Score(zones=_zones(layout))
        focuses = []
        for index in range(self.bench.tables):
            options = dataclasses.replace(_options(rng, resolution, index, still=False), blur_sigma=0.5)
            cards = random_table(layout, rng, int(rng.integers(40, 90)))
            camera = FocusingCamera(layout, [], options, corner_blur=blur)
            # The sweep's clock counts camera frames, not the seconds a 12 MP render takes on a loaded
            # machine (the wall clock ran out after one position, and the lens never moved).
            sweep = sweep_focus(camera, worst_zone_blur(layout), clock=_frame_clock())
            focuses.append(camera.focus)
            for focus, scores in ((0.0, (without, without_settled)), (camera.focus, (with_, with_settled))):
                scene = render_table(layout, cards, dataclasses.replace(options, corner_blur=blur, focus=focus))
                self._read(VisionPipeline(layout, self.decoder), scene, rng, *scores)
            del sweep
        return {"without": _scored(without, without_settled),
                "with": {**_scored(with_, with_settled), "focus_chosen_median": round(float(np.median(focuses)), 2)}}

    def _motion(self, resolution: tuple[int, int]) -> dict[str, Any]:
        layout = self.layouts[resolution]
        rng = np.random.default_rng(self.bench.seed + 23)
        smeared, resumed = Score(zones=_zones(layout)), Score(zones=_zones(layout))
        frames = flagged = lost = lost_unflagged = board_lost = 0
        smears = []
        runs: list[FrameObservation] = []
        for index in range(self.bench.tables):
            options = _options(rng, resolution, index, still=True)
            cards = random_table(layout, rng, int(rng.integers(40, 90)))
            still = render_table(layout, cards, options)
            pipeline = VisionPipeline(layout, self.decoder, clock=time.thread_time)
            pipeline.process(_sensor(still.image, rng))
            before = pipeline.process(_sensor(still.image, rng))
            length = float(rng.uniform(*MOTION_PX))
            moved = render_table(layout, cards, dataclasses.replace(
                options, motion_mm=length / still.px_per_mm, motion_deg=float(rng.uniform(0, 180))))
            during = pipeline.process(_sensor(moved.image, rng))
            runs.append(during)
            after = pipeline.process(_sensor(still.image, rng))
            frames += 1
            flagged += during.board.smeared
            smears.append((round(length, 1), during.board.smear_px))
            smeared.add(during, moved, 0)
            resumed.add(after, still, 0)
            now = {c.card_id for c in during.cards}
            gone = [c for c in before.cards if c.card_id not in now]
            lost += len(gone)
            board_lost += not during.board.found
            lost_unflagged += sum(1 for c in gone if during.board.found and not during.board.smeared
                                  and c.zone not in during.smeared_zones)
        during_figures, after_figures = smeared.figures(), resumed.figures()
        return {"frames": frames, "flagged_smeared": flagged, "board_not_found": board_lost,
                "cards_missing_from_smeared_frames": lost,
                "cards_lost_in_a_frame_neither_smeared_nor_boardless": lost_unflagged,
                "precision_smeared_frames": during_figures["precision"], "wrong_id": during_figures["wrong_id"],
                "wrong_zone": during_figures["wrong_zone"], "reported": during_figures["reported"],
                "recall_first_sharp_frame": after_figures["recall"],
                "precision_first_sharp_frame": after_figures["precision"],
                "smear_px_rendered_vs_measured": smears, **_timing_figures(runs)}

    def _read(self, pipeline: VisionPipeline, scene: RenderedScene, rng: np.random.Generator, score: Score,
              settled: Score) -> None:
        score.add(pipeline.scan(scene.image), scene, 0)
        later = None
        for _ in range(SETTLE_FRAMES - 1):
            later = pipeline.process(_sensor(scene.image, rng))
        assert later is not None
        settled.add(later, scene, 0)

    def _sloppy(self, index: int, habits: Habits | None = None) -> tuple[Any, Layout]:
        from companion.engine import play_random_game

        layout = self.bench.layout
        game = play_random_game(random.Random(self.bench.seed + index))
        return script_sloppy_game(game, layout, self.bench.seed + index, habits or Habits()), layout


# --------------------------------------------------------------------------- whole games


@dataclasses.dataclass
class _Run:
    """What the tracker reported over a game, each item with its frame."""

    events: list[tuple[int, str]]
    warnings: list[tuple[int, str]]
    removals: list[tuple[int, str]]
    """Cards a settled view lost (card@zone), at the frame of that view."""
    smeared: list[int]
    """Frames vision (or the ideal camera) reported smeared."""
    decisions: list[tuple[object, ...]] = dataclasses.field(default_factory=list)
    """Each event's decision (:func:`companion.bench.table.decision`), in order: what the game's are judged by."""

    @property
    def smeared_frames(self) -> int:
        return len(self.smeared)


# After a smear, what the tracker reports within a settle time and a margin is its doing.
SMEAR_WINDOW_S = 2.0


def _track(observations: Iterable[FrameObservation], settle_s: float = 1.0, fps: float = 14.0) -> _Run:
    """Feed a whole game to the tracker; what it reported, and every card its settled views lost."""
    from companion.tracker.tracker import Tracker

    tracker = Tracker(settle_s=settle_s)
    run = _Run([], [], [], [])
    last: dict[str, str] = {}
    for index, observation in enumerate(observations):
        if observation.board.smeared:
            run.smeared.append(index)
        update = tracker.observe(index, index / fps, observation)
        run.events += [(index, str(e.event)) for e in update.events]
        run.decisions += [decision(e.event) for e in update.events if not isinstance(e.event, Reveal | Resync)]
        run.warnings += [(index, f"{w.reason} {sorted(w.cards)} {w.zone}") for w in update.warnings]
        view = dict(tracker.view.cards)
        if view != last:
            run.removals += [(index, f"{card}@{zone}") for card, zone in last.items() if view.get(card) != zone]
            last = view
    return run


def _track_rendered(script: Any, layout: Layout) -> _Run:
    """The game rendered at 4608x2592 (as ``companion bench table`` does) and read by vision."""
    from companion.sim.frames import render_frames

    vision = VisionPipeline(layout)
    frames = render_frames(script, layout, 14.0, SceneOptions(resolution=DESIGN, noise_sigma=2.0))
    return _track(vision.process(image) for image in frames)


def _compare(run: _Run, sharp: _Run, prefix: str, smeared_at: list[int], fps: float = 14.0,
             truth: list[tuple[object, ...]] | None = None) -> Counter[str]:
    """What ``run`` reported that the same game with sharp bump frames did not, and the reverse, over the
    whole game; and how many of the first it reported within SMEAR_WINDOW_S of a frame smeared in the
    game as played (``smeared_at``). An event only delayed by a smear is in both.

    With ``truth`` (the decisions of the game as played), also the events only ``run`` reported that
    are no decision of the game either: the sharp run is a tracker too, and where it goes wrong (an
    unread card first read during a claim taken for a play) the events only the smeared run has are
    the game's own, not the smear's doing.
    """
    window: set[int] = set()
    for frame in smeared_at:
        window.update(range(frame, frame + round(SMEAR_WINDOW_S * fps) + 1))
    counts: Counter[str] = Counter()
    for name, mine, theirs in (("events", run.events, sharp.events), ("warnings", run.warnings, sharp.warnings),
                               ("removals", run.removals, sharp.removals)):
        extra = Counter(item for _, item in mine) - Counter(item for _, item in theirs)
        missing = Counter(item for _, item in theirs) - Counter(item for _, item in mine)
        in_window = Counter(item for frame, item in mine if frame in window)
        counts[f"{prefix}{name}_only_with_smear"] += sum(extra.values())
        counts[f"{prefix}{name}_missing_with_smear"] += sum(missing.values())
        counts[f"{prefix}{name}_only_with_smear_near_a_smear"] += sum(min(n, in_window[item])
                                                                      for item, n in extra.items())
    if truth is not None:
        only_here = Counter(run.decisions) - Counter(sharp.decisions)
        not_played = only_here - (Counter(truth) - Counter(sharp.decisions))
        counts[f"{prefix}events_only_with_smear_not_in_game"] += sum(not_played.values())
    return counts


def _differences(run: _Run, sharp: _Run) -> list[str]:
    """Each event, warning and removal only one of the two runs reported, with its frame and the last
    frame reported smeared before it: what to look at when :func:`_compare` counts any."""
    lines = []
    for name, mine, theirs in (("event", run.events, sharp.events), ("warning", run.warnings, sharp.warnings),
                               ("removal", run.removals, sharp.removals)):
        for side, first, second in (("only with smear", mine, theirs), ("missing with smear", theirs, mine)):
            extra = Counter(item for _, item in first) - Counter(item for _, item in second)
            for frame, item in first:
                if extra[item] > 0:
                    extra[item] -= 1
                    smear = max((f for f in run.smeared if f <= frame), default=None)
                    lines.append(f"frame {frame} (last smeared {smear}): {name} {side}: {item}")
    return lines


def _sharp_bumps(script: Any) -> Any:
    """The same game with every bump frame sharp (the cards still shaken a millimetre or two)."""
    return dataclasses.replace(script, shots=tuple(dataclasses.replace(shot, blur_mm=0.0) for shot in script.shots))


def _unflagged(observations: Iterable[FrameObservation]) -> Iterator[FrameObservation]:
    """The observations as a vision without the smear field would give them: for comparison."""
    for observation in observations:
        yield dataclasses.replace(observation, board=dataclasses.replace(observation.board, smeared=False),
                                  smeared_zones=())


# --------------------------------------------------------------------------- small things


def _frame_clock() -> Callable[[], float]:
    """A clock that moves SWEEP_FRAME_S each time it is read: one camera frame per look of the focus sweep."""
    frames = itertools.count()
    return lambda: next(frames) * SWEEP_FRAME_S


def _name(resolution: tuple[int, int]) -> str:
    return f"{resolution[0]}x{resolution[1]}"


def _zones(layout: Layout) -> dict[str, np.ndarray]:
    return {n: np.array(p, np.float32).reshape(-1, 1, 2) for n, p in layout.zones.items()}


def _scored(cold: Score, settled: Score) -> dict[str, Any]:
    figures, after = cold.figures(), settled.figures()
    keep = ("visible", "recall", "precision", "wrong_id", "wrong_zone", "position_error_mm")
    return {**{key: figures[key] for key in keep},
            f"recall_after_{SETTLE_FRAMES}_frames": after["recall"],
            f"precision_after_{SETTLE_FRAMES}_frames": after["precision"],
            f"wrong_zone_after_{SETTLE_FRAMES}_frames": after["wrong_zone"],
            f"position_error_after_{SETTLE_FRAMES}_frames_mm": after["position_error_mm"]}

