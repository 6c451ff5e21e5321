"""A representative set of display models and ui states: one per screen and case.

Used by ``companion ui preview``, the golden-image tests and the redraw
benchmark, so all three look at the same pictures.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from companion.tracker.display import (
    Choice,
    Destruction,
    DiscardConfirm,
    DisplayModel,
    GameOver,
    JoinOffer,
    Notice,
    PlayerView,
    TableWarning,
)
from companion.ui.screens import CalibrationVerdict
from companion.ui.state import MENU_ITEMS, MenuItem, Page, UiState
from companion.vocab import zones
from companion.vocab.reasons import Reason, warning_id, warning_text


@dataclass(frozen=True, slots=True)
class Sample:
    name: str
    """File stem of the preview and reference PNGs."""
    caption: str
    """What a person should read from the screen, for docs/screens.md."""
    model: DisplayModel
    ui: UiState = field(default_factory=UiState)


MIDGAME = DisplayModel(
    phase="play", turn="p1", draw=2, deck=61,
    players=(PlayerView(hand=6, score=14, unknown_cup=2, river="ROY"),
             PlayerView(hand=7, score=9, unknown_cup=2, river="GK")),
)


def _warning(code: Reason, cards: tuple[str, ...], zone: str, frame: int, message: str,
             player: int | None = None) -> TableWarning:
    """A warning as the tracker makes it (:func:`companion.tracker.model.table_warning`)."""
    text = warning_text(code, cards, zone, player=player)
    return TableWarning(code, message, text.fix, id=warning_id(frame, code, cards), what=text.what, cards=cards,
                        zone=zone, player=player)


COLOR_RULE = _warning(Reason.COLOR_RULE, ("R04",), zones.field(0, 1), 812,
                      "Red can't go into player 2's field of mandala 1: red is already in the mountain.", 1)
OUT_OF_TURN = _warning(Reason.NOT_YOUR_TURN, ("G11",), zones.field(1, 1), 815,
                       "It is player 1's turn, not player 2's.", 1)


def _menu_at(item: MenuItem) -> UiState:
    return UiState(menu=MENU_ITEMS.index(item))


SAMPLES: tuple[Sample, ...] = (
    Sample("main-draw", "P1 must draw 2 now; scores and deck below", MIDGAME),
    Sample("main-play", "P2 is to play; nothing to draw",
           DisplayModel(phase="play", turn="p2", deck=88)),
    Sample("main-hidden-warning", "A warning was hidden with A: the badge shows 1 still open",
           DisplayModel(phase="play", turn="p1", draw=2, deck=61, players=MIDGAME.players,
                        warnings=(COLOR_RULE,)),
           UiState(acknowledged=frozenset({COLOR_RULE.id}))),
    Sample("table", "Hands, scores and rivers: filled spaces show the color letter",
           MIDGAME, UiState(page=Page.TABLE)),
    Sample("status", "Camera and board seen, brightness, how to open the menu",
           MIDGAME, UiState(page=Page.STATUS)),
    Sample("setup", "Dealing a new game; C swaps the first player",
           DisplayModel(phase="setup", turn="p1", deck=108,
                        players=(PlayerView(hand=0, unknown_cup=0),
                                 PlayerView(hand=0, unknown_cup=0)))),
    Sample("warning-on", "Illegal move, blink phase on: the fix first, then why",
           DisplayModel(phase="play", turn="p1", deck=61, players=MIDGAME.players,
                        warnings=(COLOR_RULE,))),
    Sample("warning-off", "The same warning in the other blink phase",
           DisplayModel(phase="play", turn="p1", deck=61, players=MIDGAME.players,
                        warnings=(COLOR_RULE,)),
           UiState(blink_on=False)),
    Sample("warning-two", "Two open warnings: the first one and a 1/2 counter",
           DisplayModel(phase="play", turn="p1", deck=61, players=MIDGAME.players,
                        warnings=(OUT_OF_TURN, COLOR_RULE))),
    Sample("destruction", "M1 is being destroyed: P2 claims a color, three remain",
           DisplayModel(phase="destruction", turn="p1", deck=52, players=MIDGAME.players,
                        destruction=Destruction(mandala="m1", picker="p2", colors_left="RGK"))),
    Sample("refill", "M1's claims are done: refill its mountain with 2 cards, then P1 plays",
           DisplayModel(phase="destruction", turn="p1", deck=50, players=MIDGAME.players,
                        destruction=Destruction(mandala="m1", picker="p1", colors_left="", refill=2))),
    Sample("discard-confirm", "Camera saw 2 discards of P1; asks how many (A less, B more, C ok)",
           DisplayModel(phase="discard-confirm", turn="p1", deck=61, players=MIDGAME.players,
                        discard=DiscardConfirm(player="p1", seen=2, asked=3))),
    Sample("over-win", "Game over: P1 wins 53 to 48",
           DisplayModel(phase="over", turn="p2", deck=0, players=MIDGAME.players,
                        over=GameOver(scores=(53, 48), winner="p1", cups=(19, 17),
                                      end_reason="deck"))),
    Sample("over-tie-break", "Equal scores; P2 wins with fewer cup cards (12 against 14)",
           DisplayModel(phase="over", turn="p1", deck=0, players=MIDGAME.players,
                        over=GameOver(scores=(40, 40), winner="p2", tie_break=True,
                                      cups=(14, 12), end_reason="river"))),
    Sample("over-reveal", "Game over, but 3 of P1's starting cup cards are still unseen: P1 shows the cup",
           DisplayModel(phase="over", turn="p1", deck=0,
                        players=(PlayerView(hand=0, score=31, unknown_cup=3, river="ROY"),
                                 PlayerView(hand=0, score=28, unknown_cup=0, river="GK")),
                        over=GameOver(scores=(31, 28), winner="p1", cups=(15, 13), unknown=3))),
    Sample("over-reveal-both", "Game over, starting cup cards of both players unseen: both show, how many each",
           DisplayModel(phase="over", turn="p1", deck=0,
                        players=(PlayerView(hand=0, score=31, unknown_cup=2, river="ROY"),
                                 PlayerView(hand=0, score=28, unknown_cup=1, river="GK")),
                        over=GameOver(scores=(31, 28), winner="p1", cups=(15, 13), unknown=3))),
    Sample("over-draw", "Equal scores and equal cups: a draw",
           DisplayModel(phase="over", turn="p1", deck=0, players=MIDGAME.players,
                        over=GameOver(scores=(40, 40), winner="draw", cups=(12, 12)))),
    Sample("menu", "Menu open, first item selected", MIDGAME, _menu_at(MenuItem.BACK)),
    Sample("menu-power-off", "Menu scrolled to Power off, which needs a long press of C",
           MIDGAME, _menu_at(MenuItem.POWER_OFF)),
    Sample("notice-caught-up", "After the camera was away: the moves it inferred, shown a few seconds",
           replace(MIDGAME, notice=Notice("CAUGHT UP", "2 moves while the camera was away."))),
    Sample("notice-resynced", "The table and the game parted: the game was re-read from the table, once",
           replace(MIDGAME, notice=Notice("RESYNCED", "Check the table."))),
    Sample("choice", "Two readings fit the table: A keeps the one applied, B takes the other",
           replace(MIDGAME, choice=Choice("P1 R05 m1, P2 K03", "P2 R05 m1, P1 K03"))),
    Sample("join-offer", "Cards on the mat but no game followed: hold C to join it as it lies",
           DisplayModel(phase="join", turn="p1", deck=108, join=JoinOffer((0, 6, 6, 4, 3, 41)))),
    Sample("join-question", "Joining: each value not given is set with A and B, C goes on (here 3 of 6)",
           DisplayModel(phase="join", turn="p1", deck=108, join=JoinOffer((0, 6, 7, 4, 3, 41))),
           UiState(join_step=2, join_values=(0, 6, 7, 4, 3, 41))),
    Sample(Reason.CAMERA_LOST, "No frames from the camera: tracking paused",
           DisplayModel(phase="play", turn="p1", deck=61, camera="lost")),
    Sample("camera-not-found", "No camera could be opened (none fitted, or busy): the service retries",
           DisplayModel(phase="setup", turn="p1", camera="not-found")),
    Sample(Reason.BOARD_NOT_FOUND, "Camera works but cannot find the playmat",
           DisplayModel(phase="play", turn="p1", deck=61, board="not-found")),
    Sample("pairing", "A phone asked for the controls of the phone view: type this code on it",
           DisplayModel(phase="play", turn="p1", deck=61, players=MIDGAME.players, pairing="482913")),
)


@dataclass(frozen=True, slots=True)
class CalibrationSample:
    """A verdict of ``companion calibrate`` as the panel shows it (not a display-model screen)."""

    name: str
    caption: str
    verdict: CalibrationVerdict


CALIBRATION_SAMPLES: tuple[CalibrationSample, ...] = (
    CalibrationSample("calibration-ok", "Calibration passed: px per module, blur and the camera mode",
                      CalibrationVerdict(ok=True, px_per_module=3.2, blur_px=0.6, mode="4608x2592")),
    CalibrationSample("calibration-problem", "Calibration failed: the first fix, what is wrong, 1 of 2",
                      CalibrationVerdict(ok=False, problem="zones out of view: deck, discard",
                                         fix="Raise camera by 5 cm", count=2, code="out-of-view")),
)
