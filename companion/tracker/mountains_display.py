"""The display model of a ``mountains`` table: what the screens show of that game.

The screens draw a :class:`~companion.tracker.display.DisplayModel` as for
the official game; for this ruleset it carries a :class:`MountainsView` (the
round, what the player to act does now, both scores with their gold, the
colors in each mountain and in each score pile, and for a while after a round
ends, who took which color). :func:`mountains_display_model` builds it from
a :class:`~companion.tracker.mountains.MountainsTracker`.

>>> view = MountainsView(round=2, step="draw", hands=(4, 6), scores=(7, 3), gold=(1, 0),
...                      piles=("ROY", "G"), mountains=("RK", "P"))
>>> print(view)
round=2 step=draw hands=4/6 scores=7/3 gold=1/0 piles=ROY/G mountains=RK/P
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from companion.engine.cards import COLOR_OF, COLORS, GOLD, color_letter
from companion.engine.mountains.game import DISCARD_STEP, DRAW_STEP, MOUNTAINS, PILES, MountainsGame, Phase
from companion.errors import DisplayModelError
from companion.tracker.display import PLAYERS, DisplayModel, GameOver, Winner
from companion.tracker.model import table_warning
from companion.tracker.mountains import MountainsTracker, RoundResult

Step = Literal["start", "draw", "play", "discard"]
ROUND_SHOWN_S = 6.0
"""How long the majorities of a round that just ended stay on the main page."""
_MAJORITY_MARKS = "12=-"


@dataclass(frozen=True, slots=True)
class RoundEnd:
    """A round just scored: who took each color (``majorities``: ``1``, ``2``, ``=`` tie, ``-`` not laid)."""

    round: int
    majorities: str
    gold: tuple[int, int]
    taken: tuple[int, int]

    def __post_init__(self) -> None:
        if len(self.majorities) != len(COLORS) or any(m not in _MAJORITY_MARKS for m in self.majorities):
            raise DisplayModelError(f"display model: majorities={self.majorities!r} is not 6 of 1 2 = -")

    def __str__(self) -> str:
        return f"round {self.round} {self.majorities} gold={self.gold[0]}/{self.gold[1]}"


@dataclass(frozen=True, slots=True)
class MountainsView:
    """What a mountains table shows beyond whose turn it is."""

    round: int
    step: Step
    """What the player to act does now: lay a starting card, draw up to 6, play a card, discard down to 6."""
    hands: tuple[int, int]
    """Cards in each hand as far as the camera can tell (a turn without a discard may have drawn one more)."""
    scores: tuple[int, int]
    gold: tuple[int, int]
    piles: tuple[str, str]
    """Color letters in each score pile, with repeats, in rulebook order."""
    mountains: tuple[str, str]
    """The colors in each mountain (``A`` last when gold lies there)."""
    round_end: RoundEnd | None = None

    def __post_init__(self) -> None:
        if self.step not in get_args(Step):
            raise DisplayModelError(f"display model: step={self.step!r} is not one of {get_args(Step)}")
        if self.round < 1 or min(*self.hands, *self.scores, *self.gold) < 0:
            raise DisplayModelError("display model: mountains counts out of range")

    def __str__(self) -> str:
        end = f" ended[{self.round_end}]" if self.round_end else ""
        return (f"round={self.round} step={self.step} hands={self.hands[0]}/{self.hands[1]} "
                f"scores={self.scores[0]}/{self.scores[1]} gold={self.gold[0]}/{self.gold[1]} "
                f"piles={self.piles[0] or '-'}/{self.piles[1] or '-'} "
                f"mountains={self.mountains[0] or '-'}/{self.mountains[1] or '-'}{end}")


def mountains_display_model(tracker: MountainsTracker, now: float, camera_ok: bool = True,
                            board_ok: bool = True) -> DisplayModel:
    """The display model of a mountains table now (``now``: tracker time, for the round-end screen)."""
    game = tracker.game
    first = PLAYERS[tracker.first_player]
    hand = MountainsGame.rules.hand_size
    base = DisplayModel(
        phase="setup", turn=first, deck=len(MountainsGame.rules.cards) - 2 * hand, first_player=first,
        warnings=tuple(table_warning(w) for w in tracker.warnings),
        camera="ok" if camera_ok else "lost", board="ok" if board_ok else "not-found",
        mountains=MountainsView(1, "start", (hand, hand), (0, 0), (0, 0), ("", ""), ("", "")),
    )
    if game is None:
        return base
    view = _view(game, tracker.rounds, now - tracker.last_event_time < ROUND_SHOWN_S)
    turn = PLAYERS[game.turn]
    if game.phase is Phase.OVER:
        return DisplayModel(phase="over", turn=turn, deck=game.deck_size, first_player=first, warnings=base.warnings,
                            camera=base.camera, board=base.board, over=_over(game), mountains=view)
    draw = hand - game.hand_size(game.turn) if view.step == "draw" else None
    return DisplayModel(phase="play", turn=turn, draw=draw or None, deck=game.deck_size, first_player=first,
                        warnings=base.warnings, camera=base.camera, board=base.board, mountains=view)


def _view(game: MountainsGame, rounds: list[RoundResult], recent: bool) -> MountainsView:
    step: Step
    if game.phase is Phase.START:
        step = "start"
    elif game.step == DISCARD_STEP:
        step = "discard"
    elif game.step == DRAW_STEP and game.hand_size(game.turn) < game.rules.hand_size:
        step = "draw"
    else:
        step = "play"
    last = rounds[-1] if rounds and recent and rounds[-1].round == game.round - 1 else None
    return MountainsView(
        round=game.round, step=step,
        hands=(game.hand_size(0), game.hand_size(1)),
        scores=(game.score(0), game.score(1)),
        gold=(game.gold_points(0), game.gold_points(1)),
        piles=(_letters(game, PILES[0]), _letters(game, PILES[1])),
        mountains=(_colors(game, MOUNTAINS[0]), _colors(game, MOUNTAINS[1])),
        round_end=None if last is None else RoundEnd(last.round, last.majorities, last.gold, last.taken),
    )


def _letters(game: MountainsGame, zone: int) -> str:
    return "".join(color_letter(c) for c in sorted(COLOR_OF[card] for card in game.known[zone]))


def _colors(game: MountainsGame, zone: int) -> str:
    present = {COLOR_OF[card] for card in game.known[zone]}
    return "".join(color_letter(c) for c in (*COLORS, GOLD) if c in present)


def _over(game: MountainsGame) -> GameOver:
    one, two = game.score(0), game.score(1)
    winner: Winner = "p1" if one > two else "p2" if two > one else "draw"
    return GameOver((one, two), winner, cups=(game.size(PILES[0]), game.size(PILES[1])))
