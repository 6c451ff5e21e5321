"""What the phone view shows, as one JSON-able document built on the run loop's worker thread.

The page draws the tracker's display model (turn, what to draw, phase,
warnings with their fix, destruction, discard question, end of game: the
same values the OLED draws) and, beside it, what a phone has room for and
a 128x64 panel does not: both mandalas with their cards by color, both
rivers with the value of each space, what each cup is known to hold and
how many of its cards are unseen, the score broken down per river space,
what each mandala's colors are worth to each player, and the history of
the game in plain sentences.

:func:`table_view` only reads the tracker's state: the worker thread (which
owns the tracker) calls it, and the web server hands the result out as it
is (the server never touches the tracker).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict
from typing import Any

from companion.engine.cards import COLOR_LETTERS, COLOR_NAMES, COLOR_OF, Card, card_name
from companion.engine.game import CUPS, Game, Phase, field_zone, mountain_zone
from companion.engine.narrate import sentences as narrate
from companion.engine.record import summary
from companion.tracker.display import PLAYERS, DisplayModel, TableWarning
from companion.tracker.tracker import MOUNTAINS_EVENTS, TrackedEvent

# The OLED's vocabulary, imported here only, so a move of it (branch i15-reasons) is one line to change.
from companion.ui.i18n import LANGUAGES
from companion.ui.screens import warning_title as warning_title
from companion.ui.screens import warning_words

VIEW_FORMAT = "mandala-view/1"
MANDALA_NAMES = ("m1", "m2")


def table_view(model: DisplayModel, game: Game | None, game_id: int | None = None,
               history: list[dict[str, Any]] | None = None,
               warnings_seen: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The document ``GET /api/view`` returns and every Server-Sent Event carries.

    ``model`` is the display model the OLED draws; ``game`` the tracker's game
    (None before a deal); ``history`` the narrated events (:class:`History`);
    ``warnings_seen`` every warning raised in this game, oldest first.
    ``final`` is the engine's summary, the shape of ``games show --json``'s.
    """
    document: dict[str, Any] = {
        "format": VIEW_FORMAT,
        "game_id": game_id,
        "model": _model_json(model),
        "final": summary(game) if game is not None else None,
        "warnings_seen": warnings_seen if warnings_seen is not None else [],
        "colors": {letter: name for letter, name in zip(COLOR_LETTERS, COLOR_NAMES, strict=True)},
        "players": None,
        "mandalas": None,
        "history": history if history is not None else [],
    }
    if isinstance(game, Game):
        document["players"] = {name: _player(game, index) for index, name in enumerate(PLAYERS)}
        document["mandalas"] = {name: _mandala(game, index) for index, name in enumerate(MANDALA_NAMES)}
    return document


def _model_json(model: DisplayModel) -> dict[str, Any]:
    data = asdict(model)
    data["players"] = {name: data["players"][index] for index, name in enumerate(PLAYERS)}
    data["text"] = str(model)
    for warning, shown in zip(data["warnings"], model.warnings, strict=True):
        warning["title"] = warning_title(warning["reason"])
        warning["texts"] = warning_texts(shown)
    return data


def warning_texts(warning: TableWarning) -> dict[str, dict[str, str]]:
    """The warning worded in every language of the catalogs: the page shows the one it speaks.

    The page may speak another language than the OLED, and a warning's words
    are built from the registry's templates with translated colors and zones,
    which the page cannot assemble by itself as it does the history's.
    """
    texts = {}
    for language in LANGUAGES:
        words = warning_words(warning, language)
        what = warning.message if language == "en" else words.what  # the page has room for the full message
        texts[language] = {"title": words.title, "what": what, "fix": words.fix}
    return texts


def _by_color(cards: Iterable[Card]) -> dict[str, int]:
    counts = Counter(COLOR_LETTERS[COLOR_OF[card]] for card in cards)
    return {letter: counts[letter] for letter in COLOR_LETTERS if counts[letter]}


def _river_values(game: Game, player: int) -> dict[str, int]:
    """Color letter -> points per cup card: the number of the river space it lies in (rules: scoring)."""
    return {COLOR_LETTERS[COLOR_OF[card]]: space for space, card in enumerate(game.river(player), start=1)}


def _player(game: Game, player: int) -> dict[str, Any]:
    cup_zone = CUPS[player]
    cup = _by_color(game.known[cup_zone])
    score = game.score(player)
    spaces = []
    for space, card in enumerate(game.river(player), start=1):
        letter = COLOR_LETTERS[COLOR_OF[card]]
        spaces.append({"space": space, "card": card_name(card), "color": letter, "value": space,
                       "cup_cards": cup.get(letter, 0), "points": space * cup.get(letter, 0)})
    unscored = sum(count for letter, count in cup.items() if letter not in _river_values(game, player))
    return {
        "hand": game.hand_size(player),
        "river": spaces,
        "cup": {"known": cup, "unseen": game.hidden[cup_zone], "size": game.size(cup_zone),
                "unscored": unscored},
        "score": score.points,
    }


def _mandala(game: Game, mandala: int) -> dict[str, Any]:
    areas = {"mountain": game.known[mountain_zone(mandala)],
             "p1": game.known[field_zone(mandala, 0)], "p2": game.known[field_zone(mandala, 1)]}
    everything = [card for cards in areas.values() for card in cards]
    colors = _by_color(everything)
    worth = {}
    for index, name in enumerate(PLAYERS):
        values = _river_values(game, index)
        worth[name] = {letter: values.get(letter, 0) for letter in colors}
    return {
        "mountain": _by_color(areas["mountain"]),
        "fields": {"p1": _by_color(areas["p1"]), "p2": _by_color(areas["p2"])},
        "cards": {area: [card_name(card) for card in cards] for area, cards in areas.items()},
        "colors": colors,
        "worth": worth,
        "destroying": game.destroying == mandala and game.phase in (Phase.CLAIM, Phase.REFILL),
    }


class History:
    """The game's events as sentences a person at the table would say, kept up to date incrementally.

    The tracker keeps its events as a list that grows, and shrinks on an undo;
    sentences are narrated for new events only, from a copy of the game that
    follows the tracker's (the narration needs the state before and after).
    """

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self._events: list[TrackedEvent] = []
        self._lines: list[dict[str, Any]] = []
        self._before: Game | None = None
        self._after: Game | None = None
        self._setup: object = None

    def lines(self, game: Game | None, events: Sequence[TrackedEvent]) -> list[dict[str, Any]]:
        if not isinstance(game, Game):
            self.reset()  # a new table: start over
            return []
        setup = game.setup()
        same_start = setup == self._setup and list(events[:len(self._events)]) == self._events
        if not same_start:
            self._setup, self._events, self._lines = setup, [], []
            self._before, self._after = Game(setup), Game(setup)
        assert self._before is not None and self._after is not None
        for tracked in events[len(self._events):]:
            self._narrate(tracked, self._before, self._after)
        return list(self._lines)

    def _narrate(self, tracked: TrackedEvent, before: Game, after: Game) -> None:
        event = tracked.event
        if isinstance(event, MOUNTAINS_EVENTS):
            return  # the phone narrates the official game only (a mountains game shows no history)
        force = tracked.forced or not after.is_legal(event)  # as the tracker applied it
        after.push(event, force=force)
        sentences = narrate(event, before, after)
        before.push(event, force=force)
        self._events.append(tracked)
        # The page words the sentences in its language from the templates (the catalogs translate them).
        self._lines.append({"n": len(self._events), "frame": tracked.frame, "forced": tracked.forced,
                            "event": str(event), "text": " ".join(map(str, sentences)),
                            "sentences": [{"template": s.template, "values": s.values} for s in sentences]})
