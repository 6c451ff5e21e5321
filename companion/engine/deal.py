"""Random deals and random legal play, for simulation, tests and benchmarks.

The rules never use randomness (records name every drawn card); these helpers
take a ``random.Random`` so every game they make is reproducible from a seed.
"""

from __future__ import annotations

import random

from companion.engine.cards import (
    CARDS,
    COLOR_OF,
    COLORS_IN_MASK,
    HAND_LIMIT,
    MANDALAS,
    MOUNTAIN_DRAW,
    Card,
    Color,
)
from companion.engine.events import Claim, Discard, Event, FieldPlay, MountainPlay, Refill
from companion.engine.game import DECK, DISCARD, HANDS, MOUNTAIN_SLOT, Game, Phase, Setup

MOUNTAIN_KIND, FIELD_KIND, DISCARD_KIND = range(3)
MAX_EVENTS = 5000
"""A random game longer than this is abandoned (it never happens in practice)."""


def deal(rng: random.Random, first_player: int = 0) -> Setup:
    """Shuffle all 108 cards and deal them as the rulebook's setup says."""
    cards = list(CARDS)
    rng.shuffle(cards)
    return Setup(
        mountains=(tuple(cards[0:2]), tuple(cards[2:4])),
        hands=(tuple(cards[4:10]), tuple(cards[10:16])),
        cups=(tuple(cards[16:18]), tuple(cards[18:20])),
        first_player=first_player,
    )


def draw_cards(game: Game, count: int, rng: random.Random, discarding: tuple[Card, ...] = ()) -> tuple[Card, ...]:
    """Choose ``count`` cards to draw at random, as a shuffled deck would give them."""
    deck = game.known[DECK]
    if count <= len(deck):  # the common case, without copying the deck
        return _pick(deck, count, rng)
    # The deck runs out: the discard pile, with what is being discarded now, is reshuffled.
    return (*_pick(deck, len(deck), rng), *_pick([*game.known[DISCARD], *discarding], count - len(deck), rng))


def _pick(cards: list[Card], count: int, rng: random.Random) -> tuple[Card, ...]:
    """``count`` distinct cards at random; ``random.sample`` is slow for the 1 to 3 cards drawn here."""
    if count > 3:
        return tuple(rng.sample(cards, count))
    size = len(cards)
    picked: list[Card] = []
    while len(picked) < count:
        card = cards[int(rng.random() * size)]
        if card not in picked:
            picked.append(card)
    return tuple(picked)


def random_action(game: Game, rng: random.Random) -> Event:
    """A random legal event for the position (full information needed).

    The player first picks uniformly one kind of play that is open (a
    mountain, a field, a color to discard), then the cards for it.
    """
    if game.phase is Phase.CLAIM:
        mandala = game.destroying
        assert mandala is not None
        mask = game.masks[3 * mandala]
        colors = COLORS_IN_MASK[mask]
        return Claim(game.turn, colors[int(rng.random() * len(colors))])
    if game.phase is Phase.REFILL:
        assert game.destroying is not None
        return Refill(game.destroying, draw_cards(game, game.refill_count(), rng))
    return _random_play(game, rng)


def _random_play(game: Game, rng: random.Random) -> Event:
    player = game.turn
    hand = game.known[HANDS[player]]
    by_color: dict[Color, list[Card]] = {}
    in_hand = 0
    for card in hand:
        color = COLOR_OF[card]
        by_color.setdefault(color, []).append(card)
        in_hand |= 1 << color
    # The open kinds of play, each as (kind, mandala, colors it takes); one is
    # picked uniformly by index, without building every option.
    kinds: list[tuple[int, int, tuple[Color, ...]]] = [(DISCARD_KIND, 0, COLORS_IN_MASK[in_hand])]
    for mandala in MANDALAS:
        kinds.append((MOUNTAIN_KIND, mandala,
                      COLORS_IN_MASK[game.allowed_colors(mandala, MOUNTAIN_SLOT) & in_hand]))
        if len(hand) > 1:
            kinds.append((FIELD_KIND, mandala,
                          COLORS_IN_MASK[game.allowed_colors(mandala, 1 + player) & in_hand]))
    pick = int(rng.random() * sum(len(colors) for _, _, colors in kinds))
    for kind, mandala, colors in kinds:  # noqa: B007  (the loop finds the picked kind)
        if pick < len(colors):
            break
        pick -= len(colors)
    group = by_color[colors[pick]]
    if kind == MOUNTAIN_KIND:
        card = group[int(rng.random() * len(group))]
        required = min(MOUNTAIN_DRAW, HAND_LIMIT - len(hand) + 1, game.deck_size + game.discard_size)
        return MountainPlay(player, mandala, (card,), draw_cards(game, required, rng))
    largest = min(len(group), len(hand) - 1) if kind == FIELD_KIND else len(group)
    cards = _pick(group, 1 + int(rng.random() * largest), rng)
    if kind == FIELD_KIND:
        return FieldPlay(player, mandala, cards)
    return Discard(player, cards, draw_cards(game, len(cards), rng, cards))


def play_random_game(rng: random.Random, first_player: int = 0) -> Game:
    """Deal and play a whole random legal game; returns it finished."""
    game = Game(deal(rng, first_player))
    while game.phase is not Phase.OVER:
        if len(game.stack) >= MAX_EVENTS:
            raise RuntimeError(f"random game did not end in {MAX_EVENTS} events")
        game.push(random_action(game, rng))
    return game

