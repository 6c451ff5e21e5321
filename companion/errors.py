"""The one error tree of the companion.

Every error derives from :class:`CompanionError` and also from the builtin that
fits it, so callers may catch either (``except ValueError`` keeps working).
Messages name the input that was wrong.

Each error also says how ``companion`` exits when it ends a command
(``exit_status``), so that scripts and systemd can tell outcomes apart: bad
input (2) from a machine that refuses to store (74), a "try again" (75) and a
crash (70, set by :mod:`companion.cli` for anything that is not one of these).
"""

from typing import ClassVar

EXIT_USAGE = 2
"""Bad input: arguments, configuration, a file that cannot be read or is damaged. Fix the input."""
EXIT_SOFTWARE = 70
"""EX_SOFTWARE: a crash, which is a bug; one line names the log file that holds the traceback."""
EXIT_IOERR = 74
"""EX_IOERR: the machine refused: disk full, read-only folder or file, failing storage. Fix the machine."""
EXIT_TEMPFAIL = 75
"""EX_TEMPFAIL: try again later: a restart asked from the menu, a journal held by another companion."""


class CompanionError(Exception):
    """Base class of every error the companion raises on purpose."""

    exit_status: ClassVar[int] = EXIT_USAGE


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


class UnknownRulesetError(CompanionError, ValueError):
    """A ruleset name that no ruleset has ("chess")."""


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


class JournalBusyError(JournalError):
    """Another companion holds the journal of this state folder (two writers would journal every event twice)."""

    exit_status = EXIT_TEMPFAIL


class StorageError(CompanionError, OSError):
    """The disk is full, a folder or file is read-only, or the storage fails: nothing is wrong with the data."""

    exit_status = EXIT_IOERR


class LimitError(CompanionError, ValueError):
    """Input beyond what the companion reads: nested too deep, a number too long, a file or image too large."""


class PositionError(CompanionError, ValueError):
    """A position that cannot be a table of Mandala: a card twice, counts beyond 108, a river of 7."""
