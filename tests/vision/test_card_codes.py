"""The stored card codes are exactly what the encoder makes of every card payload, and only those."""

from __future__ import annotations

import numpy as np

from companion.vision.card_codes import STORED, stored_matrix
from companion.vision.payload import CARD_PAYLOADS
from companion.vision.stickers import encode_qr, qr_matrix


def test_every_card_payload_is_stored_as_the_encoder_makes_it() -> None:
    assert set(STORED) == set(CARD_PAYLOADS)
    for payload in CARD_PAYLOADS:
        stored = stored_matrix(payload)
        encoded = encode_qr(payload)
        assert stored is not None and encoded is not None
        assert np.array_equal(stored, encoded), payload


def test_stored_matrices_are_read_only() -> None:
    modules = stored_matrix(CARD_PAYLOADS[0])
    assert modules is not None and not modules.flags.writeable


def test_other_payloads_are_encoded() -> None:
    assert stored_matrix("https://example.org/menu") is None
    foreign = qr_matrix("https://example.org/menu")
    assert foreign is not None and np.array_equal(foreign, encode_qr("https://example.org/menu"))
