"""The one error tree of the companion.

Every error derives from :class:`CompanionError` and also from the builtin that
fits it, so callers may catch either (``except ValueError`` keeps working).
Messages name the input that was wrong.
"""


class CompanionError(Exception):
    """Base class of every error the companion raises on purpose."""


class InvalidCardError(CompanionError, ValueError):
    """A card id, color or other game token that does not exist ("R19", "X01")."""


class InvalidEventError(CompanionError, ValueError):
    """An event that cannot even be judged: wrong shape, unknown action."""


class IllegalEventError(CompanionError, ValueError):
    """A well-formed event that the rules forbid; carries the violation."""

    def __init__(self, violation: object) -> None:
        super().__init__(str(violation))
        self.violation = violation


class UnreadableRecordError(CompanionError, ValueError):
    """A game record that cannot be read; the message names the line."""


class InvalidStateTextError(CompanionError, ValueError):
    """A one-line state text that does not parse."""


class ConfigError(CompanionError, ValueError):
    """A bad configuration value; the message names the key."""


class LayoutError(CompanionError, ValueError):
    """A playmat layout file that is missing something or contradicts itself."""


class DeviceError(CompanionError, OSError):
    """A camera, display or pin that cannot be reached."""


class DisplayModelError(CompanionError, ValueError):
    """A display model the screens cannot draw (an unknown phase, a negative count)."""


class FrameError(CompanionError, ValueError):
    """A camera frame or image file the vision pipeline cannot look at."""


class CameraLost(DeviceError):
    """The camera stopped delivering frames (unplugged, crashed, timed out); it may come back."""


class JournalError(CompanionError, OSError):
    """The game journal cannot be opened, read or written; the message names the file."""


class PositionError(CompanionError, ValueError):
    """A position that cannot be a table of Mandala: a card twice, counts beyond 108, a river of 7."""
