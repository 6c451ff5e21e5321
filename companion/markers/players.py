"""The players' one-page guide, printed by ``companion markers`` beside the stickers (``players.pdf``).

The short form of ``docs/players.md`` for the table: the mat drawn from the
layout with the names the players use, the table habits the camera needs,
the buttons (from the ui's keymap) and every warning with what to do (from
the reason registry), so the page cannot drift from what the companion does.
It fits both A4 and US Letter (everything within 279 mm of the top).
"""

from __future__ import annotations

from PIL import Image

from companion.engine import Game
from companion.markers.sheets import A4_MM, DEFAULT_DPI, MARGIN_MM, _Page
from companion.ui.buttons import KEYMAP, Command, Context
from companion.vision.layout import Layout
from companion.vocab import zones
from companion.vocab.reasons import REASONS, Reason, Source, warning_text
from companion.vocab.zones import parse_zone

PRINTABLE_MM = (210.0, 279.4)
"""The part of the page the guide uses: A4's width, Letter's height."""
TEXT_MM = 2.6
LINE_MM = 3.6
EXAMPLE_ZONES = {
    Reason.OWN_FIELD_ONLY: zones.field(0, 1), Reason.MOUNTAIN_ONE_CARD: zones.mountain(0),
    Reason.REFILL_COUNT: zones.mountain(0), Reason.COLOR_NOT_IN_MOUNTAIN: zones.mountain(0),
    Reason.RIVER_CARD: zones.river(0, 2), Reason.RIVER_SPACE: zones.river(0, 3), Reason.MOVED_CARD: zones.field(1, 0),
    Reason.UNEXPECTED_CARD: zones.river(0, 4), Reason.CARD_NOT_IN_CUP: zones.reveal(0),
    Reason.REVEAL_MISMATCH: zones.reveal(0), Reason.DUPLICATE_CARD: "",
}
"""Where each warning's example on the page happens (by default P1's field of M1)."""

COMMAND_WORDS: dict[Command, str] = {
    Command.NEXT_SCREEN: "next page", Command.MENU: "menu", Command.MENU_DOWN: "next item",
    Command.BACK: "close", Command.SELECT: "choose", Command.CONFIRM: "confirm",
    Command.ACKNOWLEDGE: "hide it", Command.SHOW_WARNINGS: "show hidden warnings",
    Command.OVERRIDE: "allow the move", Command.UNDO: "undo last move", Command.DISCARD_LESS: "one less",
    Command.DISCARD_MORE: "one more", Command.NEW_GAME: "new game", Command.FIRST_PLAYER: "swap first player",
    Command.BRIGHTNESS: "brightness", Command.RESTART: "restart", Command.POWER_OFF: "power off",
    Command.CHOOSE_FIRST: "the first (as applied)", Command.CHOOSE_SECOND: "the second",
    Command.JOIN_START: "join it", Command.JOIN_LESS: "one less", Command.JOIN_MORE: "one more",
    Command.JOIN_NEXT: "next value", Command.JOIN_CANCEL: "cancel",
    Command.SETUP_NEXT: "next color", Command.SETUP_AGAIN: "start over", Command.SETUP_CLOSE: "leave",
}
"""What each button command means, in the words of the page."""
CONTEXT_WORDS: dict[Context, str] = {
    Context.NORMAL: "Game screens", Context.WARNING: "A warning", Context.DISCARD: "'How many?'",
    Context.SETUP: "New game", Context.OVER: "Game over", Context.MENU: "Menu",
    Context.CHOICE: "'Which was it?'", Context.JOIN_OFFER: "'Game on the mat'", Context.JOIN: "Joining",
    Context.SETUP_TASK: "Teaching the mat, checking stickers (menu, Set up table)",
}

TABLE_HABITS = (
    "P1 sits at the bottom edge (the printed fiducial ids read from there); P2 opposite.",
    "M1 is the mandala on P1's left. Its middle band is the mountain; the half toward you is your field.",
    "Your river: six spaces along your edge, space 1 at your left. Then your cup, then your reveal area.",
    "Fan discards and field piles: a corner of every card (one of its two stickers) must show.",
    "Rivers fill left to right: a claimed card goes into your leftmost empty space, no gaps.",
    "Cups stay face down. At GAME OVER / SHOW CUPS, lay your cup cards face up, fanned, in your reveal area.",
    "Keep hands and cups off the corner markers: BOARD NOT FOUND pauses tracking (nothing is lost).",
    "One screen for both: it stands at the side, and every line names the player it is for (P1 DRAW 2).",
    "'P1 14 pts +2 in cup': 14 points seen, plus the 2 cards dealt face down, counted when cups are shown.",
)
PUTTING_RIGHT = (
    "A warning says what to do in large letters: do it (take the card back) and it clears by itself.",
    "Missed play: carry on, the companion catches up when the table is in view. Wrong? Hold B: undo.",
    "Misread card (NOT IN HAND, CARD TWICE): check its stickers (R05 goes on a red card), lay it again.",
    "The table is right and the companion wrong: hold C on the warning to allow the move.",
)


def players_page(layout: Layout, dpi: int = DEFAULT_DPI, paper: tuple[float, float] = A4_MM) -> Image.Image:
    """The one-page guide on ``paper``: the mat, table habits, buttons, warnings, putting things right.

    Laid out within :data:`PRINTABLE_MM`, so the same page fits A4 and US Letter.
    """
    page = _Page(dpi, paper)
    x = MARGIN_MM
    page.text(x, MARGIN_MM, "Mandala Table Companion: how to play with it", 6.0)
    bottom = _mat_sketch(page, layout, x, MARGIN_MM + 14, 98.0)
    y = _section(page, x, bottom + 2, "At the table", TABLE_HABITS)
    y = _section(page, x, y + 1.5, "Buttons: A, B, C; 'hold' = press about a second", _button_lines())
    y = _section(page, x, y + 1.5, "Warnings: the title, what to do, what is wrong", _warning_lines())
    _section(page, x, y + 1.5, "Putting things right", PUTTING_RIGHT)
    return page.image()


def _section(page: _Page, x: float, y: float, title: str, lines: tuple[str, ...] | list[str]) -> float:
    page.text(x, y, title, 3.6)
    y += 5.2
    for line in lines:
        page.text(x + 2, y, line, TEXT_MM)
        y += LINE_MM
    return y


def _button_lines() -> list[str]:
    lines = []
    for context, words in CONTEXT_WORDS.items():
        presses = KEYMAP[context]
        parts = [f"{'hold ' if kind.value == 'long' else ''}{button}: {COMMAND_WORDS[command]}"
                 for (button, kind), command in sorted(presses.items(), key=lambda item: (item[0][0],
                                                                                         item[0][1].value != "short"))]
        lines.append(f"{words}: " + ", ".join(parts))
    return lines


def _warning_lines() -> list[str]:
    """Every warning of the official game and the tracker: title, then the fix and the why, as on the screen."""
    codes = [*Game.rules.precedence, *(code for code, entry in REASONS.items() if entry.source is Source.TRACKER)]
    lines = []
    for code in codes:
        text = warning_text(code, ("R05",), EXAMPLE_ZONES.get(code, zones.field(0, 0)), player=0, space=2)
        lines.append(f"{text.title}: {text.fix}. {text.what}")
    lines.append("Mountains ruleset and camera problems: see docs/reasons.md.")
    return lines


def _mat_sketch(page: _Page, layout: Layout, left: float, top: float, width_mm: float) -> float:
    """The mat's zones to scale with the names players use; returns the bottom of the drawing in mm."""
    mat_w, mat_h = layout.size_mm
    scale = width_mm / mat_w
    page.rectangle(left, top, left + mat_w * scale, top + mat_h * scale, 0.3)
    for name, polygon in layout.zones.items():
        points = [(left + px * scale, top + py * scale) for px, py in polygon]
        page.line([*points, points[0]], 0.15)
        cx, cy = layout.zone_center(name)
        label = _label(name)
        page.text(left + cx * scale - 0.8 * len(label), top + cy * scale - 1.3, label, 2.6)
    bottom = top + mat_h * scale
    page.text(left + mat_w * scale / 2 - 16, bottom + 1.0, "P1 sits here (bottom edge)", 3.0)
    page.text(left + mat_w * scale / 2 - 10, top - 4.5, "P2 sits here", 3.0)
    notes = ("M1 = mandala on P1's left.", "Middle band: mountain.", "Toward you: your field.",
             "River spaces 1-6 from", "your left; then cup,", "then reveal ('show').")
    for index, note in enumerate(notes):
        page.text(left + width_mm + 5, top + 4 + index * 5.5, note, 3.0)
    return bottom + 5.0


def _label(zone: str) -> str:
    ref = parse_zone(zone)
    player = f"P{(ref.player or 0) + 1}"
    if ref.kind == "mountain":
        return f"M{(ref.mandala or 0) + 1}"
    if ref.kind == "field":
        return f"{player} field"
    if ref.kind == "river":
        return str(ref.space)
    if ref.kind == "reveal":
        return "show"
    return ref.kind
