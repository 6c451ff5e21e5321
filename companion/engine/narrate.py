"""Plain-language sentences for events, as a person at the table would say them."""

from __future__ import annotations

from companion.engine.cards import Card, card_name, color_name, color_of, player_title
from companion.engine.events import Claim, Discard, Draw, Event, FieldPlay, MountainPlay, Refill, Reveal
from companion.engine.game import CUPS, DISCARD, RIVERS, Game, Phase


def _cards(cards: tuple[Card, ...]) -> str:
    return " ".join(card_name(c) for c in cards)


def _drawn(drew: Draw) -> str:
    count = len(drew) if isinstance(drew, tuple) else drew
    if not count:
        return ""
    return f" and draws {count}"


def describe(event: Event, before: Game, after: Game) -> list[str]:
    """What happened, one sentence a line; ``before``/``after`` are the states around ``event``."""
    lines = [_describe_event(event, before, after)]
    if after.phase is Phase.CLAIM and before.phase is Phase.PLAY:
        mandala = after.destroying
        assert mandala is not None
        lines.append(f"Mandala {mandala + 1} is complete! {player_title(after.turn).capitalize()} picks first.")
    if after.phase is Phase.OVER and before.phase is not Phase.OVER:
        reason = "the deck ran out" if after.end_reason is not None and after.end_reason.value == "deck" \
            else "a river is full"
        lines.append(f"The game is over: {reason}.")
    return lines


def _describe_event(event: Event, before: Game, after: Game) -> str:
    if isinstance(event, MountainPlay):
        card = event.cards[0]
        return (f"{player_title(event.player).capitalize()} builds mandala {event.mandala + 1}'s mountain "
                f"with {card_name(card)} ({color_name(color_of(card))}){_drawn(_draw_of(event, before))}.")
    if isinstance(event, FieldPlay):
        return (f"{player_title(event.player).capitalize()} grows their field of mandala {event.mandala + 1} "
                f"with {_cards(event.cards)}.")
    if isinstance(event, Discard):
        return (f"{player_title(event.player).capitalize()} discards {_cards(event.cards)}"
                f"{_drawn(_draw_of(event, before))}.")
    if isinstance(event, Claim):
        return _describe_claim(event, before, after)
    if isinstance(event, Refill):
        return f"Mandala {event.mandala + 1}'s mountain is refilled with {_cards(event.cards)}."
    assert isinstance(event, Reveal)
    return f"{player_title(event.player).capitalize()} reveals {_cards(event.cards)} from their cup."


def _draw_of(event: MountainPlay | Discard, before: Game) -> Draw:
    return before.required_draws(event) if event.drew is None else event.drew


def _describe_claim(event: Claim, before: Game, after: Game) -> str:
    who = player_title(event.player).capitalize()
    name = color_name(event.color)
    river = after.size(RIVERS[event.player]) - before.size(RIVERS[event.player])
    cup = after.size(CUPS[event.player]) - before.size(CUPS[event.player])
    discarded = after.size(DISCARD) - before.size(DISCARD)
    parts = []
    if river:
        parts.append(f"{card_name(after.river(event.player)[-1])} to river space {len(after.river(event.player))}")
    if cup:
        parts.append(f"{cup} to the cup")
    if discarded and not river and not cup:
        parts.append(f"{discarded} to the discard pile (empty field)")
    return f"{who} claims {name}: " + ", ".join(parts) + "."


def describe_result(game: Game) -> list[str]:
    """The final scores, and who won and why."""
    lines = []
    for player in (0, 1):
        score = game.score(player)
        river = " ".join(color_name(c) for c in game.river_colors(player)) or "empty"
        unknown = f", {score.unknown} cup cards not yet seen" if score.unknown else ""
        lines.append(f"{player_title(player).capitalize()}: {score.points} points, {score.cup_size} cards in cup"
                     f"{unknown}; river: {river}.")
    winner = game.winner()
    if winner == "draw":
        lines.append("It's a draw: same score and same cup size.")
    elif isinstance(winner, int):
        tie = " on the tie-break (fewer cards in cup)" if game.decided_by_cup_size() else ""
        lines.append(f"{player_title(winner).capitalize()} wins{tie}!")
    return lines
