"""From camera observations to game events, warnings and the display model."""
