"""Explaining a settled table: the short legal sequence of events that best fits everything seen.

The tracker does not guess one event at a time. From the game as the rules
engine has it and the settled view of the table it builds candidate events
out of the evidence (cards of one color that arrived in a field, a card in a
mountain, a mountain color whose cards all left, a claimed card in a river,
two cards in an emptied mountain), plays short sequences of them through the
engine (:meth:`Game.copy`, :meth:`Game.validate`; draws and hidden cards are
counts), and scores the table each sequence leads to against the view:

- a card seen where the state puts it fits;
- a card seen where no state puts it is unexplained: strong evidence;
- a card the state keeps on the table but that is not seen is weak evidence
  (it is covered: by a later card, a hand, a tight fan), unless it has left
  for good by every sign (a claimed color, see :class:`Evidence`);
- every event costs a little, so the shortest explanation wins;
- events whose cards were laid in the other order cost a little more.

The best sequence is applied when it clearly wins; when another sequence that
leaves the players with different things to do fits as well, the tracker
waits and then asks (:attr:`Explanation.rival`). A catch-up after the camera
was away is the same search, allowed to go deeper.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import suppress
from dataclasses import dataclass, field, replace
from itertools import combinations

from companion.engine import Claim, Discard, Event, FieldPlay, Game, MountainPlay, Phase, Refill, Resync
from companion.engine.cards import COLOR_OF, COLORS, Card, card_name, colors_in, parse_card
from companion.engine.game import CUPS, DISCARD, UNSEEN, field_zone, mountain_zone
from companion.engine.position import build, identify, identify_on_pile, position_of
from companion.engine.rules import MANDALA
from companion.errors import PositionError
from companion.tracker import zones
from companion.tracker.settle import GESTURE_S
from companion.tracker.standins import stand_in

STRONG = 1.0
"""A card seen where the state puts no card: what an event must explain."""
GLIMPSE = 0.45
"""A card read for a moment where the state puts no card, then covered before the table came to rest."""
GONE = 0.6
"""A card the state keeps on the table that has left by every sign (a claimed color)."""
COVERED = 0.02
"""A card the state keeps on the table that is not seen: covered, most likely."""
NOTHING_OVER = 0.3
"""A card the state keeps where nothing in sight could lie over it: a mountain card during play that went out
of sight on its own (mountain cards only leave in a destruction, or with a play taken back), or a river card
whose space is empty long after it left the mountain (a river space holds one card). More than covered; a
hand may rest there, so less than gone. Enough that a destruction noticed late (its completion under a card
nobody read) explains better than nothing, and that its claims into cups are not taken for claims into a
river nobody saw."""
EVENT = 0.25
"""Each event of an explanation: fewer events explain better."""
SWEEP_S = 12.0
"""How long after the last claim the fields of the destroyed mandala are being swept onto the pile."""
UNSEEN_DISCARD = 0.3
"""A discard nobody saw, shown only by the pile picked up after the deck ran out: only when something needs it."""
UNSEEN_CLAIM = 0.3
"""A claim with no sign of its color leaving (covered all along, or under a hand): only when something needs it."""
RECOUNT = 0.3
"""Deciding that a field held a card nobody read, to make the other player the first picker."""
UNDO_COST = {"": 0.0, "uncovered": 0.4, "covered": 0.7, "picked": 0.1, "reread": 0.1, "unlaid": 0.2}
"""Taking the last event back: a player changed their mind, its cards left with nothing over them, or with a
card in sight that could lie over them; or a claim nobody saw made (the next pick shows it was the other
player's: no move taken back, a reading corrected); or a discard that may have been a claim onto the pile (a
completion nobody noticed: a reading corrected, the card stays where it lies); or a claim whose river card never
came to lie in its river space (the color went into the other player's cup)."""
IDENTIFY = 0.05
"""Reading a mountain card that lay unseen under another: nearly free, it is no move."""
STAND_IN = IDENTIFY
"""Naming a mountain card nobody read by its color only, to claim it: reading it, as far as it can be read."""
ORDER = 0.1
"""Each pair of events whose cards were laid in the other order."""
ORDER_SLACK_S = 0.2
CLAIM_ORDER = 0.5
"""Two claims against the order their colors left the mountain in: picks alternate, the one that left first
was picked first (only a hand over a color makes it look gone early)."""
TWO_HANDS = 2.0
"""Two players' moves whose cards were laid at the same instant: as good as impossible."""
NEAR = 0.05
"""Two explanations closer than this fit equally well."""
DEPTH = 4
"""Events per explanation, normally: a settle time holds at most a few moves."""
CATCH_UP_DEPTH = 12
"""After the camera was away: a whole destruction may have happened (a play, six claims, the refill)."""
MAX_NODES = 4000


@dataclass(frozen=True)
class Evidence:
    """What the table shows, as the search weighs it."""

    seen: Mapping[str, str]
    """Card -> zone, as settled (cards set aside in open warnings left out)."""
    glimpses: Mapping[str, str] = field(default_factory=dict)
    """Cards read for a moment and covered since, before any settled view showed them: card -> zone."""
    laid_at: Mapping[str, float] = field(default_factory=dict)
    stale: Mapping[str, str] = field(default_factory=dict)
    """Card -> zone where it may still lie although the rules moved it on (fields not yet swept)."""
    gone: Mapping[str, str] = field(default_factory=dict)
    """Card -> zone it left for good by every sign (a claimed color): not just covered there."""
    unseen_refill: bool = False
    """A refill may be one card read and one under it (waited long enough for the second to show)."""
    rest_time: float = 0.0
    """When the table was last at rest before this change: cards laid before then were lying there already."""
    uncovering: frozenset[str] = frozenset()
    """Mountains a card left since the last rest: a card newly read there may have lain under it."""
    uncovered: frozenset[str] = frozenset()
    """Cards the game has on the table, out of sight, with no card in sight that could lie over them."""
    swept_since: float | None = None
    """When the last destruction's claims were done: field cards land on the pile from then on."""
    swept_at: float | None = None
    """When the last destruction's claims were done, whatever its fields held."""
    swept_colors: Mapping[int, int] = field(default_factory=dict)
    """The colors read in the destroyed fields then, and whose field held each."""
    left_alone: frozenset[str] = frozenset()
    """Cards of ``uncovered`` that went out of sight on their own, not with others about then (a hand hides
    several at once): taken away, most likely."""
    long_out: frozenset[str] = frozenset()
    """Cards of ``left_at`` out of sight for longer than a claim takes to show (a card on its way to a river)."""
    left_at: Mapping[str, float] = field(default_factory=dict)
    """Card -> when it went out of sight, for cards the game has on the table and not seen: the order claims
    were made in, when a destruction is noticed late."""
    shaken: frozenset[str] = frozenset()
    """Cards first read just after a bumped table's blurred frames: shaken into sight where they lay, not laid."""
    reread: frozenset[str] = frozenset()
    """Cards of a discard taken back to be read again as a claim onto the pile: they lay there, in no count."""
    discarded_at: Mapping[str, float] = field(default_factory=dict)
    """The last discard's cards, and when each was laid on the pile (for reading it again as a claim)."""
    lifted: frozenset[str] = frozenset()
    """Mountain cards out of sight lifted off the card they covered (it shows again where it lay): they left."""
    pile_taken: bool = False
    """The deck is out by the count and the pile was picked up (none of its cards in sight, nothing on its place):
    a draw shuffled it into a new deck."""


@dataclass(frozen=True)
class Explanation:
    events: tuple[Event, ...]
    cost: float
    game: Game
    rival: Explanation | None = None
    """Another explanation that fits as well but leaves the players with something else to do."""
    undo: int = 0
    """Events taken back before ``events`` (a player took their last play back)."""
    reread: bool = False
    """The event taken back was no move taken back but a reading corrected (a discard read again as a claim)."""

    @property
    def ambiguous(self) -> bool:
        return self.rival is not None


def misfit(game: Game, evidence: Evidence, played: Mapping[str, str] | None = None) -> float:
    """How badly the table the state predicts matches what is seen (0: perfectly).

    A card may still lie where it was last seen, or where the explanation
    just played it, after the rules moved it on (fields swept onto the
    discard pile, a discard shuffled at once into a new deck).
    """
    cost = 0.0
    played = played or {}
    for card, zone in evidence.seen.items():
        expected = zones.expected_zone(game, parse_card(card))
        if expected == zone:
            continue
        if expected in (None, zones.DISCARD_ZONE) and zone in (evidence.stale.get(card), played.get(card)):
            continue
        if being_grabbed(game, parse_card(card), zone):
            continue
        cost += STRONG
    for card, zone in evidence.glimpses.items():
        expected = zones.expected_zone(game, parse_card(card))
        # It passed through there: read in a mountain it was laid in, seen elsewhere now; or glimpsed on the pile
        # it was discarded on, the pile shuffled at once into a new deck (the rules moved it on).
        passed = card in evidence.seen or expected in (None, zones.DISCARD_ZONE)
        if expected == zone or (played.get(card) == zone and passed):
            continue
        cost += GLIMPSE
    for placed, zone in table_cards(game):
        name = card_name(placed)
        if name not in evidence.seen and evidence.glimpses.get(name) != zone:
            if evidence.gone.get(name) == zone:
                cost += GONE
            elif _nothing_over(game, name, zone, evidence):
                cost += NOTHING_OVER
            else:
                cost += COVERED
    return cost


def _nothing_over(game: Game, name: str, zone: str, evidence: Evidence) -> bool:
    """A card out of sight where nothing in sight could lie over it (see :data:`NOTHING_OVER`)."""
    kind = zones.parse_zone(zone).kind
    if kind == "river":
        return zone not in evidence.seen.values() and name in evidence.long_out
    # A mountain card during play that went out of sight on its own, or that has stayed out of sight, nothing
    # in sight that could lie over it, for longer than a claim takes to show (a destruction nobody noticed).
    if kind != "mountain":
        return False
    long_gone = name in evidence.long_out and name in evidence.uncovered
    if game.phase is Phase.PLAY:
        return name in evidence.left_alone or long_gone
    # The mountain of a destruction the explanation found (the table's game still in play): its cards left.
    return game.destroying is not None and zone == zones.mountain(game.destroying) and long_gone


def table_cards(game: Game) -> Iterator[tuple[Card, str]]:
    """The cards the state puts face up in the mandalas and rivers, with their zones."""
    for mandala in (0, 1):
        for card in game.mountain(mandala):
            yield card, zones.mountain(mandala)
        for player in (0, 1):
            for card in game.field(mandala, player):
                yield card, zones.field(mandala, player)
    for player in (0, 1):
        for space, card in enumerate(game.river(player), start=1):
            yield card, zones.river(player, space)


def explain(game: Game, evidence: Evidence, depth: int = DEPTH) -> Explanation:
    """The best explanation of the view (possibly no event at all), with its rival if one fits as well."""
    found: list[Explanation] = []
    best_at: dict[str, float] = {}
    nodes = 0

    look = evidence

    def visit(state: Game, events: tuple[Event, ...], times: tuple[float | None, ...], played: dict[str, str],
              undo: str, spent: float) -> None:
        nonlocal nodes
        nodes += 1
        cost = misfit(state, look, played) + spent + _order_cost(events, times) + UNDO_COST[undo]
        key = state.text()
        if best_at.get(key, float("inf")) <= cost:
            return  # the same table by another way, no better
        best_at[key] = cost
        found.append(Explanation(events, cost, state, undo=1 if undo else 0, reread=undo == "reread"))
        if _depth(events) >= depth or nodes >= MAX_NODES:
            return
        for event in candidates(state, look):
            if state.validate(event) is not None:
                continue
            child = state.copy()
            child.push(event, force=True)  # validated above
            visit(child, (*events, event), (*times, _when(state, event, look)),
                  {**played, **_laid_where(event, look)}, undo, spent + _event_cost(state, event, look, events))

    visit(game.copy(), (), (), {}, "", 0.0)
    back = taken_back(game, evidence)
    if back:
        before = game.copy()
        discarded = before.pop()
        if back == "reread" and isinstance(discarded, Discard):
            # The discard's cards may be an unread mountain card claimed onto the pile: offered to be read there.
            names = frozenset(card_name(c) for c in discarded.cards)
            # They left the mountain when they were laid on the pile: the order of the claims.
            look = replace(evidence, reread=names, left_at={
                **evidence.left_at, **{n: at for n, at in evidence.discarded_at.items() if n in names}})
        visit(before, (), (), {}, back, 0.0)
    best_by_state: dict[str, Explanation] = {}
    for explanation in found:
        key = explanation.game.text()
        if key not in best_by_state or explanation.cost < best_by_state[key].cost:
            best_by_state[key] = explanation
    ranked = sorted(best_by_state.values(), key=lambda e: (e.cost, len(e.events)))
    best = ranked[0]
    rival = next((e for e in ranked[1:] if e.cost - best.cost < NEAR and len(e.events) == len(best.events)
                  and _obligations(e.game) != _obligations(best.game)), None)
    if rival is None:
        rival = next((e for e in ranked[1:] if e.cost - best.cost < NEAR and len(e.events) == len(best.events)
                      and _scores(e.game) != _scores(best.game)), None)
    return Explanation(best.events, best.cost, best.game, rival, best.undo, best.reread)


def _depth(events: tuple[Event, ...]) -> int:
    """How deep a sequence goes: claims do not count, nor do readings (a card identified or named, a recount).

    A destruction noticed late (its completion under a card nobody read, the
    claims made while the mountain lay in sight) is a run of claims, one per
    color that left, each forced by what left: the players' choices are the
    plays before them. Without this a completion followed by several claims
    outgrew the look and the last play was taken back instead, then every
    move after it was warned. A reading (a ``resync`` line: an unread card
    identified, named by its color, a completion under it) is no move either:
    three plays and a completion over an unread card, named, then its first
    claim, are three moves; counted, the claim fell outside the look and the
    completing play was taken for an unread card instead.
    """
    return sum(not isinstance(event, Claim | Resync) for event in events)


def taken_back(game: Game, evidence: Evidence) -> str:
    """Whether the player may have taken the last play back: its cards are all out of sight.

    ``"uncovered"`` when nothing in sight could lie over them, ``"covered"``
    when something could (a later card where they lay), ``"picked"`` for a
    claim nobody saw whose player picks again, ``""`` when not.
    """
    last = _last_event(game)
    if isinstance(last, Claim):
        if _picked_again(game, last, evidence):
            return "picked"
        if _claimed_another_card(game, last, evidence) or _claim_still_there(game, last, evidence):
            return "uncovered"
        return "unlaid" if _river_card_never_laid(game, last, evidence) else ""
    if isinstance(last, Discard) and _discard_may_be_a_claim(game, last, evidence):
        return "reread"
    if not isinstance(last, MountainPlay | FieldPlay) or not last.cards:
        return ""
    names = [card_name(card) for card in last.cards]
    if any(name in evidence.seen or name in evidence.glimpses for name in names):
        return ""
    return "uncovered" if all(name in evidence.uncovered for name in names) else "covered"


def _discard_may_be_a_claim(game: Game, discard: Discard, evidence: Evidence) -> bool:
    """The last discard's cards, still on the pile, may have been an unread mountain card claimed onto it.

    A mandala whose five read colors lack only the discarded color, over a
    card nobody read, may have been completed unnoticed; the player whose
    field of it is empty claims onto the pile, which shows as a card from
    nowhere on the pile: a discard, until the destruction shows. Then the
    discard is read again (the search weighs it against the discard).
    """
    colors = {COLOR_OF[c] for c in discard.cards}
    if len(colors) != 1 or discard.unseen or not all(
            evidence.seen.get(card_name(c), zones.DISCARD_ZONE) == zones.DISCARD_ZONE for c in discard.cards):
        return False
    (color,) = colors
    before = game.copy()
    before.pop()
    return any(before.hidden[mountain_zone(m)] >= len(discard.cards) and not before.field(m, discard.player)
               and [c for c in COLORS if not before.mandala_colors(m) >> c & 1] == [color] for m in (0, 1))


def _river_card_never_laid(game: Game, claim: Claim, evidence: Evidence) -> bool:
    """The last claim put a card in its player's river, and that space has stayed empty since the card left.

    A claim of a color the claimer's river lacks lays its first card there, in
    sight; an empty space long after the color left says the color went
    into a cup: the other player's claim (the claimer's own pick before it
    went unseen).
    """
    before = game.copy()
    before.pop()
    river = game.river(claim.player)
    if len(river) <= len(before.river(claim.player)):
        return False
    name = card_name(river[-1])
    zone = zones.river(claim.player, len(river))
    return name not in evidence.seen and zone not in evidence.seen.values() and name in evidence.long_out


def _claimed_another_card(game: Game, claim: Claim, evidence: Evidence) -> bool:
    """The last claim's river card is not in the river, another card of its color from nowhere is.

    The claim was made before the river card was seen: the card laid there
    was one nobody had read in the mountain (under another card), or another
    card of the color the claim took (the game put it in the cup: the player
    kept that one for the river).
    """
    river = game.river(claim.player)
    if not river or COLOR_OF[river[-1]] != claim.color:
        return False
    zone = zones.river(claim.player, len(river))
    seen_at = evidence.seen.get(card_name(river[-1]))
    if seen_at is not None:
        return seen_at != zone and zones.parse_zone(seen_at).kind == "river"  # in the other player's river
    taken = _taken_by_last_claim(game, claim)
    return any(z == zone and COLOR_OF[parse_card(c)] == claim.color
               and (game.location(parse_card(c)) == UNSEEN or parse_card(c) in taken)
               for c, z in evidence.seen.items())


def _taken_by_last_claim(game: Game, claim: Claim) -> set[Card]:
    """The mountain cards the last claim (``claim``) took into its player's cup."""
    before = game.copy()
    before.pop()
    mandala = before.destroying
    if mandala is None:
        return set()
    return {c for c in before.mountain(mandala) if COLOR_OF[c] == claim.color
            and game.location(c) == CUPS[claim.player]}


def _picked_again(game: Game, claim: Claim, evidence: Evidence) -> bool:
    """The last claim went out of sight (a cup, the pile) and its player now lays the next color in their river.

    Nothing showed who made the unseen claim: the other player picked it, a
    field card nobody read having made them the first picker. Without this
    the wrong picker stood and every pick after it was out of turn.
    """
    mandala = game.destroying
    before = game.copy()
    before.pop()
    if mandala is None or game.turn == claim.player or len(game.river(claim.player)) > len(
            before.river(claim.player)):
        return False
    rivers = {zones.river(claim.player, space)
              for space in range(len(game.river(claim.player)) + 1, MANDALA.river_spaces + 1)}
    return any(evidence.seen.get(card_name(c)) in rivers for c in game.mountain(mandala))


def _claim_still_there(game: Game, claim: Claim, evidence: Evidence) -> bool:
    """The last claim's cards are back in sight in the mountain: they were only under a hand."""
    before = game.copy()
    before.pop()
    mandala = before.destroying
    if mandala is None:
        return False
    mountain = zones.mountain(mandala)
    return any(evidence.seen.get(card_name(c)) == mountain for c in before.mountain(mandala)
               if COLOR_OF[c] == claim.color)


def _last_event(game: Game) -> Event | None:
    return game.stack[-1][0] if game.stack else None


def _laid_where(event: Event, evidence: Evidence) -> dict[str, str]:
    """Where the event's cards were seen laid."""
    names = [card_name(c) for c in getattr(event, "cards", ()) or ()]
    laid = {name: evidence.seen[name] for name in names if name in evidence.seen}
    if isinstance(event, Discard):  # dropped card over card on a squared pile: glimpsed there
        laid.update((name, evidence.glimpses[name]) for name in names
                    if name not in laid and evidence.glimpses.get(name) == zones.DISCARD_ZONE)
    if isinstance(event, MountainPlay):  # read in the mountain for a moment, on the pile now: it was laid there
        mountain = zones.mountain(event.mandala)
        laid.update((name, mountain) for name in names if name in laid and evidence.glimpses.get(name) == mountain)
    return laid


def _event_cost(state: Game, event: Event, evidence: Evidence, before: tuple[Event, ...] = ()) -> float:
    """What an event costs an explanation, in the state it is played in, after the events ``before``."""
    if isinstance(event, Correction):
        return event.cost
    if isinstance(event, Resync):
        return IDENTIFY
    if isinstance(event, Discard) and not event.cards:
        return EVENT + UNSEEN_DISCARD
    if isinstance(event, Claim) and not _claim_seen(state, event, evidence) and not _claims_named(state, event,
                                                                                                  before):
        return EVENT + UNSEEN_CLAIM
    return EVENT


def _claims_named(state: Game, claim: Claim, before: tuple[Event, ...]) -> bool:
    """The claim takes only cards the explanation named by color (nobody read them: no sign is expected)."""
    named = {name for event in before if isinstance(event, Correction) for name in event.stand_ins}
    mandala = state.destroying
    cards = [card_name(c) for c in state.mountain(mandala)] if mandala is not None else []
    return bool(named) and all(name in named for name in cards if COLOR_OF[parse_card(name)] == claim.color)


def _claim_seen(state: Game, claim: Claim, evidence: Evidence) -> bool:
    """Some sign of the claimed color leaving: a card of it out of the mountain in sight, or all of it gone."""
    mandala = state.destroying
    if mandala is None:
        return False
    mountain = zones.mountain(mandala)
    names = [card_name(c) for c in state.mountain(mandala) if COLOR_OF[c] == claim.color]
    if any(evidence.seen.get(name, mountain) != mountain or name in evidence.reread for name in names):
        return True  # in sight off the mountain, or seen laid on the pile (a discard read again as this claim)
    # Out of sight with nothing in sight that could lie over them: they left (a hand may still hide them for
    # a moment, which is why this is a sign for the claim and not yet "gone" for the table).
    return bool(names) and all(evidence.gone.get(name) == mountain or name in evidence.uncovered
                               or name in evidence.lifted for name in names)


def _obligations(game: Game) -> tuple[object, ...]:
    """What the players must do next in a state: who acts, in which phase, with how many cards in hand."""
    return (game.phase, game.turn, game.destroying, game.hand_size(0), game.hand_size(1))


def _scores(game: Game) -> tuple[object, ...]:
    return tuple((game.score(p).points, game.cup_size(p), game.river(p)) for p in (0, 1))


def _order_cost(events: tuple[Event, ...], times: tuple[float | None, ...]) -> float:
    """Events against the order they showed in, and two players' moves laid in one instant.

    A claim shows by its color leaving the mountain (one hand may hide two colors at once) or by its card in a
    river, where the play that completed the mandala may show only as that card: claims are never "laid in one
    instant" with another move.
    """
    inversions = sum(CLAIM_ORDER if isinstance(e, Claim) and isinstance(f, Claim) else ORDER
                     for (a, e), (b, f) in combinations(zip(times, events, strict=True), 2)
                     if a is not None and b is not None and a > b + ORDER_SLACK_S)
    together = sum(1 for (a, e), (b, f) in combinations(zip(times, events, strict=True), 2)
                   if a is not None and b is not None and abs(a - b) < GESTURE_S
                   and getattr(e, "player", None) != getattr(f, "player", None)
                   and not isinstance(e, Claim) and not isinstance(f, Claim))
    return inversions + TWO_HANDS * together


def _when(state: Game, event: Event, evidence: Evidence) -> float | None:
    """When an event showed on the table: its first card laid, or for a claim its color's last card leaving
    (out of sight, or laid where the claim put it)."""
    if isinstance(event, Claim):
        mandala = state.destroying
        if mandala is None:
            return None
        mountain = zones.mountain(mandala)
        names = [card_name(c) for c in state.mountain(mandala) if COLOR_OF[c] == event.color]
        left = [evidence.left_at[name] for name in names if name in evidence.left_at]
        left += [evidence.laid_at[name] for name in names
                 if evidence.seen.get(name, mountain) != mountain and name in evidence.laid_at]
        return max(left) if left else None  # done when its last card left (a claim may take several grabs)
    times = [evidence.laid_at[name] for name in (card_name(c) for c in getattr(event, "cards", ()) or ())
             if name in evidence.laid_at]
    return min(times) if times else None


# -- candidate events ----------------------------------------------------------------------


def candidates(game: Game, evidence: Evidence) -> list[Event]:
    """Events the evidence points to in this state; the search keeps the legal ones."""
    found = _identifications(game, evidence)
    if game.phase is Phase.PLAY:
        return found + _unnoticed_completions(game, evidence) + _plays(game, evidence) + _unseen_discard(game, evidence)
    if game.phase is Phase.CLAIM:
        # A card counted unread in the mountain explains the picks before a field card nobody counted.
        named = _unread_colors(game, evidence)
        return found + (named or _picker_recounts(game, evidence)) + _claims(game, evidence)
    if game.phase is Phase.REFILL:
        return found + _refills(game, evidence)
    return found


def _identifications(game: Game, evidence: Evidence) -> list[Event]:
    """A card read in a mountain that holds cards laid unseen: one of them, if it lay there already.

    Mountain cards only leave in a destruction, so a card read there that was
    laid after the last rest is a new play, not an old card: during play, and
    during a destruction in the other mountain, which nothing leaves (a play
    made before the completing one, not an unread card of the deal). Only the
    mountain being claimed uncovers cards. During a destruction, a card from nowhere in a river or on the pile may
    be one of them, claimed.
    """
    found: list[Event] = _swept_cards(game, evidence)
    destroying = (game.destroying,) if game.phase is Phase.CLAIM else (0, 1)
    for zone, cards in arrivals(game, evidence).items():
        ref = zones.parse_zone(zone)
        if ref.kind == "mountain" and ref.mandala is not None:
            mandalas: tuple[int | None, ...] = (ref.mandala,)
        elif ref.kind in ("river", "discard") and game.phase in (Phase.PLAY, Phase.CLAIM):
            mandalas = destroying  # claimed out of the mountain before anyone could read it there
        else:
            continue
        for mandala in mandalas:
            if mandala is None or not game.hidden[mountain_zone(mandala)]:
                continue
            claimed = claims_made(game) if mandala == game.destroying else {}
            for card in cards:
                claimer = claimed.get(COLOR_OF[parse_card(card)])
                if claimer is not None:
                    # A claim took every card of its color: this one lay unread under another and goes with it.
                    if ref.kind == "mountain":
                        with suppress(PositionError):
                            found.append(Resync(_claimed_unread(game, parse_card(card), mandala, claimer).text()))
                    continue
                new_play = evidence.laid_at.get(card, 0.0) > evidence.rest_time and zone not in evidence.uncovering \
                    and card not in evidence.shaken
                if ref.kind == "mountain" and new_play and not (mandala == game.destroying and claimed):
                    continue  # only a claim uncovers a mountain card: before the first, a new card was laid
                if COLOR_OF[parse_card(card)] in {COLOR_OF[c] for p in (0, 1) for c in game.field(mandala, p)}:
                    continue  # a color in a field of the mandala is in none of its mountain's cards (the color rule)
                try:
                    found.append(Resync(identify(game, parse_card(card), mandala).text()))
                except PositionError:
                    continue  # the card cannot be that one (the table contradicts the game): no identification
    return found


def claims_made(game: Game) -> dict[int, int]:
    """The colors claimed so far in the destruction under way (its claims or its refill), and who claimed each.

    A claim takes every card of its color, the unread ones too: a card of a
    claimed color read in that mountain afterwards is one the claim took,
    still on its way to the cup (the claim is taken in grabs), never a card
    left for a second claim of that color.
    """
    if game.phase not in (Phase.CLAIM, Phase.REFILL) or game.destroying is None:
        return {}
    made: dict[int, int] = {}
    for event, _ in reversed(game.stack):
        if isinstance(event, Claim):
            made.setdefault(event.color, event.player)
        elif not isinstance(event, Resync):
            break  # the play that completed the mandala
    return made


def being_grabbed(game: Game, card: Card, zone: str) -> bool:
    """A card seen in the mountain being destroyed that a claim made already took: the rest of its grabs."""
    mandala = game.destroying
    return mandala is not None and zone == zones.mountain(mandala) and game.location(card) != UNSEEN \
        and COLOR_OF[card] in claims_made(game)


def _claimed_unread(game: Game, card: Card, mandala: int, claimer: int) -> Game:
    """The game once ``card``, read in the mountain after its color was claimed, is known as one of the
    mountain's unread cards that the claim took into the claimer's cup."""
    position = position_of(game)
    unseen = list(position.unseen_mountains)
    if unseen[mandala] < 1 or game.location(card) != UNSEEN:
        raise PositionError(f"{card_name(card)} cannot be an unseen card of m{mandala + 1}'s mountain")
    unseen[mandala] -= 1
    cups = [list(cup) for cup in position.cups]
    cups[claimer].append(card)
    sizes = list(position.cup_sizes or (game.cup_size(0), game.cup_size(1)))
    sizes[claimer] += 1
    return build(replace(position, unseen_mountains=(unseen[0], unseen[1]), cups=(tuple(cups[0]), tuple(cups[1])),
                         cup_sizes=(sizes[0], sizes[1])))


def _swept_cards(game: Game, evidence: Evidence) -> list[Event]:
    """A card from nowhere landing on the pile with the swept fields: one of their cards nobody had read."""
    since = evidence.swept_since
    if since is None or not game.hidden[DISCARD]:
        return _swept_uncounted(game, evidence)
    found: list[Event] = []
    for card in arrivals(game, evidence).get(zones.DISCARD_ZONE, []):
        laid = evidence.laid_at.get(card)
        if laid is None or not since <= laid <= since + SWEEP_S:
            continue
        try:
            found.append(Resync(identify_on_pile(game, parse_card(card)).text()))
        except PositionError:
            continue
    return found


SWEPT_EARLY_S = 3.0
"""A field card may land on the pile this long before the tracker saw the last claim made (grabs overlap)."""


def _swept_uncounted(game: Game, evidence: Evidence) -> list[Event]:
    """A card landing on the pile with the swept fields, of a color one of them held: a card of that player's
    field play nobody read (under the next card of the fan), which the play never counted: it came from the
    player's hand. Not a discard by the player to move (which only comes after the refill)."""
    since, colors = evidence.swept_at, evidence.swept_colors
    last = _last_event(game)
    if game.phase is Phase.REFILL and isinstance(last, Claim):
        # The claims may be done within this look (the last one with the sweep): its fields from before it.
        before = game.copy()
        before.pop()
        done = _when(before, last, evidence)
        if before.destroying is not None and done is not None and (since is None or since < done):
            since = done
            colors = {COLOR_OF[c]: p for p in (0, 1) for c in before.field(before.destroying, p)}
    if since is None or game.phase not in (Phase.CLAIM, Phase.REFILL) or game.destroying is None:
        return []  # the fields are swept before the refill: after it, a card on the pile is a discard
    found: list[Event] = []
    laid_in = arrivals(game, evidence)
    refilled = [evidence.laid_at[c] for c in laid_in.get(zones.mountain(game.destroying), []) if c in evidence.laid_at]
    for card in laid_in.get(zones.DISCARD_ZONE, []):
        laid = evidence.laid_at.get(card)
        player = colors.get(COLOR_OF[parse_card(card)])
        if laid is None or player is None or not since - SWEPT_EARLY_S <= laid <= since + SWEEP_S or any(
                at < laid for at in refilled):
            continue
        position = position_of(game)
        hands = list(position.hands)
        hands[player] -= 1
        try:
            counted = build(replace(position, hands=(hands[0], hands[1]),
                                    discard=(*position.discard, parse_card(card))))
        except PositionError:
            continue
        found.append(Correction(counted.text(), IDENTIFY))
    return found


def arrivals(game: Game, evidence: Evidence) -> dict[str, list[str]]:
    """Cards the state has hidden (hands, deck) seen or glimpsed in a zone, by zone, in the order laid."""
    found: dict[str, list[str]] = {}
    for source in (evidence.seen, evidence.glimpses):
        for card, zone in source.items():
            if game.location(parse_card(card)) == UNSEEN and evidence.stale.get(card) != zone:
                found.setdefault(zone, []).append(card)
    pile = zones.DISCARD_ZONE
    for card in sorted(evidence.reread):
        if game.location(parse_card(card)) == UNSEEN and evidence.seen.get(card, pile) == pile \
                and card not in found.get(pile, []):
            found.setdefault(pile, []).append(card)
    for cards in found.values():
        cards.sort(key=lambda c: (evidence.laid_at.get(c, 0.0), c))
    return found


def _plays(game: Game, evidence: Evidence) -> list[Event]:
    player = game.turn
    events: list[tuple[float, Event]] = []
    for zone, cards in arrivals(game, evidence).items():
        ref = zones.parse_zone(zone)
        ids = [parse_card(c) for c in cards]
        when = min(evidence.laid_at.get(c, 0.0) for c in cards)
        if ref.kind == "mountain" and ref.mandala is not None:
            events += [(evidence.laid_at.get(card_name(group[0]), 0.0), MountainPlay(player, ref.mandala, group))
                       for group in _gestures(ids, evidence)]
        elif ref.kind == "field" and ref.mandala is not None and ref.player == player:
            events += [(when, FieldPlay(player, ref.mandala, group, field=ref.player))
                       for group in _plays_of(ids, evidence)]
        elif ref.kind == "discard":
            events += [(when, Discard(player, group)) for group in _plays_of(ids, evidence)]
        elif ref.kind == "river" and len(ids) == 1:
            # A card from a hand never goes to a river directly: it completed a mandala and was claimed.
            events += [(when, MountainPlay(player, mandala, (ids[0],))) for mandala in (0, 1)]
    events.sort(key=lambda pair: pair[0])
    return [event for _, event in events]


def _unseen_discard(game: Game, evidence: Evidence) -> list[Event]:
    """The pile picked up while the deck is out: the player to move drew, so their turn ended with a discard
    nobody saw (dropped on the pile under a hand, shuffled with it into the new deck at once). Nothing else
    draws from an empty deck but a build, whose card would lie in a mountain, in sight."""
    if not evidence.pile_taken or not game.deck_ran_out or game.deck_size or not game.hand_size(game.turn):
        return []
    return [Discard(game.turn, (), unseen=1)]


def _gestures(cards: list[Card], evidence: Evidence) -> list[tuple[Card, ...]]:
    """Cards laid in one instant go together (a mountain takes one card: two at once is one illegal play)."""
    groups: list[list[Card]] = []
    last: float | None = None
    for card in cards:  # in the order laid
        when = evidence.laid_at.get(card_name(card))
        if groups and when is not None and last is not None and when - last < GESTURE_S:
            groups[-1].append(card)
        else:
            groups.append([card])
        last = when
    return [tuple(group) for group in groups]


def _plays_of(cards: list[Card], evidence: Evidence) -> list[tuple[Card, ...]]:
    """The plays cards arrived in a field or on the pile may be: one per color, unless one hand laid mixed colors.

    Cards of several colors laid in one instant are one (illegal) play, never
    split into two players' plays.
    """
    gestures = _gestures(cards, evidence)
    if any(len({COLOR_OF[c] for c in gesture}) > 1 for gesture in gestures):
        return gestures
    return _by_color(cards)


def _by_color(cards: list[Card]) -> list[tuple[Card, ...]]:
    groups: dict[int, list[Card]] = {}
    for card in cards:
        groups.setdefault(COLOR_OF[card], []).append(card)
    return [tuple(group) for group in groups.values()]


@dataclass(frozen=True, slots=True)
class Correction(Resync):
    """A resync the search proposes on evidence: what it costs the explanation that uses it."""

    cost: float = IDENTIFY
    stand_ins: tuple[str, ...] = ()
    """Cards it names by their color only (:mod:`companion.tracker.standins`)."""


def _unnoticed_completions(game: Game, evidence: Evidence) -> list[Event]:
    """A mandala with unread mountain cards whose cards are being claimed: one of them completed it.

    Five colors are known; claimed cards (in a river, on the pile, gone for
    good) show the players found the sixth under another card.
    """
    found: list[Event] = []
    for mandala in (0, 1):
        mountain = zones.mountain(mandala)
        if not game.hidden[mountain_zone(mandala)] or len(colors_in(game.mandala_colors(mandala))) < 5:
            continue
        names = [card_name(c) for c in game.mountain(mandala)]
        # Mountain cards only leave in a destruction: one out of sight with nothing in sight that could lie
        # over it was claimed (a cup, the pile), however many claims followed.
        claimed = any(zones.parse_zone(evidence.seen[n]).kind in ("river", "discard") for n in names
                      if n in evidence.seen) or any(evidence.gone.get(n) == mountain or n in evidence.left_alone
                                                    for n in names)
        if not claimed:
            continue
        missing = [c for c in COLORS if not game.mandala_colors(mandala) >> c & 1]
        if len(missing) == 1:
            # The sixth color lay there unread: name a card of it, so that its claim can be followed.
            named = _naming(game, mandala, missing[0], evidence, EVENT)
            if named is not None:
                found.append(named)
                continue
        completer = _last_player_into(game, mandala)
        ones, twos = (game.size(field_zone(mandala, p)) for p in (0, 1))
        picker = 1 - completer if ones == twos else (0 if ones > twos else 1)
        try:
            complete = build(replace(position_of(game), phase=Phase.CLAIM, destroying=mandala,
                                     completer=completer, turn=picker))
        except PositionError:
            continue
        found.append(Correction(complete.text(), EVENT))
    return found


def _unread_colors(game: Game, evidence: Evidence) -> list[Event]:
    """A mountain card nobody read, of a color no read card of the mountain has: the picker may claim it.

    A claim takes every card of one color, so a color still in sight in the
    mountain cannot be the unread card's. The claim shows only by what follows
    (the other player picks next): the card went where nobody sees it, into
    the picker's cup (its color is in their river) or onto the pile (their
    field is empty). A color the picker's river lacks would put the card in the
    river, in sight: read there, it is identified instead (:func:`_identifications`).
    """
    mandala = game.destroying
    if mandala is None or not game.hidden[mountain_zone(mandala)]:
        return []
    picker = game.turn
    in_mountain = {COLOR_OF[c] for c in game.mountain(mandala)}
    in_river = {COLOR_OF[c] for c in game.river(picker)}
    to_pile = not game.field(mandala, picker)
    found: list[Event] = []
    claimed = claims_made(game)
    for color in COLORS:
        if color in in_mountain or color in claimed or not (to_pile or color in in_river):
            continue
        named = _naming(game, mandala, color, evidence, STAND_IN)
        if named is not None:
            found.append(named)
    return found


def _naming(game: Game, mandala: int, color: int, evidence: Evidence, cost: float) -> Correction | None:
    """One unread card of a mountain named as a stand-in card of ``color`` (none in sight)."""
    card = stand_in(game, color, {*evidence.seen, *evidence.glimpses})
    if card is None:
        return None
    try:
        named = identify(game, card, mandala)
    except PositionError:
        return None
    return Correction(named.text(), cost, (card_name(card),))


def _picker_recounts(game: Game, evidence: Evidence) -> list[Event]:
    """At the first pick, the other player picks: a field card under another went unread (fields decide).

    One unread card in the other player's field of the destroyed mandala
    must be enough to make them the first picker, and a card read there must
    be able to lie over it (a card alone in a field is in sight).
    """
    mandala = game.destroying
    if mandala is None or isinstance(_last_event(game), Claim) or game.completer is None:
        return []
    other = 1 - game.turn
    if not game.field(mandala, other):
        return []
    mine, theirs = game.size(field_zone(mandala, game.turn)), game.size(field_zone(mandala, other))
    needed = mine - theirs + (0 if 1 - game.completer == other else 1)
    if needed != 1:
        return []
    position = position_of(game)
    fields = [list(pair) for pair in position.unseen_fields]
    fields[mandala][other] += needed
    hands = list(position.hands)
    if hands[other] < needed:
        return []
    hands[other] -= needed
    try:
        recounted = build(replace(position, unseen_fields=((fields[0][0], fields[0][1]), (fields[1][0], fields[1][1])),
                                  hands=(hands[0], hands[1]), turn=other))
    except PositionError:
        return []
    return [Correction(recounted.text(), RECOUNT)]


def _last_player_into(game: Game, mandala: int) -> int:
    for event, _ in reversed(game.stack):
        if isinstance(event, MountainPlay | FieldPlay) and event.mandala == mandala:
            return event.player
    return 1 - game.turn


def _claims(game: Game, evidence: Evidence) -> list[Event]:
    """A claim of each mountain color none of whose cards is still seen in the mountain."""
    mandala = game.destroying
    assert mandala is not None
    picker = game.turn
    mountain = zones.mountain(mandala)
    events: list[Event] = []
    by_color: dict[int, list[Card]] = {}
    for card in game.mountain(mandala):
        by_color.setdefault(COLOR_OF[card], []).append(card)
    next_space = zones.river(picker, len(game.river(picker)) + 1)
    for color, cards in sorted(by_color.items()):
        names = [card_name(c) for c in cards]
        in_river = [c for c, n in zip(cards, names, strict=True)
                    if zones.parse_zone(evidence.seen.get(n, mountain)).kind == "river"
                    and zones.parse_zone(evidence.seen[n]).player == picker]
        # A claim taken in grabs: its card laid in the picker's next river space shows it, the rest of the color
        # still in the mountain (they go with it).
        if any(evidence.seen.get(n) == mountain for n in names) and not any(
                evidence.seen.get(card_name(c)) == next_space for c in in_river):
            continue
        events.append(Claim(picker, color, in_river[0] if in_river else None))
    return events


def _refills(game: Game, evidence: Evidence) -> list[Event]:
    mandala = game.destroying
    assert mandala is not None
    laid = arrivals(game, evidence).get(zones.mountain(mandala), [])
    need = game.refill_count()
    ids = [parse_card(c) for c in laid]
    if len(ids) >= need:
        return [Refill(mandala, pair) for pair in list(combinations(ids, need))[:6]]
    if ids and evidence.unseen_refill:
        return [Refill(mandala, tuple(ids), unseen=need - len(ids))]
    return []
