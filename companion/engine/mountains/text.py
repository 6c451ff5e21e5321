"""The one-line text form of a mountains position, for logs and bug reports::

    mountains/1 play p1 round=2,first=p2,drawn p1:<hand>/<mountain>/<score pile>/<gold> p2:... deck:...
        discard:... out:...

Zones are written as in the official form (:mod:`companion.engine.text`):
known cards in order, ``+N`` unseen, ``-`` when empty; the deck sorted.
Flags: ``round=N``, ``first=p1|p2`` (the round's first player), then
``drawn`` (the turn's draw is done) or ``discard`` (the discard is due).
"""

from __future__ import annotations

from companion.engine.cards import PLAYERS, parse_any_card, parse_player, player_name
from companion.engine.mountains.game import (
    DECK,
    DISCARD,
    DISCARD_STEP,
    DRAW_STEP,
    GOLDS,
    HANDS,
    MOUNTAINS,
    OUT,
    PILES,
    PLAY_STEP,
    MountainsGame,
    Phase,
)
from companion.engine.text import parse_zone_parts, parsing, zone_text
from companion.errors import InvalidStateTextError

TAG = MountainsGame.rules.text_tag
_PLAYER_ZONES = (HANDS, MOUNTAINS, PILES, GOLDS)
_STEP_FLAGS = {PLAY_STEP: "drawn", DISCARD_STEP: "discard"}


def state_text(game: MountainsGame) -> str:
    flags = [f"round={game.round}", f"first={player_name(game.round_first)}"]
    if game.step in _STEP_FLAGS:
        flags.append(_STEP_FLAGS[game.step])
    parts = [TAG, game.phase.value, player_name(game.turn), ",".join(flags)]
    for player in PLAYERS:
        zones = "/".join(zone_text(game.known[z[player]], game.hidden[z[player]]) for z in _PLAYER_ZONES)
        parts.append(f"{player_name(player)}:{zones}")
    parts.append(f"deck:{zone_text(game.known[DECK], game.hidden[DECK], ordered=False)}")
    for name, zone in (("discard", DISCARD), ("out", OUT)):
        parts.append(f"{name}:{zone_text(game.known[zone], game.hidden[zone])}")
    return " ".join(parts)


def parse_state_text(line: str) -> MountainsGame:
    """Parse :func:`state_text` output; raises :class:`InvalidStateTextError` naming the part."""
    return parsing(line, _parse)


def _parse(parts: list[str]) -> MountainsGame:
    if len(parts) != 9 or parts[0] != TAG:
        raise InvalidStateTextError(f"a state text has 9 parts starting with {TAG!r}, got {len(parts)}")
    layout = [(f"{player_name(p)}:", tuple(z[p] for z in _PLAYER_ZONES)) for p in PLAYERS]
    layout += [("deck:", (DECK,)), ("discard:", (DISCARD,)), ("out:", (OUT,))]
    known, hidden = parse_zone_parts(parts[4:], layout, MountainsGame.ZONE_COUNT, parse_any_card)
    return MountainsGame.from_position(known, hidden, _parse_header(parts[1], parts[2], parts[3]))


def _parse_header(phase: str, turn: str, flags: str) -> tuple[object, ...]:
    try:
        phase_value = Phase(phase)
    except ValueError:
        raise InvalidStateTextError(f"unknown phase {phase!r} in state text") from None
    step, round_number, first = DRAW_STEP, None, None
    steps = {flag: step for step, flag in _STEP_FLAGS.items()}
    for flag in flags.split(","):
        key, _, value = flag.partition("=")
        if key == "round" and value.isdigit() and int(value) >= 1:
            round_number = int(value)
        elif key == "first":
            first = parse_player(value)
        elif flag in steps:
            step = steps[flag]
        else:
            raise InvalidStateTextError(f"unknown flag {flag!r} in state text")
    if round_number is None or first is None:
        raise InvalidStateTextError(f"the flags {flags!r} must give round=N and first=p1|p2")
    # Same order as MountainsGame.SCALARS.
    return (phase_value, parse_player(turn), step, round_number, first)
