"""Every command, given an unwritable output, a missing or wrong input, or a closed pipe, ends with one line.

The commands are enumerated from the argparse tree, so a new command (or a
new path option) is covered the day it is added: each path argument is
classed as an output (``--out``, ``--gif``...) or an input by its name, and
each is tried with a bad value while the others keep working ones. A
command must answer with exactly one line on stderr and a documented exit
status (2 bad input, 74 storage), never a traceback and never the crash
status 70. Closed pipes need a command that gets as far as printing: each
leaf command has a quick invocation in :data:`QUICK` (a new command without
one fails :func:`test_every_command_has_a_quick_invocation`).
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from companion.cli import build_parser, main
from tests.faults.conftest import ROOT

OUTPUT_NAMES = ("out", "gif", "output")
"""Destinations a path option with one of these names writes to."""
STATES = ("state_dir",)
"""Folders a command may read and write: given a folder it cannot use, it must say so."""
UNWRITABLE = "/dev/null/x"
"""A path nobody can create (its parent is no folder), for root as for anyone."""


@dataclass(frozen=True)
class PathArgument:
    command: tuple[str, ...]
    flag: str | None  # None: positional
    dest: str

    @property
    def is_output(self) -> bool:
        return any(self.dest == name or self.dest.endswith("_" + name) for name in OUTPUT_NAMES)


def leaf_parsers(parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()) -> Iterator[
        tuple[tuple[str, ...], argparse.ArgumentParser]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from leaf_parsers(sub, (*prefix, name))
            if action.required:
                return
            break  # optional sub-commands (markers, markers check): the command runs on its own too
    yield prefix, parser


def path_arguments() -> list[PathArgument]:
    found = []
    for command, parser in leaf_parsers(build_parser()):
        for action in parser._actions:
            if action.type is Path or action.dest in STATES:
                flag = action.option_strings[0] if action.option_strings else None
                found.append(PathArgument(command, flag, action.dest))
    return found


LEAVES = [" ".join(command) for command, _ in leaf_parsers(build_parser())]


@pytest.fixture(autouse=True)
def _log_handlers_restored() -> Iterator[None]:
    """A command that sets up logging points it at this test's captured stderr: undo that afterwards."""
    import logging

    loggers = [logging.getLogger(), logging.getLogger("companion")]
    before = [list(logger.handlers) for logger in loggers]
    yield
    for logger, handlers in zip(loggers, before, strict=True):
        logger.handlers[:] = handlers


def fixtures(tmp: Path) -> dict[str, str]:
    """Working inputs of each kind, made quickly."""
    record = tmp / "game.jsonl"
    assert main(["engine", "play", "--seed", "3", "--out", str(record)]) == 0
    image = tmp / "frame.png"
    _blank_image(image)
    frames = tmp / "frames"
    frames.mkdir()
    _blank_image(frames / "0000.png")
    return {"record": str(record), "image": str(image), "frames": str(frames), "tmp": str(tmp)}


def _blank_image(path: Path) -> None:
    import cv2
    import numpy as np

    cv2.imwrite(str(path), np.full((48, 64, 3), 200, np.uint8))


QUICK: dict[str, list[str] | None] = {
    # A quick working invocation of every leaf command that prints on stdout ({record}, {image}, {frames}
    # and {tmp} are filled in); None: the command prints nothing on stdout that a pipe could refuse.
    "engine replay": ["{record}", "--json"],
    "engine play": ["--seed", "1"],
    "bench engine": ["--games", "1", "--rounds", "1", "--json"],
    "bench vision": None,  # minutes of rendering at best; it prints once, at the end, as bench engine does
    "bench ui": ["--repeat", "1", "--json"],
    "bench table": None,  # as bench vision
    "bench run": None,  # as bench vision
    "bench restart": None,  # as bench vision
    "bench start": None,  # as bench vision
    "bench teach": None,  # as bench vision
    "bench markers": None,  # as bench vision
    "demo": None,  # a whole game; its story is printed as it goes (the closed pipe ends it at the first line)
    "layout check": [],
    "layout teach": None,
    "markers": ["--out", "{tmp}/markers", "--dpi", "150"],
    "markers check": None,  # needs a rendered mat with cards (seconds): tests/markers/test_check.py closes its pipe
    "markers mat": ["--out", "{tmp}/mat.pdf", "--dpi", "100"],
    "vision detect": ["{image}", "--json"],
    "vision show": None,
    "ui preview": ["--out", "{tmp}/screens"],
    "ui emulate": None,  # draws on a terminal, which is no pipe
    "games list": ["--state-dir", "{tmp}", "--json"],
    "games show": None,  # needs a journal with a game; prints as games list does
    "games export": None,
    "replay": ["{frames}", "--json"],
    "sim game": None,
    "doctor": ["--no-input"],
    "run": None,
    "web drop-in": None,  # prints nothing with the view off (the default configuration)
    "calibrate": ["--image", "{image}", "--state-dir", "{tmp}/state", "--display", "none", "--json"],
}


def test_every_path_argument_is_found() -> None:
    """The enumeration itself: the commands known to take paths are among those found."""
    found = {(" ".join(a.command), a.dest) for a in path_arguments()}
    assert {("engine play", "out"), ("demo", "gif"), ("replay", "input"), ("markers", "out")} <= found


@pytest.mark.parametrize("argument", path_arguments(), ids=lambda a: f"{' '.join(a.command)}:{a.dest}")
def test_a_bad_path_ends_with_one_line(argument: PathArgument, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    bad = UNWRITABLE if argument.is_output or argument.dest in STATES else str(tmp_path / "missing" / "x")
    status, err = _run(argument, bad, tmp_path, capsys)
    _one_line(status, err)


@pytest.mark.parametrize("argument", [a for a in path_arguments() if not a.is_output and a.dest not in STATES],
                         ids=lambda a: f"{' '.join(a.command)}:{a.dest}")
def test_a_wrong_input_ends_with_one_line(argument: PathArgument, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    wrong = tmp_path / "wrong.bin"
    wrong.write_bytes(b"\x00garbage\xff" * 10)
    status, err = _run(argument, str(wrong), tmp_path, capsys)
    _one_line(status, err)


def _run(argument: PathArgument, value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    args = [*argument.command]
    args += [value] if argument.flag is None else [argument.flag, value]
    args += _required_others(argument, tmp_path)
    capsys.readouterr()
    status = main(args)
    return status, capsys.readouterr().err


def _required_others(argument: PathArgument, tmp_path: Path) -> list[str]:
    """Working values for the other required arguments of the command."""
    parser = dict(leaf_parsers(build_parser()))[argument.command]
    extra: list[str] = []
    for action in parser._actions:
        if action.dest in (argument.dest, "help") or isinstance(action, argparse._SubParsersAction):
            continue
        if action.option_strings and not action.required:
            continue
        value = str(tmp_path / f"other-{action.dest}")
        if action.dest == "game":
            value = "1"
        extra += [value] if not action.option_strings else [action.option_strings[0], value]
    return extra


def _one_line(status: int, err: str) -> None:
    assert "Traceback" not in err, err
    assert len(err.splitlines()) == 1, err
    assert status in (2, 74), (status, err)


def test_every_command_has_a_quick_invocation() -> None:
    assert sorted(QUICK) == sorted(LEAVES), "add the new command to QUICK"


class ClosedPipe(io.TextIOBase):
    """Standard output whose reader went away (``| head``)."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self) -> None:
        raise BrokenPipeError(32, "Broken pipe")


@pytest.mark.parametrize("command", [name for name in LEAVES if QUICK.get(name) is not None])
def test_a_closed_pipe_ends_with_one_line(command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    values = fixtures(tmp_path)
    args = [*command.split(), *(part.format(**values) for part in QUICK[command] or [])]
    capsys.readouterr()
    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    status = main(args)
    monkeypatch.undo()
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if not line.startswith(("bench ", "wrote "))]
    assert "Traceback" not in err and lines == ["companion: output closed by the reader before the end"], err
    assert status == 2


def test_a_closed_pipe_at_the_last_flush_is_one_line_too() -> None:
    """``companion engine play | head -c 1``: the output fits the pipe's buffer, the reader is gone at exit."""
    done = subprocess.run(f"'{sys.executable}' -m companion engine play --seed 1 | (sleep 0.5; head -c 1) "
                          ">/dev/null; echo status ${PIPESTATUS[0]} >&2", shell=True, executable="/bin/bash",
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, done.stderr
