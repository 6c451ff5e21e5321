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
    COLOR_NAMES,
    PLAYERS,
    DisplayModel,
    GameOver,
    PlayerName,
    PlayerView,
    TableWarning,
)
from companion.ui import text as t
from companion.ui.state import BRIGHTNESS_LEVELS, DANGEROUS_ITEMS, MENU_ITEMS, MenuItem, Page, UiState

SIZE = (128, 64)
Size = tuple[int, int]


class Screen(enum.Enum):
    BLANK = "blank"
    MENU = "menu"
    PROBLEM = "problem"
    WARNING = "warning"
    DISCARD = "discard"
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

# Plain titles for reason codes (interfaces.md section 4 plus tracker extensions);
# at most 13 characters so they fit the title line beside an "n/m" counter.
WARNING_TITLES = {
    "color-rule": "RULE OF COLOR",
    "not-your-turn": "NOT YOUR TURN",
    "wrong-phase": "NOT NOW",
    "card-not-in-hand": "UNKNOWN CARD",
    "mountain-one-card": "ONE CARD ONLY",
    "mixed-colors": "MIXED COLORS",
    "own-field-only": "OWN FIELD",
    "must-keep-one-card": "KEEP ONE CARD",
    "color-not-in-mountain": "NOT CLAIMABLE",
    "river-card": "RIVER CARD",
    "wrong-claimer": "NOT YOUR PICK",
    "duplicate-card": "CARD TWICE",
    "card-from-nowhere": "CARD FROM NOWHERE",
    "draw-count": "DRAW COUNT",
    "refill-count": "REFILL COUNT",
    "game-over": "GAME IS OVER",
}


def active_warnings(model: DisplayModel, ui: UiState) -> tuple[TableWarning, ...]:
    return tuple(w for w in model.warnings if w not in ui.acknowledged)


def _hidden(model: DisplayModel, ui: UiState) -> int:
    return len(model.warnings) - len(active_warnings(model, ui))


def screen_for(model: DisplayModel, ui: UiState) -> Screen:
    """The one screen to show now; the controller maps buttons by it too."""
    if ui.power == "blank":
        return Screen.BLANK
    if ui.menu is not None:
        return Screen.MENU
    if model.camera != "ok" or model.board != "ok":
        return Screen.PROBLEM
    if active_warnings(model, ui):
        return Screen.WARNING
    if model.phase == "discard-confirm":
        return Screen.DISCARD
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
    if screen is Screen.MENU:
        draw_menu(draw, ui.menu or 0, size, first_player=model.first_player,
                  brightness=ui.brightness)
    elif screen is Screen.PROBLEM:
        draw_problem(draw, model, size)
    elif screen is Screen.WARNING:
        warnings = active_warnings(model, ui)
        draw_warning(draw, warnings[0], size, count=len(warnings), inverted=ui.blink_on)
    elif screen is Screen.DISCARD:
        draw_discard(draw, model, size, count=ui.discard_count)
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
    unseen = f" +{view.unknown_cup} unseen" if view.unknown_cup else ""
    return f"{_player_label(name)} {view.score:>2} pts{unseen}"


def draw_main(draw: ImageDraw.ImageDraw, model: DisplayModel, size: Size = SIZE, *,
              hidden_warnings: int = 0) -> None:
    """Whose turn and what to draw (large), both scores, the deck."""
    width = size[0]
    player = _player_label(model.turn)
    headline = f"{player} DRAW {model.draw}" if model.draw else f"{player} TO PLAY"
    t.centered(draw, 1, headline, t.LARGE, width)
    draw.line((0, 23, width - 2, 23), fill=1)
    for row, (name, view) in enumerate(zip(PLAYERS, model.players, strict=True)):
        y = 27 + row * 12
        t.text(draw, (9, y), _score_line(name, view), t.SMALL)
        if name == model.turn:
            _marker(draw, (0, y + 2))
    t.text(draw, (9, 51), f"deck {model.deck}", t.SMALL)
    if hidden_warnings:
        _badge(draw, (width - 1, 51), f"!{hidden_warnings}")


def draw_table(draw: ImageDraw.ImageDraw, model: DisplayModel, size: Size = SIZE) -> None:
    """Each player's hand, score and river, the river as six numbered spaces."""
    for row, (name, view) in enumerate(zip(PLAYERS, model.players, strict=True)):
        y = row * 31
        line = f"{_player_label(name)} hand {view.hand}  {view.score} pts +{view.unknown_cup}?"
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
    t.centered(draw, 0, "NEW GAME", t.MEDIUM, width)
    t.text(draw, (1, 17), "Deal 2 per mountain,", t.SMALL)
    t.text(draw, (1, 29), "6 to hand, 2 to cup.", t.SMALL)
    first = _player_label(model.first_player)
    _inverted_line(draw, 46, f"First: {first}  C: swap", width)


def draw_destruction(draw: ImageDraw.ImageDraw, model: DisplayModel, size: Size = SIZE) -> None:
    """A mandala is being destroyed: who claims a color now, which colors remain."""
    info = model.destruction
    if info is None:
        return
    width = size[0]
    if info.refill:
        t.centered(draw, 0, f"{info.mandala.upper()} DESTROYED", t.MEDIUM, width)
        t.centered(draw, 17, f"REFILL {info.refill}", t.LARGE, width)
        t.text(draw, (1, 40), f"{info.refill} cards face up into", t.SMALL)
        t.text(draw, (1, 51), f"the mountain; {_player_label(info.picker)} next", t.SMALL)
        return
    t.centered(draw, 0, f"{info.mandala.upper()} COMPLETE", t.MEDIUM, width)
    t.centered(draw, 17, f"{_player_label(info.picker)} PICKS", t.LARGE, width)
    names = [COLOR_NAMES[c] for c in info.colors_left]
    for index, line in enumerate(t.wrap("left: " + " ".join(names), 21, 2)):
        t.text(draw, (1, 40 + index * 11), line, t.SMALL)


def draw_discard(draw: ImageDraw.ImageDraw, model: DisplayModel, size: Size = SIZE, *,
                 count: int | None = None) -> None:
    """Ask how many cards were discarded when the camera could not see them all."""
    info = model.discard
    if info is None:
        return
    width = size[0]
    shown = info.asked if count is None else count
    t.centered(draw, 0, f"{_player_label(info.player)} DISCARDED", t.MEDIUM, width)
    t.centered(draw, 15, f"saw {info.seen}, how many?", t.SMALL, width)
    t.centered(draw, 28, f"- {shown} +", t.LARGE, width)
    _inverted_line(draw, 50, "A -1   B +1   C ok", width)


def draw_over(draw: ImageDraw.ImageDraw, model: DisplayModel, size: Size = SIZE) -> None:
    """Final scores, the winner, and the tie-break when it decided."""
    over = model.over
    if over is None:
        return
    width = size[0]
    t.centered(draw, 0, "GAME OVER", t.MEDIUM, width)
    if over.unknown:
        # Until the starting cup cards are seen, no winner: ask for the reveal.
        t.centered(draw, 16, "SHOW CUPS", t.LARGE, width)
        t.centered(draw, 39, f"so far P1 {over.scores[0]}  P2 {over.scores[1]}", t.SMALL, width)
        t.centered(draw, 51, f"{over.unknown} cup cards unseen", t.SMALL, width)
        return
    t.centered(draw, 16, _winner_text(over), t.LARGE, width)
    scores = f"P1 {over.scores[0]} pts  P2 {over.scores[1]} pts"
    t.centered(draw, 39, scores, t.SMALL, width)
    t.centered(draw, 51, _over_footer(over), t.SMALL, width)


def _winner_text(over: GameOver) -> str:
    return "DRAW" if over.winner == "draw" else f"{_player_label(over.winner)} WINS"


def _over_footer(over: GameOver) -> str:
    if over.tie_break:
        return f"tie: fewer cups {over.cups[0]}/{over.cups[1]}"
    if over.winner == "draw":
        return "same score, same cup"
    return "hold C: new game"


# --- warning, problem, status, menu -----------------------------------------------------


def warning_title(reason: str) -> str:
    return WARNING_TITLES.get(reason, reason.replace("-", " ").upper())


def draw_warning(draw: ImageDraw.ImageDraw, warning: TableWarning, size: Size = SIZE, *,
                 count: int = 1, inverted: bool = True) -> None:
    """An illegal move: title, the fix in medium letters, then why, in small ones.

    ``inverted`` is the blink phase: the caller alternates it so the warning
    catches the eye across the table.
    """
    width, height = size
    ink, paper = (0, 1) if inverted else (1, 0)
    if inverted:
        draw.rectangle((0, 0, width - 2, height - 2), fill=1)
    # Title in a bar of the opposite color, so it stands out in both blink phases.
    draw.rectangle((0, 0, width - 2, 10), fill=ink)
    title = warning_title(warning.reason)
    t.text(draw, (2, 1), t.fit(title, 16 if count > 1 else 20), t.SMALL, fill=paper)
    if count > 1:
        t.right(draw, 1, f"1/{count}", t.SMALL, width - 2, fill=paper)
    fix_lines = t.wrap(warning.fix, 15, 2)
    for index, line in enumerate(fix_lines):
        t.text(draw, (2, 12 + index * 14), line, t.MEDIUM, fill=ink)
    y = 12 + len(fix_lines) * 14
    message_rows = max(0, (height - 1 - y) // 11)
    for index, line in enumerate(t.wrap(warning.message, 20, message_rows)):
        t.text(draw, (2, y + index * 11), line, t.SMALL, fill=ink)


_PROBLEM_TEXT = {
    "lost": ("CAMERA LOST", "Check the camera cable. Tracking is paused."),
    "not-found": ("NO CAMERA", "Camera not found. Check its cable and power; retrying."),
    "board": ("BOARD NOT FOUND", "Keep the mat corners in view. Tracking is paused."),
}


def draw_problem(draw: ImageDraw.ImageDraw, model: DisplayModel, size: Size = SIZE) -> None:
    """The camera or the playmat is not seen: nothing on the table is being tracked."""
    width = size[0]
    title, hint = _PROBLEM_TEXT[model.camera if model.camera != "ok" else "board"]
    _inverted_line(draw, 0, title, width, spec=t.MEDIUM)
    for index, line in enumerate(t.wrap(hint, 21, 3)):
        t.text(draw, (1, 21 + index * 12), line, t.SMALL)


def draw_status(draw: ImageDraw.ImageDraw, model: DisplayModel, size: Size = SIZE, *,
                hidden_warnings: int = 0, brightness: int = BRIGHTNESS_LEVELS) -> None:
    width = size[0]
    t.centered(draw, 0, "STATUS", t.MEDIUM, width)
    t.text(draw, (1, 15), f"camera {model.camera}  board {model.board}", t.SMALL)
    t.text(draw, (1, 27), f"warnings {len(model.warnings)}, {hidden_warnings} hidden", t.SMALL)
    t.text(draw, (1, 39), f"brightness {brightness}/{BRIGHTNESS_LEVELS}", t.SMALL)
    _inverted_line(draw, 50, "hold A: menu", width)


@dataclass(frozen=True, slots=True)
class CalibrationVerdict:
    """What ``companion calibrate`` shows on the panel: ready with its figures, or the first problem.

    ``fix`` is the short fix of the first problem (two lines of 15 letters),
    ``problem`` what is wrong (one small line), ``count`` how many problems.
    """

    ok: bool
    px_per_module: float | None = None
    blur_px: float | None = None
    mode: str = ""
    problem: str = ""
    fix: str = ""
    count: int = 0


def draw_calibration(draw: ImageDraw.ImageDraw, verdict: CalibrationVerdict, size: Size = SIZE) -> None:
    """The calibration verdict: CAMERA READY and the figures, or NOT READY and what to do first."""
    width = size[0]
    if verdict.ok:
        _inverted_line(draw, 0, "CAMERA READY", width, spec=t.MEDIUM)
        lines = []
        if verdict.px_per_module is not None:
            lines.append(f"{verdict.px_per_module:.1f} px per module")
        if verdict.blur_px is not None:
            lines.append(f"blur {verdict.blur_px:.1f} px: sharp")
        if verdict.mode:
            lines.append(f"mode {verdict.mode}")
        for index, line in enumerate(lines[:3]):
            t.text(draw, (1, 21 + index * 12), t.fit(line, 21), t.SMALL)
        return
    counter = f" 1/{verdict.count}" if verdict.count > 1 else ""
    _inverted_line(draw, 0, f"NOT READY{counter}", width, spec=t.MEDIUM)
    fix_lines = t.wrap(verdict.fix, 15, 2)
    for index, line in enumerate(fix_lines):
        t.text(draw, (1, 20 + index * 14), line, t.MEDIUM)
    y = 20 + len(fix_lines) * 14 + 1
    for index, line in enumerate(t.wrap(verdict.problem, 21, max(0, (size[1] - 2 - y) // 12))):
        t.text(draw, (1, y + index * 12), line, t.SMALL)


MENU_ROWS = 4


def menu_label(item: MenuItem, *, first_player: PlayerName, brightness: int) -> str:
    if item is MenuItem.FIRST_PLAYER:
        return f"First player: {_player_label(first_player)}"
    if item is MenuItem.BRIGHTNESS:
        return f"Brightness: {brightness}/{BRIGHTNESS_LEVELS}"
    return str(item.value)


def draw_menu(draw: ImageDraw.ImageDraw, selected: int, size: Size = SIZE, *,
              first_player: PlayerName = "p1", brightness: int = BRIGHTNESS_LEVELS) -> None:
    """The menu: a title bar with the keys, four rows, the selected one inverted."""
    width = size[0]
    _inverted_line(draw, 0, "MENU A:down C:ok", width)
    top = min(max(0, selected - MENU_ROWS + 1), len(MENU_ITEMS) - MENU_ROWS)
    for row in range(MENU_ROWS):
        index = top + row
        item = MENU_ITEMS[index]
        y = 14 + row * 12
        label = menu_label(item, first_player=first_player, brightness=brightness)
        if index == selected:
            if item in DANGEROUS_ITEMS:
                label = t.fit(label, 12) + " hold C"
            draw.rectangle((0, y - 1, width - 5, y + 10), fill=1)
            t.text(draw, (2, y), label, t.SMALL, fill=0)
        else:
            t.text(draw, (2, y), label, t.SMALL)
    _scrollbar(draw, top, size)


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


def _scrollbar(draw: ImageDraw.ImageDraw, top: int, size: Size) -> None:
    width = size[0]
    track_top, track_height = 14, MENU_ROWS * 12 - 2
    thumb = track_height * MENU_ROWS // len(MENU_ITEMS)
    y = track_top + (track_height - thumb) * top // (len(MENU_ITEMS) - MENU_ROWS)
    draw.line((width - 3, y, width - 3, y + thumb), fill=1)
