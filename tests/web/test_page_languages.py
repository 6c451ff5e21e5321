"""The phone page in the players' languages: every text it asks the catalogs for is in each, the history too."""

from __future__ import annotations

import json
import random
import re
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion.engine import Game, play_random_game, table_record
from companion.engine.narrate import SENTENCES, Sentence
from companion.tracker.display import DisplayModel, TableWarning
from companion.tracker.tracker import TrackedEvent
from companion.ui import i18n
from companion.ui.catalog import placeholders
from companion.ui.mountains_samples import MOUNTAINS_SAMPLES
from companion.vocab.colors import COLOR_NAMES
from companion.web.live import PhoneView
from companion.web.settings import WebSettings
from companion.web.view import History, table_view
from tests.web.webdriver import CHROMEDRIVER, CHROMIUM, Browser

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


COLOR_RULE = TableWarning("color-rule", "A red card can't go in P1's field: red is in P2's field.",
                          "Take R05 back.", id="812-color-rule-R05", what="Red is in P2's field.",
                          cards=("R05",), zone="m1.field.p1", player=0)


def test_a_warning_is_worded_in_every_language_the_page_may_speak() -> None:
    """The phone may speak another language than the OLED: the view words each warning in all of them."""
    view = table_view(DisplayModel(phase="play", turn="p1", warnings=(COLOR_RULE,)), None)
    texts = view["model"]["warnings"][0]["texts"]
    assert set(texts) == set(i18n.LANGUAGES)
    assert texts["en"] == {"title": "RULE OF COLOR", "what": COLOR_RULE.message, "fix": COLOR_RULE.fix}
    for language in ("fa", "el", "ru"):
        words = texts[language]
        assert all(words.values()) and not any("{" in text for text in words.values()), (language, words)
        assert words["title"] != "RULE OF COLOR" and words["fix"] != COLOR_RULE.fix, language
    assert re.search("[а-яА-Я]", texts["ru"]["fix"]) and "R05" in texts["ru"]["fix"] + texts["ru"]["what"]


@pytest.mark.slow
@pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER), reason="no chromium/chromedriver: `./dev test` installs them")
def test_a_browser_shows_a_mountains_table_and_the_history_in_russian(tmp_path: Path) -> None:
    """The page draws a mountains view (scores, gold, boards) and words the history from its templates."""
    phone = PhoneView(WebSettings(listen="127.0.0.1:0"), tmp_path, "ru")
    phone.start()
    assert phone.address is not None
    view = replace(MOUNTAINS_SAMPLES[0].model, warnings=(COLOR_RULE,))
    claim = {"template": "{player} claims {color}.", "values": {"player": "Player 2", "color": "red"}}
    history = [{"n": 1, "frame": 3, "forced": False, "event": "claim", "text": "Player 2 claims red.",
                "sentences": [claim]}]
    phone.hub.publish(json.dumps(table_view(view, None, history=history)))
    browser = Browser()
    try:
        browser.open(f"http://127.0.0.1:{phone.address[1]}/")
        shown: dict[str, Any] = {}
        for _ in range(100):
            shown = browser.run(PAGE)
            if shown["score"] and shown["history"]:
                break
            time.sleep(0.1)
    finally:
        browser.close()
        phone.stop()
    mountains = view.mountains
    assert mountains is not None
    assert shown["score"] == str(mountains.scores[0]) and "зол." in shown["p1"]  # 2 gold, in Russian
    assert shown["chips"] >= len(mountains.piles[0]) // 3 and shown["history"] == "Игрок 2 берёт красный."
    assert "ДОБЕРИ ДО 6" in shown["instruction"]
    russian = table_view(view, None)["model"]["warnings"][0]["texts"]["ru"]
    assert shown["warning"] == russian["title"] + russian["what"] + russian["fix"]  # the page's language, not English


PAGE = """
const text = (id) => { const node = document.getElementById(id); return node ? node.textContent : ""; };
return {score: text("score-p1"), p1: text("player-p1"), instruction: text("instruction"),
        chips: document.querySelectorAll("#player-p1 .chip").length,
        history: [...document.querySelectorAll("#history li")].map((li) => li.textContent).join("|"),
        warning: [...document.querySelectorAll("#warnings li > div")].map((div) => div.textContent).join("")};
"""
