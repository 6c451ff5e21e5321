import cv2
import numpy as np
import pytest

from companion.errors import ConfigError
from companion.markers.codes import sticker_modules
from companion.vision.decoders import DECODERS, make_decoder


def sticker(payload: str, module_px: int = 4, angle: float = 0.0) -> np.ndarray:
    """A printed sticker (quiet zone included) on a grey table, scaled and turned."""
    modules = np.where(sticker_modules(payload), 0, 255).astype(np.uint8)
    image = cv2.resize(modules, None, fx=module_px, fy=module_px, interpolation=cv2.INTER_NEAREST)
    image = cv2.copyMakeBorder(image, 30, 30, 30, 30, cv2.BORDER_CONSTANT, value=150)
    if angle:
        h, w = image.shape
        rotation = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
        image = cv2.warpAffine(image, rotation, (w, h), flags=cv2.INTER_LINEAR, borderValue=150)
    return image


@pytest.mark.parametrize("name", sorted(DECODERS))
@pytest.mark.parametrize("angle", [0.0, 37.0, 180.0])
def test_decoders_read_a_rotated_sticker_with_its_centre(name: str, angle: float) -> None:
    image = sticker("MDL-P12", angle=angle)
    symbols = make_decoder(name).decode(image)
    assert [s.payload for s in symbols] == [b"MDL-P12"]
    cx, cy = symbols[0].center
    assert abs(cx - image.shape[1] / 2) < 3 and abs(cy - image.shape[0] / 2) < 3


@pytest.mark.parametrize("name", sorted(DECODERS))
def test_binary_payload_comes_back_as_raw_bytes(name: str) -> None:
    symbols = make_decoder(name).decode(sticker("\x01\x02zz"))
    assert len(symbols) == 1
    assert symbols[0].payload.endswith(b"zz")


@pytest.mark.parametrize("name", sorted(DECODERS))
@pytest.mark.parametrize(
    "image",
    [
        np.zeros((40, 40), np.uint8),
        np.full((300, 200), 255, np.uint8),
        np.random.default_rng(1).integers(0, 256, (200, 300), dtype=np.uint8),
        np.zeros((9, 9), np.uint8),
    ],
    ids=["black", "white", "noise", "tiny"],
)
def test_nothing_to_read_is_an_empty_list(name: str, image: np.ndarray) -> None:
    assert make_decoder(name).decode(image) == []


def test_zxing_tells_a_located_but_unreadable_symbol() -> None:
    image = sticker("MDL-P12")
    damaged = image.copy()
    # Blot out the bottom-right data modules (no finder pattern there): more
    # than error correction level H can restore, yet the symbol is still found.
    corner = 30 + (4 + 9) * 4
    damaged[corner : corner + 48, corner : corner + 48] = 0
    result = make_decoder("zxing").decode_detailed(damaged)
    assert result.symbols == ()
    assert result.unread == 1
    assert make_decoder("zxing").decode_detailed(image).unread == 0


def test_unknown_decoder_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="quirc"):
        make_decoder("quirc")


@pytest.mark.parametrize("name", sorted(DECODERS))
@pytest.mark.parametrize("angle", [0.0, 44.0, 46.0, 90.0, 135.0, 181.0, 226.0, 300.0])
def test_corners_come_in_the_symbols_own_order(name: str, angle: float) -> None:
    # The code's top-left corner (its finder pattern between the two others) comes first, then
    # clockwise as printed: that is how a read tells which way its sticker is turned.
    image = sticker("MDL-P12", angle=angle)
    (symbol,) = make_decoder(name).decode(image)
    h, w = image.shape
    rotation = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    quiet = 30 + 4 * 4  # border and quiet zone, in pixels before turning
    side = 21 * 4
    printed = [(quiet, quiet), (quiet + side, quiet), (quiet + side, quiet + side), (quiet, quiet + side)]
    expected = [rotation @ np.array([x, y, 1.0]) for x, y in printed]
    for corner, want in zip(symbol.corners, expected, strict=True):
        assert np.hypot(corner[0] - want[0], corner[1] - want[1]) < 6
