import numpy as np
import pytest

from companion.vision.fiducials import FiducialSighting
from companion.vision.mapping import FiducialPlace, MappingError, MatMapping

# Six 20 mm fiducials on a 400 x 200 mm mat: corners and the middle of the long edges.
PLACES = {
    i: FiducialPlace(i, center, 20.0)
    for i, center in enumerate([(20, 20), (380, 20), (380, 180), (20, 180), (200, 20), (200, 180)])
}
SCALE, OFFSET = 3.0, np.array([50.0, 40.0])  # pixels per mm, frame position of the mat origin


def seen(displace: dict[int, tuple[float, float]] | None = None) -> dict[int, FiducialSighting]:
    """Sightings of a flat mat; ``displace`` moves a fiducial (mm), as a crease would."""
    displace = displace or {}
    sightings = {}
    for i, place in PLACES.items():
        shift = np.array(displace.get(i, (0.0, 0.0)))
        corners = (place.corners_mm() + shift) * SCALE + OFFSET
        sightings[i] = FiducialSighting(i, tuple(map(tuple, corners)))
    return sightings


def to_image(points_mm: np.ndarray) -> np.ndarray:
    return np.asarray(points_mm, dtype=float) * SCALE + OFFSET


def test_flat_mat_maps_exactly_both_ways() -> None:
    mapping = MatMapping(seen(), PLACES)
    mat = np.array([(0.0, 0.0), (123.4, 56.7), (400.0, 200.0)])
    assert np.allclose(mapping.image_to_mat(to_image(mat)), mat, atol=1e-6)
    assert np.allclose(mapping.mat_to_image(mat), to_image(mat), atol=1e-6)
    assert mapping.px_per_mm((200.0, 100.0)) == pytest.approx(SCALE)


def test_local_correction_follows_a_crease_that_one_homography_cannot() -> None:
    # The cloth near fiducial 5 (bottom middle) lies 4 mm off where the layout says.
    crease = {5: (0.0, -4.0)}
    mapping = MatMapping(seen(crease), PLACES)
    near = np.array([(200.0, 165.0)]) + crease[5]  # a sticker on the creased cloth
    corrected = mapping.image_to_mat(to_image(near))[0]
    flat_only = mapping.image_to_mat  # same object; compare with the plain homography below
    plain = np.asarray(
        __import__("cv2").perspectiveTransform(to_image(near).reshape(-1, 1, 2), mapping.homography)
    ).reshape(2)
    truth = np.array([200.0, 165.0])
    assert np.linalg.norm(corrected - truth) < 1.0
    assert np.linalg.norm(plain - truth) > 1.5
    assert flat_only is not None
    # ...and the inverse stays consistent with it.
    assert np.allclose(mapping.mat_to_image([corrected]), to_image(near), atol=0.05)


def test_three_fiducials_are_enough_two_are_not() -> None:
    sightings = seen()
    three = {i: sightings[i] for i in (0, 1, 2)}
    assert MatMapping(three, PLACES).fiducial_ids == (0, 1, 2)
    with pytest.raises(MappingError, match="2 fiducials"):
        MatMapping({i: sightings[i] for i in (0, 1)}, PLACES)


def test_a_marker_far_from_its_place_is_refused() -> None:
    with pytest.raises(MappingError, match="disagree"):
        MatMapping(seen({2: (60.0, 0.0)}), PLACES)
