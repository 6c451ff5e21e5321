"""The set-up menu and its tasks on the panel: teach the playmat, check the stickers.

Pure drawing functions of a :class:`~companion.tracker.setup_view.SetupView`
(what ``run``'s worker says the task is at), like every screen of
:mod:`companion.ui.screens`: a title bar, three short lines, the keys at the
foot. Every text goes through :func:`~companion.ui.i18n._`; the zones are
named as the warnings name them (:func:`companion.vocab.zones.screen_zone`).
"""

from __future__ import annotations

from PIL import ImageDraw

from companion.tracker.display import COLOR_NAMES
from companion.tracker.setup_view import SetupView
from companion.ui import text as t
from companion.ui.i18n import _
from companion.ui.screens import SIZE, Size, _inverted_line, draw_list
from companion.ui.state import SETUP_DANGEROUS, SETUP_ITEMS
from companion.vocab.zones import screen_zone

BODY_Y = (17, 28, 39)
"""The three body lines between the title bar and the keys."""
KEYS_Y = 50
COLUMNS = 21


def draw_setup_menu(draw: ImageDraw.ImageDraw, selected: int, size: Size = SIZE) -> None:
    """The set-up menu: teach the playmat, check stickers, back to the shipped playmat."""
    labels = [_(item.value) for item in SETUP_ITEMS]
    draw_list(draw, _("SET UP A:down C:ok"), labels, selected, size, hold=SETUP_ITEMS[selected] in SETUP_DANGEROUS)


def draw_setup_task(draw: ImageDraw.ImageDraw, view: SetupView, size: Size = SIZE) -> None:
    if view.task == "check":
        draw_check(draw, view, size)
    else:
        draw_teach(draw, view, size)


# --------------------------------------------------------------------------- teaching the playmat


_TEACH_PROBLEMS = {
    "no-card": "no new card: face up?",
    "two-cards": "one card at a time!",
    "no-mat": "mat corners not seen",
}
"""A problem while cards are laid: one short line under the zone."""
_FAILURES = {
    "fiducial-turned": "A fiducial is askew: stick it square, its P1 edge toward P1.",
    "zones-overlap": "Zones do not fit: lay each card in the middle of its zone.",
    "not-saved": "The layout could not be saved: see the log.",
}


def draw_teach(draw: ImageDraw.ImageDraw, view: SetupView, size: Size = SIZE) -> None:
    """Teaching the playmat: the fiducials, then the zone for the next card, then saved (or what failed)."""
    width = size[0]
    if view.step == "cards":
        _title(draw, _("TEACH {done}/{total}").format(done=view.done, total=view.total), width)
        t.text(draw, (1, 16), _("Lay one card in"), t.SMALL)
        t.text(draw, (1, 27), screen_zone(view.zone, _), t.MEDIUM)
        if view.problem:
            _inverted_line(draw, 39, _(_TEACH_PROBLEMS[view.problem]), width)
        else:
            t.text(draw, (1, 39), _("and leave it there."), t.SMALL)
        _keys(draw, _("B stop  C restart"), width)
    elif view.step == "fiducials":
        _title(draw, _("TEACH THE MAT"), width)
        _body(draw, _("Stick 4 fiducials by the corners, in view."), 2)
        seen = _("{seen} of 4 seen").format(seen=view.seen)
        if view.problem:
            _inverted_line(draw, BODY_Y[2], seen, width)
        else:
            t.text(draw, (1, BODY_Y[2]), seen, t.SMALL)
        _keys(draw, _("B stop  C restart"), width)
    elif view.step == "saved":
        _title(draw, _("MAT LEARNED"), width)
        _body(draw, _("{count} zones saved: in use now. Clear the mat.").format(count=view.total), 3)
        _keys(draw, _("C done"), width)
    elif view.step == "failed":
        _title(draw, _("NOT LEARNED"), width)
        _body(draw, _(_FAILURES[view.problem]), 3)
        _keys(draw, _("B back  C again"), width)
    else:
        _title(draw, _("TEACH THE MAT"), width)
        _body(draw, _("Only for the Mandala playmat: this table plays another game."), 3)
        _keys(draw, _("B back"), width)


# --------------------------------------------------------------------------- checking stickers


WRONG_ROWS = 2


def draw_check(draw: ImageDraw.ImageDraw, view: SetupView, size: Size = SIZE) -> None:
    """Checking one color: lay its cards; any card whose sticker belongs to another color is named."""
    width = size[0]
    color = _(COLOR_NAMES[view.color])
    _title(draw, _("CHECK {color}").format(color=color.upper()), width)
    if view.wrong:
        t.text(draw, (1, BODY_Y[0]), _("Wrong sticker:"), t.SMALL)
        for row, (card, face) in enumerate(view.wrong[:WRONG_ROWS]):
            line = _("{card}: card is {color}").format(card=card, color=_(COLOR_NAMES[face]))
            if row == WRONG_ROWS - 1 and len(view.wrong) > WRONG_ROWS:
                line = _("{card} and {count} more").format(card=card, count=len(view.wrong) - row)
            _inverted_line(draw, BODY_Y[1] + row * 11, line, width)
    elif view.problem:
        _body(draw, _("Lay the {color} cards face up, apart.").format(color=color), 2)
        problem = _("mat corners not seen") if view.problem == "no-mat" else _("no sticker read yet")
        _inverted_line(draw, BODY_Y[2], problem, width)
    else:
        _body(draw, _("Lay the {color} cards face up, apart.").format(color=color), 2)
        status = _("{done} of {total} read, all ok").format(done=view.done, total=view.total)
        if view.unsure:
            status = _("{card}: lay it alone").format(card=view.unsure[0])
        t.text(draw, (1, BODY_Y[2]), status, t.SMALL)
    _keys(draw, _("A color B back C anew"), width)


# --------------------------------------------------------------------------- helpers


def _title(draw: ImageDraw.ImageDraw, title: str, width: int) -> None:
    # The title in the medium size when it fits (another language's may not): as the problem screens do.
    spec = t.MEDIUM if t.text_width(title, t.MEDIUM) <= width - 3 else t.SMALL
    _inverted_line(draw, 0, title, width, spec=spec)


def _body(draw: ImageDraw.ImageDraw, value: str, rows: int) -> None:
    for row, line in enumerate(t.wrap(value, COLUMNS, rows)):
        t.text(draw, (1, BODY_Y[row]), line, t.SMALL)


def _keys(draw: ImageDraw.ImageDraw, keys: str, width: int) -> None:
    _inverted_line(draw, KEYS_Y, keys, width)
