"""Mandala Table Companion: watches a real game of Mandala, enforces the rules, scores it."""

__version__ = "0.1.0"
