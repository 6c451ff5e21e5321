"""Cards, colors, players and mandalas as small integers.

Like python-chess's squares, game tokens are plain ints with aliases, so the
rules run on lists and bit masks; the text forms (``"R07"``, ``"red"``,
``"p1"``, ``"m1"``) are for records, logs and people.

The vocabulary holds every card of every ruleset: the 108 colored cards of
the official game and the 12 gold cards ``A01``..``A12`` that only the
``mountains`` ruleset deals (``Rules.cards`` says which a ruleset uses).
:func:`parse_card` reads the official 108; :func:`parse_any_card` all 120.

>>> parse_card("R07"), card_name(6), color_of(parse_card("K18"))
(6, 'R07', 5)
>>> parse_any_card("A01"), color_name(color_of(parse_any_card("A12")))
(108, 'gold')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeAlias

from companion.errors import InvalidCardError
from companion.vocab.colors import COLOR_LETTERS as COLOR_LETTERS
from companion.vocab.colors import COLOR_NAMES as COLOR_NAMES
from companion.vocab.colors import GOLD_LETTER as GOLD_LETTER
from companion.vocab.colors import GOLD_NAME as GOLD_NAME
from companion.vocab.zones import MANDALA_NAMES as MANDALA_NAMES
from companion.vocab.zones import PLAYER_NAMES as PLAYER_NAMES

Card: TypeAlias = int
"""0..107: color * 18 + serial - 1; the gold cards are 108..119."""
Color: TypeAlias = int
"""0..5 in rulebook order: red, orange, yellow, green, purple, black; 6 is gold."""
Player: TypeAlias = int
"""0 is p1 (bottom edge of the mat), 1 is p2."""
Mandala: TypeAlias = int
"""0 is m1, 1 is m2."""

CARDS_PER_COLOR = 18
COLORS: tuple[Color, ...] = tuple(range(6))
ALL_COLORS_MASK = 0b111111
CARDS: tuple[Card, ...] = tuple(range(len(COLORS) * CARDS_PER_COLOR))
"""The 108 colored cards: the whole deck of the official game."""

GOLD: Color = 6
"""The color of the gold cards: not one of :data:`COLORS`, never part of a color rule."""
GOLD_COUNT = 12
GOLD_CARDS: tuple[Card, ...] = tuple(range(len(CARDS), len(CARDS) + GOLD_COUNT))
ALL_CARDS: tuple[Card, ...] = CARDS + GOLD_CARDS

PLAYERS: tuple[Player, ...] = (0, 1)
MANDALAS: tuple[Mandala, ...] = (0, 1)

_LETTERS = COLOR_LETTERS + GOLD_LETTER
_NAMES = (*COLOR_NAMES, GOLD_NAME)
COLOR_OF: tuple[Color, ...] = tuple(min(c // CARDS_PER_COLOR, GOLD) for c in ALL_CARDS)
"""Color of each card, as a table: the hot paths index it instead of dividing."""
COLOR_BIT: tuple[int, ...] = tuple(1 << color for color in COLOR_OF)
"""Each card's color as a one-bit mask (bit ``color``; gold is bit 6)."""


def colors_mask(cards: Iterable[Card]) -> int:
    """The colors of some cards as a bit mask (bit ``color``), as the hot paths need it."""
    mask = 0
    for card in cards:
        mask |= COLOR_BIT[card]
    return mask

_CARD_NAMES = tuple(
    f"{COLOR_LETTERS[c // CARDS_PER_COLOR]}{c % CARDS_PER_COLOR + 1:02d}" if c < len(CARDS)
    else f"{GOLD_LETTER}{c - len(CARDS) + 1:02d}" for c in ALL_CARDS)
_CARD_BY_NAME = {name: card for card, name in enumerate(_CARD_NAMES)}


def parse_card(name: object) -> Card:
    """``"R07"`` -> 6, a card of the official game; raises :class:`InvalidCardError` for anything else."""
    card = _CARD_BY_NAME.get(name) if isinstance(name, str) else None
    if card is None or card >= len(CARDS):
        raise InvalidCardError(f"unknown card {name!r}: expected R01..R18, O, Y, G, P or K")
    return card


def parse_any_card(name: object) -> Card:
    """Any card of any ruleset, gold cards ``A01``..``A12`` included."""
    card = _CARD_BY_NAME.get(name) if isinstance(name, str) else None
    if card is None:
        raise InvalidCardError(f"unknown card {name!r}: expected R01..R18, O, Y, G, P, K or A01..A12")
    return card


def card_name(card: Card) -> str:
    return _CARD_NAMES[card]


def color_of(card: Card) -> Color:
    return COLOR_OF[card]


def parse_color(letter: object) -> Color:
    """One of the six colors' letters (gold is not a color anyone claims or names)."""
    index = COLOR_LETTERS.find(letter) if isinstance(letter, str) and len(letter) == 1 else -1
    if index < 0:
        raise InvalidCardError(f"unknown color {letter!r}: expected one of R, O, Y, G, P, K")
    return index


def color_letter(color: Color) -> str:
    return _LETTERS[color]


def color_name(color: Color) -> str:
    return _NAMES[color]


def parse_player(name: object) -> Player:
    if not isinstance(name, str) or name not in PLAYER_NAMES:
        raise InvalidCardError(f"unknown player {name!r}: expected p1 or p2")
    return PLAYER_NAMES.index(name)


def player_name(player: Player) -> str:
    return PLAYER_NAMES[player]


def player_title(player: Player) -> str:
    """How messages name a player: ``"player 2"``."""
    return f"player {player + 1}"


def parse_mandala(name: object) -> Mandala:
    if not isinstance(name, str) or name not in MANDALA_NAMES:
        raise InvalidCardError(f"unknown mandala {name!r}: expected m1 or m2")
    return MANDALA_NAMES.index(name)


def mandala_name(mandala: Mandala) -> str:
    return MANDALA_NAMES[mandala]


COLORS_IN_MASK: tuple[tuple[Color, ...], ...] = tuple(
    tuple(c for c in COLORS if mask >> c & 1) for mask in range(ALL_COLORS_MASK + 1))
"""The colors of each 6-bit color mask, as a table for the hot paths."""


def colors_in(mask: int) -> tuple[Color, ...]:
    """The colors set in a color bit mask, in rulebook order."""
    return COLORS_IN_MASK[mask & ALL_COLORS_MASK]
