"""Drawing what vision saw, for people setting up their table (``companion vision show``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np

from companion.vision.observation import FrameObservation

if TYPE_CHECKING:
    from companion.vision.layout import Layout
    from companion.vision.pipeline import VisionPipeline

ZONE_COLOR = (255, 200, 0)
CARD_COLOR = (0, 200, 0)
DUPLICATE_COLOR = (0, 0, 255)
FOREIGN_COLOR = (0, 140, 255)
FIDUCIAL_COLOR = (255, 0, 255)


def annotate(frame: np.ndarray, observation: FrameObservation, pipeline: VisionPipeline) -> np.ndarray:
    """A BGR copy of ``frame`` with zones, fiducials and every read drawn on it."""
    image = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR) if frame.ndim == 2 else frame[:, :, :3].copy()
    thickness = max(1, image.shape[1] // 800)
    text_scale = max(0.5, image.shape[1] / 2000)
    mapping = pipeline.mapping
    if mapping is not None:
        _draw_zones(image, pipeline.layout, mapping.mat_to_image, thickness, text_scale)
    for sighting in pipeline.fiducial_sightings.values():
        pts = np.array(sighting.corners, np.int32)
        cv2.polylines(image, [pts], True, FIDUCIAL_COLOR, thickness * 2)
        _label(image, f"#{sighting.id}", sighting.center, FIDUCIAL_COLOR, text_scale, thickness)
    duplicates = set(observation.duplicates)
    for read in pipeline.reads:
        pts = np.array(read.corners, np.int32)
        if read.card_id is None:
            cv2.polylines(image, [pts], True, FOREIGN_COLOR, thickness * 2)
            _label(image, "foreign", read.center, FOREIGN_COLOR, text_scale, thickness)
            continue
        color = DUPLICATE_COLOR if read.card_id in duplicates else CARD_COLOR
        cv2.polylines(image, [pts], True, color, thickness * 2)
        _label(image, read.card_id, read.center, color, text_scale, thickness)
    if mapping is not None and observation.cards:
        # Where each card lies (the centre its zone is judged by), joined to the stickers it was read from.
        centres = mapping.mat_to_image([card.center_mm for card in observation.cards])
        for card, (x, y) in zip(observation.cards, centres, strict=True):
            color = DUPLICATE_COLOR if card.card_id in duplicates else CARD_COLOR
            centre = (round(float(x)), round(float(y)))
            cv2.drawMarker(image, centre, color, cv2.MARKER_CROSS, 12 * thickness, thickness * 2)
            if card.stickers_mm:
                for sx, sy in mapping.mat_to_image(list(card.stickers_mm)):
                    cv2.line(image, centre, (round(float(sx)), round(float(sy))), color, thickness)
    banner = "board found" if observation.board.found else (observation.board.reason or "board not found")
    summary = f"{banner}; {len(observation.cards)} cards; {observation.foreign_codes} foreign codes"
    _label(image, summary, (10.0, 30.0 * text_scale + 10), (255, 255, 255), text_scale * 1.2, thickness,
           centered=False)
    return image


def _draw_zones(image: np.ndarray, layout: Layout, to_image: object, thickness: int, scale: float) -> None:
    for name, polygon in layout.zones.items():
        # Subdivide the edges so the local correction bends them as it bends the mat.
        dense = _densify(np.array(polygon, dtype=np.float64), 10.0)
        pts = to_image(dense).astype(np.int32)  # type: ignore[operator]
        cv2.polylines(image, [pts], True, ZONE_COLOR, thickness)
        left, top = pts.min(axis=0)
        _label(image, name, (left + 4.0, top + 18.0 * scale), ZONE_COLOR, scale * 0.7, thickness, centered=False)


def _densify(polygon: np.ndarray, step_mm: float) -> np.ndarray:
    points = []
    for start, end in zip(polygon, np.roll(polygon, -1, axis=0), strict=True):
        count = max(1, int(np.linalg.norm(end - start) / step_mm))
        points += [start + (end - start) * t for t in np.arange(count) / count]
    return np.array(points)


def _label(image: np.ndarray, text: str, at: tuple[float, float], color: tuple[int, int, int],
           scale: float, thickness: int, *, centered: bool = True) -> None:
    font = cv2.FONT_HERSHEY_SIMPLEX
    (width, height), _ = cv2.getTextSize(text, font, scale, thickness)
    x, y = int(at[0] - width / 2) if centered else int(at[0]), int(at[1] + height / 2) if centered else int(at[1])
    cv2.putText(image, text, (x, y), font, scale, (0, 0, 0), thickness + 2, cv2.LINE_AA)
    cv2.putText(image, text, (x, y), font, scale, color, thickness, cv2.LINE_AA)
