"""The card colors: letters and names in rulebook order (red, orange, yellow, green, purple, black).

A card id starts with its color letter (``"G03"``); the gold cards of the
``mountains`` ruleset use the letter ``A``.
"""

from __future__ import annotations

COLOR_LETTERS = "ROYGPK"
COLOR_NAMES: tuple[str, ...] = ("red", "orange", "yellow", "green", "purple", "black")
GOLD_LETTER = "A"
GOLD_NAME = "gold"

NAME_OF_LETTER: dict[str, str] = {**dict(zip(COLOR_LETTERS, COLOR_NAMES, strict=True)), GOLD_LETTER: GOLD_NAME}
"""``"G"`` -> ``"green"``, gold included."""


def color_of_card_id(card_id: str) -> str:
    """The color name of a card id (``"G03"`` -> ``"green"``); ``"card"`` for an id that names no color."""
    return NAME_OF_LETTER.get(card_id[:1], "card")
