"""What the calibration verdict says on the OLED: a line per problem code, and the short fixes as templates.

``companion calibrate`` (:mod:`companion.app.calibrate`) finds the set-up's
problems, each with a stable code, a message and fix for the terminal, and a
short fix for the panel (two lines of 15 letters). The panel has no room
for the message: it shows the code's line here; and the short fix is made
from one of :data:`SHORT_FIXES`, so a screen can take it apart
(:func:`companion.vocab.notices.values_of`) and word it in the players'
language (companion/locale holds the translations; the template is the
message). ``tests/vocab/test_calibration_words.py`` fails when calibrate
makes a short fix or a code this module does not know.
"""

from __future__ import annotations

from types import MappingProxyType

from companion.vocab.reasons import Reason

PROBLEM_LINES = MappingProxyType({
    "unusable-frame": "Unusable frame.",
    "fiducial-hidden": "A marker is hidden.",
    "resolution": "Too few pixels.",
    "focus-unknown": "Can't measure focus.",
    "blurred": "Picture is blurred.",
    "tilted": "The camera is tilted.",
    "small-edges": "Mat edges too small.",
    "soft-zones": "Some zones blurred.",
    Reason.BOARD_NOT_FOUND: "The mat is not found.",
    "too-few-pixels": "Stickers too small.",
    "out-of-view": "Mat not all in view.",
})
"""Problem code -> what is wrong, in one small line of the panel."""

SHORT_FIXES = (
    "Check the camera", "Clear marker {fid}", "Use the {width}x{height} mode", "Light the mat", "Focus the lens",
    "Point camera straight down", "Print {size} mm stickers", "Use the standard lens", "Camera straight down",
    "Refocus for corners", "Point camera at the mat", "Show the whole mat", "Lower camera by {cm} cm",
    "Camera: more pixels", "Raise camera by {cm} cm", "Move the camera {cm} cm {direction}",
)
"""Every short fix calibrate shows on the panel, as a template."""

DIRECTIONS = ("right", "left", "up", "down")
"""The ``{direction}`` a camera is moved in."""


def messages() -> set[str]:
    """Every English text of this module a screen may translate (the catalogs must have each)."""
    return {*PROBLEM_LINES.values(), *SHORT_FIXES, *DIRECTIONS}
