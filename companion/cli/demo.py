"""``companion demo``: the whole product at work on a simulated table, no hardware needed.

The engine plays a random game; :mod:`companion.sim.game` lays it on the
table as people would (hands over the mat, an illegal card taken back, the
final reveal); every frame is rendered at the Camera Module 3's 4608x2592 and
goes through what ``companion run`` runs: vision, tracker, engine, the
journal (in a temporary folder) and the OLED's ui controller. Events and
warnings are narrated as the companion infers them, and the OLED frames go
to an animated GIF. At a terminal the emulated OLED stays at the top while
the story scrolls below it; in a pipe (CI, ``| less``) the output is plain
lines with a few OLED pictures, no cursor tricks.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from PIL import Image

    from companion.app.session import Session
    from companion.engine import Game, MountainsGame
    from companion.sim.script import GameScript
    from companion.tracker.display import DisplayModel
    from companion.tracker.tracker import Update
    from companion.vision.layout import Layout

RESOLUTION = (4608, 2592)
GIF_SPEEDUP = 4.0
"""The GIF plays the game four times faster than the table did."""


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    demo = subparsers.add_parser("demo", help="watch the companion follow and score a whole simulated game")
    demo.add_argument("--seed", type=int, default=None, help="game seed (default: a new game every time)")
    demo.add_argument("--fps", type=float, default=4.0, help="frames per second of the simulated camera (default 4)")
    demo.add_argument("--gif", type=Path, default=Path("demo-oled.gif"),
                      help="animated GIF of the OLED to write (default demo-oled.gif); --no-gif for none")
    demo.add_argument("--no-gif", dest="gif", action="store_const", const=None)
    demo.add_argument("--ruleset", choices=("mandala", "mountains"), default="mandala",
                      help="the game to play: mandala, the official one (default), or mountains (rules-002.md)")
    demo.add_argument("--fast", action="store_true",
                      help="the shortest of a few games, for tests (still 4608x2592 frames through the pipeline)")
    demo.set_defaults(func=run_demo)


def run_demo(args: argparse.Namespace) -> int:
    from companion.app.config import FPS_RANGE, check_number
    from companion.app.journal import Journal
    from companion.app.logs import setup_logging
    from companion.app.session import Session
    from companion.app.table import TablePipeline
    from companion.cli.paths import output_file
    from companion.vision.layout import default_layout_path, load_layout

    check_number("--fps", args.fps, FPS_RANGE)
    if args.gif is not None:
        output_file(args.gif, "--gif", (".gif",))  # before the game, not after it
    setup_logging("error")  # the story says what happens; log lines would only repeat it
    ruleset = getattr(args, "ruleset", "mandala")
    seed = _seed(args, ruleset)
    started = time.perf_counter()
    layout = load_layout(default_layout_path(ruleset))
    game = _random_game(seed, ruleset)
    script = _script(game, layout, seed)
    out = Story(sys.stdout)
    title = "Mandala" if ruleset == "mandala" else "Mandala, mountain boards,"
    out.line(f"{title} demo, game #{seed}: {len(game.stack)} moves, {script.duration_s / 60:.1f} minutes at the "
             f"table, seen by a {RESOLUTION[0]}x{RESOLUTION[1]} camera at {args.fps:g} frames a second.")
    with _temporary_folder() as state, Journal.open(state) as journal:
        session = Session(TablePipeline(layout), journal)
        oled = _play(session, script, layout, args.fps, out)
        out.picture("the end", oled)
        out.line(f"({session.frames} frames in {time.perf_counter() - started:.0f} s; "
                 f"{len(journal.games())} game journaled)")
    if args.gif is not None:
        oled.write_gif(args.gif)
        out.line(f"The OLED's screens are in {args.gif} ({len(oled.frames)} frames).")
    played_right = _report(session, game, out)  # last: the final scores and the winner
    out.close()
    return 0 if played_right else 1


def _seed(args: argparse.Namespace, ruleset: str = "mandala") -> int:
    if args.fast:
        return shortest_game(range(args.seed or 0, (args.seed or 0) + 200), ruleset)
    return args.seed if args.seed is not None else random.randrange(1_000_000)


def shortest_game(seeds: range, ruleset: str = "mandala") -> int:
    """The seed of the game with the fewest moves (a whole game in about 130 s of table time)."""
    return min(seeds, key=lambda s: (len(_random_game(s, ruleset).stack), s))


def _random_game(seed: int, ruleset: str) -> Game | MountainsGame:
    from companion.engine import MountainsGame, play_random_game

    if ruleset == "mountains":
        return play_random_game(random.Random(seed), first_player=0, ruleset=MountainsGame)
    return play_random_game(random.Random(seed), first_player=0)


def _script(game: Game | MountainsGame, layout: Layout, seed: int) -> GameScript:
    """The game laid on the table by tidy players of its ruleset."""
    from companion.engine import MountainsGame

    if isinstance(game, MountainsGame):
        from companion.sim.mountains import script_mountains_game

        return script_mountains_game(game, layout, seed=seed)
    from companion.sim.game import script_game

    return script_game(game, layout, seed=seed)


def _play(session: Session, script: object, layout: object, fps: float, out: Story) -> OledRecorder:
    from companion.sim.frames import render_frames
    from companion.sim.scene import SceneOptions
    from companion.ui.controller import UiController

    oled = OledRecorder()
    controller = UiController(oled, session.model(0.0), now=0.0)
    oled.show_to = out
    options = SceneOptions(resolution=RESOLUTION)  # no sensor noise: a third faster, same reading
    for index, image in enumerate(render_frames(script, layout, fps, options)):  # type: ignore[arg-type]
        now = index / fps
        update = session.feed(index, now, image)
        _narrate(session, update, now, out)
        oled.now = now
        model = session.model(now)
        controller.step(model, [], now)
        out.oled_moment(model, update, oled)
    return oled


def _narrate(session: Session, update: Update, now: float, out: Story) -> None:
    game = session.tracker.game
    if update.started:
        seen = "the deal is seen" if session.ruleset == "mandala" else "a starting card is laid"
        out.line(f"{_clock(now)}  {seen.capitalize()}: a new game begins.")
    for tracked in update.undone:
        out.line(f"{_clock(now)}  (written again: {tracked.event})")
    if game is not None and update.events:
        lines: list[str] = []
        after = game.copy()
        for tracked in reversed(update.events):  # rebuild each event's before/after from the end
            before = after.copy()
            before.pop()
            lines = [f"{_clock(now)}  {text}" for text in _describe(tracked.event, before, after)] + lines
            after = before
        for text in lines:
            out.line(text)
    for warning in update.warnings:
        out.line(f"{_clock(now)}  WARNING {warning.reason}: {warning.message} {warning.fix}")
    for warning in update.cleared:
        out.line(f"{_clock(now)}  (put right: {warning.reason})")


def _describe(event: object, before: Game | MountainsGame, after: Game | MountainsGame) -> list[str]:
    from companion.engine import MountainsGame

    if isinstance(before, MountainsGame) and isinstance(after, MountainsGame):
        from companion.engine.mountains.narrate import describe_mountains

        return describe_mountains(event, before, after)  # type: ignore[arg-type]
    from companion.engine.narrate import describe

    assert not isinstance(before, MountainsGame) and not isinstance(after, MountainsGame)
    return describe(event, before, after)  # type: ignore[arg-type]


def _report(session: Session, truth: Game | MountainsGame, out: Story) -> bool:
    from companion.engine import MountainsGame, summary

    game = session.tracker.game
    out.line("")
    if game is None:
        out.line("The companion never saw a game start.")
        return False
    seen, played = summary(game), summary(truth)
    if isinstance(game, MountainsGame):
        from companion.engine.mountains.narrate import describe_mountains_result
        from companion.tracker.mountains import CAMERA_KNOWN

        # A hand's size is not on the table: what the camera can know is compared.
        right = all(seen[key] == played[key] for key in CAMERA_KNOWN)
        result = describe_mountains_result(game)
    else:
        from companion.engine.narrate import describe_result

        right = seen == played
        result = describe_result(game)
    out.line("The companion's final scores match the game as it was played." if right
             else f"MISMATCH: the companion has {seen}, the game was {played}.")
    for text in result:
        out.line(text)
    return right


def _clock(now: float) -> str:
    return f"{int(now // 60):2d}:{int(now % 60):02d}"


class _temporary_folder:
    """A journal folder that is gone after the demo."""

    def __enter__(self) -> Path:
        import tempfile

        self._dir = tempfile.TemporaryDirectory(prefix="companion-demo-")
        return Path(self._dir.name)

    def __exit__(self, *exc: object) -> None:
        self._dir.cleanup()


# -- output -------------------------------------------------------------------------------


@dataclass
class OledRecorder:
    """The panel for the demo: keeps every frame with its table time, and shows it at a terminal."""

    frames: list[tuple[float, Image.Image]] = field(default_factory=list)
    now: float = 0.0
    show_to: Story | None = None

    def display(self, image: Image.Image) -> None:
        self.frames.append((self.now, image.copy()))
        if self.show_to is not None:
            self.show_to.oled_live(image)

    def contrast(self, level: int) -> None:
        pass

    def show(self) -> None:
        pass

    def hide(self) -> None:
        pass

    def write_gif(self, path: Path) -> None:
        from PIL import Image

        if not self.frames:
            return
        scale, border = 3, 6
        images, durations = [], []
        for index, (at, frame) in enumerate(self.frames):
            following = self.frames[index + 1][0] if index + 1 < len(self.frames) else at + 4.0
            big = frame.convert("L").resize((frame.width * scale, frame.height * scale), Image.Resampling.NEAREST)
            canvas = Image.new("L", (big.width + 2 * border, big.height + 2 * border), 40)
            canvas.paste(big, (border, border))
            images.append(canvas.convert("P"))
            durations.append(max(40, int((following - at) * 1000 / GIF_SPEEDUP)))
        images[0].save(path, save_all=True, append_images=images[1:], duration=durations, loop=0, optimize=True)


class Story:
    """Narration lines, and the OLED: pinned at the top of a terminal, a few pictures in a pipe."""

    PANEL_ROWS = 18  # braille: 16 rows of 64 characters, plus the border

    def __init__(self, out: TextIO) -> None:
        self.out = out
        rows = shutil.get_terminal_size((80, 24)).lines
        self.live = out.isatty() and rows >= self.PANEL_ROWS + 8
        self._shown: set[str] = set()
        if self.live:
            # Scroll only the lines under the panel, so the panel stays put while the story runs.
            self.out.write(f"\x1b[2J\x1b[{self.PANEL_ROWS + 2};{rows}r\x1b[{rows};1H")
            self.out.flush()

    def line(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def oled_live(self, image: Image.Image) -> None:
        if not self.live:
            return
        from companion.ui.terminal import to_text

        body = to_text(image, "braille").splitlines()
        panel = ["┌" + "─" * 64 + "┐", *("│" + row + "│" for row in body), "└" + "─" * 64 + "┘"]
        # Save the cursor, draw at the top, come back to the story.
        self.out.write("\x1b7" + "".join(f"\x1b[{n + 1};1H{row}" for n, row in enumerate(panel)) + "\x1b8")
        self.out.flush()

    def oled_moment(self, model: DisplayModel, update: Update, oled: OledRecorder) -> None:
        """In a pipe: the OLED at a few moments worth a picture (first of each kind)."""
        if self.live or not oled.frames:
            return
        moment = None
        if update.warnings:
            moment = "warning"
        elif model.phase == "destruction" or (update.events and model.draw):
            moment = "draw" if model.phase == "play" else model.phase
        if moment is None or moment in self._shown:
            return
        self._shown.add(moment)
        self.picture(moment, oled)

    def picture(self, moment: str, oled: OledRecorder) -> None:
        if self.live or not oled.frames:
            return
        from companion.ui.terminal import to_text

        body = to_text(oled.frames[-1][1], "halfblock").splitlines()
        self.line(f"      ┌{f' OLED: {moment} '.center(128, '─')}┐")
        for row in body:
            self.line(f"      │{row}│")
        self.line(f"      └{'─' * 128}┘")

    def close(self) -> None:
        if self.live:
            self.out.write("\x1b[r")  # the whole terminal scrolls again
            self.out.flush()
