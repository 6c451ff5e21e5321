"""Warnings that stand until the table is put right: the bookkeeping every ruleset's tracker shares.

A warning names the cards that raised it and the zone they were seen in; it
is cleared once none of them is seen there any more. A card id read in two
places at once stands as ``duplicate-card`` until one of the two is gone (it
names no zone: taking one sticker away is what clears it).
"""

from __future__ import annotations

from companion.tracker.settle import View
from companion.tracker.tracker import Warning
from companion.vocab.reasons import Reason, warning_text


def put_right(warnings: list[Warning], view: View) -> list[Warning]:
    """Remove (and return) the warnings whose cards are no longer seen in their zone (duplicates aside)."""
    cleared = [w for w in warnings if w.reason != Reason.DUPLICATE_CARD
               and not any(view.cards.get(c) == w.zone for c in w.cards)]
    for warning in cleared:
        warnings.remove(warning)
    return cleared


def duplicates_seen(warnings: list[Warning], view: View, frame: int) -> list[Warning]:
    """Add (and return) a warning per card newly read twice; drop those no longer read twice.

    Not through a tracker's ``_warn``: a misprinted sticker says nothing of the game and the table parting.
    """
    known = {c for w in warnings if w.reason == Reason.DUPLICATE_CARD for c in w.cards}
    new = [Warning(Reason.DUPLICATE_CARD, f"{card} is seen in two places at once.",
                   warning_text(Reason.DUPLICATE_CARD, (card,)).fix, (card,), "", frame)
           for card in sorted(view.duplicates - known)]
    warnings += new
    for warning in [w for w in warnings if w.reason == Reason.DUPLICATE_CARD]:
        if not set(warning.cards) & view.duplicates:
            warnings.remove(warning)
    return new
