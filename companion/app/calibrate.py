"""``companion calibrate``: is the camera where it should be, and in focus?

From one frame of the table: find the fiducials, check that every zone of the
layout is in view, measure pixels per QR module (from stickers read, else
from the fiducials' size) and focus (the width of the fiducials' black-white
edges), pick the camera mode, and say what to fix. The result is a small
immutable :class:`Calibration`; :func:`calibrate` never raises on what the
frame shows (a garbage frame is a verdict, not a crash).

Focus is measured as blur, in pixels: the 10-90% rise of the fiducials'
outer edges, where black ink meets the white mat, converted to the sigma of
a Gaussian blur (rise = 2.56 sigma). It does not depend on the light level
or on the camera's resolution the way a Laplacian variance does, and its
limit is the one the pipeline is measured at (blur sigma up to 1.5 px reads
every sticker, docs/benchmarks.md).
"""

from __future__ import annotations

import datetime as dt
import json
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.errors import FrameError
from companion.ui.screens import CalibrationVerdict
from companion.vision.fiducials import FiducialSighting
from companion.vision.frames import check_frame, grey_crop
from companion.vision.layout import Layout
from companion.vision.mapping import MatMapping
from companion.vision.observation import FrameObservation
from companion.vision.pipeline import VisionPipeline

# Decoders read reliably from about 3 px per module (hardware/camera.md,
# ../shared/notes/vision-anchors.md): the camera mode is chosen for that.
MODE_PX_PER_MODULE = 3.0
# The pipeline reads every sticker of the benchmark's 1920x1080 tables at
# 2.7 px per module (tilt up to 10 degrees: 2.5 on the far side); below
# these the set-up is not ready.
MIN_PX_PER_MODULE = 2.6
MIN_EDGE_PX_PER_MODULE = 2.4
# The pipeline reads every sticker up to the renderer's blur sigma 1.5 px,
# which this measure reads as 1.57 (the rendering's own softness adds in).
MAX_BLUR_PX = 1.6
# companion markers prints 21 modules plus a 4-module quiet zone each side.
STICKER_MODULES = 29
SYMBOL_MODULES = 21
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

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
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


# --------------------------------------------------------------------------- measuring


def calibrate(frame: object, layout: Layout, camera: str = "image", *,
              pipeline: VisionPipeline | None = None, now: dt.datetime | None = None,
              lens_position: float | None = None) -> tuple[Calibration, FrameObservation | None]:
    """Measure the set-up on one frame; the observation is None for an unusable frame.

    ``lens_position``: where the camera's lens was for this frame, kept in the calibration.
    """
    calibration, observation = _measure(frame, layout, camera, pipeline, now)
    return replace(calibration, lens_position=lens_position), observation


def _measure(frame: object, layout: Layout, camera: str, pipeline: VisionPipeline | None,
             now: dt.datetime | None) -> tuple[Calibration, FrameObservation | None]:
    date = (now or dt.datetime.now(dt.UTC)).isoformat(timespec="seconds")
    try:
        image = check_frame(frame)
    except FrameError as error:
        problem = Problem("unusable-frame", f"unusable frame: {error}", "check the camera and its cable",
                          "Check the camera")
        return Calibration(date, camera, (0, 0), False, (), (), (), None, None, None, None, None, 0, None, None,
                           (problem,)), None
    pipeline = pipeline or VisionPipeline(layout)
    observation = pipeline.scan(image, thorough=True)
    height, width = image.shape[:2]
    missing = tuple(sorted(f.id for f in layout.fiducials if f.id not in observation.board.fiducials))
    mapping = pipeline.mapping
    blank = Calibration(date, camera, (width, height), observation.board.found, tuple(observation.board.fiducials),
                        missing, (), None, None, None, None, None, len(observation.cards), None, None)
    if mapping is None or not observation.board.found:
        return replace(blank, problems=(_board_problem(layout, observation),)), observation
    center = (layout.size_mm[0] / 2.0, layout.size_mm[1] / 2.0)
    px_per_mm = mapping.px_per_mm(center)
    module_mm = layout.sticker_mm / STICKER_MODULES
    from_stickers = _module_px_from_stickers(pipeline)
    px_per_module = from_stickers if from_stickers is not None else px_per_mm * module_mm
    scale = px_per_module / (px_per_mm * module_mm)  # stickers measured larger or smaller than predicted
    worst = min(mapping.px_per_mm(layout.zone_center(name)) for name in layout.zones) * module_mm * scale
    measured = replace(
        blank, zones_out_of_view=zones_out_of_view(layout, mapping, (width, height)),
        homography=tuple(tuple(float(v) for v in row) for row in mapping.homography),
        px_per_mm=px_per_mm, px_per_module=px_per_module, px_per_module_min=worst,
        px_per_module_from="stickers" if from_stickers is not None else "fiducials",
        blur_px=measure_blur(image, pipeline.fiducial_sightings.values()),
        mode=pick_mode((width, height), px_per_module, camera))
    return replace(measured, problems=tuple(_problems(measured, layout, mapping))), observation


def _module_px_from_stickers(pipeline: VisionPipeline) -> float | None:
    """Median module size of the stickers read: symbol side / 21 modules."""
    sides = []
    for read in pipeline.reads:
        if read.card_id is None:
            continue  # a stranger's code has its own module size
        corners = np.array(read.corners)
        sides.append(float(np.mean(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1))))
    return float(np.median(sides)) / SYMBOL_MODULES if sides else None


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


def measure_blur(image: np.ndarray, fiducials: Sequence[FiducialSighting] | Any) -> float | None:
    """Blur sigma (px) from the 10-90% rise of the fiducials' outer edges; None without fiducials."""
    widths: list[float] = []
    for sighting in fiducials:
        widths += _edge_rises(image, sighting)
    if not widths:
        return None
    return float(np.median(widths)) / 2.563  # 10-90% rise of a blurred step is 2.563 sigma


def _edge_rises(image: np.ndarray, sighting: FiducialSighting) -> list[float]:
    """10-90% rise (px) across each outer edge of a marker, at a few places along it."""
    corners = np.array(sighting.corners, dtype=np.float64)
    side = sighting.side_px
    reach = max(3.0, min(side / 6.0 * 0.8, 12.0))  # stay inside the black border cell and its white margin
    box = sighting.bounds(margin=reach + 4)
    grey = grey_crop(image, box.x, box.y, box.x + box.width, box.y + box.height).astype(np.float32)
    origin = np.array([max(0, box.x), max(0, box.y)], dtype=np.float64)
    centre = corners.mean(axis=0)
    steps = np.arange(-reach, reach + 0.01, 0.25)
    rises = []
    for start, end in zip(corners, np.roll(corners, -1, axis=0), strict=True):
        edge = end - start
        normal = np.array([edge[1], -edge[0]]) / (np.linalg.norm(edge) or 1.0)
        if np.dot(normal, (start + end) / 2 - centre) < 0:
            normal = -normal  # pointing out of the marker, toward the white mat
        for t in (0.3, 0.4, 0.5, 0.6, 0.7):
            at = start + edge * t - origin
            points = at[None, :] + steps[:, None] * normal[None, :]
            profile = cv2.remap(grey, points[:, 0].astype(np.float32).reshape(1, -1),
                                points[:, 1].astype(np.float32).reshape(1, -1), cv2.INTER_LINEAR)[0]
            rise = _rise(profile, 0.25)
            if rise is not None:
                rises.append(rise)
    return rises


def _rise(profile: np.ndarray, step: float) -> float | None:
    """Distance from 10% to 90% of the dark-to-light step around the profile's steepest point.

    Searching from the steepest point keeps the measure on the marker's
    outer edge even when the profile reaches into a white cell inside it.
    """
    mid = int(np.argmax(np.diff(profile)))
    dark, light = float(profile[: mid + 1].min()), float(profile[mid + 1 :].max())
    if light - dark < 25:
        return None  # no contrast: covered, glare, or not an edge
    level = (profile - dark) / (light - dark)
    below = np.nonzero(level[: mid + 1] <= 0.1)[0]
    above = np.nonzero(level[mid + 1 :] >= 0.9)[0]
    if len(below) == 0 or len(above) == 0:
        return None  # the step runs out of the profile: no clean edge here
    low, high = int(below[-1]), mid + 1 + int(above[0])
    # Interpolate both crossings between samples.
    start = low + (0.1 - level[low]) / ((level[low + 1] - level[low]) or 1.0)
    stop = high - 1 + (0.9 - level[high - 1]) / ((level[high] - level[high - 1]) or 1.0)
    return float(stop - start) * step


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
            problems.append(_too_small_problem(calibration, at_mode, MIN_PX_PER_MODULE, "on the mat"))
        elif calibration.px_per_module_min is not None:
            worst = calibration.px_per_module_min * calibration.mode[0] / width
            if worst < MIN_EDGE_PX_PER_MODULE:
                problems.append(Problem(
                    "tilted", f"far side of the mat has {worst:.1f} px per module (at least "
                    f"{MIN_EDGE_PX_PER_MODULE})", "point the camera straight down at the mat's centre",
                    "Point camera straight down"))
    if calibration.blur_px is None:
        problems.append(Problem("focus-unknown", "cannot measure focus (no clean fiducial edge)",
                                "light the mat evenly and keep the fiducials in view", "Light the mat"))
    elif calibration.blur_px > MAX_BLUR_PX:
        problems.append(Problem("blurred", f"blurred: edges spread {calibration.blur_px:.1f} px (at most "
                                f"{MAX_BLUR_PX})", "turn the lens / set camera.focus (LensPosition) for the "
                                "camera height", "Focus the lens"))
    return problems


def _board_problem(layout: Layout, observation: FrameObservation) -> Problem:
    seen = observation.board.fiducials
    if not seen:
        return Problem("board-not-found", "no fiducial seen",
                       "point the camera at the mat, light it, and uncover the markers", "Point camera at the mat")
    missing = [f.id for f in layout.fiducials if f.id not in seen]
    places = ", ".join(f"{fid} ({_place_name(layout, fid)})" for fid in missing[:4])
    more = f" and {len(missing) - 4} more" if len(missing) > 4 else ""
    return Problem("board-not-found", f"board not found: fiducials {places}{more} not seen",
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


def _too_small_problem(calibration: Calibration, have: float, need: float, where: str) -> Problem:
    assert calibration.px_per_mm is not None and calibration.mode is not None
    width = calibration.resolution[0]
    height_mm = camera_height_mm(calibration.px_per_mm, width)
    target_mm = height_mm * have / need
    drop_cm = max(1, math.ceil((height_mm - target_mm) / 10.0))
    fix = f"lower the camera by about {drop_cm} cm (to about {target_mm / 10:.0f} cm above the mat)"
    return Problem("too-few-pixels", f"{have:.1f} px per QR module {where} (at least {need})", fix,
                   f"Lower camera by {drop_cm} cm")


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


def write_calibration(calibration: Calibration, state_dir: Path) -> Path:
    """Write ``calibration.json`` into the state directory (atomically: a torn file is never read)."""
    try:
        state_dir.mkdir(parents=True, exist_ok=True)
        path = state_dir / CALIBRATION_FILE
        partial = path.with_suffix(".json.partial")
        partial.write_text(json.dumps(calibration.to_dict(), indent=2) + "\n", encoding="utf-8")
        os.replace(partial, path)
    except OSError as error:
        raise FrameError(f"{state_dir}: cannot write {CALIBRATION_FILE}: {error.strerror or error}") from None
    return path


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
    if calibration.blur_px is not None:
        lens = "" if calibration.lens_position is None else f", lens at {calibration.lens_position:.2f} dioptres"
        lines.append(f"focus: blur {calibration.blur_px:.2f} px (at most {MAX_BLUR_PX}){lens}")
    if calibration.mode is not None:
        lines.append(f"camera mode: {calibration.mode[0]}x{calibration.mode[1]}")
    if calibration.ok:
        lines.append("OK: the camera is ready")
    else:
        lines.append(f"NOT READY: {len(calibration.problems)} problem(s)")
        lines += [f"  - {problem.message}\n    fix: {problem.fix}" for problem in calibration.problems]
    return "\n".join(lines)


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
                              problem=first.message, fix=first.short or first.fix, count=len(calibration.problems))
