"""The registry of rulesets by name, as python-chess's ``chess.variant.find_variant``.

A ruleset is a game class (a subclass of :class:`BaseGame` with its own
``rules``); records name theirs in the header (``"ruleset"``), state texts
by their first word (``rules.text_tag``). ``mandala``, the official game, is
the default everywhere.

>>> find_ruleset("mountains").rules.hand_max
9
"""

from __future__ import annotations

from typing import Any

from companion.engine.base import BaseGame
from companion.engine.game import Game
from companion.engine.mountains.game import MountainsGame
from companion.errors import InvalidStateTextError, UnknownRulesetError

DEFAULT = Game.rules.name
RULESETS: dict[str, type[BaseGame[Any, Any]]] = {game.rules.name: game for game in (Game, MountainsGame)}
"""Each ruleset's game class by name, the default first."""


def find_ruleset(name: object) -> type[BaseGame[Any, Any]]:
    """The game class of a ruleset name; anything else is an :class:`UnknownRulesetError` naming the choices."""
    game = RULESETS.get(name) if isinstance(name, str) else None
    if game is None:
        raise UnknownRulesetError(f"unknown ruleset {name!r}: expected {' or '.join(RULESETS)}")
    return game


def ruleset_of_text(line: str) -> type[BaseGame[Any, Any]]:
    """The game class whose text form starts a state text."""
    tag = line.split(maxsplit=1)[0] if line.strip() else ""
    for game in RULESETS.values():
        if game.rules.text_tag == tag:
            return game
    tags = " or ".join(game.rules.text_tag for game in RULESETS.values())
    raise InvalidStateTextError(f"a state text starts with {tags}, not {tag!r}")
