"""The one-line text form of a game state, for logs and bug reports.

Like a chess FEN it holds the whole position and parses back::

    mandala/1 play p1 - m1:R01O02/-/- m2:Y03G04/-/- p1:<hand>/<cup>/<river> p2:... deck:... discard:...

A zone is its known cards in order (``R01O02``), then ``+N`` for N unseen
cards, or ``-`` when empty. The deck is written sorted: its order is not
part of the state. Flags are ``-`` or a comma list of ``destroy=m1``,
``completer=p2``, ``deckout`` (the end is triggered) and ``end=deck|river``.

This module is the official game's form; another ruleset's form starts with
its own tag (``mountains/1``, :mod:`companion.engine.mountains.text`), and
``BaseGame.from_text`` reads any of them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

from companion.engine.base import BaseGame
from companion.engine.cards import (
    MANDALAS,
    PLAYERS,
    Card,
    card_name,
    mandala_name,
    parse_card,
    parse_mandala,
    parse_player,
    player_name,
)
from companion.engine.game import (
    CUPS,
    DECK,
    DISCARD,
    HANDS,
    RIVERS,
    ZONE_COUNT,
    EndReason,
    Game,
    Phase,
    area_zone,
)
from companion.errors import InvalidCardError, InvalidStateTextError, PositionError

GameT = TypeVar("GameT", bound=BaseGame[Any, Any])
MAGIC = Game.rules.text_tag
ZONE_TEXT = re.compile(r"^((?:[A-Z]\d\d)*)(?:\+(\d+))?$")
"""One zone: its known cards' ids run together, then ``+N`` unseen cards (or ``-`` when empty)."""


def zone_text(known: list[Card], hidden: int, ordered: bool = True) -> str:
    """A zone's text; a zone whose order is not part of the state (the deck) is written sorted."""
    names = "".join(card_name(c) for c in (known if ordered else sorted(known)))
    unseen = f"+{hidden}" if hidden else ""
    return names + unseen or "-"


def parse_zone(text: str, parse: Callable[[object], Card] = parse_card) -> tuple[list[Card], int]:
    """A zone's text back to its known cards and unseen count; ``parse`` reads one card id."""
    if text == "-":
        return [], 0
    match = ZONE_TEXT.match(text)
    if not match:
        raise InvalidStateTextError(f"bad zone {text!r} in state text")
    names, unseen = match.group(1), match.group(2)
    return [parse(names[i:i + 3]) for i in range(0, len(names), 3)], int(unseen or 0)


def _zone_text(game: Game, zone: int) -> str:
    return zone_text(game.known[zone], game.hidden[zone], ordered=zone != DECK)


def _flags(game: Game) -> str:
    flags = []
    if game.destroying is not None:
        flags.append(f"destroy={mandala_name(game.destroying)}")
    if game.completer is not None:
        flags.append(f"completer={player_name(game.completer)}")
    if game.deck_ran_out:
        flags.append("deckout")
    if game.end_reason is not None:
        flags.append(f"end={game.end_reason.value}")
    return ",".join(flags) or "-"


def state_text(game: Game) -> str:
    parts = [MAGIC, game.phase.value, player_name(game.turn), _flags(game)]
    for mandala in MANDALAS:
        areas = "/".join(_zone_text(game, area_zone(mandala, slot)) for slot in range(3))
        parts.append(f"{mandala_name(mandala)}:{areas}")
    for player in PLAYERS:
        zones = "/".join(_zone_text(game, z[player]) for z in (HANDS, CUPS, RIVERS))
        parts.append(f"{player_name(player)}:{zones}")
    parts.append(f"deck:{_zone_text(game, DECK)}")
    parts.append(f"discard:{_zone_text(game, DISCARD)}")
    return " ".join(parts)


def parse_state_text(line: str) -> Game:
    """Parse :func:`state_text` output; raises :class:`InvalidStateTextError` naming the part."""
    return parsing(line, _parse)


def parsing(line: str, parse: Callable[[list[str]], GameT]) -> GameT:
    """Run a ruleset's parser on a state text's words; any bad part is an :class:`InvalidStateTextError`."""
    try:
        return parse(line.split())
    except (InvalidCardError, PositionError) as error:
        raise InvalidStateTextError(f"bad state text {line[:40]!r}...: {error}") from None


def parse_zone_parts(parts: list[str], layout: list[tuple[str, tuple[int, ...]]], zone_count: int,
                     parse: Callable[[object], Card] = parse_card) -> tuple[list[list[Card]], list[int]]:
    """The zone parts of a state text (``prefix:zone/zone...``, as ``layout`` lists them) as known cards
    and unseen counts, zone by zone."""
    known: list[list[Card]] = [[] for _ in range(zone_count)]
    hidden = [0] * zone_count
    for part, (prefix, targets) in zip(parts, layout, strict=True):
        if not part.startswith(prefix):
            raise InvalidStateTextError(f"expected {prefix!r} in state text, got {part!r}")
        texts = part[len(prefix):].split("/")
        if len(texts) != len(targets):
            raise InvalidStateTextError(f"{part!r} should have {len(targets)} zones")
        for text, zone in zip(texts, targets, strict=True):
            known[zone], hidden[zone] = parse_zone(text, parse)
    return known, hidden


def _parse(parts: list[str]) -> Game:
    if len(parts) != 10 or parts[0] != MAGIC:
        raise InvalidStateTextError(f"a state text has 10 parts starting with {MAGIC!r}, got {len(parts)}")
    layout: list[tuple[str, tuple[int, ...]]] = []
    for mandala in MANDALAS:
        layout.append((f"{mandala_name(mandala)}:", tuple(area_zone(mandala, s) for s in range(3))))
    for player in PLAYERS:
        layout.append((f"{player_name(player)}:", (HANDS[player], CUPS[player], RIVERS[player])))
    layout += [("deck:", (DECK,)), ("discard:", (DISCARD,))]
    known, hidden = parse_zone_parts(parts[4:], layout, ZONE_COUNT)
    return Game.from_position(known, hidden, _parse_header(parts[1], parts[2], parts[3]))


def _parse_header(phase: str, turn: str, flags: str) -> tuple[object, ...]:
    try:
        phase_value = Phase(phase)
    except ValueError:
        raise InvalidStateTextError(f"unknown phase {phase!r} in state text") from None
    destroying = completer = end = None
    deckout = False
    for flag in [] if flags == "-" else flags.split(","):
        key, _, value = flag.partition("=")
        if key == "destroy":
            destroying = parse_mandala(value)
        elif key == "completer":
            completer = parse_player(value)
        elif key == "deckout":
            deckout = True
        elif key == "end" and value in ("deck", "river"):
            end = EndReason(value)
        else:
            raise InvalidStateTextError(f"unknown flag {flag!r} in state text")
    # Same order as Game.SCALARS.
    return (phase_value, parse_player(turn), completer, destroying, deckout, end)
