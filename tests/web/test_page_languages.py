"""The phone page in the players' languages: every text it asks the catalogs for is in each, the history too."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from companion.engine import Game, play_random_game, table_record
from companion.engine.narrate import SENTENCES, Sentence
from companion.tracker.tracker import TrackedEvent
from companion.ui import i18n
from companion.ui.catalog import placeholders
from companion.vocab.colors import COLOR_NAMES
from companion.web.view import History

STATIC = Path(__file__).resolve().parents[2] / "companion" / "web" / "static"


def page_messages() -> set[str]:
    """The page's tr("...") calls, the history's sentence templates and the words that fill them."""
    script = (STATIC / "app.js").read_text(encoding="utf-8")
    found = {bytes(m, "utf-8").decode("unicode_escape") for m in re.findall(r'\btr\("((?:[^"\\]|\\.)*)"', script)}
    return found | set(SENTENCES) | set(COLOR_NAMES) | {"Player 1", "Player 2"}


@pytest.mark.parametrize("language", ("fa", "el", "ru"))
def test_each_catalog_has_every_text_of_the_page(language: str) -> None:
    catalog = i18n.parse_po(i18n.catalog_text(language))
    used = page_messages()
    assert "(by the players' word)" in used and len(used) > 40
    missing = sorted(used - set(catalog))
    assert not missing, f"{language}: no translation for {missing}"
    assert all(placeholders(catalog[m]) <= placeholders(m) for m in used)


def test_the_history_carries_its_sentences_as_templates_the_page_can_translate() -> None:
    record = table_record(play_random_game(random.Random(5)))
    game = Game(record.setup)
    tracked: list[TrackedEvent] = []
    for frame, (_, event) in enumerate(record.events):
        game.push(event)
        tracked.append(TrackedEvent(frame, event))
    lines = History().lines(game, tracked)
    used = set()
    for line in lines:
        sentences = [Sentence(s["template"], s["values"]) for s in line["sentences"]]
        assert line["text"] == " ".join(map(str, sentences))  # the English text is the templates filled
        used |= {s.template for s in sentences}
    assert used <= set(SENTENCES) and len(used) >= 6
    russian = i18n.translations("ru")
    claim = next(s for line in lines for s in line["sentences"] if "claims" in s["template"])
    worded = russian.gettext(claim["template"]).format(**{k: russian.gettext(v) for k, v in claim["values"].items()})
    assert "берёт" in worded and "claims" not in worded
