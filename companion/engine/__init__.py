"""The rules of Mandala: pure Python, no I/O, no hardware.

Two rulesets, each a game class on :class:`BaseGame` (as chess variants are
boards): :class:`Game`, the official game and the default, and
:class:`MountainsGame` (``rules-002.md``). :func:`find_ruleset` finds one by
name.

>>> import random
>>> from companion.engine import Game, deal, random_action
>>> game = Game(deal(random.Random(7)))
>>> event = next(game.legal_actions())
>>> game.is_legal(event)
True
"""

from companion.engine.base import BaseGame, Snapshot
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
from companion.engine.deal import deal, deal_mountains, draw_cards, play_random_game, random_action
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
from companion.engine.mountains import (
    DiscardCards,
    DrawCards,
    MountainsEvent,
    MountainsGame,
    MountainsPhase,
    MountainsSetup,
    PlayCard,
    StartCard,
)
from companion.engine.record import Record, Verdict, read_record, record_lines, replay, summary, table_record
from companion.engine.rules import MANDALA, MOUNTAINS, MandalaRules, MountainsRules, Rules
from companion.engine.rulesets import DEFAULT, RULESETS, find_ruleset
from companion.engine.violations import PRECEDENCE, Reason, Violation

__all__ = [
    "CARDS", "COLORS", "COLOR_NAMES", "DEFAULT", "MANDALA", "MOUNTAINS", "PRECEDENCE", "RULESETS", "BaseGame",
    "Card", "Claim", "Color", "Discard", "DiscardCards", "Draw", "DrawCards", "EndReason", "Event", "FieldPlay",
    "Game", "Mandala", "MandalaRules", "MountainPlay", "MountainsEvent", "MountainsGame", "MountainsPhase",
    "MountainsRules", "MountainsSetup", "Phase", "PlayCard", "Player", "Reason", "Record", "Refill", "Resync", "Reveal",
    "Rules", "Score", "Setup", "Snapshot", "StartCard", "Verdict", "Violation", "card_name", "color_name",
    "color_of", "deal", "deal_mountains", "draw_cards", "find_ruleset", "parse_card", "parse_color",
    "play_random_game", "random_action", "read_record", "record_lines", "replay", "summary", "table_record",
]
