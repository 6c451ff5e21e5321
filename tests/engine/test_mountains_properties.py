"""Properties of every random legal game of the mountains ruleset (hypothesis picks the games)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import (
    DiscardCards,
    DrawCards,
    MountainsGame,
    MountainsPhase,
    PlayCard,
    deal_mountains,
    random_action,
    read_record,
    record_lines,
    replay,
    summary,
    table_record,
)
from companion.engine.cards import ALL_COLORS_MASK, COLOR_OF, GOLD
from companion.engine.mountains.game import DISCARD_STEP, HANDS, MOUNTAINS
from tests.engine.test_properties import check_accounting

seeds = st.integers(min_value=0, max_value=2**32 - 1)
Phase = MountainsPhase


def new_game(seed: int) -> tuple[MountainsGame, random.Random]:
    rng = random.Random(seed)
    return MountainsGame(deal_mountains(rng, first_player=seed % 2)), rng


def check_placement(game: MountainsGame) -> None:
    """No reachable state breaks a placement rule of rules-002.md."""
    mountains = [game.known[zone] for zone in MOUNTAINS]
    for cards in mountains:
        if cards:
            assert COLOR_OF[cards[0]] != GOLD, game.text()  # a starting card is colored
        if any(COLOR_OF[c] == GOLD for c in cards):
            assert any(COLOR_OF[c] != GOLD for c in cards), game.text()  # gold only joins columns
    # Each mountain keeps the other's colors out: only the two starting cards may share a color.
    shared = game.masks[0] & game.masks[1] & ALL_COLORS_MASK
    if shared:
        assert COLOR_OF[mountains[0][0]] == COLOR_OF[mountains[1][0]], game.text()
        assert shared == 1 << COLOR_OF[mountains[0][0]], game.text()
    assert (game.masks[0] | game.masks[1]) & ALL_COLORS_MASK != ALL_COLORS_MASK or game.step == DISCARD_STEP \
        or game.is_over, game.text()  # a round ends as soon as the sixth color is down (after the discard)
    if game.phase is Phase.START:
        first, second = game.round_first, 1 - game.round_first
        assert not mountains[second] and len(mountains[first]) == (game.turn == second), game.text()
    elif game.phase is Phase.PLAY:
        assert mountains[0] and mountains[1], game.text()
        if game.step == DISCARD_STEP:
            assert game.hand_size(game.turn) > 6


def decision(event: object) -> object:
    """The player's choice inside an event: the chance part (which cards were drawn) left out."""
    if isinstance(event, DrawCards):
        return (DrawCards, event.player, event.count)
    if isinstance(event, DiscardCards):
        return (DiscardCards, event.player, tuple(sorted(event.cards)))
    return event


def whole_game(seed: int) -> MountainsGame:
    game, rng = new_game(seed)
    while not game.is_over:
        game.push(random_action(game, rng))
    return game


@settings(max_examples=40, deadline=None)
@given(seeds)
def test_invariants_hold_after_every_event(seed: int) -> None:
    game, rng = new_game(seed)
    check_placement(game)
    while not game.is_over:
        event = random_action(game, rng)
        legal = {decision(a) for a in game.legal_actions()}
        assert decision(event) in legal
        game.push(event)
        check_accounting(game)
        check_placement(game)
    assert not game.deck_size and summary(game)["winner"] in ("p1", "p2", "draw")


@settings(max_examples=15, deadline=None)
@given(seeds)
def test_every_generated_action_is_legal(seed: int) -> None:
    game, rng = new_game(seed)
    while not game.is_over:
        for action in game.legal_actions():
            assert game.validate(action) is None, (action, game.text())
        game.push(random_action(game, rng))
    assert list(game.legal_actions()) == []


@settings(max_examples=20, deadline=None)
@given(seeds)
def test_every_card_always_has_a_legal_place(seed: int) -> None:
    game, rng = new_game(seed)
    while not game.is_over:
        if game.phase is Phase.PLAY and game.step != DISCARD_STEP and game.hand_size(game.turn) >= 6:
            for card in game.hand(game.turn):
                assert any(game.is_legal(PlayCard(game.turn, card, m)) for m in (0, 1)), (card, game.text())
        game.push(random_action(game, rng))


@settings(max_examples=40, deadline=None)
@given(seeds, st.data())
def test_undo_restores_the_exact_previous_state(seed: int, data: st.DataObject) -> None:
    game, rng = new_game(seed)
    stop = data.draw(st.integers(min_value=0, max_value=200))
    while not game.is_over and len(game.stack) < stop:
        game.push(random_action(game, rng))
    if game.is_over:
        game.pop()
    before = (game.text(), [list(z) for z in game.known], list(game.hidden), list(game.loc), list(game.masks))
    previous = game.copy()
    game.push(random_action(game, rng))
    game.pop()
    assert (game.text(), game.known, game.hidden, game.loc, game.masks) == before
    assert game == previous and [e for e, _ in game.stack] == [e for e, _ in previous.stack]


@settings(max_examples=30, deadline=None)
@given(seeds)
def test_text_form_round_trips(seed: int) -> None:
    game, rng = new_game(seed)
    while not game.is_over:
        game.push(random_action(game, rng))
        parsed = MountainsGame.from_text(game.text())
        assert parsed.text() == game.text() and parsed.masks == game.masks
    assert "\n" not in game.text()


@settings(max_examples=30, deadline=None)
@given(seeds)
def test_replaying_a_written_record_reproduces_the_game(seed: int) -> None:
    game = whole_game(seed)
    lines = record_lines(game)
    assert '"ruleset": "mountains"' in lines[0]
    replayed, verdicts = replay(read_record(lines))
    assert all(v.violation is None for v in verdicts)
    assert isinstance(replayed, MountainsGame) and replayed.text() == game.text()


@settings(max_examples=30, deadline=None)
@given(seeds)
def test_table_mode_reaches_the_same_result(seed: int) -> None:
    """What a camera knows (counts for hands and draws, every card laid face up) scores the game exactly."""
    game = whole_game(seed)
    record = table_record(game)
    table, verdicts = replay(read_record(record_lines_of(record)))
    assert all(v.violation is None for v in verdicts), [v for v in verdicts if v.violation]
    assert not table.is_full_information or not table.stack
    assert summary(table) == summary(game)


def record_lines_of(record: object) -> list[str]:
    """A table record's lines, through the written form (as a journal would keep them)."""
    import json

    setup, events = record.setup, record.events  # type: ignore[attr-defined]
    return [json.dumps(MountainsGame.header_json(setup, table=True)), *(str(e) for _, e in events)]


def test_hands_stay_hidden_in_table_mode() -> None:
    game = whole_game(5)
    table, _ = replay(table_record(game))
    assert all(not table.known[hand] for hand in HANDS) and table.hidden[HANDS[0]] == game.hand_size(0)
