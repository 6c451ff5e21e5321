"""Fonts and text layout for the 128x64 panel.

The bundled Spleen fonts (BSD-2-Clause, ``fonts/LICENSE-spleen.txt``) are
pixel fonts drawn as outlines that land exactly on the pixel grid at their
native sizes, so text stays crisp in mode "1". Three sizes: SMALL 6x12 for
details (21 characters a line), MEDIUM 8x16 for what to read first, LARGE
12x24 for the one instruction that matters most ("DRAW 2").
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

from PIL import ImageDraw, ImageFont

from companion.errors import DeviceError


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


@cache
def font(spec: FontSpec) -> ImageFont.FreeTypeFont:
    try:
        path = resources.files("companion.ui") / "fonts" / spec.file
        with resources.as_file(path) as real:
            return ImageFont.truetype(str(real), spec.size)
    except OSError as error:
        raise DeviceError(f"font {spec.file}: cannot be loaded ({error})") from error


def line_height(spec: FontSpec) -> int:
    """Height of a text line: the cap-to-descender box without Spleen's top gap."""
    return spec.size - _TOP_GAP[spec]


def text(draw: ImageDraw.ImageDraw, xy: tuple[int, int], value: str, spec: FontSpec,
         fill: int = 1) -> None:
    """Draw ``value`` with its top pixel row at ``xy[1]``."""
    draw.text((xy[0], xy[1] - _TOP_GAP[spec]), value, font=font(spec), fill=fill)


def text_width(value: str, spec: FontSpec) -> int:
    return len(value) * spec.width


def centered(draw: ImageDraw.ImageDraw, y: int, value: str, spec: FontSpec, width: int,
             fill: int = 1) -> None:
    text(draw, (max(0, (width - text_width(value, spec)) // 2), y), value, spec, fill)


def right(draw: ImageDraw.ImageDraw, y: int, value: str, spec: FontSpec, width: int,
          fill: int = 1) -> None:
    text(draw, (width - text_width(value, spec) - 1, y), value, spec, fill)


def fit(value: str, columns: int) -> str:
    """Cut ``value`` to ``columns`` characters, marking the cut with a trailing dot pair."""
    if len(value) <= columns:
        return value
    return value[: max(0, columns - 2)].rstrip() + ".."


def wrap(value: str, columns: int, max_lines: int) -> list[str]:
    """Word-wrap into at most ``max_lines`` lines; the last line is cut if needed."""
    lines: list[str] = []
    current = ""
    words = value.split()
    for index, word in enumerate(words):
        candidate = f"{current} {word}" if current else word
        if len(candidate) <= columns:
            current = candidate
            continue
        if len(lines) == max_lines - 1:
            # Last allowed line: put the rest in and cut it.
            return [*lines, fit(" ".join([current, *words[index:]]).strip(), columns)]
        if current:
            lines.append(current)
        current = word if len(word) <= columns else fit(word, columns)
    if current:
        lines.append(current)
    return lines[:max_lines]


def wrap_all(value: str, columns: int) -> list[str]:
    """Word-wrap with no limit on lines and no cut: a word longer than ``columns`` keeps its own long line."""
    lines: list[str] = []
    for word in value.split():
        if lines and len(lines[-1]) + 1 + len(word) <= columns:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines
