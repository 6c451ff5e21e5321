"""The screens of a ``mountains`` table: pure drawing functions of the display model.

:func:`companion.ui.screens.draw_screen` hands the game pages here when the
model carries a :class:`~companion.tracker.mountains_display.MountainsView`:

- main: whose turn and what to do now, large ("P1 DRAW TO 6", "P2 TO PLAY",
  "P1 DISCARD", "P2 START CARD"), the round, both scores with their gold, the
  deck; for a few seconds after a round ends, the round's majorities instead
  (who took which color, ties, the gold each scored);
- table: each player's mountain colors and score pile;
- setup: how a game of this ruleset begins;
- over: the winner and final scores with the gold and the six-color bonus.

Same conventions as :mod:`companion.ui.screens`: 128x64 mode "1", the last
pixel column and two rows left free for the burn-in shift.
"""

from __future__ import annotations

from PIL import ImageDraw

from companion.tracker.display import PLAYERS, DisplayModel
from companion.tracker.mountains_display import RoundEnd
from companion.ui import text as t
from companion.ui.i18n import _, is_rtl
from companion.vocab.colors import COLOR_LETTERS

Size = tuple[int, int]
SIZE = (128, 64)

_HEADLINES = {"start": "{player} START CARD", "draw": "{player} DRAW TO 6", "play": "{player} TO PLAY",
              "discard": "{player} DISCARD"}
"""The main page's headline per step (messages of the catalogs)."""


def draw_mountains_page(draw: ImageDraw.ImageDraw, page: str, model: DisplayModel, size: Size = SIZE, *,
                        hidden_warnings: int = 0) -> None:
    """Draw one game page (``main``, ``setup``, ``over`` or ``table``) of a mountains table."""
    if page == "setup":
        draw_mountains_setup(draw, model, size)
    elif page == "over":
        draw_mountains_over(draw, model, size)
    elif page == "table":
        draw_mountains_table(draw, model, size)
    elif model.mountains is not None and model.mountains.round_end is not None:
        draw_round_end(draw, model.mountains.round_end, size)
    else:
        draw_mountains_main(draw, model, size, hidden_warnings=hidden_warnings)


def draw_mountains_main(draw: ImageDraw.ImageDraw, model: DisplayModel, size: Size = SIZE, *,
                        hidden_warnings: int = 0) -> None:
    """Whose turn and what to do (large), the round, both scores with gold, the deck."""
    view = model.mountains
    if view is None:
        return
    width = size[0]
    t.centered(draw, 1, _(_HEADLINES[view.step]).format(player=model.turn.upper()), t.MEDIUM, width)
    draw.line((0, 19, width - 2, 19), fill=1)
    for row, name in enumerate(PLAYERS):
        y = 22 + row * 12
        gold = _(" ({count} gold)").format(count=view.gold[row]) if view.gold[row] else ""
        t.text(draw, (9, y), _("{player} {score:>2} pts").format(player=name.upper(), score=view.scores[row]) + gold,
               t.SMALL)
        if name == model.turn:
            draw.rectangle((1, y + 3, 5, y + 7), fill=1)
    t.text(draw, (1, 49), _("round {round}  deck {count}").format(round=view.round,
                                                                                       count=model.deck), t.SMALL)
    if hidden_warnings:
        badge = f"!{hidden_warnings}"
        # Right to left the round line ends at the right edge: the badge takes the left corner.
        right = 6 * len(badge) + 4 if is_rtl() else width - 1
        left = right - 6 * len(badge) - 3
        draw.rectangle((left, 48, right - 1, 61), fill=1)
        t.text(draw, (left + 2, 49), badge, t.SMALL, fill=0)


def draw_round_end(draw: ImageDraw.ImageDraw, end: RoundEnd, size: Size = SIZE) -> None:
    """A round just ended: under each color, who took it (1, 2), a tie (=) or not laid (-); the gold scored."""
    width = size[0]
    t.centered(draw, 0, _("ROUND {round} SCORED").format(round=end.round), t.MEDIUM, width)
    for index, (letter, mark) in enumerate(zip(COLOR_LETTERS, end.majorities, strict=True)):
        x = 4 + index * 20
        box = (x, 18, x + 17, 45)
        if mark in "12":
            draw.rectangle(box, fill=1)
            t.text(draw, (x + 6, 20), letter, t.SMALL, fill=0)
            t.text(draw, (x + 6, 32), mark, t.SMALL, fill=0)
        else:
            draw.rectangle(box, outline=1)
            t.text(draw, (x + 6, 20), letter, t.SMALL)
            t.text(draw, (x + 6, 32), mark, t.SMALL)
    t.centered(draw, 50, _("gold P1 +{one}  P2 +{two}").format(one=end.gold[0], two=end.gold[1]), t.SMALL, width)


def draw_mountains_table(draw: ImageDraw.ImageDraw, model: DisplayModel, size: Size = SIZE) -> None:
    """Each player's mountain colors and score pile (a letter per card, repeats shown as a count)."""
    view = model.mountains
    if view is None:
        return
    for row, name in enumerate(PLAYERS):
        y = row * 31
        t.text(draw, (1, y), _("{player} mountain {colors}").format(player=name.upper(),
                                                                     colors=view.mountains[row] or "-"), t.SMALL)
        t.text(draw, (1, y + 12), _("pile {colors}").format(colors=_counted(view.piles[row]) or "-"), t.SMALL)


def _counted(letters: str) -> str:
    """``"RRRO"`` -> ``"R3 O"``: a score pile's colors, short enough for one line (no spaces with many colors)."""
    parts = []
    for letter in dict.fromkeys(letters):
        count = letters.count(letter)
        parts.append(letter if count == 1 else f"{letter}{count}")
    return " ".join(parts) if len(parts) <= 4 else "".join(parts)


def draw_mountains_setup(draw: ImageDraw.ImageDraw, model: DisplayModel, size: Size = SIZE) -> None:
    width = size[0]
    t.centered(draw, 0, _("NEW GAME"), t.MEDIUM, width)
    t.text(draw, (1, 17), _("Deal 6 to each hand,"), t.SMALL)
    t.text(draw, (1, 29), _("lay the start cards."), t.SMALL)
    line = _("First: {player}  C: swap").format(player=model.first_player.upper())
    draw.rectangle((0, 46, width - 2, 59), fill=1)
    t.centered(draw, 47, line, t.SMALL, width, fill=0)


def draw_mountains_over(draw: ImageDraw.ImageDraw, model: DisplayModel, size: Size = SIZE) -> None:
    """The winner, both totals, and each player's gold and score pile."""
    over, view = model.over, model.mountains
    if over is None or view is None:
        return
    width = size[0]
    t.centered(draw, 0, _("GAME OVER"), t.MEDIUM, width)
    headline = _("DRAW") if over.winner == "draw" else _("{player} WINS").format(player=over.winner.upper())
    t.centered(draw, 16, headline, t.LARGE, width)
    t.centered(draw, 39, _("P1 {one} pts  P2 {two} pts").format(one=over.scores[0], two=over.scores[1]), t.SMALL,
               width)
    t.centered(draw, 51, _("gold {one}/{two}  pile {cups_one}/{cups_two}").format(
        one=view.gold[0], two=view.gold[1], cups_one=over.cups[0], cups_two=over.cups[1]), t.SMALL, width)
