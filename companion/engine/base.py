"""What the game of every ruleset shares: zones, push and pop, validation by method, the text form.

A ruleset is a subclass of :class:`BaseGame`, as a chess variant is a
subclass of ``chess.Board``: it names its rules value (``rules``), its event
types and, for each, a ``_check_<kind>`` and an ``_apply_<kind>`` method.
Events are dispatched to those methods through tables built per class when
the class is made, so a subclass that overrides a rule's method is the one
called (a table of plain functions would keep calling the parent's).

**Zones.** Every place a card can be is a numbered zone (``rules.zones``)
holding the cards whose identity is known, in order (``known``), plus a
count of cards that are there but unseen (``hidden``). ``loc`` gives each
known card's zone; a card whose place is unknown is at :attr:`BaseGame.UNSEEN`
and may be in any zone with unseen cards. With full information nothing is
unseen. Cards move only through the primitives here, so that each move is
written to an undo log.

**Undo.** :meth:`BaseGame.push` marks the log with the few scalar fields
(phase, turn...); :meth:`BaseGame.pop` undoes the log back to the mark and
restores them, so undoing costs what the event cost, not what the game
did before it. Derived data (color masks, the hands' cards by color) is
rebuilt from the zones.

**Hands by color.** Every decision of either ruleset asks which colors the
hand to play from holds and then which of its cards have the chosen color.
So the move primitives keep each hand's known cards also by color
(``hand_groups``, in hand order) and the hand's colors as a mask
(``hand_colors``): neither the legal-action generator nor random play scans
a hand.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib import import_module
from itertools import compress
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, cast

from companion.engine.cards import COLOR_BIT, COLOR_OF, GOLD, Card, Player, card_name, colors_mask, player_title
from companion.engine.rules import Rules
from companion.engine.violations import Reason, Violation
from companion.errors import IllegalEventError, InvalidEventError, InvalidStateTextError, PositionError
from companion.vocab import zones as zone_names

if TYPE_CHECKING:
    from companion.engine.record import Record

SetupT = TypeVar("SetupT")
_Handlers = tuple[Callable[[Any, Any], "Violation | None"], Callable[[Any, Any], None]]
EventT = TypeVar("EventT")
GameT = TypeVar("GameT", bound="BaseGame[Any, Any]")

# Undo log entries: tuples led by one of these.
_MOVE = 0          # (_MOVE, card, from_zone, index_there, to_zone)
_MOVE_UNSEEN = 1   # (_MOVE_UNSEEN, card, from_zone, to_zone): an unseen card became known in to_zone
_SHIFT = 2         # (_SHIFT, from_zone, to_zone, count): unseen cards moved
_EMPTY = 3         # (_EMPTY, zone, to_zone, cards, to_zone_length_before): a zone's known cards moved
_UNSEE = 4         # (_UNSEE, zone, cards): a zone's known cards became unseen
_SPLIT = 5         # (_SPLIT, zone, cards, targets): a zone's known cards each moved to its target
_JUMP = 6          # (_JUMP, snapshot): the whole position was replaced; the snapshot is the one before
_FRAME = 7         # (_FRAME, scalars): where an event starts, with the scalar fields before it
_MOVES = 8         # (_MOVES, cards, from_zone, indexes_there, to_zone): _MOVE of each card in turn

# What a move into or out of a location must keep up to date, by location (``BaseGame._role``):
# a masked zone's index in ``masks`` (0 and up), or one of these.
_PLAIN = -1        # nothing
_HAND_ROLES = (-2, -3)  # each player's hand: its cards by color (the player is _HAND_ROLES[0] - role)
_UNSEEN_ROLE = -4  # UNSEEN: the card is one of some zone's unseen cards


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A whole position: every zone, and the ruleset's scalar fields in the order of ``SCALARS``."""

    known: tuple[tuple[Card, ...], ...]
    hidden: tuple[int, ...]
    loc: tuple[int, ...]
    scalars: tuple[object, ...]


class BaseGame(Generic[SetupT, EventT]):
    """A game of some ruleset in progress; the ruleset's class says which."""

    rules: ClassVar[Rules]
    ZONE_COUNT: ClassVar[int]
    """How many zones (``rules.zones``); this and the zones below are derived from the rules' zone names."""
    UNSEEN: ClassVar[int]
    """Location of a card whose zone is unknown (one past the last zone)."""
    HANDS: ClassVar[tuple[int, int]]
    """Each player's hand zone."""
    DECK: ClassVar[int]
    DISCARD: ClassVar[int]
    MASKED: ClassVar[tuple[int, ...]] = ()
    """The zones whose colors the rules look at: ``masks[i]`` holds the colors in ``MASKED[i]``."""
    EVENT_KINDS: ClassVar[dict[type, str]] = {}
    """Each event type and the suffix of its ``_check_``/``_apply_`` methods."""
    AFTER_END: ClassVar[frozenset[type]] = frozenset()
    """Event types still legal once the game is over."""
    OVER: ClassVar[Any]
    """The ruleset's phase of a finished game."""
    SCALARS: ClassVar[tuple[str, ...]] = ()
    """The state beyond the zones, saved by push and restored by pop, in :class:`Snapshot` order."""
    RECORD_FORM: ClassVar[str]
    """The module of the ruleset's record lines: its ``parse_header``, ``parse_event``, ``header_json``
    and ``ruleset_table_record`` serve the methods of the same names (imported when first used: it
    imports the game's module)."""
    TEXT_FORM: ClassVar[str]
    """The module of the ruleset's text form: ``state_text`` and ``parse_state_text``."""
    DEFAULTS: ClassVar[dict[str, object]] = {}
    """Each scalar field's value in a position that does not give it (:meth:`from_zones`)."""
    _handlers: ClassVar[dict[type, tuple[Callable[[Any, Any], Violation | None], Callable[[Any, Any], None]]]] = {}
    """Each event type's check and apply functions, resolved on the class."""
    _appliers: ClassVar[dict[type, Callable[[Any, Any], None]]] = {}
    """Each event type's apply function (``_handlers``' second half: what :meth:`push_legal` calls)."""
    phase: Any
    """Where the game is (the ruleset's ``Phase``); the first of ``SCALARS``."""
    turn: Player
    """The player to act; the second of ``SCALARS``."""
    _get_scalars: ClassVar[Callable[[Any], tuple[object, ...]]]
    _mask_index: ClassVar[tuple[int, ...]]
    """For each location (zones, then UNSEEN): its index in ``masks``, or -1."""
    _hand_of: ClassVar[tuple[int, ...]]
    """For each location (zones, then UNSEEN): the player whose hand it is, or -1."""
    _role: ClassVar[tuple[int, ...]]
    """For each location (zones, then UNSEEN): what a move there keeps up, as one table for the hot
    paths (``_mask_index`` where it is 0 or more, else ``_PLAIN``, ``_HAND_ROLES[player]`` or
    ``_UNSEEN_ROLE``)."""

    __slots__ = ("_log", "base", "hand_colors", "hand_groups", "hidden", "known", "loc", "masks", "stack")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        rules = cls.rules
        cls.ZONE_COUNT = cls.UNSEEN = len(rules.zones)
        cls.HANDS = rules.player_zones("hand")
        cls.DECK, cls.DISCARD = rules.zone(zone_names.DECK), rules.zone(zone_names.DISCARD)
        # Resolved on this class, so a subclass's override of a rule is the one dispatched to.
        cls._handlers = {kind: (getattr(cls, f"_check_{name}"), getattr(cls, f"_apply_{name}"))
                         for kind, name in cls.EVENT_KINDS.items()}
        cls._appliers = {kind: apply for kind, (_, apply) in cls._handlers.items()}
        if cls.SCALARS[:2] != ("phase", "turn"):
            raise TypeError(f"{cls.__name__}.SCALARS must start with the phase and the turn")
        cls._get_scalars = attrgetter(*cls.SCALARS)
        cls._mask_index = tuple(cls.MASKED.index(z) if z in cls.MASKED else -1 for z in range(cls.ZONE_COUNT + 1))
        cls._hand_of = tuple(cls.HANDS.index(z) if z in cls.HANDS else -1 for z in range(cls.ZONE_COUNT + 1))
        if any(cls._mask_index[z] >= 0 for z in cls.HANDS):
            raise TypeError(f"{cls.__name__}: a hand is not a masked zone (its colors are kept by color)")
        cls._role = (*(cls._mask_index[z] if cls._mask_index[z] >= 0 else _HAND_ROLES[cls._hand_of[z]]
                       if cls._hand_of[z] >= 0 else _PLAIN for z in range(cls.ZONE_COUNT)), _UNSEEN_ROLE)

    def __init__(self, setup: SetupT) -> None:
        self._start()
        self.known: list[list[Card]] = [[] for _ in range(self.ZONE_COUNT)]
        self.hidden = [0] * self.ZONE_COUNT
        self.loc = [self.UNSEEN] * len(self.rules.cards)
        self._deal(setup)
        self._derive()
        self.base = self._snapshot()
        """The position before the first event: what a record's header says."""

    def _start(self) -> None:
        self.stack: list[tuple[EventT, bool]] = []
        """Pushed events and whether each was forced past the rules."""
        self._log: list[tuple[Any, ...]] = []
        """Undo entries, each event's led by a ``_FRAME`` entry."""

    # -- what a ruleset provides ----------------------------------------------

    def _deal(self, setup: SetupT) -> None:
        """Lay out the setup (with :meth:`_place`) and set the scalar fields."""
        raise NotImplementedError

    def _deal_rest(self) -> None:
        """Once the setup is laid: every card not dealt is in the deck, known unless something is unseen."""
        if any(self.hidden):
            self.hidden[self.DECK] = len(self.rules.cards) - sum(map(len, self.known)) - sum(self.hidden)
        else:
            loc, deck = self.loc, self.DECK
            # The cards still at UNSEEN, in card order (cards are numbered 0 up: loc's indexes), without a loop.
            rest = list(compress(self.rules.cards, map(self.UNSEEN.__eq__, loc)))
            self.known[deck].extend(rest)
            to_deck = [*range(self.ZONE_COUNT), deck]  # by location: itself, and UNSEEN the deck
            loc[:] = map(to_deck.__getitem__, loc)

    def _derive(self) -> None:
        """Rebuild derived data from the zones, after a restore or an undo (a ruleset may add its own)."""
        self.masks = [0] * len(self.MASKED)
        """The colors in each zone of ``MASKED``, as bit masks (bit ``color``)."""
        for zone in self.MASKED:
            self._recompute_mask(zone)
        self.hand_groups: list[list[list[Card]]] = [[], []]
        """Each player's known hand cards by color (``hand_groups[player][color]``, gold too), in hand order."""
        self.hand_colors = [0, 0]
        """The colors of each player's known hand cards, as bit masks."""
        for player in (0, 1):
            self._derive_hand(player)

    def _derive_hand(self, player: Player) -> None:
        cards = self.known[self.HANDS[player]]
        groups: list[list[Card]] = [[] for _ in range(GOLD + 1)]
        for card in cards:
            groups[COLOR_OF[card]].append(card)
        self.hand_groups[player] = groups
        self.hand_colors[player] = colors_mask(cards)

    def _recompute_mask(self, zone: int) -> None:
        self.masks[self._mask_index[zone]] = colors_mask(self.known[zone])

    def legal_actions(self) -> Iterator[EventT]:
        """Every legal decision of the player to act (the chance part of draws left open)."""
        raise NotImplementedError

    @property
    def is_over(self) -> bool:
        return self.phase is self.OVER

    def summary(self) -> dict[str, Any]:
        """The ``final`` object of ``companion engine replay --json`` for this ruleset."""
        raise NotImplementedError

    # -- records and text form (each ruleset's own modules do the work) --------

    def text(self) -> str:
        """The one-line text form of the position (it parses back with :meth:`from_text`)."""
        return cast(str, _forms(self.TEXT_FORM).state_text(self))

    @classmethod
    def parse_header(cls, data: dict[str, Any]) -> tuple[SetupT, bool]:
        """A record header (decoded JSON) as the deal, and whether the record is in table mode."""
        return cast("tuple[SetupT, bool]", _forms(cls.RECORD_FORM).parse_header(data))

    @classmethod
    def parse_event(cls, data: dict[str, Any], table: bool = False) -> EventT:
        """One record line (decoded JSON) as an event of this ruleset."""
        return cast(EventT, _forms(cls.RECORD_FORM).parse_event(data, table))

    @classmethod
    def header_json(cls, setup: SetupT, table: bool = False) -> dict[str, Any]:
        """The record header for a deal (``"mode": "table"`` when ``table``)."""
        return cast("dict[str, Any]", _forms(cls.RECORD_FORM).header_json(setup, table))

    def setup(self) -> SetupT:
        """The deal, recovered from the base state (what the record's header says)."""
        raise NotImplementedError

    def table_record(self) -> Record[SetupT, EventT]:
        """What a camera companion can know of this full-information game, as a record."""
        return cast("Record[SetupT, EventT]", _forms(self.RECORD_FORM).ruleset_table_record(self))

    # -- queries ----------------------------------------------------------------

    def size(self, zone: int) -> int:
        return len(self.known[zone]) + self.hidden[zone]

    def hand_size(self, player: Player) -> int:
        return self.size(self.HANDS[player])

    def hand(self, player: Player) -> tuple[Card, ...]:
        """The known cards in a player's hand (all of it with full information)."""
        return tuple(self.known[self.HANDS[player]])

    @property
    def deck_size(self) -> int:
        return len(self.known[self.DECK]) + self.hidden[self.DECK]

    @property
    def discard_size(self) -> int:
        return self.size(self.DISCARD)

    def location(self, card: Card) -> int:
        return self.loc[card]

    @property
    def is_full_information(self) -> bool:
        return not any(self.hidden)

    def describe_zone(self, zone: int) -> str:
        """How a message names a zone: ``"in player 1's hand"``."""
        return f"in {self.rules.zones[zone]}"

    def describe_location(self, card: Card) -> str:
        where = self.loc[card]
        return "not known to be anywhere" if where == self.UNSEEN else self.describe_zone(where)

    # -- legality and moving the game on ---------------------------------------

    def validate(self, event: EventT) -> Violation | None:
        """The first rule the event breaks, in the ruleset's order, or ``None``."""
        check, _ = self._handlers.get(type(event)) or self._handlers_by_subclass(event)
        return self._judge(event, check)

    def _handlers_by_subclass(self, event: object) -> _Handlers:
        """The handlers of the event type ``event`` is a subclass of (a caller's own kind of resync), or raise."""
        for kind, handlers in self._handlers.items():
            if isinstance(event, kind):
                return handlers
        raise InvalidEventError(f"not an event of the {self.rules.name} ruleset: {event!r}")

    def _judge(self, event: EventT, check: Callable[[Any, Any], Violation | None]) -> Violation | None:
        if self.phase is self.OVER and type(event) not in self.AFTER_END:
            return Violation(Reason.GAME_OVER, "The game is over.")
        return check(self, event)

    def _check_in_hand(self, player: Player, cards: tuple[Card, ...]) -> Violation | None:
        """Each card must be in the player's hand, or may be one of its unseen cards."""
        hand = self.HANDS[player]
        unseen = self.hidden[hand]
        if len(cards) == 1 and (self.loc[cards[0]] == hand or (unseen and self.loc[cards[0]] == self.UNSEEN)):
            return None  # the common case, without the bookkeeping below
        seen: set[Card] = set()
        for card in cards:
            where = self.loc[card]
            if card in seen:
                problem = "it is named twice"
            elif where == hand:
                problem = ""
            elif where == self.UNSEEN and unseen > 0:
                unseen -= 1
                problem = ""
            else:
                problem = f"it is {self.describe_location(card)}"
            if problem:
                return Violation(Reason.CARD_NOT_IN_HAND,
                                 f"{card_name(card)} is not in {player_title(player)}'s hand: {problem}.")
            seen.add(card)
        return None

    def is_legal(self, event: EventT) -> bool:
        return self.validate(event) is None

    def push(self, event: EventT, force: bool = False) -> None:
        """Play an event. Illegal ones raise :class:`IllegalEventError` unless ``force``.

        A forced event (a player's override at the table) is applied as far
        as it makes sense: cards move from wherever they really are.
        """
        check, apply = self._handlers.get(type(event)) or self._handlers_by_subclass(event)
        if not force:
            violation = self._judge(event, check)
            if violation is not None:
                raise IllegalEventError(violation)
        self._log.append((_FRAME, type(self)._get_scalars(self)))
        apply(self, event)
        self.stack.append((event, force))

    def push_legal(self, event: EventT) -> None:
        """Play an event known to be legal, without validating it again.

        For the events the game's own generator made from this very position
        (random play: :func:`~companion.engine.deal.play_random_game`); the
        tests check that every such event passes :meth:`validate`. Anything
        else goes through :meth:`push`.
        """
        self._log.append((_FRAME, type(self)._get_scalars(self)))
        self._appliers[type(event)](self, event)
        self.stack.append((event, False))

    def pop(self) -> EventT:
        """Undo the last event and return it; the state is exactly as before it."""
        if not self.stack:
            raise IndexError("pop from a game with no events")
        event, _ = self.stack.pop()
        log = self._log
        entry = log.pop()
        while entry[0] != _FRAME:
            self._undo(entry)
            entry = log.pop()
        self._set_scalars(entry[1])
        self._derive()
        return event

    def copy(self: GameT) -> GameT:
        """An independent game of the same ruleset with the same state and history (it can pop too)."""
        twin = type(self).__new__(type(self))
        twin._restore(self._snapshot())
        twin.base = self.base
        twin.stack = list(self.stack)
        twin._log = list(self._log)  # entries are immutable, and the lists they hold are never live
        return twin

    # -- positions --------------------------------------------------------------

    def _snapshot(self) -> Snapshot:
        return Snapshot(tuple(tuple(z) for z in self.known), tuple(self.hidden), tuple(self.loc),
                        type(self)._get_scalars(self))

    def _restore(self, snap: Snapshot) -> None:
        self.known = [list(z) for z in snap.known]
        self.hidden = list(snap.hidden)
        self.loc = list(snap.loc)
        self._set_scalars(snap.scalars)
        self._derive()

    def _set_scalars(self, values: tuple[object, ...]) -> None:
        for name, value in zip(self.SCALARS, values, strict=True):
            setattr(self, name, value)

    @classmethod
    def from_snapshot(cls: type[GameT], snap: Snapshot) -> GameT:
        """A game starting from a given position, with no history."""
        game = cls.__new__(cls)
        game._start()
        game._restore(snap)
        game.base = snap
        return game

    @classmethod
    def from_position(cls: type[GameT], known: Sequence[Sequence[Card]], hidden: Sequence[int],
                      scalars: tuple[object, ...]) -> GameT:
        """A game starting from a position given zone by zone (``rules.zones`` order), with no history.

        Raises :class:`PositionError` unless every card of the ruleset
        is accounted for exactly once (known somewhere, or one of the unseen).
        """
        zones, cards = cls.rules.zones, cls.rules.cards
        if len(known) != len(zones) or len(hidden) != len(zones):
            raise PositionError(f"a {cls.rules.name} position has {len(zones)} zones")
        if len(scalars) != len(cls.SCALARS):
            raise PositionError(f"a {cls.rules.name} position has {len(cls.SCALARS)} scalar fields")
        loc = [cls.UNSEEN] * len(cards)
        for zone, zone_cards in enumerate(known):
            for card in zone_cards:
                if not 0 <= card < len(cards):
                    raise PositionError(f"card {card} is not in the {cls.rules.name} deck")
                if loc[card] != cls.UNSEEN:
                    raise PositionError(f"{card_name(card)} is in the position twice")
                loc[card] = zone
        if any(count < 0 for count in hidden):
            raise PositionError("a zone can't hold a negative number of unseen cards")
        total = sum(map(len, known)) + sum(hidden)
        if total != len(cards):
            raise PositionError(f"the position accounts for {total} cards, not {len(cards)}")
        return cls.from_snapshot(Snapshot(tuple(map(tuple, known)), tuple(hidden), tuple(loc), scalars))

    @classmethod
    def from_zones(cls: type[GameT], zones: Mapping[str, Sequence[Card] | int], **scalars: object) -> GameT:
        """A game starting from a position given by zone name (``rules.zones``), with no history.

        Each zone holds its known cards in order, or a count of unseen cards;
        zones not given are empty, except the deck, which then holds the rest,
        unseen (what a camera joining a game in progress knows). Scalar fields
        not given (``phase``, ``turn``... see ``SCALARS``) take ``DEFAULTS``.
        Raises :class:`PositionError` naming what does not add up.
        """
        names = cls.rules.zones
        unknown = sorted(set(zones) - set(names))
        if unknown or set(scalars) - set(cls.SCALARS):
            wrong = unknown or sorted(set(scalars) - set(cls.SCALARS))
            raise PositionError(f"unknown zone or field {wrong[0]!r} for a {cls.rules.name} position")
        known: list[list[Card]] = [[] for _ in names]
        hidden = [0] * len(names)
        for zone, name in enumerate(names):
            value = zones.get(name, ())
            if isinstance(value, int):
                hidden[zone] = value
            else:
                known[zone] = list(value)
        deck = names.index("deck")
        if "deck" not in zones:
            hidden[deck] = len(cls.rules.cards) - sum(map(len, known)) - sum(hidden)
        values = tuple(scalars.get(name, cls.DEFAULTS.get(name)) for name in cls.SCALARS)
        return cls.from_position(known, hidden, values)

    @classmethod
    def from_text(cls: type[GameT], line: str) -> GameT:
        """Parse any ruleset's text form (:meth:`text`): the tag it starts with names the ruleset."""
        from companion.engine.rulesets import ruleset_of_text

        game = ruleset_of_text(line).parse_text(line)
        if not isinstance(game, cls):
            raise InvalidStateTextError(f"a {game.rules.name} state text is not a {cls.rules.name} game")
        return game

    @classmethod
    def parse_text(cls: type[GameT], line: str) -> GameT:
        """Parse this ruleset's text form."""
        return cast(GameT, _forms(cls.TEXT_FORM).parse_state_text(line))

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.text()!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BaseGame) and type(other) is type(self) and self.text() == other.text()

    __hash__ = None  # type: ignore[assignment]  # mutable, like a list

    # -- moving cards (every move is logged for undo) ----------------------------

    def _place(self, card: Card, zone: int) -> None:
        """Lay a card while setting up (not undoable: the setup is the base state)."""
        self.known[zone].append(card)
        self.loc[card] = zone

    def _move(self, card: Card, zone: int, target: int) -> None:
        """Move a card to ``target`` from where it is; an unseen one from ``zone``'s unseen cards.

        A forced event may name a card that is somewhere else entirely: it is
        taken from where it really is, so every card stays accounted for.
        """
        loc, known, roles = self.loc, self.known, self._role
        where = loc[card]
        role = roles[where]
        if role == _UNSEEN_ROLE:
            hidden = self.hidden
            source = zone if hidden[zone] else next(z for z in range(self.ZONE_COUNT) if hidden[z])
            hidden[source] -= 1
            self._log.append((_MOVE_UNSEEN, card, source, target))
        else:
            cards = known[where]
            index = cards.index(card)
            del cards[index]
            self._log.append((_MOVE, card, where, index, target))
            if role >= 0:
                self.masks[role] = colors_mask(cards)
            elif role != _PLAIN:  # out of a hand: out of its color group (inline: every play does it)
                player = _HAND_ROLES[0] - role
                group = self.hand_groups[player][COLOR_OF[card]]
                group.remove(card)
                if not group:
                    self.hand_colors[player] &= ~COLOR_BIT[card]
        known[target].append(card)
        loc[card] = target
        role = roles[target]
        if role >= 0:
            self.masks[role] |= COLOR_BIT[card]
        elif role != _PLAIN:
            player = _HAND_ROLES[0] - role
            self.hand_groups[player][COLOR_OF[card]].append(card)
            self.hand_colors[player] |= COLOR_BIT[card]

    def _move_cards(self, cards: Sequence[Card], zone: int, target: int) -> None:
        """:meth:`_move` each card in turn; the common cases (known cards, no color mask to keep,
        a draw into a hand or a discard out of one) inline."""
        roles = self._role
        leaving, joining = roles[zone], roles[target]
        if leaving == _PLAIN and joining < _PLAIN:  # a draw into a hand
            player = _HAND_ROLES[0] - joining
        elif joining == _PLAIN and leaving < _PLAIN:  # a discard out of one
            player = _HAND_ROLES[0] - leaving
        else:
            for card in cards:
                self._move(card, zone, target)
            return
        loc, source, groups = self.loc, self.known[zone], self.hand_groups[player]
        first, colors = 0, self.hand_colors[player]  # cards[first:] are not logged yet
        indexes: list[int] = []
        for card in cards:
            if loc[card] != zone:  # a forced event's card from elsewhere: logged in turn, after those before it
                self._log_moves(cards, first, indexes, zone, target)
                first, indexes = first + len(indexes) + 1, []
                self.hand_colors[player] = colors
                self._move(card, zone, target)
                colors = self.hand_colors[player]
                continue
            if leaving == _PLAIN:
                # The deck is laid in card order, and the mountains deck only loses cards: it stays
                # sorted, and a binary search finds the card sooner than a scan. The hit is checked,
                # so an unsorted zone (a reshuffled deck) falls back to the scan.
                index = bisect_left(source, card)
                if index == len(source) or source[index] != card:
                    index = source.index(card)
                groups[COLOR_OF[card]].append(card)
                colors |= COLOR_BIT[card]
            else:
                index = source.index(card)
                group = groups[COLOR_OF[card]]
                group.remove(card)
                if not group:
                    colors &= ~COLOR_BIT[card]
            del source[index]
            indexes.append(index)
            loc[card] = target
        self.hand_colors[player] = colors
        if indexes:  # as _log_moves does it (tuple() of a tuple, an event's cards, is that tuple itself)
            moved = tuple(cards[first:]) if first else tuple(cards)
            self.known[target].extend(moved)
            self._log.append((_MOVES, moved, zone, indexes, target))

    def _log_moves(self, cards: Sequence[Card], first: int, indexes: list[int], zone: int, target: int) -> None:
        """Put ``cards[first:first + len(indexes)]`` into ``target`` and log their move as one entry."""
        if indexes:
            moved = tuple(cards[first:first + len(indexes)])
            self.known[target].extend(moved)
            self._log.append((_MOVES, moved, zone, indexes, target))

    def _move_unseen(self, zone: int, target: int, count: int) -> None:
        if count:
            self.hidden[zone] -= count
            self.hidden[target] += count
            self._log.append((_SHIFT, zone, target, count))

    def _empty_zone_to(self, zone: int, target: int) -> None:
        """Move everything in a zone, known and unseen, to ``target``."""
        cards = self.known[zone]
        if cards:
            self._log.append((_EMPTY, zone, target, cards, len(self.known[target])))
            self.known[zone] = []
            self.known[target].extend(cards)
            loc = self.loc
            for card in cards:
                loc[card] = target
            for changed in (zone, target):
                if self._mask_index[changed] >= 0:
                    self._recompute_mask(changed)
                elif self._hand_of[changed] >= 0:
                    self._derive_hand(self._hand_of[changed])
        self._move_unseen(zone, target, self.hidden[zone])

    def _split_zone(self, zone: int, targets: list[int]) -> None:
        """Move a zone's known cards, each to its own target (``targets[i]`` for the i-th card)."""
        cards = self.known[zone]
        if not cards:
            return
        self._log.append((_SPLIT, zone, cards, targets))
        self.known[zone] = []
        known, loc = self.known, self.loc
        for card, target in zip(cards, targets, strict=True):
            known[target].append(card)
            loc[card] = target
        for changed in {zone, *targets}:
            if self._mask_index[changed] >= 0:
                self._recompute_mask(changed)
            elif self._hand_of[changed] >= 0:
                self._derive_hand(self._hand_of[changed])

    def _unsee(self, zone: int) -> None:
        """The zone's known cards become unseen (which of them left it is not known)."""
        cards = self.known[zone]
        if cards:
            self._log.append((_UNSEE, zone, cards))
            self.known[zone] = []
            self.hidden[zone] += len(cards)
            loc, unseen = self.loc, self.UNSEEN
            for card in cards:
                loc[card] = unseen
            if self._hand_of[zone] >= 0:
                self._derive_hand(self._hand_of[zone])

    def _jump(self, snap: Snapshot) -> None:
        """Replace the whole position (a correction: the table's word), undoably like any move."""
        self._log.append((_JUMP, self._snapshot()))
        self._restore(snap)

    def _undo(self, entry: tuple[Any, ...]) -> None:
        kind, known, loc = entry[0], self.known, self.loc
        if kind == _MOVE:
            _, card, where, index, target = entry
            known[target].pop()
            known[where].insert(index, card)
            loc[card] = where
        elif kind == _MOVES:
            _, cards, where, indexes, target = entry
            back = known[where]
            del known[target][len(known[target]) - len(cards):]
            for card, index in zip(reversed(cards), reversed(indexes), strict=True):
                back.insert(index, card)
                loc[card] = where
        elif kind == _MOVE_UNSEEN:
            _, card, source, target = entry
            known[target].pop()
            self.hidden[source] += 1
            loc[card] = self.UNSEEN
        elif kind == _SHIFT:
            _, zone, target, count = entry
            self.hidden[zone] += count
            self.hidden[target] -= count
        elif kind == _EMPTY:
            _, zone, target, cards, length = entry
            del known[target][length:]
            known[zone] = list(cards)  # a copy: the logged list must never become live again
            for card in cards:
                loc[card] = zone
        elif kind == _JUMP:
            self._restore(entry[1])
        elif kind == _SPLIT:
            _, zone, cards, targets = entry
            for target in reversed(targets):
                known[target].pop()
            known[zone] = list(cards)
            for card in cards:
                loc[card] = zone
        else:
            _, zone, cards = entry
            known[zone] = list(cards)
            self.hidden[zone] -= len(cards)
            for card in cards:
                loc[card] = zone


def _forms(module: str) -> Any:
    """A ruleset's record or text-form module (imported here, not at the top: it imports the game)."""
    return import_module(module)
