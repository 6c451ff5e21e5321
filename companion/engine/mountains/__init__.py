"""The ``mountains`` ruleset (``rules-002.md``): its game, events, records and text form."""

from companion.engine.mountains.events import DiscardCards, DrawCards, MountainsEvent, PlayCard, StartCard
from companion.engine.mountains.game import MountainsGame, MountainsSetup
from companion.engine.mountains.game import Phase as MountainsPhase

__all__ = ["DiscardCards", "DrawCards", "MountainsEvent", "MountainsGame", "MountainsPhase", "MountainsSetup",
           "PlayCard", "StartCard"]
