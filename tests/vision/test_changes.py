"""The change detector: what changed since an area was last decoded, and since a reference kept before."""

from __future__ import annotations

import numpy as np

from companion.vision.changes import ChangeDetector
from companion.vision.observation import Region

STEP = 4


def frame(*squares: tuple[int, int]) -> np.ndarray:
    """A grey 400x300 frame with a dark 40 px square at each (x, y)."""
    image = np.full((300, 400), 200, np.uint8)
    for x, y in squares:
        image[y:y + 40, x:x + 40] = 30
    return image


def test_a_kept_reference_stays_as_it_was_while_the_reference_moves_on() -> None:
    changes = ChangeDetector(STEP, grow_px=8)
    before = changes.thumbnail(frame((40, 40)))
    changes.reset(before)
    kept = changes.reference
    assert kept is not None
    moved = changes.thumbnail(frame((40, 40), (240, 160)))  # a card laid
    seen = changes.compare(moved)
    assert seen is not None and len(seen.regions) == 1
    changes.accept(moved, seen)
    np.testing.assert_array_equal(kept, before)  # accept worked on a copy
    assert changes.compare(moved).regions == ()  # type: ignore[union-attr]
    since = changes.compare_with(moved, kept)
    assert since is not None and [r.x // 10 for r in since.regions] == [seen.regions[0].x // 10]
    # Put back, the kept reference sees the card as a change again.
    changes.restore(kept)
    again = changes.compare(moved)
    assert again is not None and again.touches(Region(250, 170, 10, 10))
    assert not again.touches(Region(40, 40, 40, 40))


def test_a_reference_of_another_size_compares_to_nothing() -> None:
    changes = ChangeDetector(STEP, grow_px=8)
    changes.reset(changes.thumbnail(frame()))
    assert changes.compare_with(changes.thumbnail(frame()), None) is None
    assert changes.compare_with(changes.thumbnail(frame()), np.zeros((3, 3), np.uint8)) is None
