"""The players' language: gettext catalogs for the OLED's screens (English, Persian, Greek, Russian).

Catalogs are gettext ``.po`` files in ``companion/locale/LANG/LC_MESSAGES/companion.po``,
edited with any gettext tool; they are read at run time into
:class:`gettext.GNUTranslations` (compiled to ``.mo`` in memory, so no build
step and no ``msgfmt`` on the Pi). English is the source language: its
messages are the msgids. The language is chosen once, at start, from
``[display] language`` (:func:`use`); the screens call :func:`_`.

Persian is written right to left: :func:`is_rtl` tells the text layout
(:mod:`companion.ui.text`) to shape it (Pillow with libraqm) and set it from
the right edge.
"""

from __future__ import annotations

import ast
import gettext
import io
import struct
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from importlib import resources

from companion.errors import ConfigError

LANGUAGES = ("en", "fa", "el", "ru")
"""English (the source), Persian, Greek, Russian."""
LANGUAGE_NAMES = {"en": "English", "fa": "فارسی", "el": "Ελληνικά", "ru": "Русский"}
RTL_LANGUAGES = frozenset({"fa"})
DOMAIN = "companion"

_current = ["en"]


def check_language(language: str, name: str = "display.language") -> str:
    if language not in LANGUAGES:
        raise ConfigError(f"{name}: {language!r} is not one of {', '.join(LANGUAGES)}")
    return language


def use(language: str) -> None:
    """Speak ``language`` from now on (at start, from the configuration)."""
    translations(check_language(language))  # a broken catalog fails here, at start, not mid-game
    _current[0] = language


def current() -> str:
    return _current[0]


@contextmanager
def speaking(language: str) -> Iterator[None]:
    """``language`` within the block (tests, previews)."""
    before = current()
    use(language)
    try:
        yield
    finally:
        _current[0] = before


def is_rtl(language: str | None = None) -> bool:
    return (language or current()) in RTL_LANGUAGES


def _(message: str) -> str:
    """``message`` in the current language (itself when the catalog lacks it, or is empty: gettext's header)."""
    return translations(current()).gettext(message) if message else message


@cache
def translations(language: str) -> gettext.NullTranslations:
    if language == "en":
        return gettext.NullTranslations()
    return gettext.GNUTranslations(io.BytesIO(compile_po(catalog_text(language))))


def catalog_text(language: str) -> str:
    path = resources.files("companion") / "locale" / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    return path.read_text(encoding="utf-8")


def parse_po(text: str) -> dict[str, str]:
    """msgid -> msgstr of a ``.po`` file (plain entries; fuzzy and empty translations are left out)."""
    entries: dict[str, str] = {}
    msgid: list[str] | None = None
    msgstr: list[str] | None = None
    fuzzy = False
    current: list[str] | None = None

    def flush() -> None:
        if msgid is not None and msgstr is not None and not fuzzy:
            key, value = "".join(msgid), "".join(msgstr)
            if value or not key:
                entries[key] = value

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("#,") and "fuzzy" in line:
            fuzzy = True
        elif line.startswith("msgid "):
            flush()
            msgid, msgstr, current = [_string(line[6:], number)], None, None
            current = msgid
        elif line.startswith("msgstr "):
            msgstr = [_string(line[7:], number)]
            current = msgstr
        elif line.startswith('"') and current is not None:
            current.append(_string(line, number))
        elif not line:
            flush()
            msgid, msgstr, current, fuzzy = None, None, None, False
    flush()
    return entries


def _string(literal: str, number: int) -> str:
    try:
        value = ast.literal_eval(literal)
    except (ValueError, SyntaxError):
        raise ValueError(f"catalog line {number}: not a quoted string: {literal!r}") from None
    if not isinstance(value, str):
        raise ValueError(f"catalog line {number}: not a quoted string: {literal!r}")
    return value


def compile_po(text: str) -> bytes:
    """The ``.mo`` file (GNU gettext's binary catalog) of a ``.po`` text."""
    entries = parse_po(text)
    entries.setdefault("", "Content-Type: text/plain; charset=UTF-8\n")
    keys = sorted(entries)
    ids = [key.encode() for key in keys]
    strs = [entries[key].encode() for key in keys]
    header = 7 * 4
    ids_table = header
    strs_table = ids_table + 8 * len(keys)
    data = strs_table + 8 * len(keys)
    table_ids, table_strs, blob = [], [], b""
    for encoded in ids:
        table_ids.append((len(encoded), data + len(blob)))
        blob += encoded + b"\0"
    for encoded in strs:
        table_strs.append((len(encoded), data + len(blob)))
        blob += encoded + b"\0"
    out = struct.pack("<7I", 0x950412DE, 0, len(keys), ids_table, strs_table, 0, 0)
    out += b"".join(struct.pack("<2I", *pair) for pair in table_ids)
    out += b"".join(struct.pack("<2I", *pair) for pair in table_strs)
    return out + blob
