"""The set-up menu and its tasks, one sample per screen and case: golden images, the cut test, docs/screens.md."""

from __future__ import annotations

from dataclasses import replace

from companion.tracker.setup_view import SetupView
from companion.ui.samples import MIDGAME, Sample
from companion.ui.state import MENU_ITEMS, SETUP_ITEMS, MenuItem, SetupItem, UiState
from companion.vocab import zones

_GAME = MIDGAME


def _task(name: str, caption: str, view: SetupView) -> Sample:
    return Sample(name, caption, replace(_GAME, setup=view))


SETUP_SAMPLES: tuple[Sample, ...] = (
    Sample("menu-setup", "The menu: Set up table opens the set-up menu", _GAME,
           UiState(menu=MENU_ITEMS.index(MenuItem.SETUP))),
    Sample("setup-menu", "The set-up menu: teach the playmat, check stickers, back to the shipped playmat",
           _GAME, UiState(setup_menu=SETUP_ITEMS.index(SetupItem.TEACH))),
    Sample("setup-menu-shipped", "Going back to the shipped playmat takes a long press of C",
           _GAME, UiState(setup_menu=SETUP_ITEMS.index(SetupItem.SHIPPED))),
    _task("teach-fiducials", "Teaching: stick four fiducials near the corners; three seen so far",
          SetupView("teach", "fiducials", seen=3, total=24)),
    _task("teach-few-fiducials", "Teaching: after a few frames, still too few fiducials in view",
          SetupView("teach", "fiducials", seen=2, total=24, problem="few-fiducials")),
    _task("teach-card", "Teaching: lay one card in P1's river space 3 (9 of 24 zones done)",
          SetupView("teach", "cards", zone=zones.river(0, 3), done=8, total=24)),
    _task("teach-no-card", "Teaching: no new card seen for a while (face down?)",
          SetupView("teach", "cards", zone=zones.field(0, 1), done=1, total=24, problem="no-card")),
    _task("teach-two-cards", "Teaching: two new cards at once, which zone each is for cannot be told",
          SetupView("teach", "cards", zone=zones.mountain(1), done=3, total=24, problem="two-cards")),
    _task("teach-no-mat", "Teaching: the fiducials went out of view",
          SetupView("teach", "cards", zone=zones.DECK, done=22, total=24, problem="no-mat")),
    _task("teach-saved", "Taught: the layout is saved and in use now",
          SetupView("teach", "saved", done=24, total=24)),
    _task("teach-failed", "Not taught: the cards were laid too far from their zones' middles",
          SetupView("teach", "failed", done=24, total=24, problem="zones-overlap")),
    _task("teach-unsupported", "Teaching is for the official game's playmat only",
          SetupView("teach", "unsupported")),
    _task("check-lay", "Checking red: 12 of 18 red cards read, all right so far",
          SetupView("check", "lay", done=12, total=18, color="R")),
    _task("check-wrong", "Checking red: G07's sticker is on a red card",
          SetupView("check", "lay", done=11, total=18, color="R", wrong=(("G07", "R"),))),
    _task("check-many-wrong", "Checking orange: three stickers on cards of other colors",
          SetupView("check", "lay", done=9, total=18, color="O",
                    wrong=(("Y03", "O"), ("R11", "O"), ("O02", "Y")))),
    _task("check-unsure", "Checking black: one card's face could not be told",
          SetupView("check", "lay", done=15, total=18, color="K", unsure=("K08",))),
    _task("check-no-mat", "Checking: the mat's corners are not in view",
          SetupView("check", "lay", color="P", problem="no-mat")),
)
