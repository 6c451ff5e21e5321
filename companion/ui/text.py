"""Fonts and text layout for the 128x64 panel.

The bundled Spleen fonts (BSD-2-Clause, ``fonts/LICENSE-spleen.txt``) are
pixel fonts drawn as outlines that land exactly on the pixel grid at their
native sizes, so text stays crisp in mode "1". Three sizes: SMALL 6x12 for
details (21 characters a line), MEDIUM 8x16 for what to read first, LARGE
12x24 for the one instruction that matters most ("DRAW 2").

Spleen has Latin letters only: Persian, Greek and Russian screens
(:mod:`companion.ui.i18n`) are set in DejaVu Sans (Debian's
fonts-dejavu-core, which ./dev and hardware/install.sh install) at sizes
that keep the same line heights; Persian is shaped and set right to left by
Pillow's libraqm layout, from the right edge of the panel. Widths are
measured in pixels, so fitting and wrapping hold for every font; a text that
had to be cut, or that would leave the panel, is noted while
:func:`recording_cuts` listens (the test for cuts in every language).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFont

from companion.errors import DeviceError
from companion.ui import i18n


@dataclass(frozen=True, slots=True)
class FontSpec:
    file: str
    size: int
    width: int
    """Advance of one character in pixels (all three are monospaced)."""


SMALL = FontSpec("spleen-6x12.otf", 12, 6)
MEDIUM = FontSpec("spleen-8x16.otf", 16, 8)
LARGE = FontSpec("spleen-12x24.otf", 24, 12)

# Spleen's ascent leaves blank rows above capitals; these offsets move the
# glyph box so a line of text starts at its top pixel row.
_TOP_GAP = {SMALL: 1, MEDIUM: 2, LARGE: 4}

SCRIPT_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
"""For the languages Spleen cannot write (Debian's fonts-dejavu-core)."""
_SCRIPT_SIZES = {SMALL: (10, 1), MEDIUM: (13, 2), LARGE: (19, 3)}
"""Per size: DejaVu's pixel size and top gap, for the same line heights as Spleen's."""
PANEL_WIDTH = 128
_cuts: list[list[str]] = []
_BOXES = "_companion_text_boxes"
"""While cuts are recorded: the boxes of the texts drawn so far on a drawing, to find texts that overlap."""
_THRESHOLD = [0] * 128 + [255] * 128
"""Anti-aliased ink to the panel's two levels, as mode "1" draws it."""


@cache
def _font(spec: FontSpec, script: bool) -> ImageFont.FreeTypeFont:
    if script:
        try:
            return ImageFont.truetype(str(SCRIPT_FONT), _SCRIPT_SIZES[spec][0])
        except OSError as error:
            raise DeviceError(f"font {SCRIPT_FONT}: cannot be loaded ({error}); the screens in "
                              f"{i18n.current()} need it: apt-get install fonts-dejavu-core") from error
    try:
        path = resources.files("companion.ui") / "fonts" / spec.file
        with resources.as_file(path) as real:
            return ImageFont.truetype(str(real), spec.size)
    except OSError as error:
        raise DeviceError(f"font {spec.file}: cannot be loaded ({error})") from error


def _script() -> bool:
    return i18n.current() != "en"


def font(spec: FontSpec) -> ImageFont.FreeTypeFont:
    """The face of ``spec`` for the current language."""
    return _font(spec, _script())


def _top_gap(spec: FontSpec) -> int:
    return _SCRIPT_SIZES[spec][1] if _script() else _TOP_GAP[spec]


@cache
def _shaping() -> bool:
    """Pillow built with libraqm (its wheels are): without it Persian is drawn unshaped, left to right."""
    from PIL import features

    return bool(features.check_feature("raqm"))


def _rtl(value: str) -> bool:
    """Persian text (a code or a number alone stays left to right, its digits in their order)."""
    return i18n.is_rtl() and _shaping() and any("\u0600" <= c <= "\u06ff" or "\ufb50" <= c <= "\ufeff" for c in value)


def _layout(value: str) -> dict[str, str]:
    """Pillow's layout options: Persian shaped right to left (libraqm)."""
    return {"direction": "rtl", "language": "fa"} if _rtl(value) else {}


def line_height(spec: FontSpec) -> int:
    """Height of a text line: the cap-to-descender box without Spleen's top gap."""
    return spec.size - _TOP_GAP[spec]


def text(draw: ImageDraw.ImageDraw, xy: tuple[int, int], value: str, spec: FontSpec,
         fill: int = 1) -> None:
    """Draw ``value`` with its top pixel row at ``xy[1]``; right to left, it starts ``xy[0]`` from the right."""
    x, y = xy
    face, options = font(spec), _layout(value)
    if _rtl(value):
        # Set from the right edge: the ink's right end, not the advance, lands xy[0] from it.
        x = PANEL_WIDTH - x - round(face.getbbox(value, **options)[2])  # type: ignore[arg-type]
    origin = (x, y - _top_gap(spec))
    if _cuts and value.strip():
        _check(draw, origin, value, face, options, fill)
    draw.text(origin, value, font=face, fill=fill, **options)  # type: ignore[arg-type]


def _check(draw: ImageDraw.ImageDraw, origin: tuple[int, int], value: str, face: ImageFont.FreeTypeFont,
           options: dict[str, str], fill: int) -> None:
    """Note a text that leaves the panel, falls partly on its own color (out of its bar), or overlaps a text."""
    box = tuple(round(v) for v in draw.textbbox(origin, value, font=face, **options))  # type: ignore[arg-type]
    left, top, right, bottom = box
    width, height = draw.im.size
    if left < 0 or top < 0 or right > width or bottom > height:
        _cuts[-1].append(f"{value!r} leaves the panel: {box}")
    # The text's ink on the panel, in "L" (0 or 255: ImageChops misreads mode "1" images).
    ink = Image.new("L", (width, height))
    ImageDraw.Draw(ink).text(origin, value, font=face, fill=255, **options)  # type: ignore[arg-type]
    region = (max(0, left), max(0, top), min(width, right), min(height, bottom))
    ink = ink.crop(region).point(_THRESHOLD)
    background = draw._image.crop(region).convert("L")
    same = background if fill else ImageChops.invert(background)
    if ImageChops.multiply(ink, same).getbbox() is not None:
        _cuts[-1].append(f"{value!r} is partly drawn on its own color (out of its bar)")
    drawn: list[tuple[str, tuple[int, int, int, int], Image.Image]] = getattr(draw, _BOXES, [])
    for other, other_region, other_ink in drawn:
        if _ink_overlaps(region, ink, other_region, other_ink):
            _cuts[-1].append(f"{value!r} overlaps {other!r}")
    setattr(draw, _BOXES, [*drawn, (value, region, ink)])


def _ink_overlaps(region: tuple[int, int, int, int], ink: Image.Image, other_region: tuple[int, int, int, int],
                  other_ink: Image.Image) -> bool:
    left, top = max(region[0], other_region[0]), max(region[1], other_region[1])
    right, bottom = min(region[2], other_region[2]), min(region[3], other_region[3])
    if left >= right or top >= bottom:
        return False
    mine = ink.crop((left - region[0], top - region[1], right - region[0], bottom - region[1]))
    theirs = other_ink.crop((left - other_region[0], top - other_region[1], right - other_region[0],
                             bottom - other_region[1]))
    return ImageChops.multiply(mine, theirs).getbbox() is not None


def text_width(value: str, spec: FontSpec) -> int:
    if not _script():
        return len(value) * spec.width  # Spleen is monospaced
    return _script_width(value, spec, i18n.is_rtl())


@lru_cache(maxsize=4096)
def _script_width(value: str, spec: FontSpec, rtl: bool) -> int:
    # Measuring shaped text is slow on a Pi: wrapping measures the same words again and again.
    return round(font(spec).getlength(value, **_layout(value)))  # type: ignore[arg-type]


@contextmanager
def recording_cuts() -> Iterator[list[str]]:
    """Every text cut to fit, or drawn past the panel's edge, inside the block."""
    _cuts.append([])
    try:
        yield _cuts[-1]
    finally:
        _cuts.pop()


def _note_cut(value: str, kept: str) -> None:
    if _cuts:
        _cuts[-1].append(f"{value!r} cut to {kept!r}")


def centered(draw: ImageDraw.ImageDraw, y: int, value: str, spec: FontSpec, width: int,
             fill: int = 1) -> None:
    text(draw, (max(0, (width - text_width(value, spec)) // 2), y), value, spec, fill)


def right(draw: ImageDraw.ImageDraw, y: int, value: str, spec: FontSpec, width: int,
          fill: int = 1) -> None:
    text(draw, (width - text_width(value, spec) - 1, y), value, spec, fill)


def fits(value: str, columns: int, spec: FontSpec = SMALL) -> bool:
    """Whether ``value`` fits the width of ``columns`` characters of ``spec`` (Spleen's columns)."""
    if not _script():
        return len(value) <= columns
    return text_width(value, spec) <= columns * spec.width


def fit(value: str, columns: int, spec: FontSpec = SMALL) -> str:
    """Cut ``value`` to the width of ``columns`` characters, marking the cut with a trailing dot pair."""
    if fits(value, columns, spec):
        return value
    kept = value[: max(0, columns - 2)]
    while kept and not fits(kept.rstrip() + "..", columns, spec):
        kept = kept[:-1]
    kept = kept.rstrip() + ".."
    _note_cut(value, kept)
    return kept


def wrap(value: str, columns: int, max_lines: int, spec: FontSpec = SMALL) -> list[str]:
    """Word-wrap into at most ``max_lines`` lines; the last line is cut if needed."""
    lines: list[str] = []
    current = ""
    words = value.split()
    for index, word in enumerate(words):
        candidate = f"{current} {word}" if current else word
        if fits(candidate, columns, spec):
            current = candidate
            continue
        if len(lines) == max_lines - 1:
            # Last allowed line: put the rest in and cut it.
            return [*lines, fit(" ".join([current, *words[index:]]).strip(), columns, spec)]
        if current:
            lines.append(current)
        current = word if fits(word, columns, spec) else fit(word, columns, spec)
    if current:
        lines.append(current)
    return lines[:max_lines]


def wrap_all(value: str, columns: int, spec: FontSpec = SMALL) -> list[str]:
    """Word-wrap with no limit on lines and no cut: a word longer than ``columns`` keeps its own long line."""
    lines: list[str] = []
    for word in value.split():
        if lines and fits(f"{lines[-1]} {word}", columns, spec):
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def first_lines(lines: list[str], count: int) -> list[str]:
    """The first ``count`` lines; the ones left out are noted as a cut (the test for cuts)."""
    if len(lines) > count:
        _note_cut(" ".join(lines), " ".join(lines[:count]))
    return lines[:count]
