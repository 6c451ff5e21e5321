"""Bounded reading of what comes from outside: files, JSON and TOML that cannot exhaust memory or the stack.

Python's own readers trust their input: ``json`` and ``tomllib`` recurse once
per level of nesting (a few thousand ``[`` are a RecursionError), ``int()``
refuses more than 4,300 digits with a ValueError, and ``open()`` on a FIFO
waits for a writer forever. Records, layouts, journal lines and the
configuration are read through this module instead, so that such input is a
:class:`~companion.errors.LimitError` whose message the caller prefixes with
the file (and line). The limits are far above anything the companion writes
or needs: our formats nest at most four levels and hold numbers of a few
digits.

Pure standard library: the engine, vision and the app all use it.
"""

from __future__ import annotations

import fcntl
import json
import math
import os
import re
import stat
from pathlib import Path
from typing import Any

from companion.errors import LimitError

MAX_DEPTH = 32
"""Nesting of JSON arrays and objects, TOML arrays and inline tables."""
MAX_DIGITS = 40
"""Characters of one number (digits, sign, point and exponent)."""
MAX_LINE_CHARS = 64 * 1024
"""One line of a record or of a journal entry (an event line is about 100 characters)."""
MAX_RECORD_BYTES = 16 * 2**20
MAX_LAYOUT_BYTES = 2**20
MAX_CONFIG_BYTES = 256 * 1024


# -- files -------------------------------------------------------------------------------


def read_bytes(path: Path, limit: int, *, pipes: bool = False) -> bytes:
    """The content of ``path``, at most ``limit`` bytes; LimitError beyond, or for a file that is no file.

    A FIFO, a device or a folder is refused before anything is read (a FIFO
    would block until some program writes to it), unless ``pipes`` allows
    pipes, as a record may come from a shell's ``<(...)``. OSError (missing,
    no permission) is left to the caller, which knows what the file is for.
    """
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        mode = os.fstat(descriptor).st_mode
        if stat.S_ISDIR(mode):
            raise LimitError("is a folder, not a file")
        if stat.S_ISFIFO(mode) and pipes:
            flags = fcntl.fcntl(descriptor, fcntl.F_GETFL)
            fcntl.fcntl(descriptor, fcntl.F_SETFL, flags & ~os.O_NONBLOCK)  # a pipe is read as it comes
        elif not stat.S_ISREG(mode):
            raise LimitError(f"is not a regular file ({_file_kind(mode)})")
        with os.fdopen(descriptor, "rb", closefd=False) as stream:
            data = stream.read(limit + 1)
    finally:
        os.close(descriptor)
    if len(data) > limit:
        raise LimitError(f"is larger than {_size(limit)}, more than such a file ever holds")
    return data


def _file_kind(mode: int) -> str:
    kinds = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
             (stat.S_ISSOCK, "a socket"))
    return next((name for test, name in kinds if test(mode)), "a special file")


def _size(limit: int) -> str:
    return f"{limit // 2**20} MB" if limit >= 2**20 else f"{limit // 1024} KB"


# -- JSON --------------------------------------------------------------------------------


def parse_json(text: str, max_chars: int = MAX_LINE_CHARS) -> Any:
    """``json.loads`` within the limits; json.JSONDecodeError for bad JSON, LimitError beyond the limits.

    NaN and Infinity, which Python accepts and JSON does not, are refused too.
    """
    if len(text) > max_chars:
        raise LimitError(f"{len(text)} characters, more than the {max_chars} such a line may have")
    check_nesting(text)
    try:
        return json.loads(text, parse_int=_integer, parse_float=_real, parse_constant=_constant)
    except RecursionError:  # check_nesting makes this unreachable; kept as the last fence
        raise LimitError(f"nested more than {MAX_DEPTH} levels deep") from None


def _integer(text: str) -> int:
    _check_length(text)
    return int(text)


def _real(text: str) -> float:
    _check_length(text)
    value = float(text)
    if not math.isfinite(value):
        raise LimitError(f"the number {text} is too large")
    return value


def _constant(text: str) -> Any:
    raise LimitError(f"{text} is not a number JSON allows")


def _check_length(text: str) -> None:
    if len(text) > MAX_DIGITS:
        raise LimitError(f"a number of {len(text)} characters (at most {MAX_DIGITS})")


_JSON_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_BRACKET = re.compile(r"[\[\]{}]")


def check_nesting(text: str) -> None:
    """LimitError naming the line and column where JSON nests deeper than MAX_DEPTH."""
    depth = 0
    position = 0
    for match in _BRACKET.finditer(_JSON_STRING.sub(_blank, text)):
        depth += 1 if match.group() in "[{" else -1
        if depth > MAX_DEPTH:
            position = match.start()
            line = text.count("\n", 0, position) + 1
            column = position - (text.rfind("\n", 0, position) + 1) + 1
            where = f"line {line} column {column}" if "\n" in text else f"column {column}"
            raise LimitError(f"nested more than {MAX_DEPTH} levels deep (at {where})")


def _blank(match: re.Match[str]) -> str:
    """A string's text as spaces of the same length: brackets inside it do not count, positions stay."""
    return " " * len(match.group())


# -- TOML --------------------------------------------------------------------------------

_TOML_TOKEN = re.compile(
    r'"""(?:[^\\]|\\.)*?"""'          # multi-line basic string
    r"|'''.*?'''"                      # multi-line literal string
    r'|"(?:[^"\\\n]|\\.)*"'            # basic string
    r"|'[^'\n]*'"                      # literal string
    r"|#[^\n]*"                        # comment
    r"|[\[\]{}]"                       # nesting
    r"|[+-]?[0-9][0-9A-Za-z_.+-]*",    # a number (or a bare key that starts with a digit)
    re.DOTALL)


def check_toml(text: str) -> None:
    """LimitError naming the line where TOML nests deeper than MAX_DEPTH or has a number too long to read.

    ``tomllib`` recurses per level and converts integers with ``int()``; this
    looks at the text first, skipping strings and comments.
    """
    depth = 0
    for match in _TOML_TOKEN.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            depth += 1
        elif token in ("]", "}"):
            depth -= 1
        elif token[0] in "+-0123456789" and len(token) > MAX_DIGITS:
            raise LimitError(f"line {_line(text, match.start())}: a number of {len(token)} characters "
                             f"(at most {MAX_DIGITS})")
        if depth > MAX_DEPTH:
            raise LimitError(f"line {_line(text, match.start())}: nested more than {MAX_DEPTH} levels deep")


def _line(text: str, position: int) -> int:
    return text.count("\n", 0, position) + 1
