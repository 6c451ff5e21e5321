"""Progress of the long commands, on stderr, with tqdm.

A bar appears only for a person watching: when stderr is a terminal and the
command was not given ``--quiet``. In a pipe, a log or a test nothing is
drawn, so JSON on stdout and one-line errors on stderr stay clean.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator
from typing import Never, TypeVar

from tqdm import tqdm

T = TypeVar("T")


def add_quiet(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quiet", action="store_true", help="no progress bar on stderr")


def shown(args: argparse.Namespace) -> bool:
    """Whether to draw progress: a terminal on stderr, and no --quiet."""
    return not getattr(args, "quiet", False) and sys.stderr.isatty()


def bar(args: argparse.Namespace, total: float | None, what: str, unit: str = "frame") -> tqdm[Never]:
    """A progress bar to update by hand (``.update(n)``, ``.set_postfix_str(...)``); close it when done.

    It runs over no iterable, which the stubs type ``tqdm[Never]``.
    """
    return tqdm(total=total, desc=what, unit=unit, disable=not shown(args), file=sys.stderr,
                dynamic_ncols=True, leave=False)


def each(args: argparse.Namespace, items: Iterable[T], what: str, total: float | None = None,
         unit: str = "frame") -> Iterator[T]:
    """``items`` as they come, with a bar."""
    with bar(args, total, what, unit) as progress:
        for item in items:
            yield item
            progress.update(1)
