"""Which messages the OLED's screens can ask the catalogs for, and which a catalog still lacks.

Adding a screen's text is writing it as a literal ``_(text)`` call in ``companion/ui`` (or
as a template in a vocabulary of :mod:`companion.vocab`); translating it is
adding its entry to each ``companion/locale/LANG/LC_MESSAGES/companion.po``
(one file per language, no build step). This module finds every message a
screen may translate, so a test fails on one a catalog lacks, and

    python -m companion.ui.catalog [LANG...]

prints the missing entries of each catalog as ``.po`` stubs to paste in.
"""

from __future__ import annotations

import re
import string
import sys
from importlib import resources

from companion.ui import i18n

SOURCES = ("ui", "app/runner.py")
"""Where screens are drawn: every module of companion/ui, and the stopped screen of the run loop."""
_LITERAL = re.compile(r'\b_\(\s*"((?:[^"\\]|\\.)*)"\s*\)')


def _sources() -> list[str]:
    root = resources.files("companion")
    texts = []
    for name in SOURCES:
        node = root.joinpath(*name.split("/"))
        files = [node] if name.endswith(".py") else [f for f in node.iterdir() if f.name.endswith(".py")]
        texts += [f.read_text(encoding="utf-8") for f in files]
    return texts


def used_messages() -> set[str]:
    """Every English message a screen may hand to :func:`companion.ui.i18n._`."""
    from typing import get_args

    from companion.tracker.display import COLOR_NAMES, BoardStatus, CameraStatus
    from companion.ui.mountains_screens import _HEADLINES
    from companion.ui.screens import JOIN_LABELS
    from companion.ui.setup_screens import _FAILURES, _TEACH_PROBLEMS
    from companion.ui.state import MenuItem, SetupItem
    from companion.vocab import calibration, notices, reasons

    found: set[str] = set()
    for text in _sources():
        found |= {bytes(m, "utf-8").decode("unicode_escape") for m in _LITERAL.findall(text)}
    found |= {item.value for item in MenuItem} | set(COLOR_NAMES.values())
    found |= set(get_args(CameraStatus)) | set(get_args(BoardStatus))  # the status page
    found |= set(JOIN_LABELS.values()) | set(_HEADLINES.values())
    found |= {item.value for item in SetupItem} | set(_TEACH_PROBLEMS.values()) | set(_FAILURES.values())
    return found | reasons.messages() | notices.messages() | calibration.messages()


def placeholders(message: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(message) if name}


def problems(language: str) -> list[str]:
    """What is wrong with a catalog: messages it lacks, translations with a placeholder their message lacks.

    A translation may leave a placeholder out (Greek and Russian name a card by
    its id, without the color an adjective would have to agree with).
    """
    catalog = i18n.parse_po(i18n.catalog_text(language))
    found = []
    for message in sorted(used_messages()):
        if message not in catalog:
            found.append(f"missing: {message!r}")
        elif not placeholders(catalog[message]) <= placeholders(message):
            found.append(f"unknown placeholder: {message!r} -> {catalog[message]!r}")
    return found


def stubs(language: str) -> str:
    """The ``.po`` entries a catalog lacks, with empty translations."""
    catalog = i18n.parse_po(i18n.catalog_text(language))
    missing = sorted(used_messages() - set(catalog))
    return "".join(f'msgid "{_escape(m)}"\nmsgstr ""\n\n' for m in missing)


def _escape(message: str) -> str:
    return message.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def main(argv: list[str]) -> int:
    languages = argv or [name for name in i18n.LANGUAGES if name != "en"]
    for language in languages:
        if language not in i18n.LANGUAGES or language == "en":
            print(f"catalog: {language!r} is not one of {', '.join(i18n.LANGUAGES[1:])}", file=sys.stderr)
            return 2
        print(f"# {language}: companion/locale/{language}/LC_MESSAGES/companion.po")
        print(stubs(language), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
