"""Print-ready sheets, A4 or US Letter: card stickers, playmat fiducials and a setup guide.

Pages are drawn at 600 dpi as bilevel images (crisp edges, lossless CCITT
in the PDF) so sizes are exact at 100% print scale: a pixel is 25.4/600 mm
and the PDF page is the sheet of paper. Everything a person needs once a
piece is cut out is printed inside its cut: a sticker's card id, color name
and which way it goes (a label strip below its quiet zone, which stays
clear), a fiducial's id and which edge faces player 1. Codes are painted with exact sub-pixel
geometry (:func:`companion.markers.paint.paint_modules`) before thresholding, so
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
    FIDUCIAL_LABEL_CELLS,
    FIDUCIAL_QUIET_CELLS,
    STICKER_INSET_MM,
    STICKER_MODULES,
    color_name_of,
    fiducial_cells,
    label_strip_width_mm,
    payload_for,
    sticker_cut_mm,
    sticker_modules,
)
from companion.markers.paint import paint_modules
from companion.vision.layout import Layout
from companion.vision.sheet import SHEET_SQUARE_MM, SHEET_SQUARES, sheet_image, sheet_size_mm
from companion.vision.stickers import STICKER_TURNS_DEG, sticker_offsets_mm

PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
"""Paper sizes ``companion markers --paper`` prints on (width, height in mm, portrait)."""
A4_MM = PAPERS["a4"]
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
    """One page of ``size_mm`` at ``dpi``: a grey canvas for codes, then PIL for lines and text."""

    dpi: int
    size_mm: tuple[float, float] = A4_MM

    def __post_init__(self) -> None:
        self.px_per_mm = self.dpi / 25.4
        size = (round(self.size_mm[0] * self.px_per_mm), round(self.size_mm[1] * self.px_per_mm))
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

    def fitted_text(self, x_mm: float, y_mm: float, text: str, height_mm: float, width_mm: float,
                    turn: int = 0) -> None:
        """Text at most ``height_mm`` tall, smaller if need be to stay within ``width_mm``; ``turn`` quarter
        turns counter-clockwise (2: upside down, for a sticker stuck upside down), (x, y) its box's top-left."""
        size = round(self.px(height_mm))
        while size > 8 and _font(size).getlength(text) > self.px(width_mm):
            size -= 1
        font = _font(size)
        left, top, right, bottom = (round(v) for v in font.getbbox(text))
        stamp = Image.new("L", (right + 2, bottom + 2), 255)
        ImageDraw.Draw(stamp).text((0, 0), text, fill=0, font=font)
        stamp = stamp.crop((left, top, right + 2, bottom + 2)).rotate(90 * turn, expand=True)
        _ = self.draw  # make sure the PIL image exists
        assert self._image is not None
        self._image.paste(stamp, (round(self.px(x_mm)), round(self.px(y_mm))), Image.eval(stamp, lambda v: 255 - v))

    def polygon(self, points_mm: Sequence[tuple[float, float]]) -> None:
        self.draw.polygon([(self.px(x), self.px(y)) for x, y in points_mm], fill=0)

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

    def bottom_scale_bar(self) -> None:
        """The scale bar at the foot of the page, clear of the printer's unprintable edge on A4 and Letter."""
        self.scale_bar(MARGIN_MM, self.size_mm[1] - MARGIN_MM - 2)

    def side_scale_bar(self, left: float, top: float) -> None:
        """The 100 mm bar upright, ticks to its left, its caption beside it (pages whose foot is full)."""
        self.line([(left, top), (left, top + SCALE_BAR_MM)], 0.3)
        for tick in range(11):
            y = top + tick * SCALE_BAR_MM / 10
            self.line([(left - (2 if tick % 5 else 3.5), y), (left, y)], 0.2)
        self.fitted_text(left - 6.3, top + 10.0, "100 mm at 100%: measure it", 2.2, 60.0, turn=1)

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


@dataclass(frozen=True)
class StickerPlace:
    """Where one sticker is printed: page (0-based), top-left corner in mm on the page, which of the card's two."""

    card_id: str
    page: int
    left_mm: float
    top_mm: float
    copy: int = 0


def sticker_places(sticker_mm: float, paper: tuple[float, float] = A4_MM,
                   card_ids: Sequence[str] = CARD_IDS) -> list[StickerPlace]:
    """The sticker grid: a card's two stickers side by side, as many cards per page as fit, in card id order.

    ``top_mm`` is the top of the code's square; its label strip follows below, inside the same cut.
    """
    cut_w, cut_h = sticker_cut_mm(sticker_mm)
    cell_w = STICKERS_PER_CARD * (cut_w + _STICKER_GAP_MM) + 3
    cell_h = cut_h + 2 * (CUT_GAP_MM + CUT_MARK_MM) - 1
    columns = max(1, int((paper[0] - 2 * MARGIN_MM) // cell_w))
    rows = max(1, int((paper[1] - 2 * MARGIN_MM - 22) // cell_h))
    places = []
    for index, card_id in enumerate(card_ids):
        page, slot = divmod(index, columns * rows)
        row, column = divmod(slot, columns)
        left = MARGIN_MM + column * cell_w + 4
        top = MARGIN_MM + row * cell_h + 5
        places += [StickerPlace(card_id, page, left + copy * (cut_w + _STICKER_GAP_MM), top, copy)
                   for copy in range(STICKERS_PER_CARD)]
    return places


def sticker_pages(sticker_mm: float, dpi: int = DEFAULT_DPI, paper: tuple[float, float] = A4_MM,
                  card_ids: Sequence[str] = CARD_IDS, card_mm: tuple[float, float] | None = None) -> list[Image.Image]:
    """Both stickers of every card of ``card_ids``, each with its id, color name and orientation mark inside its cut.

    ``card_mm``: the cards they are for; on a card too small for two stickers
    side by side the label strips are cut short (:func:`label_strip_width_mm`).
    """
    places = sticker_places(sticker_mm, paper, card_ids)
    strip_w = sticker_mm if card_mm is None else label_strip_width_mm(card_mm, sticker_mm)
    pages = []
    for number in range(places[-1].page + 1):
        on_page = [place for place in places if place.page == number]
        cards = list(dict.fromkeys(place.card_id for place in on_page))
        page = _Page(dpi, paper)
        page.text(
            MARGIN_MM,
            MARGIN_MM - 6,
            f"Mandala Table Companion: stickers for cards {cards[0]}-{cards[-1]} "
            f"({len(cards)} of {len(card_ids)} cards, two each), {sticker_mm:g} mm (print at 100%)",
            3.0,
        )
        page.text(MARGIN_MM, MARGIN_MM - 2, "Cut on the marks. Each sticker goes on a card of the color printed "
                  "on it, its label toward the card's middle, the black corner pointing at the middle.", 2.4)
        for place in on_page:
            sticker_piece(page, place.card_id, place.left_mm, place.top_mm, sticker_mm, strip_w=strip_w)
            sticker_cut_marks(page, place.left_mm, place.top_mm, sticker_mm, strip_w)
        page.bottom_scale_bar()
        pages.append(page.image())
    return pages


def sticker_cut_marks(page: _Page, left: float, top: float, sticker_mm: float, strip_w: float) -> None:
    """The crop marks of one sticker; a shortened label strip gets its step drawn as a cut line, outside the piece."""
    cut_w, cut_h = sticker_cut_mm(sticker_mm)
    page.cut_marks(left, top, cut_w, cut_h)
    if strip_w < cut_w:
        step_y, right = top + sticker_mm, left + strip_w
        page.line([(left + cut_w + CUT_GAP_MM, step_y), (right, step_y), (right, top + cut_h + CUT_GAP_MM)])


def sticker_outline_mm(left: float, top: float, sticker_mm: float, strip_w: float,
                       upside_down: bool = False) -> list[tuple[float, float]]:
    """The cut's outline: the code's square and, below it as printed, the label strip (maybe shorter)."""
    cut_w, cut_h = sticker_cut_mm(sticker_mm)
    points = [(0.0, 0.0), (cut_w, 0.0), (cut_w, sticker_mm), (strip_w, sticker_mm), (strip_w, cut_h), (0.0, cut_h)]
    if upside_down:
        points = [(cut_w - x, cut_h - y) for x, y in points]
    return [(left + x, top + y) for x, y in points]


def sticker_piece(page: _Page, card_id: str, left: float, top: float, sticker_mm: float,
                  upside_down: bool = False, *, strip_w: float | None = None) -> None:
    """One sticker as cut: the code and quiet zone, then the label strip (id, color, the corner mark).

    ``upside_down`` draws it turned half a turn about the same box (the
    card's bottom-right sticker in the guide): the strip then lies above.
    ``strip_w``: the label strip's width when shorter than the code's
    (:func:`~companion.markers.codes.label_strip_width_mm`), from its left end as printed.
    """
    cut_w, cut_h = sticker_cut_mm(sticker_mm)
    strip_w = cut_w if strip_w is None else strip_w
    strip = cut_h - sticker_mm
    code_top = top + strip if upside_down else top
    strip_top = top if upside_down else top + sticker_mm
    modules = sticker_modules(payload_for(card_id))
    page.paint(np.rot90(modules, 2) if upside_down else modules, left, code_top, sticker_mm)
    mark = strip * 0.6
    text = f"{card_id} {color_name_of(card_id)}"
    text_h = strip * 0.62
    room = strip_w - mark - 1.5
    if upside_down:
        strip_left = left + cut_w - strip_w  # turned half a turn, the strip's printed left end is on the right
        page.fitted_text(strip_left + mark + 0.6, strip_top + (strip - text_h) / 2, text, text_h, room, turn=2)
        x, y = strip_left + 0.3, strip_top + 0.3  # the mark in the strip's far corner, as turned
        page.polygon([(x, y), (x + mark, y), (x, y + mark)])
    else:
        page.fitted_text(left + 0.6, strip_top + (strip - text_h) / 2, text, text_h, room)
        x, y = left + strip_w - 0.3, strip_top + strip - 0.3
        page.polygon([(x, y), (x - mark, y), (x, y - mark)])


# --------------------------------------------------------------------------- fiducials


def fiducial_pages(layout: Layout, dpi: int = DEFAULT_DPI, paper: tuple[float, float] = A4_MM) -> list[Image.Image]:
    """The layout's fiducials at their size, each on a white margin of one cell with its label strip, cut marks."""
    biggest = max((f.size_mm for f in layout.fiducials), default=24.0)
    outer = biggest * (FIDUCIAL_CELLS + 2 * FIDUCIAL_QUIET_CELLS) / FIDUCIAL_CELLS
    strip = biggest * FIDUCIAL_LABEL_CELLS / FIDUCIAL_CELLS
    cell_w, cell_h = max(outer + 14, 58.0), outer + strip + 24
    columns = max(1, int((paper[0] - 2 * MARGIN_MM) // cell_w))
    rows = max(1, int((paper[1] - 2 * MARGIN_MM - 22) // cell_h))
    per_page = columns * rows
    pages = []
    fiducials = list(layout.fiducials)
    for first in range(0, max(len(fiducials), 1), per_page):
        page = _Page(dpi, paper)
        page.text(
            MARGIN_MM,
            MARGIN_MM - 6,
            f"Playmat fiducials for layout {layout.name!r} "
            "(ArUco DICT_4X4_50); cut on the marks, keep the white margin and the label",
            3.0,
        )
        for index, fiducial in enumerate(fiducials[first : first + per_page]):
            left = MARGIN_MM + (index % columns) * cell_w + 6
            top = MARGIN_MM + (index // columns) * cell_h + 6
            side = fiducial_piece(page, fiducial.id, fiducial.size_mm, left, top)
            x, y = fiducial.center_mm
            page.text(left, top + side[1] + 5.5, f"centre at ({x:g}, {y:g}) mm", 3.0)
            page.text(left, top + side[1] + 10, f"black square {fiducial.size_mm:g} mm", 2.6)
        page.bottom_scale_bar()
        pages.append(page.image())
    return pages


def fiducial_piece(page: _Page, fiducial_id: int, size_mm: float, left: float, top: float,
                   cut_marks: bool = True) -> tuple[float, float]:
    """One fiducial as cut: the marker on its white margin, then a strip naming it and the edge toward player 1.

    Returns the cut's width and height (the cut marks are drawn too, unless ``cut_marks`` is false: a printed
    mat carries its fiducials as they are).
    """
    cells = np.pad(fiducial_cells(fiducial_id), FIDUCIAL_QUIET_CELLS, constant_values=False)
    side = size_mm * cells.shape[0] / FIDUCIAL_CELLS
    strip = size_mm * FIDUCIAL_LABEL_CELLS / FIDUCIAL_CELLS
    page.paint(cells, left, top, side)
    page.fitted_text(left + 1.0, top + side + 0.2, f"id {fiducial_id}", strip * 0.4, side - 2)
    page.fitted_text(left + 1.0, top + side + strip * 0.45, "this edge toward player 1", strip * 0.3, side - 2)
    page.line([(left + 1.0, top + side + strip - 0.6), (left + side - 1.0, top + side + strip - 0.6)], 0.5)
    if cut_marks:
        page.cut_marks(left, top, side, side + strip)
    return side, side + strip


# --------------------------------------------------------------------------- lens calibration sheet


def calibration_sheet_page(dpi: int = DEFAULT_DPI, paper: tuple[float, float] = A4_MM) -> Image.Image:
    """The ChArUco board of :mod:`companion.vision.sheet` at true size on one page.

    Laid flat on the table while ``companion calibrate`` looks (or
    photographed in several places, ``--sheet``), it gives the lens fit
    dozens of exactly known points.
    """
    page = _Page(dpi, paper)
    board = sheet_image(page.px_per_mm)
    width_mm, height_mm = sheet_size_mm()
    roomy = paper[1] - height_mm >= 30.0  # A4: caption above, bar below; Letter: both beside the board
    left, top = (paper[0] - width_mm) / 2, 14.0 if roomy else (paper[1] - height_mm) / 2
    x0, y0 = round(page.px(left)), round(page.px(top))
    page.pixels[y0 : y0 + board.shape[0], x0 : x0 + board.shape[1]] = board
    caption = (f"Mandala Table Companion: lens calibration sheet (ChArUco {SHEET_SQUARES[0]}x{SHEET_SQUARES[1]}, "
               f"{SHEET_SQUARE_MM:g} mm squares). Print at 100%, keep it flat, lay it on the mat for companion "
               "calibrate.")
    page.rectangle(left, top, left + width_mm, top + height_mm, 0.1)
    if roomy:
        page.text(MARGIN_MM, 5.0, caption, 2.6)
        page.scale_bar(MARGIN_MM, paper[1] - 8.0)
    else:
        page.side_scale_bar(left - 1.0, top + 10.0)
        page.fitted_text(paper[0] - left + 1.5, top + 10.0, caption, 2.2, height_mm - 20.0, turn=3)
    return page.image()


# --------------------------------------------------------------------------- guide


def guide_page(layout: Layout, sticker_mm: float, dpi: int = DEFAULT_DPI,
               paper: tuple[float, float] = A4_MM) -> Image.Image:
    """Where a sticker goes on a card (true scale) and where the fiducials go on the mat (to scale)."""
    page = _Page(dpi, paper)
    page.text(MARGIN_MM, MARGIN_MM, "Mandala Table Companion: setting up", 6.0)
    _card_diagram(page, layout, sticker_mm, MARGIN_MM, MARGIN_MM + 14)
    _mat_diagram(page, layout, MARGIN_MM, 122.0)
    page.bottom_scale_bar()
    return page.image()


def _card_diagram(page: _Page, layout: Layout, sticker_mm: float, left: float, top: float) -> None:
    card_w, card_h = layout.card_mm
    page.rectangle(left, top, left + card_w, top + card_h, 0.3)
    cut_h = sticker_cut_mm(sticker_mm)[1]
    for (dx, dy), turn in zip(sticker_offsets_mm(layout.card_mm, sticker_mm), STICKER_TURNS_DEG, strict=True):
        x0 = left + card_w / 2 + dx - sticker_mm / 2
        y0 = top + card_h / 2 + dy - sticker_mm / 2
        upside_down = round(turn / 90) % 4 == 2
        y_cut = y0 - (cut_h - sticker_mm) if upside_down else y0
        strip_w = label_strip_width_mm(layout.card_mm, sticker_mm)
        sticker_piece(page, "R07", x0, y_cut, sticker_mm, upside_down, strip_w=strip_w)
        outline = sticker_outline_mm(x0, y_cut, sticker_mm, strip_w, upside_down)
        page.line([*outline, outline[0]], 0.1)
    notes = (
        f"1. A card, true size ({card_w:g} x {card_h:g} mm), face up.",
        "2. Each card has two stickers with the same code: cut them on",
        f"   their marks ({sticker_mm:g} mm code squares, {STICKER_MODULES} modules with the white",
        "   margin, and a label strip: card id, color, a black corner).",
        "3. Only on a card of the color printed on the sticker (red on red).",
        f"4. One into the top-left corner, upright, {STICKER_INSET_MM:g} mm from both",
        "   edges; the other into the bottom-right corner, upside down, likewise.",
        "   Each label goes toward the card's middle, its black corner",
        "   pointing at the middle (so does the code's corner without a",
        "   big square). Either sticker places the card: fanned or turned,",
        "   one corner shows. Then: companion markers check.",
        "5. Keep the white margins clean, the stickers flat and square",
        "   to the edges; matte paper avoids glare.",
    )
    for line, note in enumerate(notes):
        page.text(left + card_w + 8, top + 2 + line * 6.2, note, 3.0)


def _mat_diagram(page: _Page, layout: Layout, left: float, top: float) -> None:
    width, height = layout.size_mm
    scale = min((page.size_mm[0] - 2 * MARGIN_MM) / width, 100.0 / height)
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


def write_markers(out_dir: Path, layout: Layout, dpi: int = DEFAULT_DPI, paper: str = "a4",
                  card_ids: Sequence[str] = CARD_IDS) -> list[Path]:
    """Write stickers (for ``card_ids``), fiducials, guide, calibration sheet and the players' page as PDFs and
    per-page PNGs on ``paper`` (a4, letter); returns the files."""
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise MarkerOutputError(f"cannot create output folder {out_dir}: {error.strerror}") from None
    from companion.markers.players import players_page  # it draws on this module's pages

    size = PAPERS[paper]
    documents = {
        "stickers": sticker_pages(layout.sticker_mm, dpi, size, card_ids, layout.card_mm),
        "fiducials": fiducial_pages(layout, dpi, size),
        "guide": [guide_page(layout, layout.sticker_mm, dpi, size)],
        "calibration-sheet": [calibration_sheet_page(dpi, size)],
        "players": [players_page(layout, dpi, size)],
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
