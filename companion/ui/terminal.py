"""An OLED emulation in the terminal, for the demo when no panel is attached.

:class:`TerminalDisplay` has the panel's interface (``display``, ``contrast``,
``show``, ``hide``) and prints each 128x64 frame with Unicode half blocks
(one character = 1x2 pixels, 128x32 characters) or braille (2x4 pixels,
64x16 characters). On a terminal it redraws in place; when stdout is not a
terminal it just prints the frames one after another.

:class:`TerminalKeys` reads keys for the buttons: ``a``/``b``/``c`` are short
presses, ``A``/``B``/``C`` long presses, ``q`` quits. When stdin is not a
terminal there are no keys (and nothing blocks).
"""

from __future__ import annotations

import os
import select
import sys
from types import TracebackType
from typing import Any, Literal, TextIO

from PIL import Image

from companion.ui.buttons import BUTTONS, Press, PressKind

Style = Literal["halfblock", "braille"]
_HALF = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}
# Braille dot bits for (x, y) inside a 2x4 cell, as Unicode numbers them.
_BRAILLE_BITS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))


def to_text(image: Image.Image, style: Style = "halfblock") -> str:
    """The image as lines of Unicode block or braille characters."""
    mono = image.convert("1")
    width, height = mono.size
    lit = [[bool(mono.getpixel((x, y))) for x in range(width)] for y in range(height)]
    if style == "braille":
        return "\n".join(_braille_row(lit, y, width) for y in range(0, height, 4))
    return "\n".join(
        "".join(_HALF[lit[y][x], y + 1 < height and lit[y + 1][x]] for x in range(width))
        for y in range(0, height, 2)
    )


def _braille_row(lit: list[list[bool]], top: int, width: int) -> str:
    cells = []
    for left in range(0, width, 2):
        bits = 0
        for dy, row_bits in enumerate(_BRAILLE_BITS):
            for dx, bit in enumerate(row_bits):
                y, x = top + dy, left + dx
                if y < len(lit) and x < width and lit[y][x]:
                    bits |= bit
        cells.append(chr(0x2800 + bits))
    return "".join(cells)


class TerminalDisplay:
    """Prints frames; a border shows the panel's edge, the status line its power state."""

    def __init__(self, out: TextIO | None = None, style: Style = "halfblock") -> None:
        self.out = out if out is not None else sys.stdout
        self.style = style
        self.image: Image.Image | None = None
        self.frames = 0
        self._level = 255
        self._visible = True
        self._in_place = self.out.isatty()

    def display(self, image: Image.Image) -> None:
        self.image = image.copy()
        self.frames += 1
        self._print()

    def contrast(self, level: int) -> None:
        self._level = level

    def show(self) -> None:
        self._visible = True

    def hide(self) -> None:
        self._visible = False
        self._print()

    def cleanup(self) -> None:
        pass

    def _print(self) -> None:
        if self.image is None:
            return
        shown = self.image if self._visible else Image.new("1", self.image.size)
        body = to_text(shown, self.style).splitlines()
        width = len(body[0]) if body else 0
        state = "off" if not self._visible else f"contrast {self._level}"
        lines = ["┌" + "─" * width + "┐", *("│" + line + "│" for line in body),
                 "└" + f" {state} ".center(width, "─") + "┘"]
        prefix = "\x1b[H" if self._in_place else ""
        self.out.write(prefix + "\n".join(lines) + "\n")
        if not self._in_place:
            self.out.write("\n")
        self.out.flush()


KEYS: dict[str, Press] = {
    **{name.lower(): Press(name, PressKind.SHORT) for name in BUTTONS},
    **{name: Press(name, PressKind.LONG) for name in BUTTONS},
}


class TerminalKeys:
    """Keys for the buttons; use as a context manager (it sets the terminal to cbreak)."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stdin
        self.interactive = self.stream.isatty()
        self.quit = False
        self._other: list[str] = []
        self._saved: list[Any] | None = None

    def __enter__(self) -> TerminalKeys:
        if self.interactive:
            import termios
            import tty

            fd = self.stream.fileno()
            self._saved = termios.tcgetattr(fd)
            tty.setcbreak(fd)
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self._saved is not None:
            import termios

            termios.tcsetattr(self.stream.fileno(), termios.TCSADRAIN, self._saved)
            self._saved = None

    def poll(self, timeout: float = 0.0) -> list[Press]:
        """Presses typed since the last call, waiting at most ``timeout`` seconds for one."""
        if not self.interactive:
            return []
        presses: list[Press] = []
        fd = self.stream.fileno()
        while select.select([fd], [], [], timeout)[0]:
            timeout = 0.0
            for key in os.read(fd, 32).decode(errors="ignore"):
                if key == "q":
                    self.quit = True
                elif key in KEYS:
                    presses.append(KEYS[key])
                else:
                    self._other.append(key)
        return presses

    def take_other_keys(self) -> list[str]:
        """Keys that are no button (for tools built on this, like ``ui emulate``)."""
        taken, self._other = self._other, []
        return taken
