"""Plain-language sentences for the events of a ``mountains`` game, as a person at the table would say them."""

from __future__ import annotations

from companion.engine.cards import COLOR_OF, COLORS, GOLD, Card, card_name, color_name, player_title
from companion.engine.mountains.events import DiscardCards, DrawCards, MountainsEvent, PlayCard, StartCard
from companion.engine.mountains.game import MOUNTAINS, PILES, MountainsGame, Phase, laid_when_scored


def describe_mountains(event: MountainsEvent, before: MountainsGame, after: MountainsGame) -> list[str]:
    """What happened, one sentence a line; ``before``/``after`` are the states around ``event``."""
    who = player_title(event.player).capitalize()
    if isinstance(event, StartCard):
        lines = [f"{who} lays {card_name(event.card)} ({color_name(COLOR_OF[event.card])}) on the start row."]
    elif isinstance(event, DrawCards):
        lines = [f"{who} draws {event.count} (up to {after.hand_size(event.player)} in hand)."]
    elif isinstance(event, PlayCard):
        whose = "their own mountain" if event.mountain == event.player else \
            f"{player_title(event.mountain)}'s mountain"
        lines = [f"{who} plays {card_name(event.card)} ({color_name(COLOR_OF[event.card])}) into {whose}."]
    else:
        assert isinstance(event, DiscardCards)
        lines = [f"{who} discards {' '.join(card_name(c) for c in event.cards)} (down to 6)."]
    laid = laid_when_scored(before, event)
    if after.round != before.round or (after.phase is Phase.OVER and _scored(laid, after)):
        lines += _round_lines(before, laid, after)
    if after.phase is Phase.OVER and before.phase is not Phase.OVER:
        lines.append("The game is over: a player must draw and the deck is empty.")
    return lines


def _scored(laid: tuple[list[Card], list[Card]], after: MountainsGame) -> bool:
    return any(after.location(c) != MOUNTAINS[p] for p in (0, 1) for c in laid[p])


def _round_lines(before: MountainsGame, laid: tuple[list[Card], list[Card]], after: MountainsGame) -> list[str]:
    """All six colors are on the mountains: gold scores, each color goes to its majority."""
    parts = []
    for color in COLORS:
        cards = [c for c in (*laid[0], *laid[1]) if COLOR_OF[c] == color]
        if not cards:
            continue
        where = after.location(cards[0])
        owner = "tie, out" if where not in PILES else f"P{PILES.index(where) + 1}"
        parts.append(f"{color_name(color)} {len(cards)} to {owner}")
    gold = [sum(1 for c in laid[p] if COLOR_OF[c] == GOLD) for p in (0, 1)]
    golds = f"; gold: P1 +{gold[0]}, P2 +{gold[1]}" if any(gold) else ""
    return [f"Round {before.round} is scored: {', '.join(parts)}{golds}. "
            f"Scores P1 {after.score(0)}, P2 {after.score(1)}."]


def describe_mountains_result(game: MountainsGame) -> list[str]:
    """The final scores, and who won."""
    lines = []
    for player in (0, 1):
        pile = game.known[PILES[player]]
        colors = {COLOR_OF[c] for c in pile}
        bonus = f" (all six colors: +{game.rules.set_bonus})" if len(colors) == len(COLORS) else ""
        lines.append(f"{player_title(player).capitalize()}: {game.score(player)} points: {len(pile)} cards in the "
                     f"score pile{bonus}, {game.gold_points(player)} from gold.")
    winner = game.winner()
    if winner == "draw":
        lines.append("It's a draw.")
    elif isinstance(winner, int):
        lines.append(f"{player_title(winner).capitalize()} wins!")
    else:
        one, two = game.score(0), game.score(1)
        leader = "nobody" if one == two else player_title(0 if one > two else 1)
        lines.append(f"The game is not over as far as the camera can tell; {leader} leads.")
    return lines
