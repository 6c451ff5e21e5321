"""Display models of a ``mountains`` table, one per screen and case: for the golden images and docs/screens.md."""

from __future__ import annotations

from companion.tracker.display import DisplayModel, GameOver
from companion.tracker.mountains_display import MountainsView, RoundEnd
from companion.ui.samples import Sample
from companion.ui.state import Page, UiState

_VIEW = MountainsView(round=2, step="draw", hands=(4, 6), scores=(14, 9), gold=(2, 1),
                      piles=("RROOOYG", "KKPP"), mountains=("RYA", "GK"))

MOUNTAINS_SAMPLES: tuple[Sample, ...] = (
    Sample("mountains-main-draw", "Mountains: P1 draws up to 6 cards, then plays; round 2, scores with gold",
           DisplayModel(phase="play", turn="p1", draw=2, deck=61, mountains=_VIEW)),
    Sample("mountains-main-start", "Mountains: a round begins, P2 lays a starting card on the start row",
           DisplayModel(phase="play", turn="p2", deck=52,
                        mountains=MountainsView(3, "start", (6, 6), (16, 11), (2, 1), ("RROOOYGG", "KKPPY"),
                                                ("R", "")))),
    Sample("mountains-main-discard", "Mountains: P2 holds more than 6 after the play and discards down to 6",
           DisplayModel(phase="play", turn="p2", deck=40,
                        mountains=MountainsView(3, "discard", (6, 8), (16, 11), (2, 1), ("RROOOYGG", "KKPPY"),
                                                ("RO", "PK")))),
    Sample("mountains-round-end", "Mountains: round 2 scored: who took each color, ties, and the gold",
           DisplayModel(phase="play", turn="p2", deck=52,
                        mountains=MountainsView(3, "start", (6, 6), (16, 11), (2, 1), ("RROOOYGG", "KKPPY"),
                                                ("", ""), RoundEnd(2, "12=1-2", (1, 0), (4, 3))))),
    Sample("mountains-table", "Mountains: each player's mountain colors and score pile",
           DisplayModel(phase="play", turn="p1", draw=2, deck=61, mountains=_VIEW), UiState(page=Page.TABLE)),
    Sample("mountains-setup", "Mountains: a new game; C swaps the first player",
           DisplayModel(phase="setup", turn="p1", deck=108,
                        mountains=MountainsView(1, "start", (6, 6), (0, 0), (0, 0), ("", ""), ("", "")))),
    Sample("mountains-over", "Mountains: game over, P1 wins 31 to 24 (gold and score piles below)",
           DisplayModel(phase="over", turn="p2", deck=0, over=GameOver((31, 24), "p1", cups=(19, 14)),
                        mountains=MountainsView(5, "draw", (5, 6), (31, 24), (3, 2), ("RROOOYGGPPKK", "KKPPY"),
                                                ("O", "Y")))),
)
