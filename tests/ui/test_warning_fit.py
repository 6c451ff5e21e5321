"""Every warning the tracker can put on the screen fits the 128x64 OLED: no cut, for any card, zone or player.

The texts are made as the tracker makes them: a tracker :class:`Warning` with
the registry's fix, turned into the screen's :class:`TableWarning` by
:func:`companion.tracker.model.table_warning`, laid out by the same function
that draws it (:func:`companion.ui.screens.warning_layout`).
"""

from __future__ import annotations

import functools
import itertools
import json
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from companion.engine import Discard
from companion.engine.cards import parse_any_card
from companion.tracker.display import BOARD_PROBLEMS, CAMERA_PROBLEMS, TableWarning
from companion.tracker.model import table_warning
from companion.tracker.tracker import Warning
from companion.ui import screens
from companion.ui.screens import PROBLEM_COLUMNS, PROBLEM_ROWS, draw_warning, problem_lines, warning_layout
from companion.vocab.colors import COLOR_LETTERS, GOLD_LETTER
from companion.vocab.reasons import REASONS, Reason, Source, warning_text
from companion.vocab.zones import ZONE_NAMES

LAYOUTS = sorted((Path(__file__).resolve().parents[2] / "calibration" / "layouts").glob("*.json"))
ZONES = sorted(set(ZONE_NAMES) | {z for p in LAYOUTS for z in json.loads(p.read_text(encoding="utf-8"))["zones"]})
WARNING_CODES = sorted(code for code, entry in REASONS.items() if entry.source in (Source.ENGINE, Source.TRACKER))
PLAYERS = (0, 1)
SPACES = range(1, 7)


def _card_sets(letter: str) -> list[tuple[str, ...]]:
    """One card, two, three and eight of a color (the highest serials), and a mixed pair and trio."""
    other = "K" if letter != "K" else "R"
    last = 12 if letter == GOLD_LETTER else 18
    ids = [f"{letter}{n:02d}" for n in range(last - 7, last + 1)]
    return [tuple(ids[:1]), tuple(ids[:2]), tuple(ids[:3]), tuple(ids), (ids[0], f"{other}18"),
            (ids[0], ids[1], f"{other}18")]


def tracker_warning(code: str, cards: tuple[str, ...], zone: str, player: int, space: int) -> TableWarning:
    """The screen's warning, made as the tracker makes it (a Discard stands for the event naming the player)."""
    fix = warning_text(code, cards, zone, space=space).fix
    event = Discard(player, tuple(parse_any_card(c) for c in cards))
    message = "A long engine message that only the log and the journal show, never cut there. " * 2
    return table_warning(Warning(code, message, fix, cards, zone, 1234, event, space))


@functools.cache
def every_warning(code: Reason) -> list[tuple[TableWarning, str]]:
    """Each distinct text of a reason's warnings, with one warning (as the tracker makes it) that shows it.

    A translation fills its template with the same values, so the distinct
    English texts are also every text in another language (test_languages.py).
    """
    texts: dict[tuple[str, str], tuple[TableWarning, str]] = {}
    for letter, zone, player in itertools.product(COLOR_LETTERS + GOLD_LETTER, ZONES, PLAYERS):
        for cards in _card_sets(letter):
            spaces = SPACES if "{space}" in REASONS[code].fix else (1,)
            for space in spaces:
                shown = tracker_warning(code, cards, zone, player, space)
                texts.setdefault((shown.fix, shown.what), (shown, f"{cards} {zone} p{player + 1} space {space}"))
    return list(texts.values())


@pytest.mark.parametrize("code", WARNING_CODES)
def test_every_warning_text_of_a_reason_fits_the_screen(code: Reason) -> None:
    cut = []
    for warning, case in every_warning(code):
        for count in (1, 12):  # alone, and beside a "1/12" counter
            layout = warning_layout(warning, count=count)
            if not layout.fits:
                cut.append(f"{case} (count {count}): {warning.fix!r} / {warning.what!r}")
    assert not cut, f"{code}: {len(cut)} texts cut, e.g. " + "; ".join(cut[:3])


@pytest.mark.parametrize("code", WARNING_CODES)
def test_the_longest_text_of_a_reason_draws_inside_the_panel(code: Reason) -> None:
    warning = max((w for w, _ in every_warning(code)), key=lambda w: (len(w.fix), len(w.what)))
    image = Image.new("1", screens.SIZE)
    draw_warning(ImageDraw.Draw(image), warning, count=12, inverted=False)
    box = image.getbbox()
    assert box is not None and box[2] <= 127 and box[3] <= 63


@pytest.mark.parametrize("code", sorted({*CAMERA_PROBLEMS.values(), *BOARD_PROBLEMS.values()}))
def test_camera_and_board_problems_fit_their_screen(code: str) -> None:
    title, lines = problem_lines(code)
    assert len(title) <= 15 and len(lines) <= PROBLEM_ROWS and all(len(line) <= PROBLEM_COLUMNS for line in lines)


def test_the_check_finds_a_cut() -> None:
    # A text one word too long for the screen is reported, not silently cut.
    long = TableWarning("color-rule", "", "Take back the orange card O18 now", what="x")
    assert not warning_layout(long).fits
    assert not warning_layout(TableWarning("color-rule", "", "ok", what="word " * 20)).fits
