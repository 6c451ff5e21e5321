"""The terminal OLED emulation: frames as text, keys as buttons."""

from __future__ import annotations

import io
import os

from PIL import Image

from companion.ui.buttons import Press, PressKind
from companion.ui.samples import MIDGAME
from companion.ui.screens import render
from companion.ui.state import UiState
from companion.ui.terminal import TerminalDisplay, TerminalKeys, to_text


def test_half_blocks_pack_two_rows_per_character() -> None:
    image = Image.new("1", (4, 4))
    image.putpixel((0, 0), 1)
    image.putpixel((1, 1), 1)
    image.putpixel((2, 0), 1)
    image.putpixel((2, 1), 1)
    assert to_text(image).splitlines() == ["▀▄█ ", "    "]


def test_braille_packs_two_by_four() -> None:
    image = Image.new("1", (2, 4))
    image.putpixel((0, 0), 1)
    image.putpixel((1, 3), 1)
    assert to_text(image, "braille") == chr(0x2800 + 0x01 + 0x80)


def test_a_full_frame_is_128_by_32_characters() -> None:
    lines = to_text(render(MIDGAME, UiState())).splitlines()
    assert len(lines) == 32 and {len(line) for line in lines} == {128}


def test_without_a_terminal_frames_are_just_printed() -> None:
    out = io.StringIO()
    display = TerminalDisplay(out)
    display.display(render(MIDGAME, UiState()))
    display.display(render(MIDGAME, UiState()))
    text = out.getvalue()
    assert "\x1b[" not in text
    assert text.count("┌") == 2 and "█" in text


def test_hide_prints_a_dark_frame() -> None:
    out = io.StringIO()
    display = TerminalDisplay(out)
    display.display(render(MIDGAME, UiState()))
    display.hide()
    last = out.getvalue().split("┌")[-1]
    assert "█" not in last and " off " in last


def test_keys_without_a_terminal_return_nothing_and_never_block() -> None:
    with TerminalKeys(io.StringIO("abc")) as keys:
        assert not keys.interactive
        assert keys.poll(timeout=5.0) == []


def test_keys_on_a_terminal_are_button_presses() -> None:
    main, sub = os.openpty()
    with os.fdopen(sub, "r") as stream, TerminalKeys(stream) as keys:
        assert keys.interactive
        os.write(main, b"aBxq")
        presses = keys.poll(timeout=1.0)
        assert presses == [Press("A", PressKind.SHORT), Press("B", PressKind.LONG)]
        assert keys.quit and keys.take_other_keys() == ["x"]
    os.close(main)
