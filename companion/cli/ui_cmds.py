"""``companion ui preview`` and ``companion ui emulate``: the screens without a panel."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image

from companion.errors import CompanionError
from companion.ui.mountains_samples import MOUNTAINS_SAMPLES
from companion.ui.samples import SAMPLES
from companion.ui.screens import render
from companion.ui.setup_samples import SETUP_SAMPLES

if TYPE_CHECKING:
    from companion.ui.controller import UiController

PREVIEW_SCALE = 4


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("ui", help="render the OLED screens without a panel")
    commands = parser.add_subparsers(dest="ui_command", metavar="UI_COMMAND", required=True)

    preview = commands.add_parser(
        "preview", help="write every screen for a representative set of states as PNG files")
    preview.add_argument("--out", required=True, type=Path, help="folder for the PNG files")
    preview.add_argument("--language", default="en", choices=("en", "fa", "el", "ru"),
                         help="the screens' language (default en; the configuration's display.language)")
    preview.add_argument("--scale", type=int, default=PREVIEW_SCALE,
                         help="enlargement of the NAME@Nx.png copies (default %(default)s)")
    preview.set_defaults(func=run_preview)

    emulate = commands.add_parser(
        "emulate", help="show the screens in the terminal; keys a/b/c (A/B/C: long) are the buttons")
    emulate.add_argument("--braille", action="store_true", help="braille cells instead of half blocks")
    emulate.add_argument("--seconds", type=float, default=0.0,
                         help="stop after this many seconds (0: when q is pressed or stdin is not a terminal)")
    emulate.set_defaults(func=run_emulate)


def preview_files(out: Path, scale: int = PREVIEW_SCALE) -> list[Path]:
    """Render every sample as NAME.png (panel size) and NAME@{scale}x.png; returns the paths."""
    if scale < 1:
        raise CompanionError(f"--scale {scale}: must be 1 or more")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise CompanionError(f"--out {out}: cannot create the folder ({error.strerror})") from error
    written: list[Path] = []
    for sample in (*SAMPLES, *MOUNTAINS_SAMPLES, *SETUP_SAMPLES):
        image = render(sample.model, sample.ui)
        written.append(_save(image, out / f"{sample.name}.png"))
        big = image.resize((image.width * scale, image.height * scale), Image.Resampling.NEAREST)
        written.append(_save(big, out / f"{sample.name}@{scale}x.png"))
    return written


def _save(image: Image.Image, path: Path) -> Path:
    image.save(path, optimize=True)
    return path


def run_preview(args: argparse.Namespace) -> int:
    from companion.ui.i18n import speaking

    with speaking(args.language):
        written = preview_files(args.out, args.scale)
    states = len(SAMPLES) + len(MOUNTAINS_SAMPLES) + len(SETUP_SAMPLES)
    print(f"wrote {len(written)} PNG files for {states} states to {args.out}", file=sys.stderr)
    return 0


def run_emulate(args: argparse.Namespace) -> int:
    """Step through the sample states with the real controller; keys act as the buttons."""
    from companion.ui.controller import UiController
    from companion.ui.terminal import TerminalDisplay, TerminalKeys

    display = TerminalDisplay(style="braille" if args.braille else "halfblock")
    controller = UiController(display, SAMPLES[0].model, state=SAMPLES[0].ui)
    with TerminalKeys() as keys:
        if not keys.interactive:
            return _print_all(controller)
        print("\x1b[2J", end="")  # clear once; frames then redraw in place
        print("keys: a b c (A B C: long press), n: next state, q: quit", file=sys.stderr)
        start, index = time.monotonic(), 0
        while not keys.quit and (args.seconds <= 0 or time.monotonic() - start < args.seconds):
            presses = keys.poll(timeout=0.05)
            if "n" in keys.take_other_keys():
                index = (index + 1) % len(SAMPLES)
                controller.state = SAMPLES[index].ui
            for command in controller.step(SAMPLES[index].model, presses, time.monotonic() - start):
                print(f"app command: {command}", file=sys.stderr)
    return 0


def _print_all(controller: UiController) -> int:
    # Not a terminal: no keys to wait for, so print each state's frame once and stop.
    for sample in SAMPLES:
        controller.model, controller.state = sample.model, sample.ui
        controller.refresh()
    return 0
