"""The display model the screens draw, built from the tracker's state."""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from companion.engine import Discard, Game, MountainPlay, Phase
from companion.engine.cards import COLOR_LETTERS, colors_in
from companion.engine.game import DECK
from companion.tracker.anchor import JoinCounts, join_estimates
from companion.tracker.display import (
    HAND_LIMIT,
    JOIN_FIELDS,
    PLAYERS,
    Choice,
    Destruction,
    DiscardConfirm,
    DisplayModel,
    GameOver,
    JoinOffer,
    Notice,
    PlayerName,
    PlayerView,
    TableWarning,
    Winner,
)
from companion.tracker.tracker import NOTICE_S, Tracker, Warning, short_event
from companion.vocab import notices
from companion.vocab.reasons import warning_text

MANDALA_NAMES: tuple[Literal["m1"], Literal["m2"]] = ("m1", "m2")
END_REASONS: dict[str, Literal["deck", "river"]] = {"deck": "deck", "river": "river"}
DRAW_SHOWN_S = 4.0
"""How long "P1 DRAW 2" stays up after a play before the screen turns to the next player."""


def display_model(tracker: Tracker, now: float, camera_ok: bool = True, board_ok: bool = True) -> DisplayModel:
    game = tracker.game
    first = PLAYERS[tracker.first_player]
    base = DisplayModel(
        phase="setup", turn=first, deck=108, first_player=first,
        warnings=tuple(table_warning(w) for w in tracker.warnings),
        camera="ok" if camera_ok else "lost", board="ok" if board_ok else "not-found",
    )
    base = replace(base, notice=_notice(tracker, now), choice=_choice(tracker))
    offer = _join_offer(tracker)
    if offer is not None and (game is None or offer.requested):
        return replace(base, phase="join", join=offer)
    if game is None:
        return base
    base = replace(base, deck=game.size(DECK), players=(_player_view(game, 0), _player_view(game, 1)),
                   turn=PLAYERS[game.turn])
    if game.phase is Phase.OVER:
        return replace(base, phase="over", over=_game_over(game))
    if game.phase in (Phase.CLAIM, Phase.REFILL):
        return replace(base, phase="destruction", destruction=_destruction(game))
    question = tracker.discard_question
    if question is not None:
        asked = min(HAND_LIMIT, max(1, question.guess))
        return replace(base, phase="discard-confirm",
                       discard=DiscardConfirm(PLAYERS[question.player], min(question.seen, asked), asked))
    drawer, draw = _recent_draw(tracker, now)
    if draw:
        return replace(base, phase="play", turn=drawer, draw=draw)
    return replace(base, phase="play")


def table_warning(warning: Warning) -> TableWarning:
    """A tracker warning as the screens show it: the short texts come from the reason registry."""
    player = getattr(warning.event, "player", None)
    text = warning_text(warning.reason, warning.cards, warning.zone, player=player)
    return TableWarning(warning.reason, warning.message, warning.fix, id=warning.id, what=text.what,
                        cards=warning.cards, zone=warning.zone, player=player, space=warning.space)


def _destruction(game: Game) -> Destruction:
    mandala = game.destroying
    assert mandala is not None
    if game.phase is Phase.REFILL:
        return Destruction(MANDALA_NAMES[mandala], PLAYERS[game.turn], "", refill=game.refill_count())
    left = colors_in(game.masks[3 * mandala])
    return Destruction(MANDALA_NAMES[mandala], PLAYERS[game.turn], "".join(COLOR_LETTERS[c] for c in left))


def _recent_draw(tracker: Tracker, now: float) -> tuple[PlayerName, int]:
    """Who must draw how many after the last play, while that is still news."""
    if not tracker.events or now - tracker.last_event_time >= DRAW_SHOWN_S:
        return PLAYERS[0], 0
    last = tracker.events[-1]
    if not isinstance(last.event, MountainPlay | Discard):
        return PLAYERS[0], 0
    return PLAYERS[last.event.player], last.drew


def _player_view(game: Game, player: int) -> PlayerView:
    score = game.score(player)
    river = "".join(COLOR_LETTERS[c] for c in game.river_colors(player))
    return PlayerView(hand=game.hand_size(player), score=score.points, unknown_cup=score.unknown, river=river)


def _game_over(game: Game) -> GameOver:
    one, two = game.score(0), game.score(1)
    winner = game.winner()
    result: Winner
    if winner is None:  # starting cup cards not all revealed yet: who leads so far
        result = "p1" if one.points > two.points else "p2" if two.points > one.points else "draw"
    else:
        result = "draw" if winner == "draw" else PLAYERS[0 if winner == 0 else 1]
    reason = None if game.end_reason is None else END_REASONS[game.end_reason.value]
    return GameOver((one.points, two.points), result, game.decided_by_cup_size(),
                    (one.cup_size, two.cup_size), reason, unknown=one.unknown + two.unknown)


def _notice(tracker: Tracker, now: float) -> Notice | None:
    notice = tracker.notice
    if notice is None or not 0 <= now - notice.time < NOTICE_S:
        return None
    return Notice(notice.title, notice.text)


def _choice(tracker: Tracker) -> Choice | None:
    """The two readings of the table the players are asked to choose between, in a few words each."""
    question = tracker.question
    if question is None:
        return None
    first, second = (", ".join(short_event(e) for e in option) or notices.NOTHING for option in question.options)
    return Choice(first, second)


def _join_offer(tracker: Tracker) -> JoinOffer | None:
    """Values to confirm for a join: the ones asked for (a join requested), or all (a game seen in progress)."""
    asking = tracker.asking
    if asking is None and not tracker.table_in_play:
        return None
    counts = asking or JoinCounts()
    values = join_estimates(tracker.view.cards, counts)
    given = {"turn": counts.turn is not None, "hand p1": counts.hands is not None,
             "hand p2": counts.hands is not None, "cup p1": counts.cups is not None,
             "cup p2": counts.cups is not None, "deck": counts.deck is not None}
    return JoinOffer(values, tuple(name for name in JOIN_FIELDS if not given[name]), requested=asking is not None)
