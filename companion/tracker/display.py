"""The display model: everything the OLED may show, as one small immutable value.

The tracker produces a :class:`DisplayModel` after every change of the game or
of the hardware status; the ui draws it and never looks anywhere else. Values
are plain strings and ints (players ``"p1"``/``"p2"``, colors as the rulebook's
letters ``R O Y G P K``) so ``str(model)`` is one readable log line.

>>> m = DisplayModel(phase="play", turn="p1", draw=2, deck=80,
...                  players=(PlayerView(hand=6, score=3, unknown_cup=2, river="R"),
...                           PlayerView(hand=7, score=0, unknown_cup=2)))
>>> print(m)
play turn=p1 draw=2 deck=80 p1[hand=6 score=3+2? river=R] p2[hand=7 score=0+2? river=-]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, get_args

from companion.engine.rules import MANDALA
from companion.errors import DisplayModelError
from companion.vocab.colors import COLOR_LETTERS, NAME_OF_LETTER
from companion.vocab.reasons import Reason

if TYPE_CHECKING:
    from companion.tracker.mountains_display import MountainsView
    from companion.tracker.setup_view import SetupView

Phase = Literal["setup", "play", "destruction", "discard-confirm", "over", "join"]
PlayerName = Literal["p1", "p2"]
Winner = Literal["p1", "p2", "draw"]
CameraStatus = Literal["ok", "lost", "not-found"]
"""lost: frames stopped coming; not-found: no camera could be opened yet (none fitted, or busy)."""
BoardStatus = Literal["ok", "not-found"]

CAMERA_PROBLEMS: dict[CameraStatus, Reason] = {"lost": Reason.CAMERA_LOST, "not-found": Reason.NO_CAMERA}
BOARD_PROBLEMS: dict[BoardStatus, Reason] = {"not-found": Reason.BOARD_NOT_FOUND}
"""The reason code the problem screen explains, for each camera and board status but ok."""

COLOR_NAMES = {letter: NAME_OF_LETTER[letter] for letter in COLOR_LETTERS}
PLAYERS: tuple[PlayerName, PlayerName] = ("p1", "p2")
HAND_LIMIT = MANDALA.hand_limit
CARDS = len(MANDALA.cards)


def _check_choice(name: str, value: object, kind: object) -> None:
    if value not in get_args(kind):
        raise DisplayModelError(f"display model: {name}={value!r} is not one of {get_args(kind)}")


def _check_count(name: str, value: int, low: int = 0, high: int | None = None) -> None:
    if value < low or (high is not None and value > high):
        raise DisplayModelError(f"display model: {name}={value!r} is out of range")


def _check_colors(name: str, colors: str, *, distinct: bool = True) -> None:
    bad = [c for c in colors if c not in COLOR_LETTERS]
    if bad or (distinct and len(set(colors)) != len(colors)):
        raise DisplayModelError(f"display model: {name}={colors!r} is not a set of ROYGPK letters")


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What the table shows of one player; hands and the two starting cup cards stay hidden."""

    hand: int
    score: int = 0
    """Cup value of the cup cards seen so far (every claimed card is seen)."""
    unknown_cup: int = 2
    """Cup cards whose color is still unknown: the starting two, until the reveal."""
    river: str = ""
    """River colors in space order, e.g. ``"ROY"``: space 1 is red."""

    def __post_init__(self) -> None:
        _check_count("hand", self.hand, 0, HAND_LIMIT)
        _check_count("score", self.score)
        _check_count("unknown_cup", self.unknown_cup)
        _check_colors("river", self.river)

    def __str__(self) -> str:
        river = self.river or "-"
        return f"hand={self.hand} score={self.score}+{self.unknown_cup}? river={river}"


@dataclass(frozen=True, slots=True)
class Destruction:
    """A mandala being destroyed: who claims a color now and which colors are left."""

    mandala: Literal["m1", "m2"]
    picker: PlayerName
    colors_left: str
    refill: int = 0
    """After the last claim: how many cards go face up into the empty mountain (``picker`` plays next)."""

    def __post_init__(self) -> None:
        _check_choice("mandala", self.mandala, Literal["m1", "m2"])
        _check_choice("picker", self.picker, PlayerName)
        _check_colors("colors_left", self.colors_left)
        _check_count("refill", self.refill, 0, 2)

    def __str__(self) -> str:
        refill = f" refill={self.refill}" if self.refill else ""
        return f"{self.mandala} picker={self.picker} left={self.colors_left or '-'}{refill}"


@dataclass(frozen=True, slots=True)
class DiscardConfirm:
    """The camera saw ``seen`` new discards but could not be sure of all: ask the player.

    ``asked`` is the count the tracker proposes (at least ``seen``); the player
    corrects it with the buttons and confirms.
    """

    player: PlayerName
    seen: int
    asked: int

    def __post_init__(self) -> None:
        _check_choice("player", self.player, PlayerName)
        _check_count("seen", self.seen, 0, HAND_LIMIT)
        _check_count("asked", self.asked, max(1, self.seen), HAND_LIMIT)

    def __str__(self) -> str:
        return f"{self.player} seen={self.seen} asked={self.asked}"


@dataclass(frozen=True, slots=True)
class GameOver:
    """Final scores; ``tie_break`` is true when equal scores were decided by fewer cup cards."""

    scores: tuple[int, int]
    winner: Winner
    tie_break: bool = False
    cups: tuple[int, int] = (0, 0)
    end_reason: Literal["deck", "river"] | None = None
    unknown: int = 0
    """Starting cup cards not seen yet: while above 0 the scores are so far and ``winner`` only leads."""

    def __post_init__(self) -> None:
        _check_choice("winner", self.winner, Winner)
        for score in (*self.scores, *self.cups, self.unknown):
            _check_count("scores/cups/unknown", score)

    def __str__(self) -> str:
        tie = " tie-break" if self.tie_break else ""
        unknown = f" unknown={self.unknown}" if self.unknown else ""
        return (f"{self.scores[0]}-{self.scores[1]} winner={self.winner}{tie} "
                f"cups={self.cups[0]}/{self.cups[1]}{unknown}")


@dataclass(frozen=True, slots=True)
class TableWarning:
    """An illegal move seen on the table.

    ``reason`` is a code of :mod:`companion.vocab.reasons` (``"color-rule"``);
    ``message`` says in full what is wrong (logs, journal), ``fix`` what to do;
    ``what`` is the short form of ``message`` the 128x64 screen shows. ``id``
    is the tracker's :attr:`~companion.tracker.tracker.Warning.id`: commands
    (override, hide) name a warning by it, never by its text. ``cards``,
    ``zone``, ``player`` and ``space`` are what the registry's templates are
    filled with, so a screen can word the warning in the players' language.
    """

    reason: str
    message: str
    fix: str = ""
    id: str = ""
    what: str = ""
    cards: tuple[str, ...] = ()
    zone: str = ""
    player: int | None = None
    space: int | None = None

    def __str__(self) -> str:
        return f"{self.reason}: {self.message} / {self.fix}"


@dataclass(frozen=True, slots=True)
class Notice:
    """News that is no warning, shown a few seconds: "CAUGHT UP" / "2 moves while the camera was away"."""

    title: str
    text: str = ""

    def __str__(self) -> str:
        return f"{self.title}: {self.text}" if self.text else self.title


@dataclass(frozen=True, slots=True)
class Choice:
    """Two readings of the table fit equally: which one happened? (A keeps the first, B takes the second)."""

    first: str
    second: str

    def __str__(self) -> str:
        return f"A[{self.first}] B[{self.second}]"


JOIN_FIELDS = ("turn", "hand p1", "hand p2", "cup p1", "cup p2", "deck")
"""What a join asks, in order; a value not asked is one the command line gave."""
JOIN_LIMITS = {"turn": (0, 1), "hand p1": (1, HAND_LIMIT), "hand p2": (1, HAND_LIMIT), "cup p1": (0, CARDS),
               "cup p2": (0, CARDS), "deck": (0, CARDS)}


@dataclass(frozen=True, slots=True)
class JoinOffer:
    """A game in progress lies on the table and none is followed: join it, with these values to confirm.

    ``values`` follow :data:`JOIN_FIELDS` (turn 0 is p1); ``asking`` names the
    ones the players are asked for (the others were given). ``requested``: a
    join was asked for (``--join``), so the questions come at once.
    """

    values: tuple[int, int, int, int, int, int] = (0, 6, 6, 2, 2, 60)
    asking: tuple[str, ...] = JOIN_FIELDS
    requested: bool = False

    def __post_init__(self) -> None:
        for name in self.asking:
            if name not in JOIN_FIELDS:
                raise DisplayModelError(f"display model: join asks for unknown value {name!r}")
        for name, value in zip(JOIN_FIELDS, self.values, strict=True):
            low, high = JOIN_LIMITS[name]
            _check_count(f"join {name}", value, low, high)

    def __str__(self) -> str:
        return " ".join(f"{n.replace(' ', '-')}={v}" for n, v in zip(JOIN_FIELDS, self.values, strict=True)
                        if n in self.asking)


@dataclass(frozen=True, slots=True)
class DisplayModel:
    """Everything the screens may show; built by the tracker, drawn by the ui."""

    phase: Phase
    turn: PlayerName
    draw: int | None = None
    """What the active player must draw now (``2`` for "draw 2"), None when nothing."""
    deck: int = 88
    players: tuple[PlayerView, PlayerView] = field(
        default=(PlayerView(hand=6), PlayerView(hand=6))
    )
    destruction: Destruction | None = None
    discard: DiscardConfirm | None = None
    over: GameOver | None = None
    warnings: tuple[TableWarning, ...] = ()
    camera: CameraStatus = "ok"
    board: BoardStatus = "ok"
    first_player: PlayerName = "p1"
    pairing: str = ""
    """A code a phone asks to be typed on it (the phone view's pairing), shown until typed or expired."""
    notice: Notice | None = None
    choice: Choice | None = None
    join: JoinOffer | None = None
    mountains: MountainsView | None = None
    """A table of the ``mountains`` ruleset: its own details (the screens draw its pages from them)."""
    setup: SetupView | None = None
    """A task of the set-up menu under way (teaching the playmat, checking stickers): run's worker sets it."""

    def __post_init__(self) -> None:
        if self.pairing and not (self.pairing.isdigit() and len(self.pairing) == 6):
            raise DisplayModelError(f"display model: pairing={self.pairing!r} is not six digits")
        _check_choice("phase", self.phase, Phase)
        _check_choice("turn", self.turn, PlayerName)
        _check_choice("camera", self.camera, CameraStatus)
        _check_choice("board", self.board, BoardStatus)
        _check_choice("first_player", self.first_player, PlayerName)
        _check_count("deck", self.deck)
        if self.draw is not None:
            _check_count("draw", self.draw, 1, HAND_LIMIT)
        self._check_phase_details()

    def _check_phase_details(self) -> None:
        # Each special phase needs its details; a missing one would draw an empty screen.
        needs = {"destruction": self.destruction, "discard-confirm": self.discard, "over": self.over,
                 "join": self.join}
        for phase, details in needs.items():
            if self.phase == phase and details is None:
                raise DisplayModelError(f"display model: phase={phase!r} needs its details")

    def player(self, name: PlayerName) -> PlayerView:
        return self.players[PLAYERS.index(name)]

    @property
    def cups_to_show(self) -> tuple[PlayerName, ...]:
        """The players whose cups the screen asks to see: the game is over ("SHOW CUPS") and
        cup cards of theirs are still unseen (their ``unknown_cup``)."""
        if self.phase != "over" or self.over is None or not self.over.unknown:
            return ()
        return tuple(name for name, view in zip(PLAYERS, self.players, strict=True) if view.unknown_cup)

    def __str__(self) -> str:
        parts = [self.phase, f"turn={self.turn}", f"draw={self.draw}", f"deck={self.deck}"]
        parts += [f"{name}[{view}]" for name, view in zip(PLAYERS, self.players, strict=True)]
        for label, detail in (("destruction", self.destruction), ("discard", self.discard),
                              ("over", self.over), ("notice", self.notice), ("choice", self.choice),
                              ("join", self.join)):
            if detail is not None:
                parts.append(f"{label}[{detail}]")
        if self.mountains is not None:
            parts.append(f"mountains[{self.mountains}]")
        if self.setup is not None:
            parts.append(f"setup[{self.setup}]")
        parts += [f"warning[{w}]" for w in self.warnings]
        if self.camera != "ok" or self.board != "ok":
            parts.append(f"camera={self.camera} board={self.board}")
        if self.pairing:
            parts.append("pairing")  # the code itself stays off the log line of every model
        return " ".join(parts)
