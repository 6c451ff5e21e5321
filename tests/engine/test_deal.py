"""Random deals: the written-out shuffle is the generator's own."""

from __future__ import annotations

import random

import pytest

from companion.engine.deal import shuffle


@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 108, 120, 300])
def test_shuffle_orders_as_the_generator_does(size: int) -> None:
    for seed in range(20):
        ours, theirs = list(range(size)), list(range(size))
        mine, reference = random.Random(seed), random.Random(seed)
        shuffle(ours, mine)
        reference.shuffle(theirs)
        assert ours == theirs
        assert mine.random() == reference.random()  # and leaves the generator in the same state


class _Counting(random.Random):
    """A generator of its own kind: it shuffles itself."""

    calls = 0

    def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
        self.calls += 1
        super().shuffle(x)


def test_another_kind_of_generator_shuffles_itself() -> None:
    rng = _Counting(1)
    cards = list(range(10))
    shuffle(cards, rng)
    assert rng.calls == 1 and sorted(cards) == list(range(10))
