"""``companion calibrate``: check the camera set-up and write the calibration.

Grabs one frame from the configured camera (or reads ``--image FILE``);
with a Camera Module 3 on ``focus = "auto"`` it first sweeps the lens for
the position where the softest zone is sharpest (:mod:`companion.app.focus`).
It measures the frame (:mod:`companion.app.calibrate`: lens model, view,
pixels per module, focus per zone), writes ``calibration.json`` into the
state directory (or ``--out FILE``) and an annotated PNG, shows the verdict
on the OLED when a display is configured, and prints it. Exit status 0 when the
set-up is ready, 1 when something needs fixing (each problem with its fix),
2 for a bad option, configuration or image.

Beside the installed service, which holds the camera and the panel: the
service is paused for the calibration and started again afterwards
(:mod:`companion.app.service`; ``--keep-stopped`` leaves it stopped while
the camera is being adjusted). With ``--image`` nothing is paused and the
panel is left to the service.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from companion.errors import DeviceError, FrameError
from companion.ui.device import PANELS, PSEUDO

EXIT_READY = 0
EXIT_NOT_READY = 1
# Frames read from a live camera before the one measured: exposure and
# white balance settle in the first few.
WARMUP_FRAMES = 5
SYSTEM_FOLDERS = tuple(Path(top) for top in ("/var", "/etc", "/usr", "/opt", "/srv", "/boot"))
"""Folders only the system (systemd, the installer) makes state folders in."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "calibrate", help="check the camera set-up (view, px per module, focus) and write the calibration")
    parser.add_argument("--config", type=Path, default=None,
                        help="configuration file (default /etc/mandala-companion/config.toml)")
    parser.add_argument("--image", type=Path, default=None, help="calibrate from a picture instead of the camera")
    parser.add_argument("--state-dir", type=Path, default=None,
                        help="where calibration.json goes (default: the configuration's state_dir)")
    parser.add_argument("--out", type=Path, default=None,
                        help="the calibration file to write (default STATE_DIR/calibration.json), the annotated "
                             "picture beside it as FILE.png; an image name (.png, .jpg) names only the picture")
    parser.add_argument("--lens", choices=("standard", "wide"), default=None,
                        help="the Camera Module 3 lens, the starting model the fit refines (default: camera.lens)")
    parser.add_argument("--sheet", type=Path, action="append", default=[], metavar="IMAGE",
                        help="a picture of the calibration sheet (companion markers) taken by this camera, "
                             "to fit the lens to more points; repeat for several places on the table")
    parser.add_argument("--layout", type=Path, default=None, help="playmat layout (default: the configuration's)")
    parser.add_argument("--display", choices=PANELS + PSEUDO, default=None,
                        help="show the verdict on this display instead of the configured one (none: no OLED)")
    parser.add_argument("--json", action="store_true", help="print the calibration as one JSON document")
    parser.add_argument("--keep-stopped", action="store_true",
                        help="when the service had to be paused for the camera, leave it stopped afterwards "
                             "(for a series of adjustments; then sudo systemctl start mandala-companion)")
    parser.set_defaults(func=run_calibrate)


def run_calibrate(args: argparse.Namespace) -> int:
    from contextlib import AbstractContextManager, nullcontext

    from companion.app.camera import IMAGE_SUFFIXES
    from companion.app.config import load_config
    from companion.app.service import is_active, paused
    from companion.cli.paths import input_file, output_file

    config = load_config(args.config)
    # Paths first: nothing is paused, grabbed or measured for a result that could not be written.
    if args.out is not None:
        output_file(args.out, "--out")
    if args.out is None or args.out.suffix.lower() in IMAGE_SUFFIXES:  # calibration.json goes to the state folder
        args.state_dir = calibration_folder(args.state_dir, config.state_dir)
    if args.image is not None:
        input_file(args.image, "--image")
    for sheet in args.sheet:
        input_file(sheet, "--sheet")
    display = args.display or config.display.display
    if args.image is not None or config.camera.source == "path":
        # No camera to take from the service; with the service running, the panel stays its own.
        if display in PANELS and is_active():
            display = "none"
        beside: AbstractContextManager[bool] = nullcontext(False)
    else:
        beside = paused("to use the camera", restart=not args.keep_stopped)
    with beside:
        return _calibrate(args, config, display)


def _calibrate(args: argparse.Namespace, config: Any, display: str) -> int:
    from companion.app.calibrate import (
        annotate_calibration,
        calibrate,
        screen_verdict,
        verdict_text,
        write_calibration,
    )
    from companion.vision.frames import read_image
    from companion.vision.layout import load_layout
    from companion.vision.pipeline import VisionPipeline

    layout = load_layout(args.layout or config.layout.path)
    lens_name = args.lens or config.camera.lens
    sheets = [read_image(path) for path in args.sheet]
    position, sweep = None, None
    if args.image is not None:
        frame, camera = read_image(args.image), f"image {args.image}"
    else:
        frame, camera, position, sweep = grab_frame(config.camera, layout, lens_name)
    pipeline = VisionPipeline(layout, config.vision.decoder)
    calibration, observation = calibrate(frame, layout, camera, pipeline=pipeline, lens_position=position,
                                         lens=lens_name, sheets=sheets, focus_sweep=sweep)
    calibration_file, out = _outputs(args.out, args.state_dir)
    written = write_calibration(calibration, calibration_file.parent, calibration_file.name)
    if observation is not None:
        _write_png(out, annotate_calibration(frame, observation, pipeline, calibration))
    shown = _show(dataclasses.replace(config.display, display=display), screen_verdict(calibration))
    if args.json:
        document: dict[str, Any] = {**calibration.to_dict(), "written": str(written),
                                    "annotated": str(out) if observation is not None else None}
        print(json.dumps(document))
    else:
        print(verdict_text(calibration))
        print(f"wrote {written}" + (f" and {out}" if observation is not None else ""))
    if shown is not None:
        print(f"display not updated: {shown}", file=sys.stderr)
    return EXIT_READY if calibration.ok else EXIT_NOT_READY


def _outputs(out: Path | None, state_dir: Path | None) -> tuple[Path, Path]:
    """Where the calibration file and the annotated picture go.

    ``state_dir`` is None only when ``out`` names the calibration file itself
    (run_calibrate checks the state folder whenever it is needed).
    """
    from companion.app.calibrate import CALIBRATION_FILE
    from companion.app.camera import IMAGE_SUFFIXES

    if out is not None and out.suffix.lower() not in IMAGE_SUFFIXES:
        return out, out.with_name(out.name + ".png") if not out.suffix else out.with_suffix(".png")
    assert state_dir is not None
    return state_dir / CALIBRATION_FILE, out or state_dir / "calibration.png"


def calibration_folder(given: Path | None, configured: Path) -> Path:
    """Where calibration.json goes: ``--state-dir`` (made when missing), else the configured state folder.

    A system folder (/var/lib/mandala-companion, the default) is the
    service's: systemd makes it, with its owner and mode, when the service
    starts. Made here it would belong to whoever calibrated (root, or a
    user) and the service could not use it; so it must exist already,
    unless this runs as the service itself ($STATE_DIRECTORY is set). A
    folder of the user's own, named in their configuration, is made.
    """
    import os

    from companion.app.service import SERVICE
    from companion.cli.paths import PathArgumentError, output_folder

    if given is not None:
        return output_folder(given, "--state-dir")
    if configured.is_dir() or os.environ.get("STATE_DIRECTORY"):
        return configured
    if not any(configured.absolute().is_relative_to(top) for top in SYSTEM_FOLDERS):
        return output_folder(configured, "state_dir")
    if Path(f"/etc/systemd/system/{SERVICE}").exists():
        advice = f"the service makes it when it first starts (sudo systemctl start {SERVICE}), or give --state-dir DIR"
    else:
        advice = ("the companion is not installed as a service here (on a Pi, sudo hardware/install.sh does "
                  "that); give --state-dir DIR for a folder of your own")
    raise PathArgumentError(f"state folder {configured} does not exist: {advice}")


def grab_frame(settings: Any, layout: Any, lens: str) -> tuple[np.ndarray, str, float | None, Any]:
    """One settled frame from the configured camera, its name, its lens position and the focus sweep.

    No saved lens position is used: with ``focus = "auto"`` the camera sweeps
    focus afresh, then a camera whose lens can be moved (a Camera Module 3) is
    swept for the position where the softest zone is sharpest; the
    calibration keeps where the lens ended up.
    """
    from companion.app.calibrate import worst_zone_blur
    from companion.app.camera import make_camera
    from companion.app.focus import sweep_focus

    camera = make_camera(settings)
    name = f"{settings.source} {settings.device}".strip()
    frame, sweep = None, None
    with camera:
        for _ in range(1 if settings.source == "path" else WARMUP_FRAMES):
            got = camera.read()
            if got is None:
                break
            frame = got.image
        if frame is not None and settings.focus == "auto" and hasattr(camera, "move_lens"):
            sweep = sweep_focus(camera, worst_zone_blur(layout, lens))  # type: ignore[arg-type]
            got = camera.read()
            frame = got.image if got is not None else frame
    if frame is None:
        raise DeviceError(f"camera {name}: no frame to calibrate from")
    return frame, name, getattr(camera, "lens_position", None), sweep


def _write_png(path: Path, image: np.ndarray) -> None:
    import cv2

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        written = cv2.imwrite(str(path), image)
    except (cv2.error, OSError):
        written = False
    if not written:
        raise FrameError(f"{path}: cannot write the annotated image (folder or extension?)")


def _show(settings: Any, verdict: Any) -> str | None:
    """Draw the verdict on the display; the reason as text when there is none to draw on."""
    if settings.display == "none":
        return None
    from PIL import Image, ImageDraw

    from companion.ui.device import create_device
    from companion.ui.screens import draw_calibration

    try:
        device = create_device(settings)
    except DeviceError as error:
        return str(error)
    image = Image.new("1", (settings.width, settings.height))
    draw_calibration(ImageDraw.Draw(image), verdict, (settings.width, settings.height))
    # luma clears the panel when the program ends unless told to keep it:
    # the verdict must stay up while the person adjusts the camera.
    if hasattr(device, "persist"):
        device.persist = True
    device.display(image)
    return None
