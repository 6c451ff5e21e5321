"""``companion calibrate``: is the camera where it should be, and in focus?

From one frame of the table: find the fiducials, fit the lens's distortion to
them (and to the calibration sheet, where one lies in view or was
photographed: :mod:`companion.vision.sheet`), check that every zone of the
layout is in view, measure pixels per QR module (from stickers read, else
from the fiducials' size) and the sticker size the mat and camera need, the
focus of every zone (:mod:`companion.app.focus`), pick the camera mode, and
say what to fix. The result is a small immutable :class:`Calibration`;
:func:`calibrate` never raises on what the frame shows (a garbage frame is a
verdict, not a crash).
"""

from __future__ import annotations

import datetime as dt
import json
import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.app.focus import FocusSweep, fiducial_blur, overall_blur, zone_blur
from companion.errors import FrameError
from companion.markers.sizing import STICKER_SIZES_MM, WANTED_PX_PER_MODULE
from companion.ui.screens import CalibrationVerdict
from companion.vision.fiducials import FiducialSighting
from companion.vision.frames import check_frame
from companion.vision.layout import Fiducial, Layout
from companion.vision.lens import LENSES, LensError, LensFit, LensModel, fit_lens, load_lens, nominal_lens
from companion.vision.mapping import MatMapping
from companion.vision.observation import FrameObservation
from companion.vision.pipeline import VisionPipeline
from companion.vision.sheet import SheetView, find_sheet
from companion.vision.stickers import QR_MODULES, STICKER_MODULES, stickers_clash
from companion.vocab.reasons import Reason

# Decoders read reliably from about 3 px per module (hardware/camera.md,
# ../shared/notes/vision-anchors.md): the camera mode and sticker size are chosen for that.
MODE_PX_PER_MODULE = WANTED_PX_PER_MODULE
# The pipeline reads every sticker of the benchmark's 1920x1080 tables at
# 2.7 px per module (tilt up to 10 degrees: 2.5 on the far side); below
# these the set-up is not ready.
MIN_PX_PER_MODULE = 2.6
MIN_EDGE_PX_PER_MODULE = 2.4
# The pipeline reads every sticker up to the renderer's blur sigma 1.5 px,
# which this measure reads as 1.57 (the rendering's own softness adds in).
MAX_BLUR_PX = 1.6
# Camera Module 3 modes with the full field of view, smallest first: the
# binned one is chosen only when it still gives MIN_PX_PER_MODULE
# (the 1536x864 mode is a centre crop and never sees the whole mat).
CM3_MODES: tuple[tuple[int, int], ...] = ((2304, 1296), (4608, 2592))
# Horizontal field of view of the Camera Module 3 standard lens (degrees):
# turns px/mm into a camera height for "raise/lower the camera by N cm".
HFOV_DEG = 66.0
# A zone within this many pixels of the frame's edge counts as out of view.
EDGE_MARGIN_PX = 2
CALIBRATION_FILE = "calibration.json"
FORMAT = "mandala-calibration/1"
# A fitted lens is kept only if it brings the fiducials' reprojection error
# under this many pixels or millimetres on the mat, whichever is more: more
# means the points disagree (a marker misread, a cloth lifted far off the
# table) and the starting model is safer. Corners are found to a pixel or so
# at any resolution, a crease moves them by millimetres: 2 px alone was
# 0.34 mm at 12 MP, where a cloth creased 3 mm leaves the fiducials 2-3 px
# off any lens (a k1 = -0.3 lens fitted to 2.4 px from the start's 39 px was
# thrown away); 0.8 mm alone is 1.5 px on a tilted 1080p frame.
MAX_LENS_RMS_PX = 2.0
MAX_LENS_RMS_MM = 0.8
# ... and only if it explains what the starting model could not: a quarter of
# its error and at least this much (px). Below that the fit is fitting the
# corners' noise, and three radial terms fitted to noise bend the frame's far
# corners, where no fiducial holds them.
MIN_LENS_GAIN_PX = 0.2


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the set-up: a stable code, what is wrong, and how to fix it."""

    code: str
    message: str
    fix: str
    short: str = ""
    """The fix in at most two lines of 15 letters, for the OLED."""

    def __str__(self) -> str:
        return f"{self.message}: {self.fix}"


@dataclass(frozen=True)
class Calibration:
    """What one frame says about the camera set-up (see the module docstring)."""

    date: str
    camera: str
    resolution: tuple[int, int]
    board_found: bool
    fiducials_seen: tuple[int, ...]
    fiducials_missing: tuple[int, ...]
    zones_out_of_view: tuple[str, ...]
    homography: tuple[tuple[float, ...], ...] | None  # frame pixels -> mat mm
    px_per_mm: float | None
    px_per_module: float | None
    px_per_module_min: float | None  # the worst zone (far side of a tilted mat)
    px_per_module_from: str | None  # "stickers" or "fiducials"
    stickers_read: int
    blur_px: float | None
    mode: tuple[int, int] | None
    problems: tuple[Problem, ...] = field(default=())
    lens_position: float | None = None
    """Where the camera's lens was (dioptres), for a camera with autofocus; restored at every start."""
    lens: LensCalibration | None = None
    """The lens model the mapping used, and where it came from."""
    zone_blur: tuple[tuple[str, float], ...] = ()
    """Blur sigma (px) per zone, from the fiducials' edges (see :mod:`companion.app.focus`)."""
    focus_sweep: FocusSweep | None = None
    sticker_mm: float | None = None
    """The sticker side the layout names."""
    sticker_mm_needed: float | None = None
    """The smallest printable sticker side giving MODE_PX_PER_MODULE on the worst zone (None: none fits a card)."""

    @property
    def soft_zones(self) -> tuple[str, ...]:
        """Zones blurred beyond what the pipeline reads, the softest first."""
        soft = sorted(((blur, name) for name, blur in self.zone_blur if blur > MAX_BLUR_PX), reverse=True)
        return tuple(name for _, name in soft)

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        """The JSON document written to the state directory (docs/calibrate.md, "What it writes")."""
        document = self._base_dict()
        document["focus"].update({"zones": dict(self.zone_blur), "soft_zones": list(self.soft_zones),
                                  "sweep": self.focus_sweep.to_dict() if self.focus_sweep else None})
        document["lens"] = self.lens.to_dict() if self.lens else None
        document["stickers"] = {"mm": self.sticker_mm, "needed_mm": self.sticker_mm_needed,
                                "px_per_module_wanted": MODE_PX_PER_MODULE}
        return document

    def _base_dict(self) -> dict[str, Any]:
        """The JSON document written to the state directory."""
        return {
            "format": FORMAT,
            "date": self.date,
            "camera": self.camera,
            "resolution": list(self.resolution),
            "board": {"found": self.board_found, "fiducials": list(self.fiducials_seen),
                      "missing": list(self.fiducials_missing)},
            "zones_out_of_view": list(self.zones_out_of_view),
            "homography": [list(row) for row in self.homography] if self.homography else None,
            "px_per_mm": _rounded(self.px_per_mm, 3),
            "px_per_module": _rounded(self.px_per_module, 2),
            "px_per_module_min": _rounded(self.px_per_module_min, 2),
            "px_per_module_from": self.px_per_module_from,
            "stickers_read": self.stickers_read,
            "focus": {"blur_px": _rounded(self.blur_px, 2), "max_blur_px": MAX_BLUR_PX,
                      "ok": self.blur_px is not None and self.blur_px <= MAX_BLUR_PX,
                      "lens_position": _rounded(self.lens_position, 3)},
            "mode": list(self.mode) if self.mode else None,
            "verdict": {"ok": self.ok,
                        "problems": [{"code": p.code, "message": p.message, "fix": p.fix} for p in self.problems]},
        }


def _rounded(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


@dataclass(frozen=True)
class LensCalibration:
    """The lens model a calibration settled on: fitted, or the starting one when no fit could be trusted."""

    model: LensModel
    start: str
    """The starting model: ``standard`` or ``wide`` (the Camera Module 3 lens), or ``given``."""
    fitted_to: tuple[str, ...] = ()
    """What the fit used: ``fiducials``, ``sheet`` (in the frame), ``sheet images``; () not fitted."""
    points: int = 0
    rms_px: float | None = None
    start_rms_px: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"model": self.model.to_dict(), "start": self.start, "fitted_to": list(self.fitted_to),
                "points": self.points, "rms_px": _rounded(self.rms_px, 3),
                "start_rms_px": _rounded(self.start_rms_px, 3)}


def starting_lens(name: str, resolution: tuple[int, int]) -> LensModel:
    """The data sheet's model of a Camera Module 3 lens for frames of ``resolution``.

    A camera of another shape (a webcam) gets a pinhole of the lens's field
    of view at its own resolution: the fit then finds its distortion.
    """
    try:
        return nominal_lens(name, resolution)
    except ValueError:
        spec = LENSES[name]
        focal = (resolution[0] / 2) / math.tan(math.radians(spec.hfov_deg) / 2)
        width, height = resolution
        matrix = ((focal, 0.0, (width - 1) / 2), (0.0, focal, (height - 1) / 2), (0.0, 0.0, 1.0))
        return LensModel(resolution, matrix, spec.distortion, name)


# --------------------------------------------------------------------------- measuring


def calibrate(frame: object, layout: Layout, camera: str = "image", *,
              pipeline: VisionPipeline | None = None, now: dt.datetime | None = None,
              lens_position: float | None = None, lens: str | LensModel = "standard",
              sheets: Sequence[np.ndarray] = (), focus_sweep: FocusSweep | None = None,
              ) -> tuple[Calibration, FrameObservation | None]:
    """Measure the set-up on one frame; the observation is None for an unusable frame.

    ``lens``: the starting lens model (a Camera Module 3 lens by name, or a
    model); the fit to the fiducials and the sheet refines it, and
    ``pipeline`` (made here when not given) maps through the result.
    ``sheets``: more pictures of the calibration sheet from this camera.
    ``lens_position`` and ``focus_sweep``: where the camera's lens was for
    this frame and how it got there, kept in the calibration.
    """
    calibration, observation = _measure(frame, layout, camera, pipeline, now, lens, sheets, focus_sweep)
    return replace(calibration, lens_position=lens_position), observation


def _measure(frame: object, layout: Layout, camera: str, pipeline: VisionPipeline | None,
             now: dt.datetime | None, lens: str | LensModel, sheets: Sequence[np.ndarray],
             focus_sweep: FocusSweep | None) -> tuple[Calibration, FrameObservation | None]:
    date = (now or dt.datetime.now(dt.UTC)).isoformat(timespec="seconds")
    try:
        image = check_frame(frame)
    except FrameError as error:
        problem = Problem("unusable-frame", f"unusable frame: {error}", "check the camera and its cable",
                          "Check the camera")
        return Calibration(date, camera, (0, 0), False, (), (), (), None, None, None, None, None, 0, None, None,
                           (problem,)), None
    height, width = image.shape[:2]
    start = lens if isinstance(lens, LensModel) else starting_lens(lens, (width, height))
    pipeline = pipeline or VisionPipeline(layout)
    pipeline.use_lens(start)
    observation = pipeline.scan(image, thorough=True)
    lens_calibration = _fit_lens(image, layout, pipeline, start, "given" if isinstance(lens, LensModel) else lens,
                                 sheets)
    if lens_calibration.model is not start:
        pipeline.use_lens(lens_calibration.model)
        observation = pipeline.scan(image, thorough=True)
    missing = tuple(sorted(f.id for f in layout.fiducials if f.id not in observation.board.fiducials))
    mapping = pipeline.mapping
    blank = Calibration(date, camera, (width, height), observation.board.found, tuple(observation.board.fiducials),
                        missing, (), None, None, None, None, None, len(observation.cards), None, None,
                        lens=lens_calibration, focus_sweep=focus_sweep, sticker_mm=layout.sticker_mm)
    if mapping is None or not observation.board.found:
        return replace(blank, problems=(_board_problem(layout, observation),)), observation
    center = (layout.size_mm[0] / 2.0, layout.size_mm[1] / 2.0)
    px_per_mm = mapping.px_per_mm(center)
    module_mm = layout.sticker_mm / STICKER_MODULES
    from_stickers = _module_px_from_stickers(pipeline)
    px_per_module = from_stickers if from_stickers is not None else px_per_mm * module_mm
    scale = px_per_module / (px_per_mm * module_mm)  # stickers measured larger or smaller than predicted
    worst = min(mapping.px_per_mm(layout.zone_center(name)) for name in layout.zones) * module_mm * scale
    sightings = [s for i, s in pipeline.fiducial_sightings.items() if i in observation.board.fiducials]
    mode = pick_mode((width, height), px_per_module, camera)
    measured = replace(
        blank, zones_out_of_view=zones_out_of_view(layout, mapping, (width, height)),
        homography=tuple(tuple(float(v) for v in row) for row in mapping.homography),
        px_per_mm=px_per_mm, px_per_module=px_per_module, px_per_module_min=worst,
        px_per_module_from="stickers" if from_stickers is not None else "fiducials",
        blur_px=overall_blur(image, sightings),
        zone_blur=tuple(sorted(zone_blur(layout, fiducial_blur(image, sightings)).items())),
        mode=mode, sticker_mm_needed=sticker_mm_needed(layout, worst * mode[0] / width))
    return replace(measured, problems=tuple(_problems(measured, layout, mapping))), observation


def worst_zone_blur(layout: Layout, lens: str | LensModel = "standard") -> Callable[[np.ndarray], float | None]:
    """A measure for the focus sweep: the blur (px) of the softest zone in a frame, None if unmeasurable."""
    pipeline = VisionPipeline(layout)

    def measure(image: np.ndarray) -> float | None:
        start = lens if isinstance(lens, LensModel) else starting_lens(lens, (image.shape[1], image.shape[0]))
        pipeline.use_lens(start)
        seen = pipeline.scan(image, thorough=True).board.fiducials
        sightings = [s for i, s in pipeline.fiducial_sightings.items() if i in seen]
        blur = zone_blur(layout, fiducial_blur(image, sightings))
        return max(blur.values()) if blur else None

    return measure


def _fit_lens(image: np.ndarray, layout: Layout, pipeline: VisionPipeline, start: LensModel, start_name: str,
              sheets: Sequence[np.ndarray]) -> LensCalibration:
    """The lens fitted to the fiducials seen and the calibration sheet (in the frame, and in ``sheets``).

    The starting model stays when there is too little to fit or the fit is
    not better (:func:`companion.vision.lens.fit_lens`, :data:`MAX_LENS_RMS_PX`).
    """
    views: list[tuple[np.ndarray, np.ndarray]] = []
    used: list[str] = []
    seen = pipeline.fiducial_sightings
    places = {f.id: f for f in layout.fiducials if f.id in seen}
    if places:
        views.append((np.vstack([np.array(places[i].corners_mm()) for i in sorted(places)]),
                      np.vstack([np.array(seen[i].corners) for i in sorted(places)])))
        used.append("fiducials")
    on_mat = find_sheet(image)
    if on_mat is not None:
        views.append((on_mat.sheet_mm, on_mat.image_px))
        used.append("sheet")
    more = [view for view in (_sheet_view(sheet, start) for sheet in sheets) if view is not None]
    if more:
        views += [(view.sheet_mm, view.image_px) for view in more]
        used.append("sheet images")
    fit: LensFit | None = fit_lens(views, start) if views else None
    if (fit is None or fit.rms_px > max(MAX_LENS_RMS_PX, MAX_LENS_RMS_MM * _fiducial_px_per_mm(seen, places))
            or fit.rms_px > 0.75 * fit.start_rms_px
            or fit.start_rms_px - fit.rms_px < MIN_LENS_GAIN_PX):
        return LensCalibration(start, start_name, (), sum(len(v[0]) for v in views), None,
                               fit.start_rms_px if fit else None)
    return LensCalibration(fit.lens, start_name, tuple(used), fit.points, fit.rms_px, fit.start_rms_px)


def _fiducial_px_per_mm(seen: Mapping[int, FiducialSighting], places: Mapping[int, Fiducial]) -> float:
    """The frame's scale where the fiducials lie (median of their sides over their printed size); 1 without any."""
    scales = [seen[i].side_px / places[i].size_mm for i in places]
    return float(np.median(scales)) if scales else 1.0


def _sheet_view(image: np.ndarray, start: LensModel) -> SheetView | None:
    """The sheet in one more picture, which must come from this camera (the same frame size)."""
    if (image.shape[1], image.shape[0]) != tuple(start.resolution):
        raise FrameError(f"a sheet picture of {image.shape[1]}x{image.shape[0]} is not from this camera "
                         f"({start.resolution[0]}x{start.resolution[1]})")
    return find_sheet(image)


def sticker_mm_needed(layout: Layout, px_per_module_worst: float) -> float | None:
    """The smallest printable sticker that gives MODE_PX_PER_MODULE on the worst zone at the mode's resolution.

    px per module grows with the sticker: it is the worst zone's px/mm times
    sticker_mm / 29. None when even the largest sticker that fits twice on a
    card falls short (the camera must come closer or use more pixels).
    """
    px_per_mm = px_per_module_worst * STICKER_MODULES / layout.sticker_mm
    for size in STICKER_SIZES_MM:
        if stickers_clash(layout.card_mm, size):
            break
        if px_per_mm * size / STICKER_MODULES >= MODE_PX_PER_MODULE:
            return size
    return None


def _module_px_from_stickers(pipeline: VisionPipeline) -> float | None:
    """Median module size of the stickers read: symbol side / 21 modules."""
    sides = []
    for read in pipeline.reads:
        if read.card_id is None:
            continue  # a stranger's code has its own module size
        corners = np.array(read.corners)
        sides.append(float(np.mean(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1))))
    return float(np.median(sides)) / QR_MODULES if sides else None


def zones_out_of_view(layout: Layout, mapping: MatMapping, size: tuple[int, int]) -> tuple[str, ...]:
    """Zones some corner of which falls outside the frame."""
    width, height = size
    out = []
    for name, polygon in layout.zones.items():
        points = mapping.mat_to_image(polygon)
        inside = ((points[:, 0] >= EDGE_MARGIN_PX) & (points[:, 0] <= width - 1 - EDGE_MARGIN_PX)
                  & (points[:, 1] >= EDGE_MARGIN_PX) & (points[:, 1] <= height - 1 - EDGE_MARGIN_PX))
        if not inside.all():
            out.append(name)
    return tuple(out)


def pick_mode(resolution: tuple[int, int], px_per_module: float, camera: str) -> tuple[int, int]:
    """The camera mode to use: the smallest full-view Camera Module 3 mode with enough px/module.

    px/module scales with the mode's width (same field of view). A camera
    that is no Camera Module 3 (a webcam, or a picture of another size)
    keeps its resolution.
    """
    width = resolution[0]
    cm3 = camera.startswith("picamera2") or resolution in CM3_MODES
    if not cm3:
        return resolution
    for mode in CM3_MODES:
        if px_per_module * mode[0] / width >= MODE_PX_PER_MODULE:
            return mode
    return CM3_MODES[-1]


# --------------------------------------------------------------------------- verdict


def _problems(calibration: Calibration, layout: Layout, mapping: MatMapping) -> list[Problem]:
    problems: list[Problem] = []
    width = calibration.resolution[0]
    outside = _fiducials_outside(calibration, layout, mapping)
    if calibration.zones_out_of_view or outside:
        problems.append(_out_of_view_problem(calibration, layout, mapping, outside))
    for fid in calibration.fiducials_missing:
        if fid in outside:
            continue  # not hidden: out of the picture, which the view problem says
        where = _place_name(layout, fid)
        problems.append(Problem("fiducial-hidden", f"fiducial {fid} not seen ({where})",
                                f"clear the mat's {where} (nothing on the marker, in view)", f"Clear marker {fid}"))
    if calibration.px_per_module is not None and calibration.mode is not None:
        at_mode = calibration.px_per_module * calibration.mode[0] / width
        if calibration.mode[0] > width:
            mode_w, mode_h = calibration.mode
            problems.append(Problem(
                "resolution", f"{calibration.px_per_module:.1f} px per QR module at {width}x"
                f"{calibration.resolution[1]}", f"use the {mode_w}x{mode_h} mode: camera.resolution = "
                f"[{mode_w}, {mode_h}]", f"Use the {mode_w}x{mode_h} mode"))
        if at_mode < MIN_PX_PER_MODULE:
            problems.append(_too_small_problem(calibration, layout, mapping, at_mode, MIN_PX_PER_MODULE))
        elif calibration.px_per_module_min is not None:
            worst = calibration.px_per_module_min * calibration.mode[0] / width
            if worst < MIN_EDGE_PX_PER_MODULE:
                problems.append(_edge_problem(calibration, layout, mapping, worst))
    if calibration.blur_px is None:
        problems.append(Problem("focus-unknown", "cannot measure focus (no clean fiducial edge)",
                                "light the mat evenly and keep the fiducials in view", "Light the mat"))
    elif calibration.soft_zones and len(calibration.soft_zones) < len(calibration.zone_blur):
        problems.append(_soft_zones_problem(calibration))  # some sharp, some soft: focus is not the whole story
    elif calibration.blur_px > MAX_BLUR_PX or calibration.soft_zones:
        problems.append(Problem("blurred", f"blurred: edges spread {calibration.blur_px:.1f} px (at most "
                                f"{MAX_BLUR_PX})", "turn the lens / set camera.focus (LensPosition) for the "
                                "camera height", "Focus the lens"))
    return problems


# The mat's corners seen this unevenly (smallest over largest px/mm, perspective
# alone) mean a tilted camera.
TILT_RATIO = 0.85


def _edge_problem(calibration: Calibration, layout: Layout, mapping: MatMapping, worst: float) -> Problem:
    """Too few pixels per module at the mat's edges: a tilted camera, or a lens that shrinks the edges.

    Told apart on the mapping's two parts: the homography (perspective: a
    tilt makes the far side smaller) and the lens model (a barrel makes every
    edge smaller). "Tilted" only when pointing the camera straight down would
    bring the worst zone up to the limit: the worst zone's scale with its
    perspective loss taken away. Through a wide lens a tilt of a few degrees
    also makes the pinhole scale uneven, yet the barrel is most of the loss
    and straightening the camera alone would not do.
    """
    message = f"far side of the mat has {worst:.1f} px per module (at least {MIN_EDGE_PX_PER_MODULE})"
    width, height = layout.size_mm
    corners = [mapping.pinhole_px_per_mm((x, y)) for x in (0.1 * width, 0.9 * width)
               for y in (0.1 * height, 0.9 * height)]
    worst_zone = min(layout.zones, key=lambda name: mapping.px_per_mm(layout.zone_center(name)))
    straight = worst * mapping.pinhole_px_per_mm((width / 2, height / 2)) / mapping.pinhole_px_per_mm(
        layout.zone_center(worst_zone))
    if min(corners) < TILT_RATIO * max(corners) and straight >= MIN_EDGE_PX_PER_MODULE:
        return Problem("tilted", message, "point the camera straight down at the mat's centre",
                       "Point camera straight down")
    size = calibration.sticker_mm_needed
    message = f"the mat's edges have {worst:.1f} px per module (at least {MIN_EDGE_PX_PER_MODULE})"
    if size is not None and size > layout.sticker_mm:
        return Problem("small-edges", message, f"the lens shrinks the mat's edges: print {size:g} mm stickers "
                       f"(companion markers --sticker-mm {size:g} --out DIR), or use the standard lens",
                       f"Print {size:g} mm stickers")
    return Problem("small-edges", message, "the lens shrinks the mat's edges: use the standard lens higher up",
                   "Use the standard lens")


def _soft_zones_problem(calibration: Calibration) -> Problem:
    """Some zones stay soft while the middle is sharp: field curvature, a tilted camera, or focus set for the middle."""
    soft = calibration.soft_zones
    blur = dict(calibration.zone_blur)
    more = f" and {len(soft) - 4} more" if len(soft) > 4 else ""
    message = f"soft zones: {', '.join(soft[:4])}{more} (blur up to {blur[soft[0]]:.1f} px, at most {MAX_BLUR_PX})"
    if calibration.focus_sweep is not None and calibration.focus_sweep.best is not None:
        fix = ("no lens position makes them sharp: point the camera straight down at the mat's centre, "
               "or raise it a little (the edges come nearer the middle's distance)")
        return Problem("soft-zones", message, fix, "Camera straight down")
    fix = ("focus between the middle and the corners (with focus = \"auto\" a Camera Module 3 sweeps for "
           "the worst zone itself), and point the camera straight down")
    return Problem("soft-zones", message, fix, "Refocus for corners")


def _board_problem(layout: Layout, observation: FrameObservation) -> Problem:
    seen = observation.board.fiducials
    if not seen:
        return Problem(Reason.BOARD_NOT_FOUND, "no fiducial seen",
                       "point the camera at the mat, light it, and uncover the markers", "Point camera at the mat")
    missing = [f.id for f in layout.fiducials if f.id not in seen]
    places = ", ".join(f"{fid} ({_place_name(layout, fid)})" for fid in missing[:4])
    more = f" and {len(missing) - 4} more" if len(missing) > 4 else ""
    return Problem(Reason.BOARD_NOT_FOUND, f"board not found: fiducials {places}{more} not seen",
                   "put the whole mat in view and clear its corners", "Show the whole mat")


def _place_name(layout: Layout, fid: int) -> str:
    """Where a fiducial lies on the mat, in words ("top-left corner", "right edge", "centre")."""
    fiducial = layout.fiducial(fid)
    if fiducial is None:
        return "marker"
    x, y = fiducial.center_mm
    width, height = layout.size_mm
    column = "left" if x < width / 3 else "right" if x > 2 * width / 3 else ""
    row = "top" if y < height / 4 else "bottom" if y > 3 * height / 4 else ""
    if row and column:
        return f"{row}-{column} corner"
    if row or column:
        return f"{row or column} edge"
    return "centre"


def camera_height_mm(px_per_mm: float, width_px: int, hfov_deg: float = HFOV_DEG) -> float:
    """Lens-to-mat distance that gives ``px_per_mm`` with a lens of this field of view."""
    focal_px = (width_px / 2.0) / math.tan(math.radians(hfov_deg) / 2.0)
    return focal_px / px_per_mm


def _too_small_problem(calibration: Calibration, layout: Layout, mapping: MatMapping, have: float,
                       need: float) -> Problem:
    """Too few pixels per module: lower the camera while the mat still fits the view, else bigger stickers."""
    assert calibration.px_per_mm is not None and calibration.mode is not None
    width, height = calibration.resolution
    message = f"{have:.1f} px per QR module on the mat (at least {need})"
    mat = mapping.mat_to_image([(0.0, 0.0), (layout.size_mm[0], 0.0), layout.size_mm, (0.0, layout.size_mm[1])])
    room = min((width - 2 * EDGE_MARGIN_PX) / max(float(np.ptp(mat[:, 0])), 1.0),
               (height - 2 * EDGE_MARGIN_PX) / max(float(np.ptp(mat[:, 1])), 1.0))
    if room * have >= need * 1.05:  # lowering the camera gets there with the mat still in view
        height_mm = camera_height_mm(calibration.px_per_mm, width)
        target_mm = height_mm * have / need
        drop_cm = max(1, math.ceil((height_mm - target_mm) / 10.0))
        fix = f"lower the camera by about {drop_cm} cm (to about {target_mm / 10:.0f} cm above the mat)"
        return Problem("too-few-pixels", message, fix, f"Lower camera by {drop_cm} cm")
    size = calibration.sticker_mm_needed
    if size is not None and size > layout.sticker_mm:
        fix = (f"the mat fills the view already: print {size:g} mm stickers (companion markers --sticker-mm "
               f"{size:g} --out DIR, which also writes the layout for them)")
        return Problem("too-few-pixels", message, fix, f"Print {size:g} mm stickers")
    fix = ("the mat fills the view already and no sticker that fits a card is large enough: "
           "use a camera with more pixels")
    return Problem("too-few-pixels", message, fix, "Camera: more pixels")


def _fiducials_outside(calibration: Calibration, layout: Layout, mapping: MatMapping) -> tuple[int, ...]:
    """Missing fiducials whose place (by the mapping) is not wholly inside the frame."""
    width, height = calibration.resolution
    outside = []
    for fid in calibration.fiducials_missing:
        fiducial = layout.fiducial(fid)
        if fiducial is None:
            continue
        corners = mapping.mat_to_image(fiducial.corners_mm())
        if (corners.min() < 0) or (corners[:, 0].max() > width - 1) or (corners[:, 1].max() > height - 1):
            outside.append(fid)
    return tuple(outside)


def _out_of_view_problem(calibration: Calibration, layout: Layout, mapping: MatMapping,
                         fiducials: tuple[int, ...]) -> Problem:
    """Zones or fiducials out of view: raise the camera (the mat is too large) or move it (off-centre)."""
    assert calibration.px_per_mm is not None
    width, height = calibration.resolution
    mat = mapping.mat_to_image([(0.0, 0.0), (layout.size_mm[0], 0.0), layout.size_mm, (0.0, layout.size_mm[1])])
    span_x, span_y = np.ptp(mat[:, 0]), np.ptp(mat[:, 1])
    parts = []
    if calibration.zones_out_of_view:
        zones = calibration.zones_out_of_view
        more = f" and {len(zones) - 4} more" if len(zones) > 4 else ""
        parts.append(f"zones {', '.join(zones[:4])}{more}")
    if fiducials:
        parts.append(f"fiducials {', '.join(map(str, fiducials))}")
    message = f"out of view: {'; '.join(parts)}"
    grow = max(span_x / (width - 2 * EDGE_MARGIN_PX), span_y / (height - 2 * EDGE_MARGIN_PX))
    if grow > 1.0:
        height_mm = camera_height_mm(calibration.px_per_mm, width)
        raise_cm = max(1, math.ceil(height_mm * (grow * 1.05 - 1.0) / 10.0))
        return Problem("out-of-view", message, f"raise the camera by about {raise_cm} cm",
                       f"Raise camera by {raise_cm} cm")
    centre_x, centre_y = mat[:, 0].mean() - width / 2, mat[:, 1].mean() - height / 2
    shift_mm = max(abs(centre_x), abs(centre_y)) / calibration.px_per_mm
    # The mat lies off to one side of the picture: the camera must move that
    # way (the picture's bottom is player 1's edge of the mat, as the layout has it).
    if abs(centre_x) >= abs(centre_y):
        direction, edge = ("right", "the mat's right edge") if centre_x > 0 else ("left", "the mat's left edge")
    else:
        direction, edge = ("down", "player 1's edge") if centre_y > 0 else ("up", "player 2's edge")
    move_cm = max(1, math.ceil(shift_mm / 10))
    return Problem("out-of-view", message, f"move the camera about {move_cm} cm toward {edge} "
                   "(centre it over the mat)", f"Move the camera {move_cm} cm {direction}")


# --------------------------------------------------------------------------- output


def write_calibration(calibration: Calibration, state_dir: Path, name: str = CALIBRATION_FILE) -> Path:
    """Write ``calibration.json`` (or ``name``) into the state directory (atomically: a torn file is never read)."""
    try:
        state_dir.mkdir(parents=True, exist_ok=True)
        path = state_dir / name
        partial = path.with_name(path.name + ".partial")
        partial.write_text(json.dumps(calibration.to_dict(), indent=2) + "\n", encoding="utf-8")
        os.replace(partial, path)
    except OSError as error:
        raise FrameError(f"{state_dir}: cannot write {name}: {error.strerror or error}") from None
    return path


def lens_for_run(config: Any, calibration: Path | None = None) -> LensModel | None:
    """The lens model ``companion run`` maps through.

    First found: the calibration file named (``--calibration``, else
    ``[vision] calibration``), which must hold a lens model (LensError
    otherwise); the one ``companion calibrate`` left in the state folder;
    the starting model of the configured lens (``[camera] lens``). None for
    the standard lens without a calibration: frame pixels are taken as a
    pinhole's, as before lens models existed.
    """
    named = calibration or config.vision.calibration
    if named is not None:
        return load_lens(named)
    try:
        return load_lens(config.state_dir / CALIBRATION_FILE)
    except LensError:
        pass  # none yet, or an older one without a lens
    spec = LENSES[config.camera.lens]
    return spec.model() if any(spec.distortion) else None


def saved_lens_position(state_dir: Path) -> float | None:
    """The lens position of the last calibration whose focus was good; None when there is none.

    A missing, unreadable or older file is no error: the camera then sweeps focus as before.
    """
    try:
        document = json.loads((state_dir / CALIBRATION_FILE).read_text(encoding="utf-8"))
        focus = document["focus"]
        position = focus.get("lens_position")
        if focus.get("ok") is True and isinstance(position, int | float) and 0.0 <= position <= 32.0:
            return float(position)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass
    return None


def verdict_text(calibration: Calibration) -> str:
    """The one-screen verdict for people setting up the table."""
    lines = [f"camera {calibration.camera}, frame {calibration.resolution[0]}x{calibration.resolution[1]}"]
    if calibration.board_found:
        lines.append(f"board found: fiducials {list(calibration.fiducials_seen)}")
    if calibration.px_per_module is not None:
        lines.append(f"{calibration.px_per_module:.2f} px per QR module ({calibration.px_per_module_from}; "
                     f"worst zone {calibration.px_per_module_min:.2f}), {calibration.stickers_read} stickers read")
    if calibration.lens is not None:
        lines.append(_lens_line(calibration.lens))
    if calibration.px_per_module_min is not None and calibration.sticker_mm is not None:
        needed = calibration.sticker_mm_needed
        advice = ("no printable sticker is large enough" if needed is None
                  else f"{needed:g} mm stickers give {MODE_PX_PER_MODULE:g} px per module there")
        lines.append(f"stickers: {calibration.sticker_mm:g} mm in the layout; {advice}")
    if calibration.blur_px is not None:
        lens = "" if calibration.lens_position is None else f", lens at {calibration.lens_position:.2f} dioptres"
        lines.append(f"focus: blur {calibration.blur_px:.2f} px (at most {MAX_BLUR_PX}){lens}")
        if calibration.zone_blur:
            name, blur = max(calibration.zone_blur, key=lambda item: item[1])
            lines.append(f"  softest zone {name}: {blur:.2f} px")
        sweep = calibration.focus_sweep
        if sweep is not None and sweep.tried:
            lines.append(f"  focus sweep: {len(sweep.tried)} lens positions, kept {sweep.best:.2f} dioptres")
    if calibration.mode is not None:
        lines.append(f"camera mode: {calibration.mode[0]}x{calibration.mode[1]}")
    if calibration.ok:
        lines.append("OK: the camera is ready")
    else:
        lines.append(f"NOT READY: {len(calibration.problems)} problem(s)")
        lines += [f"  - {problem.message}\n    fix: {problem.fix}" for problem in calibration.problems]
    return "\n".join(lines)


def _lens_line(lens: LensCalibration) -> str:
    k = ", ".join(f"{name} {value:.3f}" for name, value in zip(("k1", "k2", "p1", "p2", "k3"), lens.model.distortion,
                                                               strict=False) if value)
    coefficients = f" ({k})" if k else " (no distortion)"
    if not lens.fitted_to:
        return f"lens: the {lens.start} lens's starting model{coefficients}, not fitted ({lens.points} points)"
    return (f"lens: fitted to {' and '.join(lens.fitted_to)}{coefficients}, {lens.points} points, "
            f"{lens.rms_px:.2f} px off (the {lens.start} lens's starting model: {lens.start_rms_px:.2f} px)")


def annotate_calibration(frame: np.ndarray, observation: FrameObservation, pipeline: VisionPipeline,
                         calibration: Calibration) -> np.ndarray:
    """The annotated frame of ``vision show`` plus the verdict and missing fiducials' expected places."""
    from companion.vision.annotate import annotate

    image = annotate(frame, observation, pipeline)
    scale = max(0.5, image.shape[1] / 2000)
    thickness = max(1, image.shape[1] // 800)
    mapping = pipeline.mapping
    if mapping is not None:
        for fid in calibration.fiducials_missing:
            fiducial = pipeline.layout.fiducial(fid)
            if fiducial is not None:
                corners = mapping.mat_to_image(fiducial.corners_mm()).astype(np.int32)
                cv2.polylines(image, [corners], True, (0, 0, 255), thickness * 3)
    lines = ["CALIBRATION OK" if calibration.ok else "CALIBRATION: NOT READY"]
    lines += [str(problem) for problem in calibration.problems[:4]]
    color = (0, 200, 0) if calibration.ok else (0, 0, 255)
    for index, line in enumerate(lines):
        y = int(image.shape[0] - (len(lines) - index) * 40 * scale - 10)
        cv2.putText(image, line, (10, y), cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), thickness + 3, cv2.LINE_AA)
        cv2.putText(image, line, (10, y), cv2.FONT_HERSHEY_SIMPLEX, scale, color, thickness, cv2.LINE_AA)
    return image


def screen_verdict(calibration: Calibration) -> CalibrationVerdict:
    """What the OLED shows for a calibration."""
    mode = f"{calibration.mode[0]}x{calibration.mode[1]}" if calibration.mode else ""
    if calibration.ok:
        return CalibrationVerdict(True, calibration.px_per_module, calibration.blur_px, mode)
    first = calibration.problems[0]
    return CalibrationVerdict(False, calibration.px_per_module, calibration.blur_px, mode,
                              problem=first.message, fix=first.short or first.fix, count=len(calibration.problems),
                              code=first.code)
