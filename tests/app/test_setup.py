"""The set-up menu's tasks in ``run``: teach the playmat from rendered frames, check stickers, the shipped mat back."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.app.setup import (
    NO_CARD_S,
    SET_ASIDE,
    TAUGHT_LAYOUT,
    CheckTask,
    SetupDesk,
    TeachTask,
    forget_taught,
    layout_for_run,
    save_taught,
)
from companion.tracker.commands import AppAction, AppCommand
from companion.vision.layout import check_layout, default_layout_path, layout_to_dict, load_layout
from companion.vision.observation import BoardStatus, CardObservation, FrameObservation

SHIPPED = load_layout()


# --- where the taught playmat lives -------------------------------------------------------------


def test_a_taught_layout_in_the_state_folder_is_what_run_watches_until_the_shipped_one_is_asked_back(
        tmp_path: Path) -> None:
    assert layout_for_run(SHIPPED, tmp_path, "mandala") is SHIPPED
    taught = dataclasses.replace(SHIPPED, name="their-mat")
    path = save_taught(taught, tmp_path)
    assert path == tmp_path / TAUGHT_LAYOUT and not list(tmp_path.glob("*.part"))
    assert layout_for_run(SHIPPED, tmp_path, "mandala").name == "their-mat"
    assert layout_for_run(SHIPPED, tmp_path, "mountains") is SHIPPED  # a playmat for the other game: not used
    assert forget_taught(tmp_path) == tmp_path / SET_ASIDE
    assert json.loads((tmp_path / SET_ASIDE).read_text())["name"] == "their-mat"  # kept, not lost
    assert layout_for_run(SHIPPED, tmp_path, "mandala") is SHIPPED
    assert forget_taught(tmp_path) is None


def test_a_broken_taught_layout_is_said_and_the_configured_one_used(tmp_path: Path,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / TAUGHT_LAYOUT).write_text("{not json")
    assert layout_for_run(SHIPPED, tmp_path, "mandala") is SHIPPED
    assert TAUGHT_LAYOUT in caplog.text


def test_the_desk_goes_back_to_the_configured_layout_and_keeps_the_taught_one(tmp_path: Path) -> None:
    save_taught(dataclasses.replace(SHIPPED, name="their-mat"), tmp_path)
    desk = SetupDesk(SHIPPED, tmp_path, 2.0)
    assert "kept as" in desk.apply(AppCommand(AppAction.SHIPPED_LAYOUT), SHIPPED)
    assert desk.take_layout() is SHIPPED and desk.take_layout() is None
    assert (tmp_path / SET_ASIDE).is_file() and not (tmp_path / TAUGHT_LAYOUT).exists()


def test_teaching_is_refused_on_a_table_of_the_other_ruleset(tmp_path: Path) -> None:
    mountains = load_layout(default_layout_path("mountains"))
    desk = SetupDesk(mountains, tmp_path, 2.0, ruleset="mountains")
    desk.apply(AppCommand(AppAction.TEACH), mountains)
    view = desk.view()
    assert view is not None and view.step == "unsupported"
    desk.apply(AppCommand(AppAction.SETUP_CLOSE), mountains)
    assert desk.view() is None and not desk.active


# --- what the teaching screen says went wrong -------------------------------------------------------


class FakeTeaching:
    """The cards step of a teaching, as the screen's problem logic reads it."""

    def __init__(self) -> None:
        self.next_zone: str | None = "m1.mountain"
        self.taught, self.done, self.fiducials_seen, self.looked = 0, False, 4, 5
        self.last: FrameObservation | None = None
        self.laid: list[str] = []

    def feed(self, index: int, image: Any) -> None:
        pass

    def laid_cards(self) -> list[str]:
        return self.laid


def _seen(*cards: str, board: bool = True) -> FrameObservation:
    return FrameObservation(BoardStatus(board, (0, 1, 2, 3)),
                            tuple(CardObservation(card, (100.0, 100.0), None, 1.0) for card in cards))


def test_the_teaching_screen_says_two_cards_no_card_and_no_mat(tmp_path: Path) -> None:
    task = TeachTask(SHIPPED, 2.0, tmp_path)
    fake = FakeTeaching()
    task.teaching = fake  # type: ignore[assignment]
    task.feed(0.0, 0, np.zeros((4, 4, 3), np.uint8))
    fake.last = _seen()
    assert task.view(1.0).problem == ""  # a moment to lay it
    assert task.view(NO_CARD_S + 0.5).problem == "no-card"
    fake.last = _seen("G01")
    assert task.view(NO_CARD_S + 0.5).problem == ""  # it is there, settling
    fake.last = _seen("G01", "G02")
    assert task.view(1.0).problem == "two-cards"
    fake.laid, fake.last = ["G01"], _seen("G01", "G02")
    assert task.view(1.0).problem == ""  # G01 lies in its zone; G02 is the one new card
    fake.last = _seen("G01", board=False)
    assert task.view(1.0).problem == "no-mat"


# --- teaching from frames, in run's worker ------------------------------------------------------------


def teaching_frames(folder: Path, seed: int = 11) -> Any:
    """Frames of a random mat of the game's kind (four fiducials stuck by hand) as the cards are laid, at 2560x1440
    with 24 mm stickers; returns the mat as it truly is."""
    from companion.sim.mats import mandala_mat, random_mandala_mat, stick_fiducials, teaching_cards
    from companion.sim.scene import Renderer, SceneOptions

    rng = np.random.default_rng(seed)
    truth = dataclasses.replace(stick_fiducials(mandala_mat(random_mandala_mat(rng), "their-mat"), rng, side_mm=24.0),
                                sticker_mm=24.0)
    renderer = Renderer(truth, SceneOptions(resolution=(2560, 1440), noise_sigma=2.0))
    laid: list[Any] = []
    shots: list[list[Any]] = [[] for _ in range(5)]
    ids = [f"G{n:02d}" for n in range(1, 19)] + [f"K{n:02d}" for n in range(1, 7)]
    for _, card in teaching_cards(truth, rng, ids):
        laid.append(card)
        shots += [list(laid)] * 2
    folder.mkdir()
    for index, cards in enumerate(shots):
        cv2.imwrite(str(folder / f"{index:04d}.png"), renderer.render(cards, seed=index))
    return truth


@pytest.mark.slow  # 53 frames at 2560x1440 rendered and read (about 20 s)
def test_run_teaches_a_mat_of_another_shape_from_the_setup_menu_and_watches_it_at_once(tmp_path: Path) -> None:
    from companion.app.camera import FileSource
    from companion.app.runner import Runner, RunOptions
    from companion.app.session import Session
    from companion.app.table import TablePipeline
    from companion.ui.device import NullDisplay

    truth = teaching_frames(tmp_path / "frames")
    source = dataclasses.replace(SHIPPED, sticker_mm=24.0)  # the shipped fiducials, printed with 24 mm stickers
    state = tmp_path / "state"
    models: list[Any] = []
    session = Session(TablePipeline(source))
    desk = SetupDesk(source, state, 2.0)
    runner = Runner(FileSource(tmp_path / "frames"), session, NullDisplay(), options=RunOptions(clock_fps=2.0,
                    lossless=True), on_model=models.append, desk=desk)
    runner.commands.put(AppCommand(AppAction.TEACH))  # what the buttons send (tests/ui/test_setup_screens.py)
    assert runner.run() == 0
    steps = [m.setup.step for m in models if m.setup is not None]
    assert steps[0] == "fiducials" and "cards" in steps and steps[-1] == "saved", steps
    zones = [m.setup.zone for m in models if m.setup is not None and m.setup.step == "cards"]
    assert list(dict.fromkeys(zones))[:3] == ["m1.mountain", "m1.field.p1", "m1.field.p2"]  # the documented order
    taught = load_layout(state / TAUGHT_LAYOUT)
    assert check_layout(taught) == []
    assert session.pipeline.vision.layout == taught  # the game reads the table through it from now on
    assert layout_for_run(source, state, "mandala") == taught  # and so does every later start
    # Each zone's taught outline holds where the card was laid on the real mat (the frames' truth).
    width, height = taught.size_mm
    assert abs(width - truth.size_mm[0]) < 40 and abs(height - truth.size_mm[1]) < 40
    assert json.loads((state / TAUGHT_LAYOUT).read_text()) == layout_to_dict(taught)


# --- checking stickers ---------------------------------------------------------------------------------


def test_the_check_names_a_red_card_carrying_another_colors_sticker(tmp_path: Path) -> None:
    from companion.sim.scene import PlacedCard, SceneOptions, render_table

    cards = [PlacedCard(f"R{n:02d}", (90.0 + (n % 6) * 105, 110.0 + (n // 6) * 170), 15.0 * n) for n in range(1, 6)]
    cards.append(PlacedCard("G07", (90.0 + 105 * 0, 280.0), 40.0, face_color="red"))  # G07's sticker on a red card
    image = render_table(SHIPPED, cards, SceneOptions(noise_sigma=2.0, seed=4)).image
    desk = SetupDesk(SHIPPED, tmp_path, 2.0)
    desk.apply(AppCommand(AppAction.CHECK_STICKERS), SHIPPED)
    desk.feed(0.0, 0, image)
    view = desk.view()
    assert view is not None and view.color == "R"
    assert view.wrong == (("G07", "R"),) and view.done == 5 and view.problem == ""
    desk.apply(AppCommand(AppAction.SETUP_NEXT), SHIPPED)
    view = desk.view()
    assert view is not None and view.color == "O" and view.wrong == ()  # the next color starts afresh
    assert isinstance(desk.task, CheckTask)
