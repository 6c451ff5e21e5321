"""Properties that hold in every random legal game (hypothesis picks the games)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import (
    BaseGame,
    Discard,
    FieldPlay,
    Game,
    MountainPlay,
    Phase,
    deal,
    random_action,
    read_record,
    record_lines,
    replay,
    summary,
    table_record,
)
from companion.engine.cards import COLOR_OF, GOLD, colors_mask
from companion.engine.game import HANDS

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def check_accounting(game: BaseGame[Any, Any]) -> None:
    """All cards of the ruleset (108 here) are somewhere, once, and every location agrees with its zone."""
    assert sum(game.size(z) for z in range(game.ZONE_COUNT)) == len(game.rules.cards)
    for zone in range(game.ZONE_COUNT):
        for card in game.known[zone]:
            assert game.location(card) == zone
    assert sum(game.location(c) == game.UNSEEN for c in game.rules.cards) == sum(game.hidden)
    check_hands_by_color(game)


def check_hands_by_color(game: BaseGame[Any, Any]) -> None:
    """The hands by color that the moves keep are the hands' known cards, sorted by color in hand order."""
    for player, zone in enumerate(game.HANDS):
        hand = game.known[zone]
        assert game.hand_groups[player] == [[c for c in hand if COLOR_OF[c] == color] for color in range(GOLD + 1)]
        assert game.hand_colors[player] == colors_mask(hand)


def check_rule_of_color(game: Game) -> None:
    for mandala in (0, 1):
        mountain, one, two = game.masks[3 * mandala: 3 * mandala + 3]
        assert not (mountain & one or mountain & two or one & two), game.text()


def check_hands(game: Game) -> None:
    if game.phase is not Phase.OVER:
        assert 1 <= game.hand_size(0) <= 8 and 1 <= game.hand_size(1) <= 8


def decision(event: object) -> tuple[object, ...]:
    """The player's choice inside an event: the chance part (the draw) and card order left out."""
    if isinstance(event, MountainPlay | FieldPlay):
        return (type(event), event.player, event.mandala, tuple(sorted(event.cards)))
    if isinstance(event, Discard):
        return (Discard, event.player, tuple(sorted(event.cards)))
    return (event,)


@settings(max_examples=40, deadline=None)
@given(seeds)
def test_invariants_hold_after_every_event(seed: int) -> None:
    rng = random.Random(seed)
    game = Game(deal(rng, first_player=seed % 2))
    while not game.is_over:
        event = random_action(game, rng)
        if game.phase is not Phase.REFILL:
            assert decision(event) in {decision(a) for a in game.legal_actions()}
        game.push(event)
        check_accounting(game)
        check_rule_of_color(game)
        check_hands(game)
    assert game.hand(0) == () and game.size(HANDS[1]) == 0


@settings(max_examples=40, deadline=None)
@given(seeds, st.data())
def test_undo_restores_the_exact_previous_state(seed: int, data: st.DataObject) -> None:
    rng = random.Random(seed)
    game = Game(deal(rng))
    stop = data.draw(st.integers(min_value=0, max_value=120))
    while not game.is_over and len(game.stack) < stop:
        game.push(random_action(game, rng))
    if game.is_over:
        game.pop()
    before, previous = game.text(), game.copy()
    game.push(random_action(game, rng))
    game.pop()
    assert game.text() == before and game == previous
    assert [e for e, _ in game.stack] == [e for e, _ in previous.stack]


@settings(max_examples=30, deadline=None)
@given(seeds)
def test_text_form_round_trips(seed: int) -> None:
    rng = random.Random(seed)
    game = Game(deal(rng))
    while not game.is_over:
        game.push(random_action(game, rng))
        parsed = Game.from_text(game.text())
        assert parsed.text() == game.text()
    assert "\n" not in game.text()


@settings(max_examples=30, deadline=None)
@given(seeds)
def test_replaying_a_written_record_reproduces_the_game(seed: int) -> None:
    rng = random.Random(seed)
    game = Game(deal(rng, first_player=seed % 2))
    while not game.is_over:
        game.push(random_action(game, rng))
    replayed, verdicts = replay(read_record(record_lines(game)))
    assert all(v.violation is None for v in verdicts)
    assert replayed.text() == game.text()


@settings(max_examples=30, deadline=None)
@given(seeds)
def test_table_mode_reaches_the_same_result(seed: int) -> None:
    """What a camera knows (counts, face-up cards, the final reveal) scores the game exactly."""
    rng = random.Random(seed)
    game = Game(deal(rng))
    while not game.is_over:
        game.push(random_action(game, rng))
    table, verdicts = replay(table_record(game))
    assert all(v.violation is None for v in verdicts), [v for v in verdicts if v.violation]
    assert summary(table) == summary(game)


@settings(max_examples=25, deadline=None)
@given(seeds)
def test_undoing_every_event_walks_back_through_the_exact_states(seed: int) -> None:
    """Pop restores the zones, locations and masks themselves, not just the text, all the way to the deal."""
    rng = random.Random(seed)
    game = Game(deal(rng, first_player=seed % 2))

    def state() -> tuple[object, ...]:
        return (game.text(), [list(z) for z in game.known], list(game.hidden), list(game.loc), list(game.masks),
                list(game.river_mask), game.phase, game.turn, game.completer, game.destroying, game.deck_ran_out)

    states = [state()]
    while not game.is_over:
        game.push(random_action(game, rng))
        states.append(state())
    while game.stack:
        states.pop()
        game.pop()
        assert state() == states[-1]
