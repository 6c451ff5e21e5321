"""``companion markers --out DIR``: print-ready stickers, fiducials, the lens calibration sheet and a setup guide.

``--sticker-mm N`` prints the stickers N mm wide (and writes the layout for
them, ``layout.json``); ``--sticker-mm auto`` picks the smallest size that
gives 3 px per QR module over the whole mat with the camera named by
``--lens`` and ``--resolution`` (:mod:`companion.markers.sizing`).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

from companion.errors import ConfigError
from companion.markers.codes import ALL_CARD_IDS, CARD_IDS
from companion.markers.sheets import DEFAULT_DPI, MarkerOutputError, write_markers
from companion.markers.sizing import MARGIN, WANTED_PX_PER_MODULE, choose_sticker_mm, sticker_fits
from companion.vision.layout import Layout, default_layout_path, layout_to_dict, load_layout
from companion.vision.stickers import stickers_clash


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    markers = subparsers.add_parser(
        "markers",
        help="write printable A4 sheets: card stickers (108; 120 with --ruleset mountains), playmat fiducials, "
             "the lens calibration sheet, a guide",
    )
    markers.add_argument("--out", type=Path, required=True, help="output folder (created)")
    markers.add_argument(
        "--layout", type=Path, default=None,
        help="layout JSON giving sticker and fiducial sizes (default: the ruleset's shipped playmat)"
    )
    markers.add_argument("--ruleset", choices=("mandala", "mountains"), default="mandala",
                         help="the game the cards are for: mandala, 108 cards (default); mountains, "
                              "the 108 and the 12 gold cards A01..A12")
    markers.add_argument(
        "--dpi", type=int, default=DEFAULT_DPI, help=f"PNG and PDF raster resolution (default {DEFAULT_DPI})"
    )
    markers.add_argument("--sticker-mm", default=None, metavar="N|auto",
                         help="sticker side in mm (default: the layout's); auto: the smallest giving "
                              f"{WANTED_PX_PER_MODULE:g} px per QR module over the mat with --lens at --resolution")
    markers.add_argument("--lens", choices=("standard", "wide"), default="standard",
                         help="Camera Module 3 lens, for the pixels per module (default standard)")
    markers.add_argument("--resolution", default="4608x2592", help="camera mode WxH (default 4608x2592)")
    markers.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    ruleset = getattr(args, "ruleset", "mandala")
    layout = load_layout(args.layout if args.layout is not None else default_layout_path(ruleset))
    if not 150 <= args.dpi <= 1200:
        print(f"companion markers: --dpi {args.dpi} out of 150..1200", file=sys.stderr)
        return 2
    lens = getattr(args, "lens", "standard")
    resolution = _resolution(getattr(args, "resolution", "4608x2592"))
    sticker_mm = _sticker_mm(getattr(args, "sticker_mm", None), layout, lens, resolution)
    sized = dataclasses.replace(layout, sticker_mm=sticker_mm)
    card_ids = ALL_CARD_IDS if ruleset == "mountains" else CARD_IDS
    for path in write_markers(args.out, sized, args.dpi, card_ids):
        print(path)
    if sticker_mm != layout.sticker_mm:
        print(_write_layout(args.out / "layout.json", sized))
    print(_fit_line(sized, lens, resolution), file=sys.stderr)
    print("print the PDFs at 100% scale (no 'fit to page'); check the 100 mm bar", file=sys.stderr)
    return 0


def _sticker_mm(value: str | None, layout: Layout, lens: str, resolution: tuple[int, int]) -> float:
    if value is None:
        return layout.sticker_mm
    if value == "auto":
        fit = choose_sticker_mm(layout.size_mm, layout.card_mm, lens, resolution)
        if fit is None:
            raise ConfigError(f"--sticker-mm auto: no sticker that fits a {layout.card_mm[0]:g} mm card gives "
                              f"{WANTED_PX_PER_MODULE:g} px per module on a {layout.size_mm[0]:g}x"
                              f"{layout.size_mm[1]:g} mm mat at {resolution[0]}x{resolution[1]} with the {lens} "
                              "lens: use the 4608x2592 mode or a smaller mat")
        return fit.sticker_mm
    try:
        size = float(value)
    except ValueError:
        raise ConfigError(f"--sticker-mm {value!r}: a size in mm (like 24) or auto") from None
    if not 10.0 <= size <= 60.0:
        raise ConfigError(f"--sticker-mm {value}: must be between 10 and 60 mm")
    if stickers_clash(layout.card_mm, size):
        raise ConfigError(f"--sticker-mm {value}: two {size:g} mm stickers do not fit on a "
                          f"{layout.card_mm[0]:g}x{layout.card_mm[1]:g} mm card")
    return size


def _fit_line(layout: Layout, lens: str, resolution: tuple[int, int]) -> str:
    fit = sticker_fits(layout.size_mm, layout.card_mm, lens, resolution, (layout.sticker_mm,))[0]
    verdict = "enough" if fit.readable else f"too few (at least {WANTED_PX_PER_MODULE:g}: try --sticker-mm auto)"
    return (f"{layout.sticker_mm:g} mm stickers: {fit.px_per_module_worst:.2f} px per QR module at the mat's "
            f"corners with the {lens} lens at {resolution[0]}x{resolution[1]}, the camera framing the "
            f"{layout.size_mm[0]:g}x{layout.size_mm[1]:g} mm mat with {round((MARGIN - 1) * 100)}% to spare: "
            f"{verdict}; companion calibrate measures the real figure")


def _write_layout(path: Path, layout: Layout) -> Path:
    try:
        path.write_text(json.dumps(layout_to_dict(layout), indent=1) + "\n", encoding="utf-8")
    except OSError as error:
        raise MarkerOutputError(f"cannot write {path}: {error.strerror}") from None
    return path


def _resolution(text: str) -> tuple[int, int]:
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise ConfigError(f"--resolution {text!r}: expected WIDTHxHEIGHT, like 4608x2592") from None
    if width < 16 or height < 16:
        raise ConfigError(f"--resolution {text!r}: too small")
    return width, height
