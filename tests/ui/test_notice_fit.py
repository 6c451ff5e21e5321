"""Every notice the tracker can put on the screen fits the 128x64 OLED: no cut title, no cut text.

Notices ("CAUGHT UP", "RESYNCED", "CANNOT JOIN YET") are made from the words of
:mod:`companion.vocab.notices`, with the longest values the tracker can
give them, and drawn by the screen's own :func:`companion.ui.screens.draw_notice`
in every language while cuts are recorded.
"""

from __future__ import annotations

import itertools

import pytest
from PIL import Image, ImageDraw

from companion.tracker.display import Notice
from companion.tracker.explain import CATCH_UP_DEPTH
from companion.ui import i18n, screens
from companion.ui import text as t
from companion.ui.screens import draw_notice
from companion.vocab import notices
from companion.vocab.reasons import REASONS, title


def every_notice() -> list[Notice]:
    shown = [Notice(name, text) for name, texts in notices.NOTICES.items() for text in texts if "{" not in text]
    shown += [Notice(notices.CAUGHT_UP, notices.caught_up(moves)) for moves in range(2, CATCH_UP_DEPTH + 1)]
    for player, count in itertools.product((None, 0, 1), range(0, 9)):
        cards = [f"{letter}{18 - n:02d}" for n, letter in zip(range(count), itertools.cycle("RKOYGP"), strict=False)]
        shown.append(Notice(notices.TAKEN_BACK, notices.taken_back(player, cards, "refill")))
    shown += [Notice(notices.PLAYED_ON, notices.played_on(title(code))) for code in REASONS]
    return shown


@pytest.mark.parametrize("language", i18n.LANGUAGES)
@pytest.mark.parametrize("notice", every_notice(), ids=str)
def test_every_notice_fits_the_screen_uncut(notice: Notice, language: str) -> None:
    image = Image.new("1", screens.SIZE)
    with i18n.speaking(language), t.recording_cuts() as cuts:
        draw_notice(ImageDraw.Draw(image), notice)
    assert not cuts, cuts
    box = image.getbbox()
    assert box is not None and box[2] <= 127 and box[3] <= 63


@pytest.mark.parametrize("language", [name for name in i18n.LANGUAGES if name != "en"])
@pytest.mark.parametrize("notice", every_notice(), ids=str)
def test_every_notice_is_shown_in_the_players_language(notice: Notice, language: str) -> None:
    found = notices.template_of(notice.title, notice.text)
    assert found is not None, f"{notice} is made from no template of companion/vocab/notices.py"
    catalog = i18n.parse_po(i18n.catalog_text(language))
    assert catalog.get(notice.title) and catalog.get(found[0]), f"{language}: {notice} has no translation"
    with i18n.speaking(language):
        assert screens.notice_words(notice) == (catalog[notice.title], catalog[found[0]].format(
            **{name: catalog.get(value) or value for name, value in found[1].items()}))


def test_the_check_finds_a_cut() -> None:
    """A text too long for three lines, through the screen's own wording of a notice, is recorded cut."""
    many = " ".join(f"R{n:02d}" for n in range(1, 19))
    notice = Notice(notices.TAKEN_BACK, notices.TAKEN_BACK_TEXT.format(move=f"P1 {many}"))
    assert notices.template_of(notice.title, notice.text) is not None
    with t.recording_cuts() as cuts:
        draw_notice(ImageDraw.Draw(Image.new("1", screens.SIZE)), notice)
    assert cuts
