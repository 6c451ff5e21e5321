"""Every warning reason, defined once: its code, who raises it, its OLED title, screen text and fix.

A warning is an illegal or unexplained change of the table. Its reason code
is a contract (``docs/interfaces.md`` sections 4 and 10) that the rules
engine's violations, the tracker's warnings, the journal and the screens all
use. This module is the one place that spells the codes and says, for each:

- where it comes from (:class:`Source`): the rules engine, the tracker (only a
  camera can see it), vision or the app (the camera or the mat is not seen);
- its title on the OLED (at most :data:`TITLE_MAX` letters);
- ``what``: a short template of what is wrong, two small lines on the OLED;
- ``fix``: a short template of what to do, two medium lines on the OLED;
- ``about``: one sentence for the players' guide and the docs.

Templates are filled by :func:`warning_text`, the one function that makes the
texts the tracker stores and the screens show. Placeholders: ``{cards}`` (the
card ids, or "3 green cards" for more than two), ``{the_cards}`` (the same,
with "the red card R05" for one card), ``{color}``/``{Color}``,
``{zone}`` (the zone's short name), ``{player}``/``{other}`` (``P1``/``P2``),
``{mandala}`` (``M1``) and ``{space}`` (a river space).

``tests/vocab/test_reasons.py`` fails when a code the engine or the tracker can
emit is missing here, and when a code here is emitted by nothing;
``tests/ui/test_warning_fit.py`` renders every text for every reason, color,
zone and player and fails on any cut.

>>> text = warning_text(Reason.COLOR_RULE, ["G03"], "m1.field.p2", player=1)
>>> text.title, text.what, text.fix
('RULE OF COLOR', 'Green is in another area of M1.', 'Take back the green card G03')
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from companion.vocab.colors import NAME_OF_LETTER, color_of_card_id
from companion.vocab.zones import MANDALA_NAMES, PLAYER_NAMES, SCREEN_ZONE_MESSAGES, parse_zone, screen_zone

Gettext = Callable[[str], str]
"""A translation function (``companion.ui.i18n._``): English text in, the players' language out."""


def english(message: str) -> str:
    """The identity :data:`Gettext`: the registry's own (English) text."""
    return message


class Source(enum.StrEnum):
    ENGINE = "engine"
    """A rule of the game says no (``Violation`` of the rules engine)."""
    TRACKER = "tracker"
    """The table changed in a way no play explains (only a camera sees it)."""
    VISION = "vision"
    """The camera image does not show what the tracker needs."""
    APP = "app"
    """The hardware: the camera itself."""


class Reason(enum.StrEnum):
    """Every reason code; the value is the code of the contract."""

    # The rules engine: interfaces.md section 4, in the official game's order of checking.
    GAME_OVER = "game-over"
    WRONG_PHASE = "wrong-phase"
    NOT_YOUR_TURN = "not-your-turn"
    CARD_NOT_IN_HAND = "card-not-in-hand"
    MOUNTAIN_ONE_CARD = "mountain-one-card"
    MIXED_COLORS = "mixed-colors"
    OWN_FIELD_ONLY = "own-field-only"
    COLOR_RULE = "color-rule"
    MUST_KEEP_ONE_CARD = "must-keep-one-card"
    COLOR_NOT_IN_MOUNTAIN = "color-not-in-mountain"
    # The engine's extensions beyond the contract's list.
    RIVER_CARD = "river-card"
    CARD_NOT_IN_CUP = "card-not-in-cup"
    REFILL_COUNT = "refill-count"
    DRAW_COUNT = "draw-count"
    CARD_NOT_IN_DECK = "card-not-in-deck"
    # The mountains ruleset's own codes (rules-002.md, interfaces.md section 10).
    START_NOT_COLORED = "start-not-colored"
    START_SAME_COLOR = "start-same-color"
    OWN_MOUNTAIN_COLOR = "own-mountain-color"
    NO_SUCH_COLUMN = "no-such-column"
    GOLD_NEW_COLUMN = "gold-new-column"
    DISCARD_COUNT = "discard-count"
    # The tracker's: changes of the table only a camera can see.
    MOVED_CARD = "moved-card"
    UNEXPECTED_CARD = "unexpected-card"
    DUPLICATE_CARD = "duplicate-card"
    REVEAL_MISMATCH = "reveal-mismatch"
    RIVER_SPACE = "river-space"
    UNDONE = "undone"
    # The camera and the mat (the problem screen, shown instead of the game).
    CAMERA_LOST = "camera-lost"
    NO_CAMERA = "no-camera"
    BOARD_NOT_FOUND = "board-not-found"


TITLE_MAX = 16
"""Letters of a title: the title bar holds 20, less room for a "1/3" counter."""


@dataclass(frozen=True, slots=True)
class ReasonInfo:
    source: Source
    title: str
    what: str
    fix: str
    about: str


_TAKE_BACK = "Take back {the_cards}"

_REASONS: dict[Reason, ReasonInfo] = {
    Reason.GAME_OVER: ReasonInfo(
        Source.ENGINE, "GAME IS OVER", "The game has ended: no more plays.", _TAKE_BACK,
        "A card was played after the game ended."),
    Reason.WRONG_PHASE: ReasonInfo(
        Source.ENGINE, "NOT NOW", "Not the move the game waits for.", _TAKE_BACK,
        "A play the game does not expect now (a play during a destruction, a claim during play)."),
    Reason.NOT_YOUR_TURN: ReasonInfo(
        Source.ENGINE, "NOT YOUR TURN", "It is {other}'s turn, not {player}'s.", _TAKE_BACK,
        "A player played or claimed out of turn."),
    Reason.CARD_NOT_IN_HAND: ReasonInfo(
        Source.ENGINE, "NOT IN HAND", "{cards}: not in {player}'s hand.", "Check {the_cards}",
        "A card the game places elsewhere was played (often a misread or mis-stuck sticker), "
        "or more cards than the hand holds."),
    Reason.MOUNTAIN_ONE_CARD: ReasonInfo(
        Source.ENGINE, "ONE CARD ONLY", "A mountain takes one card per play.", "Keep one card in the mountain",
        "More than one card was laid in a mountain in one play."),
    Reason.MIXED_COLORS: ReasonInfo(
        Source.ENGINE, "MIXED COLORS", "One play is of one color only.", _TAKE_BACK,
        "Cards of two colors were laid in one field play or discard."),
    Reason.OWN_FIELD_ONLY: ReasonInfo(
        Source.ENGINE, "OWN FIELD ONLY", "{zone} is not {player}'s own field.", _TAKE_BACK,
        "A player laid cards in the opponent's field."),
    Reason.COLOR_RULE: ReasonInfo(
        Source.ENGINE, "RULE OF COLOR", "{Color} is in another area of {mandala}.", _TAKE_BACK,
        "The Rule of Color: a color already in one area of a mandala (mountain or a field) "
        "can't go into another area of the same mandala."),
    Reason.MUST_KEEP_ONE_CARD: ReasonInfo(
        Source.ENGINE, "KEEP ONE CARD", "{player} must keep one card in hand.", "Take back one card",
        "A field play would have emptied the player's hand."),
    Reason.COLOR_NOT_IN_MOUNTAIN: ReasonInfo(
        Source.ENGINE, "NOT CLAIMABLE", "{Color} is not left in the mountain.", "Put back {cards}",
        "During a destruction, a color was claimed that is no longer in the mountain."),
    Reason.RIVER_CARD: ReasonInfo(
        Source.ENGINE, "NOT FOR RIVER", "Not for the river: cup or discard pile.", "Move {cards}",
        "A claimed card was laid in a river although it goes to the cup (the color is already in "
        "the river) or to the discard pile (the claimer's field is empty)."),
    Reason.CARD_NOT_IN_CUP: ReasonInfo(
        Source.ENGINE, "NOT FROM CUP", "{cards} was not in {player}'s cup.", "Check the cup cards",
        "A card shown at the end was not one of the player's cup cards."),
    Reason.REFILL_COUNT: ReasonInfo(
        Source.ENGINE, "REFILL COUNT", "Too many cards to refill {zone}.", "Take back the extra cards",
        "More cards were laid into the emptied mountain than the refill asks."),
    Reason.DRAW_COUNT: ReasonInfo(
        Source.ENGINE, "DRAW COUNT", "{player} drew the wrong number of cards.", "Draw the number shown",
        "A player drew more or fewer cards than the rules say."),
    Reason.CARD_NOT_IN_DECK: ReasonInfo(
        Source.ENGINE, "NOT IN DECK", "{cards}: not in the deck now.", "Check {the_cards}",
        "A drawn card is one the game places elsewhere (often a misread sticker)."),
    Reason.START_NOT_COLORED: ReasonInfo(
        Source.ENGINE, "START CARD", "Start with a colored card, not gold.", _TAKE_BACK,
        "Mountains: a gold card was laid as a starting card."),
    Reason.START_SAME_COLOR: ReasonInfo(
        Source.ENGINE, "START COLOR", "{player} must start with another color.", _TAKE_BACK,
        "Mountains: the second starting card has the first one's color although the hand holds another."),
    Reason.OWN_MOUNTAIN_COLOR: ReasonInfo(
        Source.ENGINE, "COLOR TAKEN", "{Color} is in {other}'s mountain already.", _TAKE_BACK,
        "Mountains: a color was played into one's own mountain while the opponent's mountain has it."),
    Reason.NO_SUCH_COLUMN: ReasonInfo(
        Source.ENGINE, "NO SUCH COLUMN", "{other}'s mountain has no {color} column.", _TAKE_BACK,
        "Mountains: a card was played into the opponent's mountain in a color it has no column of."),
    Reason.GOLD_NEW_COLUMN: ReasonInfo(
        Source.ENGINE, "GOLD JOINS ONLY", "Gold joins a column; it starts none.", _TAKE_BACK,
        "Mountains: a gold card was played where it would start a new column."),
    Reason.DISCARD_COUNT: ReasonInfo(
        Source.ENGINE, "DISCARD COUNT", "{player} discards down to 6 cards.", "Discard the number shown",
        "Mountains: a player discarded more or fewer cards than bring the hand to 6."),
    Reason.MOVED_CARD: ReasonInfo(
        Source.TRACKER, "CARD MOVED", "{cards} moved to {zone}.", "Put {the_cards} back",
        "A card already on the table crossed into another area outside any play."),
    Reason.UNEXPECTED_CARD: ReasonInfo(
        Source.TRACKER, "UNEXPECTED CARD", "Nothing goes into {zone} now.", _TAKE_BACK,
        "A card appeared where no play puts one (a river outside a claim, a cup during play)."),
    Reason.DUPLICATE_CARD: ReasonInfo(
        Source.TRACKER, "CARD TWICE", "{cards}: read in two places.", "Remove the extra sticker",
        "The same card id is read in two places: one sticker is on the wrong card, or printed twice."),
    Reason.REVEAL_MISMATCH: ReasonInfo(
        Source.TRACKER, "NOT A CUP CARD", "Not from the cup: {cards}.", "Check the cup cards",
        "A card laid out at the end that the game knows to be somewhere else."),
    Reason.RIVER_SPACE: ReasonInfo(
        Source.TRACKER, "RIVER SPACE", "Rivers fill from the left, with no gap.", "Move to space {space}",
        "A claimed card was laid in a river space other than the leftmost empty one."),
    Reason.UNDONE: ReasonInfo(
        Source.TRACKER, "MOVE UNDONE", "The last move was undone.", _TAKE_BACK,
        "A player undid the last move from the menu: its cards should leave the table."),
    Reason.CAMERA_LOST: ReasonInfo(
        Source.APP, "CAMERA LOST", "Tracking is paused.", "Check the camera cable",
        "Frames stopped coming from the camera."),
    Reason.NO_CAMERA: ReasonInfo(
        Source.APP, "NO CAMERA", "Retrying.", "Check the camera cable and power",
        "No camera could be opened (none fitted, or another program holds it)."),
    Reason.BOARD_NOT_FOUND: ReasonInfo(
        Source.VISION, "BOARD NOT FOUND", "Tracking is paused.", "Keep the mat corners in view",
        "The camera does not see enough of the mat's corner markers (a hand or an object covers them)."),
}

REASONS: Mapping[Reason, ReasonInfo] = MappingProxyType(_REASONS)


@dataclass(frozen=True, slots=True)
class WarningText:
    """What a warning says: its title, what is wrong, and what to do."""

    title: str
    what: str
    fix: str


def info(code: str) -> ReasonInfo | None:
    """The registry's entry for a code; None for a code this version does not know (an old journal's)."""
    try:
        return REASONS.get(Reason(code))
    except ValueError:
        return None


def title(code: str, gettext: Gettext = english) -> str:
    entry = info(code)
    return gettext(entry.title) if entry is not None else code.replace("-", " ").upper()[:TITLE_MAX]


# The words that fill the templates, each a message of the catalogs too (companion/locale).
_ONE_CARD = "the {color} card {card}"
_SOME_CARDS = "{count} {color} cards"
_MIXED_CARDS = "{count} cards"
_NO_CARD = "the card"
_NO_COLOR = "that color"
_NO_ZONE = "that place"
_NO_MANDALA = "the mandala"


def cards_text(cards: Sequence[str], gettext: Gettext = english) -> str:
    """The cards as a warning names them: their ids, or "3 green cards" when there are more than two."""
    if len(cards) <= 2:
        return " ".join(cards) or gettext(_NO_CARD)
    colors = {color_of_card_id(c) for c in cards}
    if len(colors) == 1:
        return gettext(_SOME_CARDS).format(count=len(cards), color=gettext(colors.pop()))
    return gettext(_MIXED_CARDS).format(count=len(cards))


def warning_text(code: str, cards: Sequence[str] = (), zone: str = "", *, player: int | None = None,
                 space: int | None = None, gettext: Gettext = english) -> WarningText:
    """The texts of a warning, from its reason code and what raised it, in the language of ``gettext``.

    ``player`` is the player whose play it was (0 is p1; by default the owner
    of ``zone``); ``space`` the river space a card belongs in.
    """
    entry = info(code)
    if entry is None:
        return WarningText(title(code), "", "")
    ref = parse_zone(zone)
    who = player if player is not None else ref.player if ref.player is not None else 0
    color = gettext(color_of_card_id(cards[0]) if cards else _NO_COLOR)
    values = {
        "cards": cards_text(cards, gettext),
        "the_cards": (gettext(_ONE_CARD).format(color=color, card=cards[0]) if len(cards) == 1
                      else cards_text(cards, gettext)),
        "color": color, "Color": color[:1].upper() + color[1:],
        "zone": screen_zone(zone, gettext) if zone else gettext(_NO_ZONE),
        "player": PLAYER_NAMES[who].upper(), "other": PLAYER_NAMES[1 - who].upper(),
        "mandala": MANDALA_NAMES[ref.mandala].upper() if ref.mandala is not None else gettext(_NO_MANDALA),
        "space": str(space) if space is not None else "1",
    }
    return WarningText(gettext(entry.title), gettext(entry.what).format(**values),
                       gettext(entry.fix).format(**values))


def messages() -> set[str]:
    """Every English text this registry may hand to a translation (the catalogs must have each)."""
    words = {"card", _ONE_CARD, _SOME_CARDS, _MIXED_CARDS, _NO_CARD, _NO_COLOR, _NO_ZONE, _NO_MANDALA,
             *NAME_OF_LETTER.values(), *SCREEN_ZONE_MESSAGES}
    return words | {text for entry in REASONS.values() for text in (entry.title, entry.what, entry.fix)}


def warning_id(frame: int, code: str, cards: Sequence[str]) -> str:
    """A warning's stable id: the frame that raised it, its code and its cards (``"812-color-rule-G03"``).

    The same change seen again is the same warning, and a journal line can name
    it; overrides refer to this id, never to a warning's wording.
    """
    return "-".join((str(frame), code, *cards))


def markdown() -> str:
    """``docs/reasons.md``: the registry as a table (``python -m companion.vocab.reasons > docs/reasons.md``)."""
    lines = [
        "# Warning reasons",
        "",
        "Generated from `companion/vocab/reasons.py` (the one definition; a test fails when this page",
        "differs): `python -m companion.vocab.reasons > docs/reasons.md`.",
        "",
        "Every warning the companion shows has one of these codes. *From* says who raises it: the",
        "rules engine (a rule of the game says no), the tracker (a change of the table only a camera",
        "sees), vision or the app (the mat or the camera is not seen: the problem screen). The OLED",
        "shows the title, the fix in large letters, and the short text below it; placeholders in",
        "braces are filled from the warning's cards, zone and player (`{cards}`: the card ids, or",
        "\"3 green cards\"; `{the_cards}`: \"the red card R05\" for one card).",
        "",
        "| code | from | title | on screen | fix | when |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for code, entry in REASONS.items():
        lines.append(f"| `{code}` | {entry.source} | {entry.title} | {entry.what} | {entry.fix} | {entry.about} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
