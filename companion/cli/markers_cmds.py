"""``companion markers --out DIR``: print-ready stickers, fiducials and a setup guide."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.markers.sheets import DEFAULT_DPI, write_markers
from companion.vision.layout import load_layout


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    markers = subparsers.add_parser(
        "markers",
        help="write printable A4 sheets: 216 card stickers (two per card), playmat fiducials, a setup guide",
    )
    markers.add_argument("--out", type=Path, required=True, help="output folder (created)")
    markers.add_argument(
        "--layout", type=Path, default=None, help="layout JSON giving sticker and fiducial sizes (default: shipped)"
    )
    markers.add_argument(
        "--dpi", type=int, default=DEFAULT_DPI, help=f"PNG and PDF raster resolution (default {DEFAULT_DPI})"
    )
    markers.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    layout = load_layout(args.layout)
    if not 150 <= args.dpi <= 1200:
        print(f"companion markers: --dpi {args.dpi} out of 150..1200", file=sys.stderr)
        return 2
    for path in write_markers(args.out, layout, args.dpi):
        print(path)
    print("print the PDFs at 100% scale (no 'fit to page'); check the 100 mm bar", file=sys.stderr)
    return 0
