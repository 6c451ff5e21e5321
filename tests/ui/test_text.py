"""Text layout helpers for the panel."""

from __future__ import annotations

from companion.ui.text import LARGE, MEDIUM, SMALL, fit, font, wrap


def test_wrap_breaks_at_words() -> None:
    assert wrap("Take back the red card", 15, 2) == ["Take back the", "red card"]


def test_wrap_cuts_the_last_allowed_line_visibly() -> None:
    assert wrap("one two three four five six", 9, 2) == ["one two", "three f.."]


def test_wrap_keeps_short_text_whole_and_empty_text_empty() -> None:
    assert wrap("ok", 21, 3) == ["ok"]
    assert wrap("", 21, 3) == []


def test_fit() -> None:
    assert fit("NOT YOUR TURN", 20) == "NOT YOUR TURN"
    assert fit("CARD FROM NOWHERE", 10) == "CARD FRO.."


def test_bundled_fonts_are_monospaced_at_their_native_size() -> None:
    for spec in (SMALL, MEDIUM, LARGE):
        assert round(font(spec).getlength("W")) == spec.width
        assert round(font(spec).getlength("i")) == spec.width
