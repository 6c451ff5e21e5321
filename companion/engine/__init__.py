"""The rules of Mandala: pure Python, no I/O, no hardware.

>>> import random
>>> from companion.engine import Game, deal, random_action
>>> game = Game(deal(random.Random(7)))
>>> event = next(game.legal_actions())
>>> game.is_legal(event)
True
"""

from companion.engine.cards import (
    CARDS,
    COLOR_NAMES,
    COLORS,
    Card,
    Color,
    Mandala,
    Player,
    card_name,
    color_name,
    color_of,
    parse_card,
    parse_color,
)
from companion.engine.deal import deal, draw_cards, play_random_game, random_action
from companion.engine.events import (
    Claim,
    Discard,
    Draw,
    Event,
    FieldPlay,
    MountainPlay,
    Refill,
    Resync,
    Reveal,
)
from companion.engine.game import EndReason, Game, Phase, Score, Setup
from companion.engine.record import Record, Verdict, read_record, record_lines, replay, summary, table_record
from companion.engine.violations import PRECEDENCE, Reason, Violation

__all__ = [
    "CARDS", "COLORS", "COLOR_NAMES", "PRECEDENCE", "Card", "Claim", "Color", "Discard", "Draw",
    "EndReason", "Event", "FieldPlay", "Game", "Mandala", "MountainPlay", "Phase", "Player",
    "Reason", "Record", "Refill", "Resync", "Reveal", "Score", "Setup", "Verdict", "Violation",
    "card_name", "color_name", "color_of", "deal", "draw_cards", "parse_card", "parse_color",
    "play_random_game", "random_action", "read_record", "record_lines", "replay", "summary", "table_record",
]
