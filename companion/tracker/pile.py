"""The discard pile as a clock: when the players shuffle it into a new deck, the deck ran out.

The deck is a count: the camera never sees it. The tracker knows how many
cards it holds only from the draws it worked out, so a card of a play nobody
read (under the next card of a tight fan, dropped unseen on a squared pile)
leaves that count a card or two off, and the deck runs out on the table at a
different draw than in the tracked game. That moment matters: it triggers the
end of the game ("End of the game" in the rules: once the deck runs out, the
next destroyed mandala ends it).

The table shows it. Cards never leave the discard pile but to be shuffled
into a new deck, and players do that exactly when the deck runs out. So when
the pile is picked up (every card read on it out of sight with nothing laid
over it) and play goes on without it, the deck did run out, whatever the
count says; a careful person watching the table concludes no less.
:class:`PileWatch` watches for it and gives the corrected position, which the
tracker journals as a correction (a ``resync`` line).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace

from companion.engine import Claim, EndReason, Game, Phase
from companion.engine.cards import card_name, parse_card
from companion.engine.game import DISCARD, UNSEEN, mountain_zone
from companion.engine.position import build, position_of
from companion.engine.rules import MANDALA
from companion.errors import PositionError
from companion.tracker import zones
from companion.tracker.explain import table_cards
from companion.tracker.settle import View

DECK_SLACK = 3
"""The deck may be this many cards off by the count when the pile is picked up: the count drifts by the cards of
plays nobody read (a card or two per game), never by a whole deck. A pile out of sight while the count says many
cards are left is something else (a hand resting on it)."""
WENT_ON_S = 1.5
"""A move this long after the pile went out of sight is play going on without it (a hand laying the next card,
not the hand that covered the pile)."""
GONE_FOR_GOOD_S = 10.0
"""A pile out of sight this long, with no move since, was picked up all the same (no hand rests that long)."""


class PileWatch:
    """Notices the discard pile picked up while the tracked deck still holds cards."""

    def __init__(self) -> None:
        self.left_at: float | None = None
        """When the pile's last card went out of sight, the pile seen empty since; None while it lies there."""
        self.empty_at = 0.0
        """The rest at which the pile was first seen empty: cards laid on it after are new ones."""
        self.known: frozenset[str] = frozenset()
        """The cards the game had on the pile at the last look, before working it through."""
        self.stale: dict[str, float] = {}
        """Cards the count shuffled into a new deck that still lie on the pile: since when (the look that did it)."""
        self.looked_at = -math.inf
        """The last look's time."""

    def look(self, game: Game, view: View, vanished_at: Mapping[str, float],
             discarded_at: Mapping[str, float]) -> Game | None:
        """The game corrected for a deck that ran out on the table, or None.

        ``vanished_at``: when each card went out of sight; ``discarded_at``: when the last discard's cards were laid.
        """
        pile = zones.DISCARD_ZONE
        lying = {card: view.laid_at.get(card, -math.inf) for card in view.in_zone(pile)}
        not_out = self._not_out(game, view, lying, vanished_at)
        self.known = frozenset(card_name(c) for c in (not_out or game).known[DISCARD])
        self.looked_at = view.time
        if not_out is not None:
            return not_out
        if self.left_at is None:
            if lying or view.unread.get(pile):
                return None
            # The pile seen empty at rest: when did the last card the game has on it go out of sight?
            gone = [vanished_at[name] for name in map(card_name, game.known[DISCARD]) if name in vanished_at]
            if gone:
                self.left_at, self.empty_at = max(gone), view.time
            return None
        left = self.left_at
        if any(at <= self.empty_at for at in lying.values()):
            self.left_at = None  # a card that lay there before is in sight again: a hand rested on the pile
            return None
        if game.phase is Phase.OVER or game.deck_ran_out or not 0 < game.deck_size <= DECK_SLACK:
            self.left_at = None  # the count agrees (the deck is empty), or is far from empty: no reshuffle
            return None
        # Play goes on without the pile: a card laid or taken elsewhere.
        if not _went_on(game, view, vanished_at, left + WENT_ON_S) and (lying or view.time - left < GONE_FOR_GOOD_S):
            return None
        self.left_at = None
        # The cards the count still has in the deck had really left it. Where they are nobody can tell; the
        # count drifts because a card nobody read was taken for one still in a hand (a field play's card under
        # the next one of the fan, a discard's card dropped unseen on the pile), so its player drew one card too
        # few: that card lies on the pile (the fields are swept there) and was shuffled with it into the new
        # deck. So the new deck is the pile and what the count left in the old one; hands keep their counts.
        # Cards on the pile now were laid after it was picked up (the newest discard): they stay.
        kept = tuple(c for c in game.known[DISCARD] if card_name(c) in lying
                     or discarded_at.get(card_name(c), -math.inf) > self.empty_at)
        try:
            return build(replace(position_of(game), discard=kept, deck=None, deck_ran_out=True))
        except PositionError:
            return None

    def _not_out(self, game: Game, view: View, lying: Mapping[str, float],
                 vanished_at: Mapping[str, float]) -> Game | None:
        """The converse: the count ran the deck out and shuffled the pile into a new one, yet the pile still lies
        there while play goes on. Players never draw past an empty deck without picking the pile up: the deck did
        not run out. The game corrected, or None."""
        if not game.deck_ran_out or game.phase is Phase.OVER:
            self.stale.clear()
            return None
        for card in [c for c in self.stale if c not in lying]:
            del self.stale[card]  # picked up after all (a pile is cleared after the draw that needs it)
        for card in lying:
            if card in self.known and game.location(parse_card(card)) == UNSEEN:
                self.stale.setdefault(card, self.looked_at)  # shuffled by the count at the last look
        if not self.stale or not _went_on(game, view, vanished_at, min(self.stale.values())):
            return None
        # The count was a few cards low (a card taken for one played or drawn that was not); by how many nobody
        # can tell. The pile is the pile again, and the deck holds a few cards: when the players pick the pile
        # up, the deck ran out (above), and the count is put right then.
        back = tuple(parse_card(c) for c in sorted(self.stale))
        self.stale.clear()
        position = position_of(game)
        deck = max(0, min(DECK_SLACK, game.deck_size + game.hidden[DISCARD] - len(back)))
        try:
            return build(replace(position, discard=(*position.discard, *back), deck=deck, deck_ran_out=False))
        except PositionError:
            return None


def _went_on(game: Game, view: View, vanished_at: Mapping[str, float], since: float) -> bool:
    """Play went on since ``since``: a card laid somewhere but on the pile, or a card taken off the mat.

    A card laid on the pile's place is no sign: a hand resting on the pile may lay a discard over it.
    """
    pile = zones.DISCARD_ZONE
    return any(at > since for card, at in view.laid_at.items() if view.cards.get(card) != pile) or any(
        vanished_at.get(card_name(c), -math.inf) > since for c, _ in table_cards(game))


def not_ended(game: Game, view: View, ended_at: float) -> Game | None:
    """The count ended the game by the deck, yet the players refill the destroyed mountain with the pile still
    on the mat: the deck did not run out. The game before its last claim, corrected (the claim is then made
    again, and the refill follows); None when the table shows no such thing.

    ``ended_at``: when the last claim, which ended the game, was worked out. A refill is only ever drawn when
    the game goes on, and the pile lying where it lay says nobody shuffled it into a new deck.
    """
    mandala = game.destroying
    last = game.stack[-1][0] if game.stack else None
    if game.phase is not Phase.OVER or game.end_reason is not EndReason.DECK or mandala is None \
            or not isinstance(last, Claim) or any(len(game.river(p)) >= MANDALA.river_spaces for p in (0, 1)):
        return None
    if any(zones.parse_zone(zone).kind in ("reveal", "cup") for zone in view.cards.values()):
        return None  # cups laid out: the game did end
    mountain, pile = zones.mountain(mandala), zones.DISCARD_ZONE
    refill = [card for card, zone in view.cards.items() if zone == mountain
              and view.laid_at.get(card, -math.inf) > ended_at and game.location(parse_card(card)) == UNSEEN]
    lying = [card for card, zone in view.cards.items() if zone == pile and view.laid_at.get(card, math.inf) < ended_at]
    if not refill or not lying:
        return None
    before = game.copy()
    before.pop()
    # The count was a few cards low; the deck holds a few (the pickup, when it comes, puts the count right).
    deck = max(0, min(DECK_SLACK, before.deck_size + before.hidden[DISCARD]))
    try:
        return build(replace(position_of(before), deck=deck, deck_ran_out=False))
    except PositionError:
        return None


def shuffled_since_unread_claims(game: Game) -> bool:
    """Whether the pile was last shuffled into a new deck after every destruction that counted an unread mountain
    card onto it.

    A mountain card nobody read goes, at the end of its destruction, to the pile's unseen cards (some claim
    nobody could name took it). If it turns up in a cup after all, the count had it on the pile; once the pile
    was shuffled into a new deck, that count is in the deck.
    """
    after = game.copy()
    before = game.copy()
    while before.stack:
        event = before.pop()
        if after.deck_size > before.deck_size and after.size(DISCARD) < before.size(DISCARD):
            return True  # the pile went into the deck here (a draw past an empty deck, a resync)
        mandala = before.destroying
        if isinstance(event, Claim) and mandala is not None and after.phase is not Phase.CLAIM \
                and before.hidden[mountain_zone(mandala)]:
            return False
        after.pop()
    return False
