"""Paths on the command line checked before any work: a command that would fail at its last step fails first.

``companion demo --gif /nonexistent/x`` used to play the whole game and then
lose its final scores to a traceback. Every command checks its outputs (and
inputs) here, at its start, and ends with one line naming the option and
what is wrong with it. Nothing is created here: a check never leaves a
folder behind.
"""

from __future__ import annotations

import os
from pathlib import Path

from companion.errors import CompanionError


class PathArgumentError(CompanionError, OSError):
    """A path given on the command line that the command cannot read from or write to."""


def output_file(path: Path, option: str, suffixes: tuple[str, ...] = ()) -> Path:
    """``path`` if a file can be written there (its folder exists and is writable, it is no folder)."""
    if path.is_dir():
        raise PathArgumentError(f"{option} {path}: is a folder; give a file name")
    if suffixes and path.suffix.lower() not in suffixes:
        raise PathArgumentError(f"{option} {path}: the file name must end in {' or '.join(suffixes)}")
    _writable_folder(path.parent if str(path.parent) else Path("."), option, path)
    return path


def output_folder(path: Path, option: str) -> Path:
    """``path`` if it is a folder that can be written, or one that can be made (its nearest existing parent is)."""
    if path.exists() and not path.is_dir():
        raise PathArgumentError(f"{option} {path}: is a file, not a folder")
    existing = path
    while not existing.exists():
        if existing.parent == existing:
            break
        existing = existing.parent
    _writable_folder(existing, option, path)
    return path


def input_file(path: Path, option: str) -> Path:
    """``path`` if it is an existing file (a FIFO or device counts: readers decide about those)."""
    if not path.exists():
        raise PathArgumentError(f"{option} {path}: no such file")
    if path.is_dir():
        raise PathArgumentError(f"{option} {path}: is a folder, not a file")
    return path


def input_path(path: Path, option: str) -> Path:
    """``path`` if it exists (a file or a folder)."""
    if not path.exists():
        raise PathArgumentError(f"{option} {path}: no such file or folder")
    return path


def state_folder(path: Path, option: str) -> Path:
    """``path`` if it is a folder or could become one (a state folder not made yet holds no games)."""
    if path.exists() and not path.is_dir():
        raise PathArgumentError(f"{option} {path}: is a file, not a folder")
    existing = next((p for p in path.parents if p.exists()), Path("/"))
    if not existing.is_dir():
        raise PathArgumentError(f"{option} {path}: {existing} is not a folder")
    return path


def _writable_folder(folder: Path, option: str, path: Path) -> None:
    if not folder.exists():
        raise PathArgumentError(f"{option} {path}: the folder {folder} does not exist")
    if not folder.is_dir():
        raise PathArgumentError(f"{option} {path}: {folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PathArgumentError(f"{option} {path}: the folder {folder} is not writable")
