"""What vision hands to the tracker: small immutable values, one line each."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

Point = tuple[float, float]


@dataclass(frozen=True)
class CardObservation:
    """One card read in a frame, from one or both of its stickers.

    ``center_mm`` is the centre of the card on the mat, found from whichever
    of its stickers were read (:mod:`companion.vision.stickers`);
    ``stickers_mm`` the centres of those stickers. ``zone`` is the layout zone
    containing the card's centre (None: outside every zone). ``confidence`` is
    about the zone: 1.0 when the card's centre lies 5 mm or more from every
    zone border, falling to 0.5 on a border, where the creased cloth alone
    (up to ~2 mm) could tip it into the neighbouring zone. The id itself is
    never in doubt: QR error correction either restores the payload or reads
    nothing. A read stays in every frame until the pixels of its sticker
    change.

    ``still_frames`` counts the frames before this one in which the pixels of
    the card's stillest read sticker had not changed: 0 on the frame a card is
    laid and read, growing while it lies still. A card that first shows with
    ``still_frames`` > 0 was read late (a retry after blur or a hand's
    shadow, or a sticker uncovered): it lay there already.
    """

    card_id: str
    center_mm: Point
    zone: str | None
    confidence: float
    still_frames: int = 0
    stickers_mm: tuple[Point, ...] = ()

    def __str__(self) -> str:
        x, y = self.center_mm
        return f"{self.card_id}@{self.zone or '-'}({x:.1f},{y:.1f}) c={self.confidence:.2f}"


@dataclass(frozen=True)
class BoardStatus:
    """Whether the playmat was located.

    ``fiducials`` lists the ids seen in this frame; ``homography_age`` counts
    frames since every fiducial of the layout was last seen (0: all seen now),
    so a hand over a marker shows as a growing age while the mapping is kept.

    ``smear_px`` is the motion smear (a bumped table, a swaying camera arm)
    measured on the fiducials found again in this frame, their median in
    pixels (0.0 when none was measured: nothing moved there); ``smeared``
    says the whole frame is smeared beyond what the stickers read through
    (:data:`companion.vision.sharpness.SMEAR_MODULES` of a QR module, on at
    least three fiducials). Cards missing from a smeared frame may still lie
    where they were: it tells nothing of what left the table.
    """

    found: bool
    fiducials: tuple[int, ...]
    homography_age: int = 0
    reason: str | None = None
    smear_px: float = 0.0
    smeared: bool = False


@dataclass(frozen=True)
class Region:
    """An axis-aligned box in frame pixels: x, y, width, height."""

    x: int
    y: int
    width: int
    height: int


@dataclass(frozen=True)
class FrameObservation:
    """Everything one frame told: board, cards, anomalies and stage times.

    ``duplicates`` names card ids read at two places at once (reads whose card
    centres disagree): both cards are in ``cards``, because only the people at
    the table know which one is real.
    ``changed_regions`` are the frame areas that were decoded again.
    ``unread`` maps a zone to the number of cards in it (by their centres) whose
    sticker the camera saw whole but could not decode in this frame, after
    retries (blur, a defaced code, glare), and whose other sticker was not
    read either; zones without any are absent, so a fully read table gives {}.
    The tracker uses it to ask how many cards went to the discard pile.
    ``smeared_zones`` names the zones where the frame is too smeared to
    read (every zone when ``board.smeared``): a card of such a zone that is
    not in ``cards`` was not seen, not seen gone. Reads resume on the first
    sharp frame.
    """

    board: BoardStatus
    cards: tuple[CardObservation, ...] = ()
    duplicates: tuple[str, ...] = ()
    foreign_codes: int = 0
    changed_regions: tuple[Region, ...] = ()
    timings_ms: Mapping[str, float] = field(default_factory=dict)
    unread: Mapping[str, int] = field(default_factory=dict)
    smeared_zones: tuple[str, ...] = ()

    def __str__(self) -> str:
        board = "board" if self.board.found else f"no board ({self.board.reason})"
        if self.board.smeared:
            board += f" (smeared {self.board.smear_px:.1f} px)"
        cards = " ".join(str(card) for card in self.cards)
        unread = f"; unread={dict(self.unread)}" if self.unread else ""
        return f"{board}; {len(self.cards)} cards: {cards}; foreign={self.foreign_codes}{unread}"
