"""Print-ready A4 sheets: card stickers, playmat fiducials and a setup guide.

Pages are drawn at 600 dpi as bilevel images (crisp edges, lossless CCITT
in the PDF) so sizes are exact at 100% print scale: a pixel is 25.4/600 mm
and the PDF page is the A4 sheet. Codes are painted with exact sub-pixel
geometry (:func:`companion.sim.paint.paint_modules`) before thresholding, so
each module edge is within half a pixel (0.02 mm) of where it belongs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from companion.errors import CompanionError
from companion.markers.codes import (
    CARD_IDS,
    FIDUCIAL_CELLS,
    FIDUCIAL_QUIET_CELLS,
    STICKER_INSET_MM,
    STICKER_MODULES,
    color_name_of,
    fiducial_cells,
    payload_for,
    sticker_modules,
)
from companion.sim.paint import paint_modules
from companion.vision.layout import Layout
from companion.vision.sheet import SHEET_SQUARE_MM, SHEET_SQUARES, sheet_image, sheet_size_mm
from companion.vision.stickers import STICKER_TURNS_DEG, sticker_offsets_mm

A4_MM = (210.0, 297.0)
DEFAULT_DPI = 600
MARGIN_MM = 10.0
LINE_MM = 0.15
CUT_MARK_MM = 3.0
CUT_GAP_MM = 1.0
SCALE_BAR_MM = 100.0

_Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


class MarkerOutputError(CompanionError, OSError):
    """The output folder cannot be written."""


@dataclass
class _Page:
    """One A4 page at ``dpi``: a grey canvas for codes, then PIL for lines and text."""

    dpi: int

    def __post_init__(self) -> None:
        self.px_per_mm = self.dpi / 25.4
        size = (round(A4_MM[0] * self.px_per_mm), round(A4_MM[1] * self.px_per_mm))
        self.pixels = np.full((size[1], size[0]), 255, np.uint8)
        self._image: Image.Image | None = None

    def px(self, mm: float) -> float:
        return mm * self.px_per_mm

    def paint(self, modules: np.ndarray, left_mm: float, top_mm: float, side_mm: float) -> None:
        """A module matrix whose outer square is ``side_mm`` with top-left at (left, top)."""
        origin = (self.px(left_mm), self.px(top_mm))
        module_px = self.px(side_mm) / modules.shape[0]
        if self._image is None:
            paint_modules(self.pixels, modules, origin, module_px)
            return
        # Text or lines were drawn already: paint a patch and paste it back.
        box = (
            int(origin[0]),
            int(origin[1]),
            int(origin[0] + self.px(side_mm)) + 2,
            int(origin[1] + self.px(side_mm)) + 2,
        )
        patch = np.array(self._image.crop(box))
        paint_modules(patch, modules, (origin[0] - box[0], origin[1] - box[1]), module_px)
        self._image.paste(Image.fromarray(patch, "L"), box[:2])

    @property
    def draw(self) -> ImageDraw.ImageDraw:
        if self._image is None:
            self._image = Image.fromarray(self.pixels, "L")
        return ImageDraw.Draw(self._image)

    def line(self, points_mm: Sequence[tuple[float, float]], width_mm: float = LINE_MM) -> None:
        self.draw.line([(self.px(x), self.px(y)) for x, y in points_mm], fill=0, width=max(1, round(self.px(width_mm))))

    def rectangle(self, left: float, top: float, right: float, bottom: float, width_mm: float = LINE_MM) -> None:
        self.line([(left, top), (right, top), (right, bottom), (left, bottom), (left, top)], width_mm)

    def text(self, x_mm: float, y_mm: float, text: str, height_mm: float = 3.0) -> None:
        self.draw.text((self.px(x_mm), self.px(y_mm)), text, fill=0, font=_font(round(self.px(height_mm))))

    def cut_marks(self, left: float, top: float, side_x: float, side_y: float) -> None:
        """Corner crop marks just outside a rectangle: cut along the lines they extend."""
        for x, dx in ((left, -1), (left + side_x, 1)):
            for y, dy in ((top, -1), (top + side_y, 1)):
                start = CUT_GAP_MM
                self.line([(x + dx * start, y), (x + dx * (start + CUT_MARK_MM), y)])
                self.line([(x, y + dy * start), (x, y + dy * (start + CUT_MARK_MM))])

    def scale_bar(self, left: float, top: float) -> None:
        """A 100 mm bar with 10 mm ticks: measure it to check the print scale."""
        self.line([(left, top), (left + SCALE_BAR_MM, top)], 0.3)
        for tick in range(11):
            x = left + tick * SCALE_BAR_MM / 10
            self.line([(x, top - (2 if tick % 5 else 3.5)), (x, top)], 0.2)
        self.text(left + SCALE_BAR_MM + 3, top - 3, "100 mm at 100% scale: measure it", 2.6)

    def image(self) -> Image.Image:
        """The finished page, bilevel (threshold, no dithering)."""
        grey = self._image if self._image is not None else Image.fromarray(self.pixels, "L")
        return grey.point(lambda value: 255 if value >= 128 else 0).convert("1", dither=Image.Dither.NONE)


def _font(size_px: int) -> _Font:
    return ImageFont.load_default(size=max(8, size_px))


# --------------------------------------------------------------------------- stickers

STICKERS_PER_CARD = 2
"""A card carries two stickers with the same code, in opposite corners (:mod:`companion.vision.stickers`)."""
_STICKER_GAP_MM = 5.0
_LABEL_MM = 17.0


@dataclass(frozen=True)
class StickerPlace:
    """Where one sticker is printed: page (0-based), top-left corner in mm on the page, which of the card's two."""

    card_id: str
    page: int
    left_mm: float
    top_mm: float
    copy: int = 0


def sticker_places(sticker_mm: float, card_ids: Sequence[str] = CARD_IDS) -> list[StickerPlace]:
    """The sticker grid: a card's two stickers side by side, as many cards per A4 page as fit, in card id order."""
    cell_w = STICKERS_PER_CARD * (sticker_mm + _STICKER_GAP_MM) + _LABEL_MM
    cell_h = max(23.0, sticker_mm + 7)
    columns = max(1, int((A4_MM[0] - 2 * MARGIN_MM) // cell_w))
    rows = max(1, int((A4_MM[1] - 2 * MARGIN_MM - 22) // cell_h))
    places = []
    for index, card_id in enumerate(card_ids):
        page, slot = divmod(index, columns * rows)
        row, column = divmod(slot, columns)
        left = MARGIN_MM + column * cell_w + 4
        top = MARGIN_MM + row * cell_h + 5
        places += [StickerPlace(card_id, page, left + copy * (sticker_mm + _STICKER_GAP_MM), top, copy)
                   for copy in range(STICKERS_PER_CARD)]
    return places


def sticker_pages(sticker_mm: float, dpi: int = DEFAULT_DPI, card_ids: Sequence[str] = CARD_IDS) -> list[Image.Image]:
    """Both stickers of every card, with id and color name beside them and cut marks, on A4 pages."""
    places = sticker_places(sticker_mm, card_ids)
    pages = []
    for number in range(places[-1].page + 1):
        on_page = [place for place in places if place.page == number]
        cards = list(dict.fromkeys(place.card_id for place in on_page))
        page = _Page(dpi)
        page.text(
            MARGIN_MM,
            MARGIN_MM - 6,
            f"Mandala Table Companion: stickers for cards {cards[0]}-{cards[-1]} "
            f"({len(cards)} of {len(card_ids)} cards, two each), {sticker_mm:g} mm (print at 100%)",
            3.0,
        )
        for place in on_page:
            left, top = place.left_mm, place.top_mm
            page.paint(sticker_modules(payload_for(place.card_id)), left, top, sticker_mm)
            page.cut_marks(left, top, sticker_mm, sticker_mm)
            if place.copy == STICKERS_PER_CARD - 1:
                page.text(left + sticker_mm + 3, top + 1, place.card_id, 4.5)
                page.text(left + sticker_mm + 3, top + 7.5, color_name_of(place.card_id), 3.2)
        page.scale_bar(MARGIN_MM, A4_MM[1] - MARGIN_MM - 2)
        pages.append(page.image())
    return pages


# --------------------------------------------------------------------------- fiducials


def fiducial_pages(layout: Layout, dpi: int = DEFAULT_DPI) -> list[Image.Image]:
    """The layout's fiducials at their size, each on a white margin of one cell, with cut marks."""
    biggest = max((f.size_mm for f in layout.fiducials), default=24.0)
    outer = biggest * (FIDUCIAL_CELLS + 2 * FIDUCIAL_QUIET_CELLS) / FIDUCIAL_CELLS
    cell_w, cell_h = max(outer + 14, 58.0), outer + 24
    columns = max(1, int((A4_MM[0] - 2 * MARGIN_MM) // cell_w))
    rows = max(1, int((A4_MM[1] - 2 * MARGIN_MM - 22) // cell_h))
    per_page = columns * rows
    pages = []
    fiducials = list(layout.fiducials)
    for first in range(0, max(len(fiducials), 1), per_page):
        page = _Page(dpi)
        page.text(
            MARGIN_MM,
            MARGIN_MM - 6,
            f"Playmat fiducials for layout {layout.name!r} "
            "(ArUco DICT_4X4_50); cut on the marks, keep the white margin",
            3.0,
        )
        for index, fiducial in enumerate(fiducials[first : first + per_page]):
            cells = np.pad(fiducial_cells(fiducial.id), FIDUCIAL_QUIET_CELLS, constant_values=False)
            side = fiducial.size_mm * cells.shape[0] / FIDUCIAL_CELLS
            left = MARGIN_MM + (index % columns) * cell_w + 6
            top = MARGIN_MM + (index // columns) * cell_h + 6
            page.paint(cells, left, top, side)
            page.cut_marks(left, top, side, side)
            x, y = fiducial.center_mm
            page.text(left, top + side + 5.5, f"id {fiducial.id}: centre at ({x:g}, {y:g}) mm", 3.0)
            page.text(left, top + side + 10, f"black square {fiducial.size_mm:g} mm", 2.6)
        page.scale_bar(MARGIN_MM, A4_MM[1] - MARGIN_MM - 2)
        pages.append(page.image())
    return pages


# --------------------------------------------------------------------------- lens calibration sheet


def calibration_sheet_page(dpi: int = DEFAULT_DPI) -> Image.Image:
    """The ChArUco board of :mod:`companion.vision.sheet` at true size on an A4 page.

    Laid flat on the table while ``companion calibrate`` looks (or
    photographed in several places, ``--sheet``), it gives the lens fit
    dozens of exactly known points.
    """
    page = _Page(dpi)
    board = sheet_image(page.px_per_mm)
    width_mm, height_mm = sheet_size_mm()
    left, top = (A4_MM[0] - width_mm) / 2, 14.0
    x0, y0 = round(page.px(left)), round(page.px(top))
    page.pixels[y0 : y0 + board.shape[0], x0 : x0 + board.shape[1]] = board
    page.text(MARGIN_MM, 5.0, f"Mandala Table Companion: lens calibration sheet (ChArUco {SHEET_SQUARES[0]}x"
              f"{SHEET_SQUARES[1]}, {SHEET_SQUARE_MM:g} mm squares). Print at 100%, keep it flat, lay it on the "
              "mat for companion calibrate.", 2.6)
    page.rectangle(left, top, left + width_mm, top + height_mm, 0.1)
    page.scale_bar(MARGIN_MM, A4_MM[1] - 8.0)
    return page.image()


# --------------------------------------------------------------------------- guide


def guide_page(layout: Layout, sticker_mm: float, dpi: int = DEFAULT_DPI) -> Image.Image:
    """Where a sticker goes on a card (true scale) and where the fiducials go on the mat (to scale)."""
    page = _Page(dpi)
    page.text(MARGIN_MM, MARGIN_MM, "Mandala Table Companion: setting up", 6.0)
    _card_diagram(page, layout, sticker_mm, MARGIN_MM, MARGIN_MM + 14)
    _mat_diagram(page, layout, MARGIN_MM, 122.0)
    page.scale_bar(MARGIN_MM, A4_MM[1] - MARGIN_MM - 2)
    return page.image()


def _card_diagram(page: _Page, layout: Layout, sticker_mm: float, left: float, top: float) -> None:
    card_w, card_h = layout.card_mm
    page.rectangle(left, top, left + card_w, top + card_h, 0.3)
    modules = sticker_modules(payload_for("R07"))
    for (dx, dy), turn in zip(sticker_offsets_mm(layout.card_mm, sticker_mm), STICKER_TURNS_DEG, strict=True):
        x0 = left + card_w / 2 + dx - sticker_mm / 2
        y0 = top + card_h / 2 + dy - sticker_mm / 2
        page.paint(np.rot90(modules, round(turn / 90)), x0, y0, sticker_mm)
        page.rectangle(x0, y0, x0 + sticker_mm, y0 + sticker_mm, 0.1)
    notes = (
        f"1. A card, true size ({card_w:g} x {card_h:g} mm), face up.",
        "2. Each card has two stickers with the same code: cut them on",
        f"   their marks, {sticker_mm:g} mm squares ({STICKER_MODULES} modules, white margin included).",
        f"3. Stick one into the top-left corner, upright, {STICKER_INSET_MM:g} mm from both",
        "   edges; the other into the bottom-right corner, upside down, likewise.",
        "4. Check: the corner of each sticker WITHOUT a big square points",
        "   to the middle of the card. The companion finds the card's",
        "   centre from either sticker: fanned or turned, one corner shows.",
        "5. Keep the white margins clean, the stickers flat and square",
        "   to the edges; matte paper avoids glare.",
        "Check: the card on the sticker sheet must match this card.",
    )
    for line, note in enumerate(notes):
        page.text(left + card_w + 8, top + 2 + line * 6.2, note, 3.0)


def _mat_diagram(page: _Page, layout: Layout, left: float, top: float) -> None:
    width, height = layout.size_mm
    scale = min((A4_MM[0] - 2 * MARGIN_MM) / width, 100.0 / height)
    page.text(
        left,
        top - 10,
        f"The playmat ({width:g} x {height:g} mm), drawn at 1:{1 / scale:.2f}. "
        "Fiducials (black squares, id beside) go where shown,",
        3.0,
    )
    page.text(
        left, top - 5, "centre positions measured from the mat's top-left corner (player 2's side is the top). "
        "A card counts in the zone holding its centre.", 3.0
    )
    page.rectangle(left, top, left + width * scale, top + height * scale, 0.3)
    for name, polygon in layout.zones.items():
        points = [(left + x * scale, top + y * scale) for x, y in polygon]
        page.line([*points, points[0]], 0.12)
        xs = [x for x, _ in points]
        ys = [y for _, y in points]
        page.text(min(xs) + 0.8, max(ys) - 3.0, _short(name), 1.8)
    for fiducial in layout.fiducials:
        x, y = fiducial.center_mm
        half = fiducial.size_mm * scale / 2
        cx, cy = left + x * scale, top + y * scale
        for offset in np.linspace(-half, half, 9):
            page.line([(cx - half, cy + offset), (cx + half, cy + offset)], 0.35)
        page.text(cx + half + 0.6, cy - 1.5, str(fiducial.id), 2.4)
    table_top = top + height * scale + 8
    page.text(left, table_top, "Fiducial centres (mm from the top-left corner of the mat):", 3.0)
    for index, fiducial in enumerate(layout.fiducials):
        x, y = fiducial.center_mm
        column, row = divmod(index, 6)
        page.text(
            left + column * 62,
            table_top + 6 + row * 5,
            f"id {fiducial.id}: ({x:g}, {y:g}), {fiducial.size_mm:g} mm",
            2.8,
        )


def _short(zone: str) -> str:
    return zone.replace("river.", "r").replace("field.", "f.").replace("mountain", "mtn")


# --------------------------------------------------------------------------- files


def write_markers(out_dir: Path, layout: Layout, dpi: int = DEFAULT_DPI,
                  card_ids: Sequence[str] = CARD_IDS) -> list[Path]:
    """Write stickers (for ``card_ids``), fiducials and guide as A4 PDFs and per-page PNGs; returns the files."""
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise MarkerOutputError(f"cannot create output folder {out_dir}: {error.strerror}") from None
    documents = {
        "stickers": sticker_pages(layout.sticker_mm, dpi, card_ids),
        "fiducials": fiducial_pages(layout, dpi),
        "guide": [guide_page(layout, layout.sticker_mm, dpi)],
        "calibration-sheet": [calibration_sheet_page(dpi)],
    }
    written = []
    for name, pages in documents.items():
        written.append(_save_pdf(out_dir / f"{name}.pdf", pages, dpi))
        for number, page in enumerate(pages, start=1):
            suffix = f"-{number}" if len(pages) > 1 else ""
            path = out_dir / f"{name}{suffix}.png"
            try:
                page.save(path, dpi=(dpi, dpi))
            except OSError as error:
                raise MarkerOutputError(f"cannot write {path}: {error}") from None
            written.append(path)
    return written


def _save_pdf(path: Path, pages: list[Image.Image], dpi: int) -> Path:
    try:
        pages[0].save(
            path,
            "PDF",
            resolution=float(dpi),
            save_all=True,
            append_images=pages[1:],
            title=f"Mandala Table Companion {path.stem}",
        )
    except OSError as error:
        raise MarkerOutputError(f"cannot write {path}: {error}") from None
    return path
