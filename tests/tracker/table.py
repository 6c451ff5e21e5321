"""A scripted table for tracker tests: cards laid in zones, frames fed at a steady rate."""

from __future__ import annotations

from companion.tracker.tracker import TrackedEvent, Tracker, Update, Warning
from companion.vision.observation import BoardStatus, CardObservation, FrameObservation


class ScriptedTable:
    def __init__(self, tracker: Tracker | None = None, fps: float = 10.0) -> None:
        self.tracker = tracker or Tracker(settle_s=1.0)
        self.fps = fps
        self.cards: dict[str, tuple[str, tuple[float, float]]] = {}
        self.frame = 0
        self.updates: list[Update] = []
        self.unread: dict[str, int] = {}
        """Stickers the camera sees but cannot read, per zone (sent with every frame)."""
        self.still_since: dict[str, int] = {}
        """Per card, the frame since which its pixels have not changed (laid or uncovered)."""

    @property
    def now(self) -> float:
        return self.frame / self.fps

    def put(self, zone: str, *cards: str, at: tuple[float, float] = (0.0, 0.0)) -> ScriptedTable:
        for card in cards:
            self.cards[card] = (zone, at)
            self.still_since[card] = self.frame
        return self

    def take(self, *cards: str) -> ScriptedTable:
        for card in cards:
            del self.cards[card]
        return self

    def hold(self, seconds: float, hidden: tuple[str, ...] = (), board: bool = True,
             duplicates: tuple[str, ...] = (), unreadable: tuple[str, ...] = (), smeared: bool = False) -> list[Update]:
        """Show the table as it is for ``seconds``.

        ``smeared``: vision calls the frames smeared (a bumped table), reading nothing in them.

        ``hidden`` cards are covered (a hand, a card): uncovering them changes
        their pixels. ``unreadable`` ones lie still in sight but do not read
        (blur, glare) until a later frame reads them as they were.
        """
        updates = []
        for _ in range(round(seconds * self.fps)):
            for card in hidden:
                self.still_since[card] = self.frame + 1
            observation = FrameObservation(
                BoardStatus(board, (0, 1, 2, 3), smeared=smeared),
                tuple(CardObservation(card, at, zone, 1.0, self.frame - self.still_since.get(card, 0))
                      for card, (zone, at) in sorted(self.cards.items())
                      if card not in hidden and card not in unreadable and not smeared)
                + tuple(CardObservation(card, (1.0, 1.0), "discard", 1.0) for card in duplicates),
                duplicates=duplicates,
                unread=dict(self.unread),
            )
            update = self.tracker.observe(self.frame, self.now, observation)
            if update:
                updates.append(update)
            self.frame += 1
        self.updates += updates
        return updates

    def settle(self) -> list[Update]:
        return self.hold(1.5)

    def events(self) -> list[TrackedEvent]:
        return [e for u in self.updates for e in u.events]

    def warnings(self) -> list[Warning]:
        return [w for u in self.updates for w in u.warnings]

    def start(self, m1: tuple[str, str] = ("R01", "O01"), m2: tuple[str, str] = ("Y01", "G01")) -> ScriptedTable:
        self.hold(1.5)
        self.put("m1.mountain", *m1).put("m2.mountain", *m2).settle()
        assert self.tracker.game is not None
        return self
