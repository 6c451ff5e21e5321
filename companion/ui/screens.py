"""The screens: pure drawing functions of the display model, and :func:`render`.

Every ``draw_*`` function draws onto a PIL ``ImageDraw`` of a 128x64 mode "1"
image and knows no device, so the same code draws onto the panel, onto
luma's ``dummy`` device in tests and into PNG files. Layouts keep the last
pixel column and the last two rows free, so the burn-in pixel shift of
:func:`render` never cuts anything off.

Priority (what :func:`screen_for` picks): blank, menu, camera/board problem,
an unhidden warning, the discard-count question, then the phase screens
(setup, destruction, game over) on the main page, then the page the players
chose with A (main, table, status).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from PIL import Image, ImageDraw

from companion.tracker.display import (
    BOARD_PROBLEMS,
    CAMERA_PROBLEMS,
    COLOR_NAMES,
    JOIN_FIELDS,
    PLAYERS,
    Choice,
    DisplayModel,
    GameOver,
    JoinOffer,
    Notice,
    PlayerName,
    PlayerView,
    TableWarning,
)
from companion.ui import text as t
from companion.ui.i18n import _, current, is_rtl, translations
from companion.ui.state import BRIGHTNESS_LEVELS, DANGEROUS_ITEMS, MENU_ITEMS, MenuItem, Page, UiState
from companion.vocab import calibration, notices, reasons

SIZE = (128, 64)
Size = tuple[int, int]


class Screen(enum.Enum):
    BLANK = "blank"
    PAIRING = "pairing"
    MENU = "menu"
    SETUP_MENU = "setup-menu"
    SETUP_TASK = "setup-task"
    PROBLEM = "problem"
    WARNING = "warning"
    DISCARD = "discard"
    CHOICE = "choice"
    JOIN = "join"
    JOIN_OFFER = "join-offer"
    NOTICE = "notice"
    SETUP = "setup"
    DESTRUCTION = "destruction"
    OVER = "over"
    MAIN = "main"
    TABLE = "table"
    STATUS = "status"


_PAGE_SCREENS = {Page.MAIN: Screen.MAIN, Page.TABLE: Screen.TABLE, Page.STATUS: Screen.STATUS}
_PHASE_SCREENS = {"setup": Screen.SETUP, "destruction": Screen.DESTRUCTION, "over": Screen.OVER}
_MOUNTAINS_PAGES = frozenset({Screen.MAIN, Screen.SETUP, Screen.OVER, Screen.TABLE})
"""The pages a ``mountains`` table draws its own way (companion/ui/mountains_screens.py)."""

def active_warnings(model: DisplayModel, ui: UiState) -> tuple[TableWarning, ...]:
    return tuple(w for w in model.warnings if w.id not in ui.acknowledged)


def _hidden(model: DisplayModel, ui: UiState) -> int:
    return len(model.warnings) - len(active_warnings(model, ui))


def screen_for(model: DisplayModel, ui: UiState) -> Screen:
    """The one screen to show now; the controller maps buttons by it too."""
    if model.pairing:
        return Screen.PAIRING  # a phone waits for the code; the model change wakes a blank panel
    if ui.power == "blank":
        return Screen.BLANK
    if ui.menu is not None:
        return Screen.MENU
    if ui.setup_menu is not None:
        return Screen.SETUP_MENU
    if model.setup is not None and model.camera == "ok":
        return Screen.SETUP_TASK  # it says itself when the mat is out of view
    if model.camera != "ok" or model.board != "ok":
        return Screen.PROBLEM
    if active_warnings(model, ui):
        return Screen.WARNING
    if model.phase == "discard-confirm":
        return Screen.DISCARD
    if model.choice is not None:
        return Screen.CHOICE
    if ui.join_step is not None and model.join is not None:
        return Screen.JOIN
    if ui.page is Page.MAIN and model.phase == "join":
        return Screen.JOIN_OFFER
    if ui.page is Page.MAIN and model.notice is not None:
        return Screen.NOTICE
    if ui.page is Page.MAIN and model.phase in _PHASE_SCREENS:
        return _PHASE_SCREENS[model.phase]
    return _PAGE_SCREENS[ui.page]


def render(model: DisplayModel, ui: UiState, size: Size = SIZE) -> Image.Image:
    """Draw the screen :func:`screen_for` picks into a new mode "1" image, shifted by ``ui.shift``."""
    image = Image.new("1", size)
    screen = screen_for(model, ui)
    if screen is not Screen.BLANK:
        draw_screen(ImageDraw.Draw(image), screen, model, ui, size)
    if ui.shift != (0, 0):
        shifted = Image.new("1", size)
        shifted.paste(image, ui.shift)
        return shifted
    return image


def draw_screen(draw: ImageDraw.ImageDraw, screen: Screen, model: DisplayModel, ui: UiState,
                size: Size = SIZE) -> None:
    if screen is Screen.PAIRING:
        draw_pairing(draw, model.pairing, size)
    elif screen is Screen.MENU:
        draw_menu(draw, ui.menu or 0, size, first_player=model.first_player,
                  brightness=ui.brightness)
    elif screen in (Screen.SETUP_MENU, Screen.SETUP_TASK):
        from companion.ui.setup_screens import draw_setup_menu, draw_setup_task

        if screen is Screen.SETUP_MENU:
            draw_setup_menu(draw, ui.setup_menu or 0, size)
        elif model.setup is not None:
            draw_setup_task(draw, model.setup, size)
    elif screen is Screen.PROBLEM:
        draw_problem(draw, model, size)
    elif screen is Screen.WARNING:
        warnings = active_warnings(model, ui)
        draw_warning(draw, warnings[0], size, count=len(warnings), inverted=ui.blink_on)
    elif screen is Screen.DISCARD:
        draw_discard(draw, model, size, count=ui.discard_count)
    elif screen is Screen.CHOICE and model.choice is not None:
        draw_choice(draw, model.choice, size)
    elif screen is Screen.JOIN and model.join is not None:
        draw_join_question(draw, model.join, ui.join_step or 0, ui.join_values, size)
    elif screen is Screen.JOIN_OFFER:
        draw_join_offer(draw, size)
    elif screen is Screen.NOTICE and model.notice is not None:
        draw_notice(draw, model.notice, size)
    elif model.mountains is not None and screen in _MOUNTAINS_PAGES:  # the other ruleset's own pages
        from companion.ui.mountains_screens import draw_mountains_page

        draw_mountains_page(draw, screen.value, model, size, hidden_warnings=_hidden(model, ui))
    elif screen is Screen.SETUP:
        draw_setup(draw, model, size)
    elif screen is Screen.DESTRUCTION:
        draw_destruction(draw, model, size)
    elif screen is Screen.OVER:
        draw_over(draw, model, size)
    elif screen is Screen.TABLE:
        draw_table(draw, model, size)
    elif screen is Screen.STATUS:
        draw_status(draw, model, size, hidden_warnings=_hidden(model, ui), brightness=ui.brightness)
    else:
        draw_main(draw, model, size, hidden_warnings=_hidden(model, ui))


# --- game screens -----------------------------------------------------------------------


def _player_label(player: PlayerName) -> str:
    return player.upper()


def _score_line(name: PlayerName, view: PlayerView) -> str:
    # The cup cards dealt face down at the start count only once they are shown at the end.
    in_cup = _(" +{count} in cup").format(count=view.unknown_cup) if view.unknown_cup else ""
    return _("{player} {score:>2} pts").format(player=_player_label(name), score=view.score) + in_cup


def draw_main(draw: ImageDraw.ImageDraw, model: DisplayModel, size: Size = SIZE, *,
              hidden_warnings: int = 0) -> None:
    """Whose turn and what to draw (large), both scores, the deck."""
    width = size[0]
    player = _player_label(model.turn)
    headline = (_("{player} DRAW {count}").format(player=player, count=model.draw) if model.draw
                else _("{player} TO PLAY").format(player=player))
    t.centered(draw, 1, headline, t.LARGE, width)
    draw.line((0, 23, width - 2, 23), fill=1)
    for row, (name, view) in enumerate(zip(PLAYERS, model.players, strict=True)):
        y = 27 + row * 12
        t.text(draw, (9, y), _score_line(name, view), t.SMALL)
        if name == model.turn:
            _marker(draw, (0, y + 2))
    t.text(draw, (9, 51), _("deck {count}").format(count=model.deck), t.SMALL)
    if hidden_warnings:
        badge = f"!{hidden_warnings}"
        # Right to left the deck line ends at the right edge: the badge takes the left corner.
        _badge(draw, (t.text_width(badge, t.SMALL) + 5 if is_rtl() else width - 1, 51), badge)


def draw_table(draw: ImageDraw.ImageDraw, model: DisplayModel, size: Size = SIZE) -> None:
    """Each player's hand, score and river, the river as six numbered spaces."""
    for row, (name, view) in enumerate(zip(PLAYERS, model.players, strict=True)):
        y = row * 31
        line = _("{player} hand {hand}  {score} pts").format(player=_player_label(name), hand=view.hand,
                                                             score=view.score)
        t.text(draw, (1, y), line, t.SMALL)
        _river(draw, (1, y + 13), view.river)


def _river(draw: ImageDraw.ImageDraw, xy: tuple[int, int], river: str) -> None:
    # Filled box with the color letter for a laid space, outlined box with the
    # space's number for an empty one: the river reads left to right like the mat.
    x0, y0 = xy
    for space in range(6):
        x = x0 + space * 21
        box = (x, y0, x + 18, y0 + 14)
        if space < len(river):
            draw.rectangle(box, fill=1)
            t.text(draw, (x + 7, y0 + 2), river[space], t.SMALL, fill=0)
        else:
            draw.rectangle(box, outline=1)
            t.text(draw, (x + 7, y0 + 2), str(space + 1), t.SMALL)


def draw_setup(draw: ImageDraw.ImageDraw, model: DisplayModel, size: Size = SIZE) -> None:
    width = size[0]
    t.centered(draw, 0, _("NEW GAME"), t.MEDIUM, width)
    t.text(draw, (1, 17), _("Deal 2 per mountain,"), t.SMALL)
    t.text(draw, (1, 29), _("6 to hand, 2 to cup."), t.SMALL)
    first = _player_label(model.first_player)
    _inverted_line(draw, 46, _("First: {player}  C: swap").format(player=first), width)


def draw_destruction(draw: ImageDraw.ImageDraw, model: DisplayModel, size: Size = SIZE) -> None:
    """A mandala is being destroyed: who claims a color now, which colors remain."""
    info = model.destruction
    if info is None:
        return
    width = size[0]
    if info.refill:
        t.centered(draw, 0, _("{mandala} DESTROYED").format(mandala=info.mandala.upper()), t.MEDIUM, width)
        t.centered(draw, 17, _("REFILL {count}").format(count=info.refill), t.LARGE, width)
        t.text(draw, (1, 40), _("{count} cards face up into").format(count=info.refill), t.SMALL)
        t.text(draw, (1, 51), _("the mountain; {player} next").format(player=_player_label(info.picker)), t.SMALL)
        return
    t.centered(draw, 0, _("{mandala} COMPLETE").format(mandala=info.mandala.upper()), t.MEDIUM, width)
    t.centered(draw, 17, _("{player} PICKS").format(player=_player_label(info.picker)), t.LARGE, width)
    left = _("left: {colors}").format(colors=" ".join(_(COLOR_NAMES[c]) for c in info.colors_left))
    if len(t.wrap_all(left, 21)) > 2:  # many colors left: their letters, as on the cards and the table page
        left = _("left: {colors}").format(colors=" ".join(info.colors_left))
    for index, line in enumerate(t.wrap(left, 21, 2)):
        t.text(draw, (1, 40 + index * 11), line, t.SMALL)


def draw_discard(draw: ImageDraw.ImageDraw, model: DisplayModel, size: Size = SIZE, *,
                 count: int | None = None) -> None:
    """Ask how many cards were discarded when the camera could not see them all."""
    info = model.discard
    if info is None:
        return
    width = size[0]
    shown = info.asked if count is None else count
    t.centered(draw, 0, _("{player} DISCARDED").format(player=_player_label(info.player)), t.MEDIUM, width)
    t.centered(draw, 15, _("saw {count}, how many?").format(count=info.seen), t.SMALL, width)
    t.centered(draw, 28, f"- {shown} +", t.LARGE, width)
    _inverted_line(draw, 50, _("A -1   B +1   C ok"), width)


def draw_over(draw: ImageDraw.ImageDraw, model: DisplayModel, size: Size = SIZE) -> None:
    """Final scores, the winner, and the tie-break when it decided."""
    over = model.over
    if over is None:
        return
    width = size[0]
    t.centered(draw, 0, _("GAME OVER"), t.MEDIUM, width)
    if over.unknown:
        # Until the starting cup cards are seen, no winner: ask for the reveal.
        t.centered(draw, 16, _("SHOW CUPS"), t.LARGE, width)
        t.centered(draw, 39, _("so far P1 {one}  P2 {two}").format(one=over.scores[0], two=over.scores[1]),
                   t.SMALL, width)
        t.centered(draw, 51, _cups_to_show_line(model, over.unknown), t.SMALL, width)
        return
    t.centered(draw, 16, _winner_text(over), t.LARGE, width)
    scores = _("P1 {one} pts  P2 {two} pts").format(one=over.scores[0], two=over.scores[1])
    t.centered(draw, 39, scores, t.SMALL, width)
    t.centered(draw, 51, _over_footer(over), t.SMALL, width)


def _cups_to_show_line(model: DisplayModel, total: int) -> str:
    # Name whose cup is asked for: "SHOW CUPS" alone had both players turning their cups over.
    asked = model.cups_to_show
    if len(asked) == 1:
        name = asked[0]
        return _("{player}: show {count} cup cards").format(
            player=_player_label(name), count=model.player(name).unknown_cup)
    if len(asked) == 2:
        one, two = (model.player(name).unknown_cup for name in asked)
        return _("to show: P1 {one}  P2 {two}").format(one=one, two=two)
    return _("{count} cup cards to show").format(count=total)


def _winner_text(over: GameOver) -> str:
    return _("DRAW") if over.winner == "draw" else _("{player} WINS").format(player=_player_label(over.winner))


def _over_footer(over: GameOver) -> str:
    if over.tie_break:
        return _("tie: fewer cups {one}/{two}").format(one=over.cups[0], two=over.cups[1])
    if over.winner == "draw":
        return _("same score, same cup")
    return _("hold C: new game")


def notice_words(notice: Notice) -> tuple[str, str]:
    """A notice's title and text in the players' language (the tracker words it in English).

    The text is taken apart by its template (:mod:`companion.vocab.notices`)
    and the language's template filled with the same values; a value the
    catalog knows (a reason's title) is translated too.
    """
    found = notices.template_of(notice.title, notice.text)
    if current() == "en" or found is None:
        return _(notice.title), notice.text
    template, values = found
    return _(notice.title), _(template).format(**{name: _(value) for name, value in values.items()})


NOTICE_COLUMNS, NOTICE_ROWS = 21, 3


def reading_words(reading: str) -> str:
    """A choice's reading ("P1 R05 m1, P1 claims red") in the players' language: card ids and names stay."""
    parts = []
    for part in reading.split(", "):
        claim = notices.values_of(notices.CLAIM_WORDS, part)
        if claim is not None:
            part = _(notices.CLAIM_WORDS).format(player=claim["player"], color=_(claim["color"]))
        elif part == notices.NOTHING:
            part = _(notices.NOTHING)
        parts.append(part)
    return ", ".join(parts)


def draw_notice(draw: ImageDraw.ImageDraw, notice: Notice, size: Size = SIZE) -> None:
    """News that is no warning ("CAUGHT UP", "RESYNCED"): a title bar and a few words, for a few seconds."""
    width = size[0]
    title, words = notice_words(notice)
    _inverted_line(draw, 0, t.fit(title, 15, t.MEDIUM), width, spec=t.MEDIUM)
    for index, line in enumerate(t.wrap(words, NOTICE_COLUMNS, NOTICE_ROWS)):
        t.text(draw, (1, 21 + index * 12), line, t.SMALL)


def draw_choice(draw: ImageDraw.ImageDraw, choice: Choice, size: Size = SIZE) -> None:
    """Two readings of the table fit: A keeps the first (already applied), B takes the second."""
    width = size[0]
    _inverted_line(draw, 0, _("WHICH WAS IT?"), width, spec=t.MEDIUM)
    for row, (key, text) in enumerate((("A", choice.first), ("B", choice.second))):
        lines = t.wrap(reading_words(text), 19, 2)
        y = 19 + row * 23
        # The key sits where a line starts: at the right edge when the lines are set right to left.
        t.text(draw, (width - 9 if is_rtl() else 1, y), key, t.SMALL)
        for index, line in enumerate(lines):
            t.text(draw, (12, y + index * 11), line, t.SMALL)


def draw_join_offer(draw: ImageDraw.ImageDraw, size: Size = SIZE) -> None:
    """Cards lie on the mat but no game is followed: the companion offers to join the game in progress."""
    width = size[0]
    t.centered(draw, 0, _("GAME ON THE MAT"), t.MEDIUM, width)
    t.text(draw, (1, 17), _("Join it as it lies,"), t.SMALL)
    t.text(draw, (1, 29), _("or clear it and deal."), t.SMALL)
    _inverted_line(draw, 46, _("hold C: join"), width)


JOIN_LABELS = {"turn": "JOIN TO PLAY", "hand p1": "JOIN P1 HAND", "hand p2": "JOIN P2 HAND",
               "cup p1": "JOIN P1 CUP", "cup p2": "JOIN P2 CUP", "deck": "JOIN DECK"}
"""The title of each join question (messages of the catalogs)."""


def draw_join_question(draw: ImageDraw.ImageDraw, offer: JoinOffer, step: int,
                       values: tuple[int, ...] | None = None, size: Size = SIZE) -> None:
    """One value of a join, asked with the buttons: which one (n of m), its value, the keys."""
    width = size[0]
    asked = offer.asking or JOIN_FIELDS
    name = asked[min(step, len(asked) - 1)]
    value = (values or offer.values)[JOIN_FIELDS.index(name)]
    t.text(draw, (1, 0), _(JOIN_LABELS[name]), t.MEDIUM)
    counter = f"{min(step, len(asked) - 1) + 1}/{len(asked)}"
    if is_rtl():  # the title is set from the right: the counter goes left
        t.text(draw, (1, 2), counter, t.SMALL)
    else:
        t.right(draw, 2, counter, t.SMALL, width - 2)
    shown = PLAYERS[value].upper() if name == "turn" else str(value)
    t.centered(draw, 20, f"- {shown} +", t.LARGE, width)
    _inverted_line(draw, 50, _("A -  B +  C ok"), width)


# --- warning, problem, status, menu -----------------------------------------------------


def warning_title(reason: str) -> str:
    """The reason's title from the registry (:mod:`companion.vocab.reasons`), in the players' language."""
    return reasons.title(reason, _)


def warning_words(warning: TableWarning, language: str | None = None) -> reasons.WarningText:
    """Title, what is wrong and the fix, in ``language`` (by default the players' language).

    English shows the tracker's own texts; another language fills the
    registry's templates, translated, with the warning's cards, zone, player
    and space (a code this version does not know keeps its English message).
    The phone page asks for each of its languages, whatever the screen speaks.
    """
    language = language or current()
    if language == "en" or reasons.info(warning.reason) is None:
        title = reasons.title(warning.reason, translations(language).gettext)
        return reasons.WarningText(title, warning.what or warning.message, warning.fix)
    return reasons.warning_text(warning.reason, warning.cards, warning.zone, player=warning.player,
                                space=warning.space, gettext=translations(language).gettext)


FIX_COLUMNS, FIX_ROWS = 15, 2
"""The fix: what to do, in medium letters (the first thing a player reads)."""
WHAT_COLUMNS = 20
"""What is wrong, in small letters below the fix."""
TITLE_COLUMNS = 20


@dataclass(frozen=True, slots=True)
class WarningLayout:
    """The lines of a warning screen, and whether everything fit without a cut."""

    title: str
    fix: tuple[str, ...]
    what: tuple[str, ...]
    fits: bool


def warning_layout(warning: TableWarning, size: Size = SIZE, *, count: int = 1) -> WarningLayout:
    """Lay a warning out: title bar, the fix in two medium lines, what is wrong in small lines below.

    ``what`` is the registry's short text; a warning without one (a code this
    version does not know) shows its full message, cut if it must be.
    """
    height = size[1]
    words = warning_words(warning)
    title_columns = TITLE_COLUMNS - 4 if count > 1 else TITLE_COLUMNS
    fix_all = t.wrap_all(words.fix, FIX_COLUMNS, t.MEDIUM)
    fix = fix_all[:FIX_ROWS]
    what_rows = max(0, (height - 1 - (12 + max(1, len(fix)) * 14)) // 11)
    what_all = t.wrap_all(words.what, WHAT_COLUMNS)
    fits = (t.fits(words.title, title_columns) and len(fix_all) <= FIX_ROWS and len(what_all) <= what_rows
            and all(t.fits(line, FIX_COLUMNS, t.MEDIUM) for line in fix_all)
            and all(t.fits(line, WHAT_COLUMNS) for line in what_all))
    if fits:
        return WarningLayout(words.title, tuple(fix), tuple(what_all), True)
    return WarningLayout(t.fit(words.title, title_columns), tuple(t.wrap(words.fix, FIX_COLUMNS, FIX_ROWS, t.MEDIUM)),
                         tuple(t.wrap(words.what, WHAT_COLUMNS, what_rows)), False)


def draw_warning(draw: ImageDraw.ImageDraw, warning: TableWarning, size: Size = SIZE, *,
                 count: int = 1, inverted: bool = True) -> None:
    """An illegal move: title, the fix in medium letters, then what is wrong, in small ones.

    ``inverted`` is the blink phase: the caller alternates it so the warning
    catches the eye across the table.
    """
    width, height = size
    ink, paper = (0, 1) if inverted else (1, 0)
    if inverted:
        draw.rectangle((0, 0, width - 2, height - 2), fill=1)
    # Title in a bar of the opposite color, so it stands out in both blink phases (a row deeper for
    # DejaVu's descenders: Persian and Cyrillic letters reach below Spleen's).
    draw.rectangle((0, 0, width - 2, 10 if current() == "en" else 11), fill=ink)
    layout = warning_layout(warning, size, count=count)
    t.text(draw, (2, 1), layout.title, t.SMALL, fill=paper)
    if count > 1 and is_rtl():  # the title is set from the right: the counter goes left
        t.text(draw, (2, 1), f"1/{count}", t.SMALL, fill=paper)
    elif count > 1:
        t.right(draw, 1, f"1/{count}", t.SMALL, width - 2, fill=paper)
    for index, line in enumerate(layout.fix):
        t.text(draw, (2, 12 + index * 14), line, t.MEDIUM, fill=ink)
    y = 12 + max(1, len(layout.fix)) * 14
    for index, line in enumerate(layout.what):
        t.text(draw, (2, y + index * 11), line, t.SMALL, fill=ink)


def draw_problem(draw: ImageDraw.ImageDraw, model: DisplayModel, size: Size = SIZE) -> None:
    """The camera or the playmat is not seen: nothing on the table is being tracked."""
    width = size[0]
    code = CAMERA_PROBLEMS[model.camera] if model.camera != "ok" else BOARD_PROBLEMS[model.board]
    title, lines = problem_lines(code)
    _inverted_line(draw, 0, t.fit(title, 15, t.MEDIUM), width, spec=t.MEDIUM)
    for index, line in enumerate(t.first_lines(lines, PROBLEM_ROWS)):
        t.text(draw, (1, 21 + index * 12), t.fit(line, PROBLEM_COLUMNS), t.SMALL)


PROBLEM_COLUMNS, PROBLEM_ROWS = 21, 3


def problem_lines(code: str) -> tuple[str, list[str]]:
    """The problem screen's title and lines for a camera or board reason: the fix, then what is wrong."""
    text = reasons.warning_text(code, gettext=_)
    return text.title, t.wrap_all(_("{fix}. {what}").format(fix=text.fix, what=text.what), PROBLEM_COLUMNS)


def draw_pairing(draw: ImageDraw.ImageDraw, code: str, size: Size = SIZE) -> None:
    """The phone view's pairing code, to type on the phone that asked for the controls."""
    width = size[0]
    _inverted_line(draw, 0, _("PAIR A PHONE"), width, spec=t.MEDIUM)
    t.centered(draw, 21, f"{code[:3]} {code[3:]}", t.LARGE, width)
    t.centered(draw, 50, _("type it on the phone"), t.SMALL, width)


def draw_status(draw: ImageDraw.ImageDraw, model: DisplayModel, size: Size = SIZE, *,
                hidden_warnings: int = 0, brightness: int = BRIGHTNESS_LEVELS) -> None:
    width = size[0]
    t.centered(draw, 0, _("STATUS"), t.MEDIUM, width)
    t.text(draw, (1, 15), _("camera {camera}  board {board}").format(camera=_(model.camera), board=_(model.board)),
           t.SMALL)
    t.text(draw, (1, 27), _("warnings {count}, {hidden} hidden").format(count=len(model.warnings),
                                                                        hidden=hidden_warnings), t.SMALL)
    t.text(draw, (1, 39), _("brightness {level}/{levels}").format(level=brightness, levels=BRIGHTNESS_LEVELS),
           t.SMALL)
    _inverted_line(draw, 50, _("hold A: menu"), width)


@dataclass(frozen=True, slots=True)
class CalibrationVerdict:
    """What ``companion calibrate`` shows on the panel: ready with its figures, or the first problem.

    ``fix`` is the short fix of the first problem (two lines of 15 letters),
    ``problem`` what is wrong (one small line), ``count`` how many problems,
    ``code`` the first problem's code (its line in other languages, and when
    ``problem`` is too long for the panel: :mod:`companion.vocab.calibration`).
    """

    ok: bool
    px_per_module: float | None = None
    blur_px: float | None = None
    mode: str = ""
    problem: str = ""
    fix: str = ""
    count: int = 0
    code: str = ""


def calibration_fix(verdict: CalibrationVerdict) -> str:
    """The short fix in the players' language (calibrate words it in English, from a template)."""
    for template in calibration.SHORT_FIXES:
        values = notices.values_of(template, verdict.fix)
        if values is not None:
            return _(template).format(**{name: _(value) for name, value in values.items()})
    return verdict.fix


def calibration_problem(verdict: CalibrationVerdict, rows: int) -> str:
    """What is wrong in ``rows`` small lines: calibrate's message in English when it fits, else the code's line."""
    line = calibration.PROBLEM_LINES.get(verdict.code)
    if line is not None and (current() != "en" or len(t.wrap_all(verdict.problem, 21)) > rows):
        return _(line)
    return verdict.problem


def draw_calibration(draw: ImageDraw.ImageDraw, verdict: CalibrationVerdict, size: Size = SIZE) -> None:
    """The calibration verdict: CAMERA READY and the figures, or NOT READY and what to do first."""
    width = size[0]
    if verdict.ok:
        _inverted_line(draw, 0, _("CAMERA READY"), width, spec=t.MEDIUM)
        lines = []
        if verdict.px_per_module is not None:
            lines.append(_("{value} px per module").format(value=f"{verdict.px_per_module:.1f}"))
        if verdict.blur_px is not None:
            lines.append(_("blur {value} px: sharp").format(value=f"{verdict.blur_px:.1f}"))
        if verdict.mode:
            lines.append(_("mode {mode}").format(mode=verdict.mode))
        for index, line in enumerate(lines[:3]):
            t.text(draw, (1, 21 + index * 12), t.fit(line, 21), t.SMALL)
        return
    counter = f" 1/{verdict.count}" if verdict.count > 1 else ""
    _inverted_line(draw, 0, _("NOT READY") + counter, width, spec=t.MEDIUM)
    fix_lines = t.wrap(calibration_fix(verdict), 15, 2, t.MEDIUM)
    for index, line in enumerate(fix_lines):
        t.text(draw, (1, 20 + index * 14), line, t.MEDIUM)
    y = 20 + len(fix_lines) * 14 + 1
    rows = max(0, (size[1] - 2 - y) // 12)
    for index, line in enumerate(t.wrap(calibration_problem(verdict, rows), 21, rows)):
        t.text(draw, (1, y + index * 12), line, t.SMALL)


MENU_ROWS = 4


def menu_label(item: MenuItem, *, first_player: PlayerName, brightness: int) -> str:
    if item is MenuItem.FIRST_PLAYER:
        return _("First player: {player}").format(player=_player_label(first_player))
    if item is MenuItem.BRIGHTNESS:
        return _("Brightness: {level}/{levels}").format(level=brightness, levels=BRIGHTNESS_LEVELS)
    return _(str(item.value))


def draw_menu(draw: ImageDraw.ImageDraw, selected: int, size: Size = SIZE, *,
              first_player: PlayerName = "p1", brightness: int = BRIGHTNESS_LEVELS) -> None:
    """The menu: a title bar with the keys, four rows, the selected one inverted."""
    labels = [menu_label(item, first_player=first_player, brightness=brightness) for item in MENU_ITEMS]
    draw_list(draw, _("MENU A:down C:ok"), labels, selected, size, hold=MENU_ITEMS[selected] in DANGEROUS_ITEMS)


def draw_list(draw: ImageDraw.ImageDraw, title: str, labels: list[str], selected: int, size: Size = SIZE, *,
              hold: bool = False) -> None:
    """A menu's list: the title bar, four rows scrolled to the selected one, inverted; ``hold``: the selected
    row asks for a long press of C; a scrollbar when there are more rows than fit."""
    width = size[0]
    _inverted_line(draw, 0, title, width)
    margin = 6 if is_rtl() else 2  # set from the right, Persian rows keep clear of the scrollbar
    rows = min(MENU_ROWS, len(labels))
    top = min(max(0, selected - rows + 1), len(labels) - rows)
    for row in range(rows):
        index = top + row
        y = 14 + row * 12
        label = labels[index]
        if index == selected:
            if hold:
                label = t.fit(label, 12) + _(" hold C")
            draw.rectangle((0, y - 1, width - 5, y + 10), fill=1)
            t.text(draw, (margin, y), label, t.SMALL, fill=0)
        else:
            t.text(draw, (margin, y), label, t.SMALL)
    if len(labels) > rows:
        _scrollbar(draw, top, size, len(labels))


# --- small drawing helpers --------------------------------------------------------------


def _inverted_line(draw: ImageDraw.ImageDraw, y: int, value: str, width: int,
                   spec: t.FontSpec = t.SMALL) -> None:
    draw.rectangle((0, y, width - 2, y + t.line_height(spec) + 1), fill=1)
    t.centered(draw, y + 1, value, spec, width - 1, fill=0)


def _marker(draw: ImageDraw.ImageDraw, xy: tuple[int, int]) -> None:
    # A right-pointing triangle before the active player's line.
    x, y = xy
    draw.polygon([(x + 1, y), (x + 1, y + 7), (x + 5, y + 4), (x + 5, y + 3)], fill=1)


def _badge(draw: ImageDraw.ImageDraw, right_top: tuple[int, int], value: str) -> None:
    x_right, y = right_top
    x = x_right - t.text_width(value, t.SMALL) - 4
    draw.rectangle((x, y - 1, x_right - 1, y + 10), fill=1)
    t.text(draw, (x + 2, y), value, t.SMALL, fill=0)


def _scrollbar(draw: ImageDraw.ImageDraw, top: int, size: Size, count: int) -> None:
    width = size[0]
    track_top, track_height = 14, MENU_ROWS * 12 - 2
    thumb = track_height * MENU_ROWS // count
    y = track_top + (track_height - thumb) * top // (count - MENU_ROWS)
    draw.line((width - 3, y, width - 3, y + thumb), fill=1)
