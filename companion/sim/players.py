"""The players at the table answer the screen: asked to show a cup, they spread it in the reveal area.

A :class:`~companion.sim.script.GameScript` is what the players do of their
own accord. Real players also do what the companion asks: at the end, while
the screen says "SHOW CUPS" (a starting cup card nobody has seen, e.g. laid
and covered while the companion restarted), the player whose cup holds unseen
cards (the player page's "+n in cup") spreads it again so every card shows.

:class:`PlayedTable` plays a script frame by frame and, once the script's own
moves are done, looks at what the screen shows (the display model, never the
tracker's state or the game's truth): when it asks for cups, the players wait
a moment (the companion may still be reading the last cards laid), then each
asked player spreads the whole cup, a batch at a time, each batch left lying
for a few settle times, and they look again. When nothing is asked the game
plays exactly as its script: not one frame more. Both styles of players
answer the same way (this is the one place where players act on the screen).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any, Protocol, TypeVar

from companion.engine.cards import card_name
from companion.engine.game import CUPS
from companion.sim.scene import PlacedCard, arm_polygon
from companion.sim.script import GameScript, Shot
from companion.tracker.display import PLAYERS, DisplayModel
from companion.vision.layout import Layout, Point, polygons_overlap
from companion.vision.stickers import card_offset_mm
from companion.vocab import zones

LOOK_SETTLES = 2.0
"""How long the players watch the screen before answering it, in settle times (the companion may be
reading what was laid last)."""
SHOW_SETTLES = 3.0
"""How long each spread batch lies still, in settle times: long enough for the companion to read it."""
ANSWERS = 2
"""How often the players answer the same request before they give up and leave."""
REACH_S, PLACE_S = 0.6, 0.4
MARGIN_MM = 6.0
"""What a spread leaves to spare around each card's free sticker (cards are laid a little off)."""
OVERHANG_MM = 8.0
"""How far a spread card may reach beyond the reveal area (its centre stays well inside)."""


Result = TypeVar("Result")


class Camera(Protocol):
    """What a camera makes of a frame of a shot: the ideal camera's observation, or a rendered image."""

    def read(self, shot_index: int, shot: Shot) -> Any: ...


def table_camera(layout: Layout, ideal: bool, seed: int = 0, resolution: tuple[int, int] = (4608, 2592)) -> Camera:
    """The benchmarks' camera: the ideal one (observations, misses drawn from ``seed``), or rendered frames."""
    if ideal:
        from companion.sim.script import IdealCamera

        return IdealCamera(layout, seed=seed)
    from companion.sim.frames import ShotCamera
    from companion.sim.scene import SceneOptions

    return ShotCamera(layout, SceneOptions(resolution=resolution, noise_sigma=2.0))


class PlayedTable:
    """A script played at a table whose players look at the screen once their own moves are done.

    Drive it frame by frame: :meth:`shot_at` says which shot a frame shows
    (None once the players have left); when :meth:`idle` after a frame,
    :meth:`look` gives the players the screen as it stands then.
    """

    def __init__(self, script: GameScript, layout: Layout, fps: float, settle_s: float = 1.0,
                 seed: int = 0) -> None:
        self.script = script
        self.layout = layout
        self.fps = fps
        self.settle_s = settle_s
        self.rng = random.Random(seed * 7919 + 5)
        self.shots: list[Shot] = list(script.shots)
        self.frames: list[int] = script.frame_shots(fps)
        self.answered: dict[str, int] = {}
        """How often each player has spread the cup on request."""
        self.waiting = False
        """The players are watching the screen before answering it."""

    @property
    def played(self) -> GameScript:
        """The script as played: the script's shots and the answers to the screen after them."""
        return replace(self.script, shots=tuple(self.shots))

    def shot_at(self, frame: int) -> int | None:
        """The index of the shot frame ``frame`` shows, None when the players have left the table."""
        return self.frames[frame] if frame < len(self.frames) else None

    def idle(self, frame: int) -> bool:
        """After frame ``frame`` the players have nothing of their own left to do: they look at the screen."""
        return frame == len(self.frames) - 1

    def look(self, model: DisplayModel) -> None:
        """The players, idle, read the screen: asked to show cups, they wait a moment, then show them."""
        asked = [name for name in model.cups_to_show if self.answered.get(name, 0) < ANSWERS]
        if not asked:
            return
        if not self.waiting:
            self.waiting = True
            self._hold(self.shots[-1].cards, None, LOOK_SETTLES * self.settle_s, "players look at the screen")
            return
        self.waiting = False
        for name in asked:
            self.answered[name] = self.answered.get(name, 0) + 1
            self._show_cup(PLAYERS.index(name))

    def play(self, camera: Camera, feed: Callable[[int, float, Any], Result],
             screen: Callable[[float], DisplayModel], start: int = 0, ideal: bool = False) -> Iterator[Result]:
        """Each frame from ``start`` on through ``camera`` to ``feed`` (frame, time, what the camera made);
        the players read ``screen`` (the display model at a time) whenever they are idle.

        Frames before ``start`` (a companion switched off) are not fed; the ideal camera still reads
        them (``ideal``), so its random misses fall as in a run from the first frame.
        """
        index = 0
        while (shot := self.shot_at(index)) is not None:
            if index >= start:
                now = index / self.fps
                yield feed(index, now, camera.read(shot, self.shots[shot]))
                if self.idle(index):
                    self.look(screen(now))
            elif ideal:
                camera.read(shot, self.shots[shot])
            index += 1

    # -- the answer

    def _show_cup(self, player: int) -> None:
        """The player gathers the cup from the reveal area and spreads it again, a batch at a time."""
        zone = zones.reveal(player)
        cup = {card_name(c) for c in self.script.game.known[CUPS[player]]}
        cards = list(self.shots[-1].cards)
        mine = [c.card_id for c in cards if c.card_id in cup]
        self.rng.shuffle(mine)
        places = spread_places(self.layout, zone, player) or [(*self.layout.zone_center(zone), 180.0 * player)]
        for start in range(0, len(mine), len(places)):
            batch = mine[start:start + len(places)]
            arm = self._arm(player, zone)
            cards = [c for c in cards if c.card_id not in batch]
            self._hold(tuple(cards), arm, REACH_S, f"show cup {batch}")
            cards += [PlacedCard(card_id, (x + self.rng.gauss(0.0, 0.7), y + self.rng.gauss(0.0, 0.7)),
                                 (turn + self.rng.gauss(0.0, 1.0)) % 360.0)
                      for card_id, (x, y, turn) in zip(batch, places, strict=False)]
            self._hold(tuple(cards), arm, PLACE_S, f"show cup {batch}")
            self._hold(tuple(cards), None, SHOW_SETTLES * self.settle_s, "show cup")

    def _hold(self, cards: tuple[PlacedCard, ...], hand: tuple[Point, ...] | None, seconds: float,
              note: str) -> None:
        self.shots.append(Shot(cards, hand, seconds, note))
        self.frames = self.played.frame_shots(self.fps)

    def _arm(self, player: int, zone: str) -> tuple[Point, ...]:
        tip = self.layout.zone_center(zone)
        edge = self.layout.size_mm[1] + 150.0 if player == 0 else -150.0
        return arm_polygon((tip[0] + self.rng.uniform(-60.0, 60.0), edge), tip, self.rng.uniform(70.0, 90.0))


def spread_places(layout: Layout, zone: str, player: int) -> list[tuple[float, float, float]]:
    """Where the cards of one spread batch go in ``zone`` (centre x, y and turn, in laying order).

    Rows and columns from the player's own top left as they face the mat,
    each step wide enough that the later cards (right of and below it, as the
    player sees it) leave the card's top-left sticker whole: every card of the
    batch shows a sticker. Each card stays on the mat, within
    :data:`OVERHANG_MM` of the zone, and off the fiducials (the camera must
    keep finding the mat).
    """
    xs = [x for x, _ in layout.zones[zone]]
    ys = [y for _, y in layout.zones[zone]]
    half_w, half_h = layout.card_mm[0] / 2, layout.card_mm[1] / 2
    x0 = max(min(xs) + half_w - OVERHANG_MM, half_w)
    y0 = max(min(ys) + half_h - OVERHANG_MM, half_h)
    x1 = min(max(xs) - half_w + OVERHANG_MM, layout.size_mm[0] - half_w)
    y1 = min(max(ys) - half_h + OVERHANG_MM, layout.size_mm[1] - half_h)
    dx, dy = card_offset_mm(layout.card_mm, layout.sticker_mm)
    step_x = half_w - dx + layout.sticker_mm / 2 + MARGIN_MM
    step_y = half_h - dy + layout.sticker_mm / 2 + MARGIN_MM
    markers = [PlacedCard("", f.center_mm).corners_mm((f.size_mm + 4.0, f.size_mm + 4.0)) for f in layout.fiducials]
    places = []
    for row in range(math.floor(max(0.0, y1 - y0) / step_y) + 1):
        for column in range(math.floor(max(0.0, x1 - x0) / step_x) + 1):
            if player == 0:
                x, y, turn = x0 + column * step_x, y0 + row * step_y, 0.0
            else:  # across the table: their top left is the mat's bottom right, the cards turned to them
                x, y, turn = x1 - column * step_x, y1 - row * step_y, 180.0
            outline = PlacedCard("", (x, y)).corners_mm(layout.card_mm)
            if not any(polygons_overlap(outline, marker) for marker in markers):
                places.append((x, y, turn))
    return places
