"""The ways simulated players lay a game, by name: ``tidy`` and ``sloppy``.

>>> STYLES
('tidy', 'sloppy')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.errors import ConfigError

if TYPE_CHECKING:  # the command line reads STYLES without loading the renderer
    from companion.engine import Game
    from companion.sim.script import GameScript
    from companion.vision.layout import Layout

STYLES: tuple[str, ...] = ("tidy", "sloppy")
"""``tidy``: :mod:`companion.sim.game`; ``sloppy``: :mod:`companion.sim.sloppy`."""


def lay_game(game: Game, layout: Layout, style: str = "tidy", seed: int = 0) -> GameScript:
    """A finished game laid on the table by players of ``style``, as shots."""
    if style == "tidy":
        from companion.sim.game import script_game

        return script_game(game, layout, seed=seed)
    if style == "sloppy":
        from companion.sim.sloppy import script_sloppy_game

        return script_sloppy_game(game, layout, seed=seed)
    raise ConfigError(f"unknown table style {style!r}: expected one of {', '.join(STYLES)}")
