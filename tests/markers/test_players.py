"""The players' one-page guide: on the page for A4 and Letter, and made from the keymap and the registry."""

from __future__ import annotations

import numpy as np

from companion.engine import Game
from companion.markers.players import COMMAND_WORDS, CONTEXT_WORDS, PRINTABLE_MM, players_page
from companion.markers.sheets import MARGIN_MM
from companion.ui.buttons import KEYMAP
from companion.vision.layout import load_layout
from companion.vocab.reasons import REASONS

DPI = 100


def test_the_page_keeps_inside_the_margins_of_a4_and_letter() -> None:
    ink = np.asarray(players_page(load_layout(None), DPI).convert("L")) < 128
    rows, columns = np.nonzero(ink)
    mm = 25.4 / DPI
    assert rows.max() * mm <= PRINTABLE_MM[1] - MARGIN_MM / 2  # Letter is 279.4 mm tall
    assert columns.min() * mm >= MARGIN_MM / 2 and columns.max() * mm <= PRINTABLE_MM[0] - MARGIN_MM / 2


def test_every_button_meaning_has_words() -> None:
    assert set(CONTEXT_WORDS) == set(KEYMAP)
    assert {command for presses in KEYMAP.values() for command in presses.values()} <= set(COMMAND_WORDS)


def test_every_warning_of_the_official_game_is_on_the_page() -> None:
    from companion.markers.players import _warning_lines

    titles = [line.split(":")[0] for line in _warning_lines()]
    assert all(REASONS[code].title in titles for code in Game.rules.precedence)
