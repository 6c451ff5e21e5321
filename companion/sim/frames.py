"""A scripted game as camera frames: rendered once per shot, repeated for as long as the shot lasts."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from companion.engine import record_lines, table_record
from companion.sim.scene import Renderer, SceneOptions
from companion.sim.script import GameScript, Shot
from companion.vision.layout import Layout


def render_frames(script: GameScript, layout: Layout, fps: float,
                  options: SceneOptions | None = None, start: int = 0) -> Iterator[np.ndarray]:
    """Every frame of the script at ``fps``; a shot is rendered once and shown for all its frames.

    Frames before ``start`` are not rendered (an empty image stands for each): a camera switched on late.
    """
    camera = ShotCamera(layout, options)
    empty = np.zeros((1, 1, 3), np.uint8)
    for index, shot_index in enumerate(script.frame_shots(fps)):
        yield empty if index < start else camera.read(shot_index, script.shots[shot_index])


class ShotCamera:
    """Rendered frames of a game's shots, in order: each shot rendered once, for all of its frames."""

    def __init__(self, layout: Layout, options: SceneOptions | None = None) -> None:
        self.renderer = Renderer(layout, options or SceneOptions())
        self.current, self.image = -1, np.zeros((1, 1, 3), np.uint8)

    def read(self, shot_index: int, shot: Shot) -> np.ndarray:
        """A frame of ``shot``, the ``shot_index``-th of the game (the same image object while it lasts)."""
        if shot_index != self.current:
            self.image = self.renderer.render(shot.cards, shot.hand, seed=shot_index,
                                              motion_mm=shot.blur_mm, motion_deg=shot.blur_deg)
            self.current = shot_index
        return self.image


def write_game(out: Path, script: GameScript, layout: Layout, fps: float,
               options: SceneOptions | None = None, quality: int = 90) -> int:
    """Write the frames (JPEG, file-name order) and the truth beside them; returns the frame count.

    ``truth.jsonl`` is the full-information record, ``table.jsonl`` what a camera
    can know of it, ``script.json`` the style, the injected illegal cards and
    the shots (start, length, what happens, a hand over the mat, motion blur).
    """
    frames = out / "frames"
    frames.mkdir(parents=True, exist_ok=True)
    count, previous, last_path = 0, None, None
    for count, image in enumerate(render_frames(script, layout, fps, options), start=1):
        path = frames / f"{count - 1:06d}.jpg"
        path.unlink(missing_ok=True)
        if image is previous and last_path is not None:
            path.hardlink_to(last_path)  # the same shot: one file, many names, a fraction of the disk
        else:
            cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, quality])
            previous, last_path = image, path
    (out / "truth.jsonl").write_text("\n".join(record_lines(script.game)) + "\n")
    table = table_record(script.game)
    from companion.engine.record import record_header

    lines = [json.dumps(record_header(table.new_game(), table=True)), *(str(e) for _, e in table.events)]
    (out / "table.jsonl").write_text("\n".join(lines) + "\n")
    injections = [{"card": i.card_id, "zone": i.zone, "start_s": round(i.start_s, 3), "end_s": round(i.end_s, 3),
                   "reason": i.reason} for i in script.injections]
    shots, start = [], 0.0
    for shot in script.shots:
        shots.append({"start_s": round(start, 3), "seconds": round(shot.seconds, 3), "note": shot.note,
                      "hand": shot.hand is not None, "blur_mm": round(shot.blur_mm, 2)})
        start += shot.seconds
    (out / "script.json").write_text(json.dumps({"fps": fps, "frames": count, "style": script.style,
                                                 "injections": injections, "shots": shots}, indent=1))
    return count
