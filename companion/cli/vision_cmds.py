"""``companion vision detect|show``: what the camera sees on one image.

``detect IMAGE --json`` prints the document of interfaces.md section 5 (plus
``duplicates``, and per card ``stickers_mm``: the stickers its centre was
found from); ``show IMAGE --out FILE`` writes the image with zones,
fiducials, reads and each card's centre drawn, for people setting up their
table. Both exit 0
when the board was found and 3 when it was not.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.errors import FrameError
from companion.vision.decoders import DECODERS, DEFAULT_DECODER
from companion.vision.frames import read_image
from companion.vision.layout import DEFAULT_LAYOUT_PATH, load_layout
from companion.vision.lens import load_lens
from companion.vision.observation import FrameObservation
from companion.vision.pipeline import VisionPipeline

EXIT_OK = 0
EXIT_NO_BOARD = 3


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    vision = subparsers.add_parser("vision", help="read the table from one image")
    commands = vision.add_subparsers(dest="vision_command", metavar="SUBCOMMAND", required=True)
    detect = commands.add_parser("detect", help="list the cards and zones seen in an image")
    _common(detect)
    detect.add_argument("--json", action="store_true", help="print one JSON document (interfaces.md 5)")
    detect.set_defaults(func=run_detect)
    show = commands.add_parser("show", help="draw zones and reads on an image, to check a set-up")
    _common(show)
    show.add_argument("--out", type=Path, required=True, help="annotated image to write (PNG, JPEG)")
    show.set_defaults(func=run_show)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", type=Path, help="a photo or frame of the table")
    parser.add_argument("--layout", type=Path, default=DEFAULT_LAYOUT_PATH,
                        help="playmat layout JSON (default: the shipped mandala-playmat.json)")
    parser.add_argument("--decoder", choices=sorted(DECODERS), default=DEFAULT_DECODER,
                        help=f"QR decoder (default {DEFAULT_DECODER})")
    parser.add_argument("--calibration", type=Path, default=None, metavar="FILE",
                        help="calibration file (companion calibrate --out FILE): map points through its lens "
                             "model (default: none, frame pixels as a pinhole camera's)")


def run_detect(args: argparse.Namespace) -> int:
    _, observation, _ = _look(args)
    if args.json:
        print(json.dumps(detection_document(observation)))
    else:
        print(_human(args.image, observation))
    return EXIT_OK if observation.board.found else EXIT_NO_BOARD


def run_show(args: argparse.Namespace) -> int:
    from companion.vision.annotate import annotate

    frame, observation, pipeline = _look(args)
    image = annotate(frame, observation, pipeline)
    try:
        written = cv2.imwrite(str(args.out), image)
    except cv2.error:
        written = False
    if not written:
        raise FrameError(f"{args.out}: cannot write the annotated image (folder or extension?)")
    print(_human(args.image, observation), file=sys.stderr)
    return EXIT_OK if observation.board.found else EXIT_NO_BOARD


def detection_document(observation: FrameObservation) -> dict[str, Any]:
    """The JSON document of ``vision detect`` for one observation."""
    board: dict[str, Any] = {"found": observation.board.found, "fiducials": list(observation.board.fiducials)}
    if observation.board.reason:
        board["reason"] = observation.board.reason
    return {
        "board": board,
        "cards": [
            {"id": card.card_id, "zone": card.zone, "center_mm": list(card.center_mm),
             "stickers_mm": [list(point) for point in card.stickers_mm]}
            for card in sorted(observation.cards, key=lambda c: (c.card_id, c.center_mm))
        ],
        "foreign_codes": observation.foreign_codes,
        "duplicates": list(observation.duplicates),
    }


def _look(args: argparse.Namespace) -> tuple[np.ndarray, FrameObservation, VisionPipeline]:
    layout = load_layout(args.layout)
    frame = read_image(args.image)
    lens = None if args.calibration is None else load_lens(args.calibration)
    pipeline = VisionPipeline(layout, args.decoder, lens=lens)
    return frame, pipeline.scan(frame, every_sticker=True), pipeline  # one image: no next frame to wait for


def _human(path: Path, observation: FrameObservation) -> str:
    if not observation.board.found:
        return f"{path}: {observation.board.reason or 'board not found'}"
    lines = [f"{path}: board found (fiducials {list(observation.board.fiducials)}), "
             f"{len(observation.cards)} cards, {observation.foreign_codes} foreign codes"]
    lines += [f"  {card.card_id}  {card.zone or '(no zone)':<12} at {card.center_mm}" for card in observation.cards]
    if observation.duplicates:
        lines.append(f"  seen twice: {', '.join(observation.duplicates)}")
    return "\n".join(lines)
