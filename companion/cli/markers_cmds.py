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
from typing import TYPE_CHECKING

from companion.cli.progress import add_quiet
from companion.errors import ConfigError
from companion.markers.codes import ALL_CARD_IDS, CARD_IDS
from companion.markers.mat import MAT_DPI
from companion.markers.sheets import DEFAULT_DPI, PAPERS, MarkerOutputError, write_markers
from companion.markers.sizing import MARGIN, WANTED_PX_PER_MODULE, choose_sticker_mm, sticker_fits
from companion.vision.layout import Layout, default_layout_path, layout_to_dict, load_layout
from companion.vision.stickers import stickers_clash

if TYPE_CHECKING:
    from companion.app.camera import Camera


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    markers = subparsers.add_parser(
        "markers",
        help="write printable sheets (A4 or Letter): card stickers (108; 120 with --ruleset mountains), playmat "
             "fiducials, the lens calibration sheet, a guide; markers check: every sticker on a card of its color?",
    )
    markers.add_argument("--out", type=Path, default=None, help="output folder (created; required to print)")
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
    markers.add_argument("--paper", choices=tuple(PAPERS), default="a4",
                         help="paper the pages are for: a4 (default) or letter (US); print at 100%% either way")
    markers.add_argument("--sticker-mm", default=None, metavar="N|auto",
                         help="sticker side in mm (default: the layout's); auto: the smallest giving "
                              f"{WANTED_PX_PER_MODULE:g} px per QR module over the mat with --lens at --resolution")
    markers.add_argument("--lens", choices=("standard", "wide"), default="standard",
                         help="Camera Module 3 lens, for the pixels per module (default standard)")
    markers.add_argument("--resolution", default="4608x2592", help="camera mode WxH (default 4608x2592)")
    markers.set_defaults(func=run)
    commands = markers.add_subparsers(dest="markers_command", metavar="check|mat", required=False)
    check = commands.add_parser(
        "check", help="check that every sticker is on a card of its color: lay cards on the mat under the camera")
    check.add_argument("input", type=Path, nargs="?", default=None,
                       help="a photo of the mat, a folder of frames (file-name order) or a video; none with --camera")
    check.add_argument("--image", type=Path, default=None, help="a photo of the mat with the cards on it")
    check.add_argument("--camera", action="store_true", help="look through the configured camera")
    check.add_argument("--config", type=Path, default=None,
                       help="configuration naming the camera (default /etc/mandala-companion/config.toml)")
    check.add_argument("--frames", type=int, default=None,
                       help="frames to look at (default: all of a folder or video, 10 from the camera)")
    check.add_argument("--layout", type=Path, default=None, help="playmat layout (default: the bundled one)")
    check.add_argument("--json", action="store_true", help="print every card's verdict as JSON")
    add_quiet(check)
    check.set_defaults(func=run_check)
    mat = commands.add_parser(
        "mat", help="a playmat to print at 1:1 on A4 or Letter sheets (tiled, with alignment marks and page order)")
    mat.add_argument("--out", type=Path, required=True, help="PDF file to write, e.g. mat.pdf")
    mat.add_argument("--layout", type=Path, default=None,
                     help="layout JSON whose zones and fiducials to print (default: the ruleset's shipped playmat)")
    mat.add_argument("--ruleset", choices=("mandala", "mountains"), default="mandala",
                     help="the game whose shipped playmat to print (default mandala)")
    mat.add_argument("--paper", choices=tuple(PAPERS), default="a4", help="a4 (default) or letter (US)")
    mat.add_argument("--dpi", type=int, default=MAT_DPI, help=f"raster resolution (default {MAT_DPI})")
    mat.set_defaults(func=run_mat)


def run(args: argparse.Namespace) -> int:
    if args.out is None:
        raise ConfigError("markers: --out DIR is required to print (or: companion markers check)")
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
    for path in write_markers(args.out, sized, args.dpi, getattr(args, "paper", "a4"), card_ids):
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


def run_mat(args: argparse.Namespace) -> int:
    """The tiled 1:1 playmat as one PDF: its path on stdout, how it is tiled and how to print it on stderr."""
    from companion.cli.paths import output_file
    from companion.markers.mat import write_mat

    output_file(args.out, "--out", (".pdf",))
    if not 100 <= args.dpi <= 600:
        raise ConfigError(f"markers mat: --dpi {args.dpi}: must be between 100 and 600")
    layout = load_layout(args.layout if args.layout is not None else default_layout_path(args.ruleset))
    tiles = write_mat(args.out, layout, PAPERS[args.paper], args.dpi)
    print(args.out)
    width, height = layout.size_mm
    orientation = "portrait" if tiles.paper_mm[0] < tiles.paper_mm[1] else "landscape"
    print(f"{layout.name!r}, {width:g} x {height:g} mm at 1:1: {tiles.pages} pages ({tiles.rows} rows of "
          f"{tiles.columns}, {args.paper} {orientation}); print at 100% (no 'fit to page') and check the 100 mm "
          "bar; cut each page's left and top margin on its dashed line and lay it over its neighbour, crosses on "
          "crosses; tape from behind", file=sys.stderr)
    return 0


LIVE_FRAMES = 10
"""Frames the live check looks at: a second or two, enough to outvote a hand passing over."""


def run_check(args: argparse.Namespace) -> int:
    """One line per card whose sticker is of another color (or whose face cannot be told): exit 1; none: exit 0."""
    from companion.app.camera import FileSource
    from companion.cli.paths import PathArgumentError, input_path
    from companion.cli.progress import bar
    from companion.markers.check import CheckInputError, ColorCheck

    given = [source for source in (args.input, args.image) if source is not None]
    if len(given) + bool(args.camera) != 1:
        raise PathArgumentError("markers check: give one photo (--image FILE), folder of frames or video, "
                                "or --camera")
    if args.frames is not None and args.frames < 1:
        raise ConfigError(f"markers check: --frames {args.frames}: must be 1 or more")
    check = ColorCheck(load_layout(args.layout))
    camera = _check_camera(args, input_path(given[0], "input") if given else None)
    limit = args.frames if args.frames is not None else (LIVE_FRAMES if args.camera else None)
    with camera:
        total = limit if limit is not None or not isinstance(camera, FileSource) else camera.count()
        with bar(args, total, "checking") as progress:
            while (limit is None or check.frames < limit) and (frame := camera.read()) is not None:
                check.feed(frame.image)
                progress.update(1)
    name = "the camera" if args.camera else str(given[0])
    if check.frames == 0:
        raise CheckInputError(f"markers check: {name}: no frame could be read")
    if not check.board_seen:
        raise CheckInputError(f"markers check: {name}: the mat's fiducials are not in view; "
                                "lay the cards on the mat under the camera")
    results = check.results()
    if not results:
        raise CheckInputError(f"markers check: {name}: no card's sticker read; lay the cards face up, apart")
    wrong = [result for result in results if not result.ok]
    if args.json:
        print(json.dumps({"cards": [{"card": r.card_id, "sticker_color": r.sticker_color, "face_color": r.face_color,
                                     "ok": r.ok} for r in results], "problems": [r.line() for r in wrong]}))
    else:
        for result in wrong:
            print(result.line())
    print(f"markers check: {len(results)} cards read, {len(wrong)} to fix"
          + ("" if wrong else ": every sticker is on a card of its color"), file=sys.stderr)
    return 1 if wrong else 0


def _check_camera(args: argparse.Namespace, path: Path | None) -> Camera:
    from companion.app.camera import FileSource, make_camera
    from companion.app.config import load_config

    if args.camera:
        return make_camera(load_config(args.config).camera)
    assert path is not None
    return FileSource(path)
