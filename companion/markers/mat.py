"""A printable playmat at 1:1 for people without one: ``companion markers mat``.

The layout's zones, their names and its fiducials (printed in place, with
their "this edge toward player 1" strips) are drawn once on a canvas of the
whole mat plus a border, then cut into tiles that each fit the printable
area of a sheet (A4 or US Letter, portrait or landscape, whichever takes
fewer sheets). Neighbouring tiles overlap by :data:`OVERLAP_MM`; the same
registration crosses are printed in every overlap, so a sheet whose left
(top) margin is cut off along its dashed line lies over its neighbour with
the crosses on top of each other. Each sheet names its place: "page 3 of 8,
row 1, column 3", with a small map of the sheets, and carries the 100 mm
check bar. Pages are bilevel images at ``dpi``, the PDF page the paper, so
a millimetre of the layout is a millimetre of paper at 100% scale.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

from companion.markers.codes import FIDUCIAL_CELLS, FIDUCIAL_QUIET_CELLS
from companion.markers.sheets import A4_MM, _font, _Page, _save_pdf, fiducial_piece
from companion.vision.layout import Layout, polygon_centroid
from companion.vocab.zones import screen_zone

MAT_DPI = 300
"""Zone lines and fiducials need no more; a 700 x 400 mm mat is then 8 pages of 9 Mpx."""
BORDER_MM = 12.0
"""White border printed around the mat: room for the label strips of fiducials near its edges."""
OVERLAP_MM = 10.0
"""Neighbouring sheets print this much of the mat twice: the glue strip, with the registration crosses."""
MARGINS_MM = (8.0, 13.0, 8.0, 17.0)
"""Left, top, right, bottom: what printers leave white, the sheet's caption above, the 100 mm bar below."""
CROSS_MM = 4.0
CROSS_EVERY_MM = 60.0


@dataclass(frozen=True)
class Tiling:
    """How the mat (with its border) is cut into sheets."""

    paper_mm: tuple[float, float]
    """The sheet as it is printed (portrait or landscape)."""
    columns: int
    rows: int

    @property
    def content_mm(self) -> tuple[float, float]:
        left, top, right, bottom = MARGINS_MM
        return self.paper_mm[0] - left - right, self.paper_mm[1] - top - bottom

    @property
    def step_mm(self) -> tuple[float, float]:
        width, height = self.content_mm
        return width - OVERLAP_MM, height - OVERLAP_MM

    @property
    def pages(self) -> int:
        return self.columns * self.rows

    def origin_mm(self, column: int, row: int) -> tuple[float, float]:
        """Where on the canvas (the mat with its border) the tile's content area starts."""
        return column * self.step_mm[0], row * self.step_mm[1]


def tiling(canvas_mm: tuple[float, float], paper: tuple[float, float] = A4_MM) -> Tiling:
    """The fewest sheets of ``paper`` that cover ``canvas_mm``, portrait or landscape (portrait on a tie)."""
    best: Tiling | None = None
    for sheet in (paper, (paper[1], paper[0])):
        probe = Tiling(sheet, 1, 1)
        step_x, step_y = probe.step_mm
        columns = max(1, math.ceil((canvas_mm[0] - OVERLAP_MM) / step_x))
        rows = max(1, math.ceil((canvas_mm[1] - OVERLAP_MM) / step_y))
        option = Tiling(sheet, columns, rows)
        if best is None or option.pages < best.pages:
            best = option
    assert best is not None
    return best


def mat_canvas(layout: Layout, dpi: int = MAT_DPI, crosses: Tiling | None = None) -> _Page:
    """The whole mat at 1:1 with a border: outline, zones and their names, fiducials in place, registration
    crosses in the overlaps of ``crosses``' sheets."""
    width, height = layout.size_mm
    page = _Page(dpi, (width + 2 * BORDER_MM, height + 2 * BORDER_MM))
    offset = BORDER_MM
    for fiducial in layout.fiducials:  # painted first: codes go on the grey canvas before any line or text
        quiet = fiducial.size_mm * FIDUCIAL_QUIET_CELLS / FIDUCIAL_CELLS
        x, y = fiducial.center_mm
        left, top = offset + x - fiducial.size_mm / 2 - quiet, offset + y - fiducial.size_mm / 2 - quiet
        fiducial_piece(page, fiducial.id, fiducial.size_mm, left, top, cut_marks=False)
    page.rectangle(offset, offset, offset + width, offset + height, 0.8)
    for name, polygon in layout.zones.items():
        points = [(offset + x, offset + y) for x, y in polygon]
        page.line([*points, points[0]], 0.5)
        xs = [x for x, _ in points]
        cx, cy = polygon_centroid(polygon)
        _centred(page, offset + cx, offset + cy - 2.5, screen_zone(name), 5.0, max(xs) - min(xs) - 4.0)
    _centred(page, offset + width / 2, offset + height + 3.0,
             "PLAYER 1 sits at this edge (the fiducials' labels read from here)", 4.0, width / 2)
    _centred(page, offset + width / 2, 3.0, f"PLAYER 2 sits at this edge. Playmat {layout.name!r}, {width:g} x "
             f"{height:g} mm", 4.0, width / 2)
    if crosses is not None:
        _registration_crosses(page, crosses, (width + 2 * BORDER_MM, height + 2 * BORDER_MM))
    return page


def _centred(page: _Page, x_mm: float, y_mm: float, text: str, height_mm: float, room_mm: float) -> None:
    """``text`` centred on ``x_mm``, ``height_mm`` tall or smaller to stay within ``room_mm``."""
    width_mm = _font(round(page.px(height_mm))).getlength(text) / page.px_per_mm
    if width_mm > room_mm:
        height_mm, width_mm = height_mm * room_mm / width_mm, room_mm
    page.fitted_text(x_mm - width_mm / 2, y_mm, text, height_mm, room_mm + 1.0)


def _registration_crosses(page: _Page, tiles: Tiling, canvas_mm: tuple[float, float]) -> None:
    """A cross with a circle in the middle of every overlap strip, every CROSS_EVERY_MM along it."""
    step_x, step_y = tiles.step_mm
    spots: list[tuple[float, float]] = []
    for column in range(1, tiles.columns):  # the strip where column-1 and column overlap
        x = column * step_x + OVERLAP_MM / 2
        count = max(2, math.ceil(canvas_mm[1] / CROSS_EVERY_MM))
        spots += [(x, (index + 0.5) * canvas_mm[1] / count) for index in range(count)]
    for row in range(1, tiles.rows):
        y = row * step_y + OVERLAP_MM / 2
        count = max(2, math.ceil(canvas_mm[0] / CROSS_EVERY_MM))
        spots += [((index + 0.5) * canvas_mm[0] / count, y) for index in range(count)]
    half = CROSS_MM / 2
    for x, y in spots:
        page.line([(x - half, y), (x + half, y)], 0.25)
        page.line([(x, y - half), (x, y + half)], 0.25)
        page.draw.ellipse([page.px(x - half * 0.6), page.px(y - half * 0.6), page.px(x + half * 0.6),
                           page.px(y + half * 0.6)], outline=0, width=max(1, round(page.px(0.25))))


def mat_pages(layout: Layout, paper: tuple[float, float] = A4_MM,
              dpi: int = MAT_DPI) -> tuple[Tiling, list[Image.Image]]:
    """The sheets to print, in page order (rows from player 2's edge, each from the left), and their tiling."""
    width, height = layout.size_mm
    canvas_mm = (width + 2 * BORDER_MM, height + 2 * BORDER_MM)
    tiles = tiling(canvas_mm, paper)
    canvas = np.array(mat_canvas(layout, dpi, tiles).image().convert("L"))
    pages = []
    for row in range(tiles.rows):
        for column in range(tiles.columns):
            pages.append(_sheet(canvas, tiles, column, row, layout, dpi))
    return tiles, pages


def _sheet(canvas: np.ndarray, tiles: Tiling, column: int, row: int, layout: Layout, dpi: int) -> Image.Image:
    page = _Page(dpi, tiles.paper_mm)
    left, top, _, _ = MARGINS_MM
    x0, y0 = tiles.origin_mm(column, row)
    content_w, content_h = tiles.content_mm
    a, b = round(page.px(x0)), round(page.px(y0))
    piece = canvas[b : b + round(page.px(content_h)), a : a + round(page.px(content_w))]
    page.pixels[round(page.px(top)) : round(page.px(top)) + piece.shape[0],
                round(page.px(left)) : round(page.px(left)) + piece.shape[1]] = piece
    number = row * tiles.columns + column + 1
    page.text(left, 4.5, f"Playmat {layout.name!r} at 1:1, page {number} of {tiles.pages}: row {row + 1} of "
              f"{tiles.rows}, column {column + 1} of {tiles.columns}. Print at 100% (no 'fit to page').", 2.8)
    _page_map(page, tiles, column, row)
    right, bottom = left + content_w, top + content_h
    if column:  # cut off the left margin along this line; lay the sheet over its left neighbour, crosses on crosses
        _dashed(page, (left, top), (left, bottom))
        page.fitted_text(left - 4.2, top + 20.0, f"cut here, lay over page {number - 1}", 2.4, 60.0, turn=1)
    if row:
        _dashed(page, (left, top), (right, top))
        page.fitted_text(left + 20.0, top - 3.6, f"cut here, lay over page {number - tiles.columns}", 2.4, 60.0)
    page.bottom_scale_bar()
    return page.image()


def _page_map(page: _Page, tiles: Tiling, column: int, row: int) -> None:
    """A small map of the sheets at the top right, this one filled: which page goes where."""
    cell = min(3.0, 7.0 / tiles.rows)
    right = page.size_mm[0] - MARGINS_MM[2]
    left = right - tiles.columns * cell
    for r in range(tiles.rows):
        for c in range(tiles.columns):
            x, y = left + c * cell, 1.5 + r * cell
            if (c, r) == (column, row):
                page.polygon([(x, y), (x + cell, y), (x + cell, y + cell), (x, y + cell)])
            else:
                page.rectangle(x, y, x + cell, y + cell, 0.15)


def _dashed(page: _Page, start: tuple[float, float], end: tuple[float, float], dash_mm: float = 3.0) -> None:
    length = math.dist(start, end)
    steps = max(1, int(length // (2 * dash_mm)))
    for index in range(steps):
        t0, t1 = index * 2 * dash_mm / length, min(1.0, (index * 2 + 1) * dash_mm / length)
        page.line([(start[0] + (end[0] - start[0]) * t0, start[1] + (end[1] - start[1]) * t0),
                   (start[0] + (end[0] - start[0]) * t1, start[1] + (end[1] - start[1]) * t1)], 0.2)


def write_mat(path: Path, layout: Layout, paper: tuple[float, float] = A4_MM, dpi: int = MAT_DPI) -> Tiling:
    """Write the tiled mat as one PDF; returns how it was tiled."""
    tiles, pages = mat_pages(layout, paper, dpi)
    _save_pdf(path, pages, dpi)
    return tiles
