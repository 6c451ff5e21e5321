"""Marker payloads: ``MDL-<card id>`` is ours (gold cards ``A01``..``A12`` included), anything else is foreign."""

from __future__ import annotations

from companion.vocab.colors import COLOR_LETTERS, GOLD_LETTER

PAYLOAD_PREFIX = "MDL-"
SERIALS_PER_COLOR = 18
GOLD_SERIALS = 12
CARD_PAYLOADS: tuple[str, ...] = tuple(
    f"{PAYLOAD_PREFIX}{letter}{serial:02d}" for letter in COLOR_LETTERS for serial in range(1, SERIALS_PER_COLOR + 1)
) + tuple(f"{PAYLOAD_PREFIX}{GOLD_LETTER}{serial:02d}" for serial in range(1, GOLD_SERIALS + 1))
"""Every payload a card of ours carries: the 108 colored cards, then the ``mountains`` ruleset's 12 gold ones."""

_OURS = frozenset(CARD_PAYLOADS)


def card_id_from_payload(payload: bytes) -> str | None:
    """The card id a sticker payload names, or None for a foreign code.

    Takes raw bytes because a foreign code may carry anything (binary, another
    encoding); only the exact ASCII form ``MDL-R07`` is trusted.
    """
    try:
        text = payload.decode("ascii")
    except UnicodeDecodeError:
        return None
    return text[len(PAYLOAD_PREFIX) :] if text in _OURS else None
