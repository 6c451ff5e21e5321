"""Random deals and random legal play, for simulation, tests and benchmarks.

The rules never use randomness (records name every drawn card); these helpers
take a ``random.Random`` so every game they make is reproducible from a seed.
Random play knows no rules of its own: it picks among the decisions the
game's own generator offers (``Game.choices``, the source of
``legal_actions`` too), first one open kind of decision and color uniformly,
then the cards for it; only the drawn cards are chance.
"""

from __future__ import annotations

import random
from typing import Any, TypeVar, overload

from companion.engine.base import BaseGame
from companion.engine.cards import Card, Player
from companion.engine.events import Claim, Discard, Event, FieldPlay, MountainPlay, Refill
from companion.engine.game import (
    CLAIM_KIND,
    DECK,
    DISCARD,
    FIELD_KIND,
    MOUNTAIN_KIND,
    Game,
    Phase,
    Setup,
)
from companion.engine.mountains.events import DiscardCards, DrawCards, MountainsEvent, PlayCard, StartCard
from companion.engine.mountains.game import DECK as MOUNTAINS_DECK
from companion.engine.mountains.game import DISCARD_KIND as MOUNTAINS_DISCARD_KIND
from companion.engine.mountains.game import DRAW_KIND, START_KIND, MountainsGame, MountainsSetup
from companion.engine.mountains.game import HANDS as MOUNTAINS_HANDS

GameT = TypeVar("GameT", bound=BaseGame[Any, Any])

MAX_EVENTS = 5000
"""A random game longer than this is abandoned (it never happens in practice)."""


def shuffle(cards: list[Card], rng: random.Random) -> None:
    """``rng.shuffle(cards)``: the same order from the same generator state, without a call per card.

    :meth:`random.Random.shuffle` swaps each position from the last down with
    one below it drawn by ``_randbelow`` (``getrandbits`` of the bound's bit
    length, again while too big); that is written out here for the plain
    ``random.Random`` whose ``_randbelow`` that is. Any other generator
    shuffles itself. ``tests/engine/test_deal.py`` checks both agree.
    """
    if type(rng) is not random.Random:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    top = len(cards) - 1
    while top > 0:  # in runs of positions whose bound (position + 1) has the same bit length
        bits = (top + 1).bit_length()
        bottom = max((1 << (bits - 1)) - 1, 1)
        for i in range(top, bottom - 1, -1):
            j = getrandbits(bits)
            while j > i:
                j = getrandbits(bits)
            cards[i], cards[j] = cards[j], cards[i]
        top = bottom - 1


def deal(rng: random.Random, first_player: Player = 0) -> Setup:
    """Shuffle all 108 cards and deal them as the rulebook's setup says."""
    rules = Game.rules
    cards = list(rules.cards)
    shuffle(cards, rng)
    mountain, hand, cup = rules.mountain_deal, rules.hand_size, rules.cup_size
    hands_at = 2 * mountain
    cups_at = hands_at + 2 * hand
    return Setup(
        mountains=(tuple(cards[0:mountain]), tuple(cards[mountain:hands_at])),
        hands=(tuple(cards[hands_at:hands_at + hand]), tuple(cards[hands_at + hand:cups_at])),
        cups=(tuple(cards[cups_at:cups_at + cup]), tuple(cards[cups_at + cup:cups_at + 2 * cup])),
        first_player=first_player,
    )


def draw_cards(game: Game, count: int, rng: random.Random, discarding: tuple[Card, ...] = ()) -> tuple[Card, ...]:
    """Choose ``count`` cards to draw at random, as a shuffled deck would give them."""
    deck = game.known[DECK]
    if count <= len(deck):  # the common case, without copying the deck
        return pick(deck, count, rng)
    # The deck runs out: the discard pile, with what is being discarded now, is reshuffled.
    return (*pick(deck, len(deck), rng), *pick([*game.known[DISCARD], *discarding], count - len(deck), rng))


def pick(cards: list[Card], count: int, rng: random.Random) -> tuple[Card, ...]:
    """``count`` distinct cards at random; ``random.sample`` is slow for the 1 to 3 cards drawn here."""
    if count == 1:  # the commonest draw, as the loop below picks it
        return (cards[int(rng.random() * len(cards))],)
    if count > 3:
        return tuple(rng.sample(cards, count))
    size = len(cards)
    picked: list[Card] = []
    while len(picked) < count:
        card = cards[int(rng.random() * size)]
        if card not in picked:
            picked.append(card)
    return tuple(picked)


def choose(choices: list[Any], rng: random.Random) -> tuple[Any, int]:
    """A choice and one of its options (by index), uniformly among all options of all choices.

    A choice is ``(kind, target, options, ...)`` as ``choices()`` gives it;
    random play of every ruleset picks through here.
    """
    if len(choices) == 1 and choices[0][2]:  # one kind of decision open: the same pick, sooner
        return choices[0], int(rng.random() * len(choices[0][2]))
    total = 0
    for choice in choices:  # sum(map(len, ...)) costs more for the two or three choices there are
        total += len(choice[2])
    index = int(rng.random() * total)
    for choice in choices:
        if index < len(choice[2]):
            return choice, index
        index -= len(choice[2])
    raise ValueError("no decision is open: the game is over, or the hand to play from is not known")


def deal_mountains(rng: random.Random, first_player: Player = 0) -> MountainsSetup:
    """Shuffle all 120 cards (gold too) and deal each player a hand, as rules-002.md's setup says."""
    cards = list(MountainsGame.rules.cards)
    shuffle(cards, rng)
    size = MountainsGame.rules.hand_size
    return MountainsSetup((tuple(cards[:size]), tuple(cards[size:2 * size])), first_player)


_STARTS: list[StartCard | None] = [None] * (2 * len(MountainsGame.rules.cards))
"""Each start event random play has made, by ``2 * card + player``: a value made once, shared after."""
_PLAYS: list[PlayCard | None] = [None] * (4 * len(MountainsGame.rules.cards))
"""Each play event random play has made, by ``4 * card + 2 * player + mountain``."""
_DRAWS_OF_ONE: list[DrawCards | None] = [None] * (2 * len(MountainsGame.rules.cards))
"""Each one-card draw random play has made, by ``2 * card + player``."""
_DISCARDS_OF_ONE: list[DiscardCards | None] = [None] * (2 * len(MountainsGame.rules.cards))
"""Each one-card discard random play has made, by ``2 * card + player``."""


def random_mountains_action(game: MountainsGame, rng: random.Random) -> MountainsEvent:
    """A random legal event of the mountains ruleset (full information needed).

    Events are immutable values, so each start, play and one-card draw or
    discard is made once and shared after: building one costs more than the
    rest of its move.
    """
    (kind, target, options), index = choose(game.choices(), rng)
    option = options[index]
    player = game.turn
    if kind == DRAW_KIND:
        deck = game.known[MOUNTAINS_DECK]
        if option != 1:
            return DrawCards(player, pick(deck, option, rng))
        card = deck[int(rng.random() * len(deck))]  # pick()'s one card, without the call
        key: int = 2 * card + player
        draw = _DRAWS_OF_ONE[key]
        if draw is None:
            draw = _DRAWS_OF_ONE[key] = DrawCards(player, (card,))
        return draw
    if kind == MOUNTAINS_DISCARD_KIND:
        hand = game.known[MOUNTAINS_HANDS[player]]
        if option != 1:
            return DiscardCards(player, pick(hand, option, rng))
        card = hand[int(rng.random() * len(hand))]
        key = 2 * card + player
        discard = _DISCARDS_OF_ONE[key]
        if discard is None:
            discard = _DISCARDS_OF_ONE[key] = DiscardCards(player, (card,))
        return discard
    group = game.hand_groups[player][option]  # the hand's cards of the color, in hand order
    card = group[int(rng.random() * len(group))]
    if kind == START_KIND:
        key = 2 * card + player
        start = _STARTS[key]
        if start is None:
            start = _STARTS[key] = StartCard(player, card)
        return start
    key = 4 * card + 2 * player + target
    play = _PLAYS[key]
    if play is None:
        play = _PLAYS[key] = PlayCard(player, card, target)
    return play


@overload
def random_action(game: Game, rng: random.Random) -> Event: ...
@overload
def random_action(game: MountainsGame, rng: random.Random) -> MountainsEvent: ...
def random_action(game: Game | MountainsGame, rng: random.Random) -> Event | MountainsEvent:
    """A random legal event for the position (full information needed)."""
    if isinstance(game, MountainsGame):
        return random_mountains_action(game, rng)
    if game.phase is Phase.REFILL:
        assert game.destroying is not None
        return Refill(game.destroying, draw_cards(game, game.refill_count(), rng))
    (kind, mandala, colors, most), index = choose(game.choices(), rng)
    player = game.turn
    if kind == CLAIM_KIND:
        return Claim(player, colors[index])
    group = game.hand_groups[player][colors[index]]  # the hand's cards of the color, in hand order
    if kind == MOUNTAIN_KIND:
        card = group[int(rng.random() * len(group))]
        return MountainPlay(player, mandala, (card,), draw_cards(game, game.draw_count(kind, player, 1), rng))
    cards = pick(group, 1 + int(rng.random() * min(len(group), most)), rng)
    if kind == FIELD_KIND:
        return FieldPlay(player, mandala, cards)
    return Discard(player, cards, draw_cards(game, game.draw_count(kind, player, len(cards)), rng, cards))


@overload
def play_random_game(rng: random.Random, first_player: Player = 0, *, validate: bool = False) -> Game: ...
@overload
def play_random_game(rng: random.Random, first_player: Player = 0, *, ruleset: type[GameT],
                     validate: bool = False) -> GameT: ...
def play_random_game(rng: random.Random, first_player: Player = 0, *,
                     ruleset: type[BaseGame[Any, Any]] = Game, validate: bool = False) -> BaseGame[Any, Any]:
    """Deal and play a whole random legal game of a ruleset (default the official one); returns it finished.

    The generator's events are legal by construction, so they are pushed
    unchecked (:meth:`BaseGame.push_legal`); ``validate`` pushes each through
    the rules as a replay does (the same game, slower).
    """
    if issubclass(ruleset, MountainsGame):
        game: Game | MountainsGame = ruleset(deal_mountains(rng, first_player))
    elif issubclass(ruleset, Game):
        game = ruleset(deal(rng, first_player))
    else:
        raise TypeError(f"no random play for {ruleset.__name__}")
    push, over = game.push if validate else game.push_legal, game.OVER
    choose: Any = random_mountains_action if isinstance(game, MountainsGame) else random_action
    for _ in range(MAX_EVENTS):
        if game.phase is over:
            return game
        push(choose(game, rng))
    if game.phase is not over:
        raise RuntimeError(f"random game did not end in {MAX_EVENTS} events")
    return game
