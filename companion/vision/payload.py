"""Marker payloads: ``MDL-<card id>`` is ours (gold cards ``A01``..``A12`` included), anything else is foreign."""

from __future__ import annotations

import re

_CARD_PAYLOAD = re.compile(r"MDL-([ROYGPK](?:0[1-9]|1[0-8])|A(?:0[1-9]|1[0-2]))")
"""The 108 colored cards and the ``mountains`` ruleset's 12 gold cards (A01..A12)."""


def card_id_from_payload(payload: bytes) -> str | None:
    """The card id a sticker payload names, or None for a foreign code.

    Takes raw bytes because a foreign code may carry anything (binary, another
    encoding); only the exact ASCII form ``MDL-R07`` is trusted.
    """
    try:
        text = payload.decode("ascii")
    except UnicodeDecodeError:
        return None
    match = _CARD_PAYLOAD.fullmatch(text)
    return match.group(1) if match else None
