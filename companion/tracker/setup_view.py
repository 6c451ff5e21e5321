"""What the set-up menu's tasks show on the panel: teaching the playmat, checking the stickers.

``companion run``'s worker drives the task (:mod:`companion.app.setup`) and
puts its :class:`SetupView` into the display model (``DisplayModel.setup``);
the screens (:mod:`companion.ui.setup_screens`) draw it, the buttons answer
it. Problems are codes, never sentences, so every language words them its own way.

>>> print(SetupView("teach", "cards", zone="m1.mountain", done=0, total=24, problem="no-card"))
teach cards m1.mountain 0/24 no-card
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from companion.errors import DisplayModelError
from companion.vocab.colors import COLOR_LETTERS

SetupTask = Literal["teach", "check"]
SetupStep = Literal["fiducials", "cards", "saved", "failed", "unsupported", "lay"]
"""teach: fiducials, cards, then saved (or failed); unsupported (not for this table's ruleset). check: lay."""
SetupProblem = Literal["", "few-fiducials", "no-card", "two-cards", "no-mat", "fiducial-turned", "zones-overlap",
                       "not-saved", "no-sticker"]
"""What went wrong, for the screen to say:

- ``few-fiducials``: fewer than four fiducials in view (``seen`` says how many);
- ``no-card``: no new card seen for a while (face down, sticker covered, off the mat?);
- ``two-cards``: two new cards at once: which zone each is for cannot be told;
- ``no-mat``: the fiducials went out of view while cards were being laid;
- ``fiducial-turned``: a fiducial is stuck askew (not square to the others);
- ``zones-overlap``: the zones taught do not make a usable layout (overlapping, or too small for a card:
  cards laid far from their zones' middles);
- ``not-saved``: the layout could not be written to the state folder;
- ``no-sticker``: check: no sticker read yet (cards face down, or not on the mat).
"""


@dataclass(frozen=True, slots=True)
class SetupView:
    """One moment of a set-up task; plain values so ``str()`` is one log line."""

    task: SetupTask
    step: SetupStep
    zone: str = ""
    """teach: the zone (interfaces.md section 2 name) the next card goes into."""
    done: int = 0
    """teach: zones with their card; check: cards of the chosen color read."""
    total: int = 0
    """teach: zones to teach; check: cards of the chosen color in the game."""
    seen: int = 0
    """teach, fiducials step: fiducials in view."""
    problem: SetupProblem = ""
    color: str = ""
    """check: the color letter whose cards are laid (R O Y G P K)."""
    wrong: tuple[tuple[str, str], ...] = ()
    """check: (card id, the color letter its face shows) of each card whose sticker belongs to another color."""
    unsure: tuple[str, ...] = ()
    """check: cards whose face color could not be told (covered, shadow, glare)."""

    def __post_init__(self) -> None:
        for name, value, kind in (("task", self.task, SetupTask), ("step", self.step, SetupStep),
                                  ("problem", self.problem, SetupProblem)):
            if value not in get_args(kind):
                raise DisplayModelError(f"setup view: {name}={value!r} is not one of {get_args(kind)}")
        letters = [self.color] if self.color else []
        letters += [face for _, face in self.wrong]
        if any(letter not in COLOR_LETTERS for letter in letters):
            raise DisplayModelError(f"setup view: colors {letters!r} are not ROYGPK letters")

    def __str__(self) -> str:
        parts: list[str] = [self.task, self.step]
        if self.zone:
            parts.append(self.zone)
        if self.total:
            parts.append(f"{self.done}/{self.total}")
        if self.color:
            parts.append(f"color={self.color}")
        if self.wrong:
            parts.append("wrong=" + ",".join(f"{card}:{face}" for card, face in self.wrong))
        if self.unsure:
            parts.append("unsure=" + ",".join(self.unsure))
        if self.problem:
            parts.append(self.problem)
        return " ".join(parts)
