"""Plain-language sentences for events, as a person at the table would say them."""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.engine.cards import Card, card_name, color_name, color_of, player_title
from companion.engine.events import Claim, Discard, Draw, Event, FieldPlay, MountainPlay, Refill, Resync, Reveal
from companion.engine.game import CUPS, DISCARD, RIVERS, Game, Phase


@dataclass(frozen=True, slots=True)
class Sentence:
    """One sentence as a template and its values, so a reader in another language can word it.

    ``template`` is English with ``{names}`` (a message of the companion's
    catalogs, companion/locale); a value that is a word ("red", "Player 1")
    is a message of the catalogs too, card ids and numbers stay as they are.
    """

    template: str
    values: dict[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.template.format(**self.values)


SENTENCES = (
    "{player} builds mandala {mandala}'s mountain with {card} ({color}).",
    "{player} builds mandala {mandala}'s mountain with {card} ({color}) and draws {count}.",
    "{player} grows their field of mandala {mandala} with {cards}.",
    "{player} discards {cards}.",
    "{player} discards {cards} and draws {count}.",
    "{player} claims {color}: {card} to river space {space}.",
    "{player} claims {color}: {card} to river space {space}, {count} to the cup.",
    "{player} claims {color}: {count} to the cup.",
    "{player} claims {color}: {count} to the discard pile (empty field).",
    "{player} claims {color}.",
    "Mandala {mandala}'s mountain is refilled with {cards}.",
    "{player} reveals {cards} from their cup.",
    "Mandala {mandala} is complete! {player} picks first.",
    "The game is over: the deck ran out.",
    "The game is over: a river is full.",
    "The table is read again: the game follows it from here.",
)
"""Every template :func:`sentences` words a sentence with (the catalogs translate each)."""


def _cards(cards: tuple[Card, ...]) -> str:
    return " ".join(card_name(c) for c in cards)


def _who(player: int) -> str:
    return player_title(player).capitalize()


def _count(drew: Draw) -> int:
    return len(drew) if isinstance(drew, tuple) else drew or 0


def describe(event: Event, before: Game, after: Game) -> list[str]:
    """What happened, one sentence a line; ``before``/``after`` are the states around ``event``."""
    return [str(sentence) for sentence in sentences(event, before, after)]


def sentences(event: Event, before: Game, after: Game) -> list[Sentence]:
    """:func:`describe`'s sentences as templates and values."""
    lines = [_event_sentence(event, before, after)]
    if after.phase is Phase.CLAIM and before.phase is Phase.PLAY:
        mandala = after.destroying
        assert mandala is not None
        lines.append(Sentence(SENTENCES[12], {"mandala": str(mandala + 1), "player": _who(after.turn)}))
    if after.phase is Phase.OVER and before.phase is not Phase.OVER:
        deck = after.end_reason is not None and after.end_reason.value == "deck"
        lines.append(Sentence(SENTENCES[13] if deck else SENTENCES[14]))
    return lines


def _event_sentence(event: Event, before: Game, after: Game) -> Sentence:
    if isinstance(event, MountainPlay):
        card = event.cards[0]
        count = _count(_draw_of(event, before))
        values = {"player": _who(event.player), "mandala": str(event.mandala + 1), "card": card_name(card),
                  "color": color_name(color_of(card)), "count": str(count)}
        return Sentence(SENTENCES[1] if count else SENTENCES[0], values)
    if isinstance(event, FieldPlay):
        return Sentence(SENTENCES[2], {"player": _who(event.player), "mandala": str(event.mandala + 1),
                                       "cards": _cards(event.cards)})
    if isinstance(event, Discard):
        count = _count(_draw_of(event, before))
        values = {"player": _who(event.player), "cards": _cards(event.cards), "count": str(count)}
        return Sentence(SENTENCES[4] if count else SENTENCES[3], values)
    if isinstance(event, Claim):
        return _claim_sentence(event, before, after)
    if isinstance(event, Refill):
        return Sentence(SENTENCES[10], {"mandala": str(event.mandala + 1), "cards": _cards(event.cards)})
    if isinstance(event, Resync):  # a correction: the table re-read (shown once as RESYNCED), no move
        return Sentence(SENTENCES[15])
    assert isinstance(event, Reveal)
    return Sentence(SENTENCES[11], {"player": _who(event.player), "cards": _cards(event.cards)})


def _draw_of(event: MountainPlay | Discard, before: Game) -> Draw:
    return before.required_draws(event) if event.drew is None else event.drew


def _claim_sentence(event: Claim, before: Game, after: Game) -> Sentence:
    values = {"player": _who(event.player), "color": color_name(event.color)}
    river = after.size(RIVERS[event.player]) - before.size(RIVERS[event.player])
    cup = after.size(CUPS[event.player]) - before.size(CUPS[event.player])
    discarded = after.size(DISCARD) - before.size(DISCARD)
    if river:
        values |= {"card": card_name(after.river(event.player)[-1]), "space": str(len(after.river(event.player))),
                   "count": str(cup)}
        return Sentence(SENTENCES[6] if cup else SENTENCES[5], values)
    if cup:
        return Sentence(SENTENCES[7], values | {"count": str(cup)})
    if discarded:
        return Sentence(SENTENCES[8], values | {"count": str(discarded)})
    return Sentence(SENTENCES[9], values)


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
