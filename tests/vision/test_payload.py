import pytest

from companion.vision.payload import card_id_from_payload


@pytest.mark.parametrize(
    ("payload", "card_id"),
    [(b"MDL-R07", "R07"), (b"MDL-K18", "K18"), (b"MDL-O01", "O01"), (b"MDL-G10", "G10")],
)
def test_our_payloads_name_their_card(payload: bytes, card_id: str) -> None:
    assert card_id_from_payload(payload) == card_id


@pytest.mark.parametrize(
    "payload",
    [
        b"MDL-Z99",  # no such color
        b"MDL-R19",  # no such serial
        b"MDL-R00",
        b"MDL-r07",  # QR alphanumeric mode has no lower case: not printed by us
        b"MDL-R07 ",
        b"XMDL-R07",
        b"MDL-R7",
        b"",
        b"\xff\xfe\x00binary",
        b"https://example.com/MDL-R07",
    ],
)
def test_anything_else_is_foreign(payload: bytes) -> None:
    assert card_id_from_payload(payload) is None
