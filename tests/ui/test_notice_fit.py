"""Every notice the tracker can put on the screen fits the 128x64 OLED: no cut title, no cut text.

Notices ("CAUGHT UP", "RESYNCED", "CANNOT JOIN YET") are made from the words of
:mod:`companion.tracker.notices`, with the longest values the tracker can
give them, and drawn by the screen's own :func:`companion.ui.screens.draw_notice`
while cuts are recorded.
"""

from __future__ import annotations

import itertools

import pytest
from PIL import Image, ImageDraw

from companion.tracker import notices
from companion.tracker.display import Notice
from companion.tracker.explain import CATCH_UP_DEPTH
from companion.ui import screens
from companion.ui import text as t
from companion.ui.screens import draw_notice
from companion.vocab.reasons import REASONS, title


def every_notice() -> list[Notice]:
    shown = [Notice(name, text) for name, text in itertools.product(notices.TITLES, notices.FIXED_TEXTS)]
    shown += [Notice(notices.CAUGHT_UP, notices.caught_up(moves)) for moves in range(2, CATCH_UP_DEPTH + 1)]
    for player, count in itertools.product((None, 0, 1), range(0, 9)):
        cards = [f"{letter}{18 - n:02d}" for n, letter in zip(range(count), itertools.cycle("RKOYGP"), strict=False)]
        shown.append(Notice(notices.TAKEN_BACK, notices.taken_back(player, cards, "refill")))
    shown += [Notice(notices.PLAYED_ON, notices.played_on(title(code))) for code in REASONS]
    return shown


@pytest.mark.parametrize("notice", every_notice(), ids=str)
def test_every_notice_fits_the_screen_uncut(notice: Notice) -> None:
    image = Image.new("1", screens.SIZE)
    with t.recording_cuts() as cuts:
        draw_notice(ImageDraw.Draw(image), notice)
    assert not cuts, cuts
    box = image.getbbox()
    assert box is not None and box[2] <= 127 and box[3] <= 63


def test_the_check_finds_a_cut() -> None:
    with t.recording_cuts() as cuts:
        draw_notice(ImageDraw.Draw(Image.new("1", screens.SIZE)),
                    Notice("CANNOT JOIN YET", "the position holds more than 108 cards (40 seen, 70 counted in "
                                              "hands, cups and mountains, 30 in the deck)"))
    assert cuts
