"""Every reason code is produced, and when several apply the contract's order decides."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from companion.engine import PRECEDENCE, Claim, Discard, FieldPlay, Game, MountainPlay, Reason, Refill, Reveal
from companion.engine.cards import parse_color
from tests.engine.positions import cards, position

P1, P2, M1, M2 = 0, 1, 0, 1
CONTRACT_ORDER = ["game-over", "wrong-phase", "not-your-turn", "card-not-in-hand", "mountain-one-card",
                  "mixed-colors", "own-field-only", "color-rule", "must-keep-one-card", "color-not-in-mountain",
                  "refill-count", "draw-count", "card-not-in-deck"]


def playing() -> Game:
    """Player 1 to play; red is in player 2's field of mandala 1; player 1 holds two cards."""
    return position(m1=("O01", "", "R01"), p1=("R02 Y01", "", ""), p2=("R03 Y02 Y03 Y04 Y05 Y06", "", ""))


def claiming() -> Game:
    """Mandala 1 being destroyed, player 1 picks; player 2 has an empty field."""
    return position(phase="claim", turn="p1", flags="destroy=m1,completer=p2",
                    m1=("R01 R02 O01", "Y01", ""), p1=("K01", "", "R03"), p2=("K02", "", ""))


def refilling() -> Game:
    return position(phase="refill", turn="p2", flags="destroy=m1,completer=p1", p1=("K01", "", ""),
                    p2=("K02", "", ""))


def over() -> Game:
    return position(phase="over", flags="end=deck")


CASES: dict[str, tuple[Callable[[], Game], object]] = {
    "game-over": (over, Discard(P1, cards("K01"))),
    "wrong-phase": (claiming, MountainPlay(P1, M2, cards("K01"), None)),
    "not-your-turn": (playing, FieldPlay(P2, M2, cards("Y02"))),
    "card-not-in-hand": (playing, MountainPlay(P1, M2, cards("Y02"), None)),
    "mountain-one-card": (playing, MountainPlay(P1, M2, cards("R02 Y01"), None)),
    "mixed-colors": (playing, Discard(P1, cards("R02 Y01"))),
    "own-field-only": (playing, FieldPlay(P1, M2, cards("Y01"), field=P2)),
    "color-rule": (playing, FieldPlay(P1, M1, cards("R02"))),
    "must-keep-one-card": (lambda: position(p1=("Y01 Y02", "", "")), FieldPlay(P1, M1, cards("Y01 Y02"))),
    "color-not-in-mountain": (claiming, Claim(P1, parse_color("G"))),
    "river-card": (claiming, Claim(P1, parse_color("O"), cards("R01")[0])),
    "card-not-in-cup": (over, Reveal(P1, cards("K01"))),
    "refill-count": (refilling, Refill(M1, cards("K03"))),
    "draw-count": (playing, MountainPlay(P1, M2, cards("Y01"), cards("K05"))),
    "card-not-in-deck": (playing, MountainPlay(P1, M2, cards("Y01"), cards("K05 K06 R03"))),
}


def test_contract_order_is_kept() -> None:
    extensions = {"river-card", "card-not-in-cup"}
    assert [r.value for r in PRECEDENCE if r.value not in extensions] == CONTRACT_ORDER


@pytest.mark.parametrize("code", [r.value for r in PRECEDENCE])  # the official ruleset's reasons
def test_every_reason_is_produced(code: str) -> None:
    make, event = CASES[code]
    game = make()
    violation = game.validate(event)  # type: ignore[arg-type]
    assert violation is not None and violation.reason.value == code, violation
    assert violation.message and violation.message[0].isupper()


@pytest.mark.parametrize(("expected", "make", "event"), [
    # game over beats everything, even an event of the wrong phase by the wrong player
    ("game-over", over, Claim(P2, parse_color("R"))),
    # a play while claims are pending, by the player who is not picking
    ("wrong-phase", claiming, MountainPlay(P2, M1, cards("Y09 Y10"), None)),
    # the wrong player, with a card they do not hold
    ("not-your-turn", playing, MountainPlay(P2, M1, cards("K09"), None)),
    # a card not held, two of them, mixed colors, into a mountain
    ("card-not-in-hand", playing, MountainPlay(P1, M1, cards("K09 Y01"), None)),
    # two cards of two colors into a mountain
    ("mountain-one-card", playing, MountainPlay(P1, M1, cards("R02 Y01"), None)),
    # mixed colors into the opponent's field
    ("mixed-colors", playing, FieldPlay(P1, M1, cards("R02 Y01"), field=P2)),
    # a color the rule forbids, into the opponent's field
    ("own-field-only", playing, FieldPlay(P1, M1, cards("R02"), field=P2)),
    # the rule of color broken and the whole hand played
    ("color-rule", lambda: position(m1=("", "", "R01"), m2=("", "", ""), p1=("R02", "", "")),
     FieldPlay(P1, M1, cards("R02"))),
    # a mountain play with too few and wrong drawn cards
    ("draw-count", playing, MountainPlay(P1, M2, cards("Y01"), cards("R03"))),
    # a refill of the wrong size with a card not in the deck
    ("refill-count", refilling, Refill(M1, cards("K01"))),
])
def test_precedence(expected: str, make: object, event: object) -> None:
    game = make()  # type: ignore[operator]
    violation = game.validate(event)
    assert violation is not None and violation.reason.value == expected, violation


def test_wrong_player_claiming_is_not_your_turn() -> None:
    violation = claiming().validate(Claim(P2, parse_color("R")))
    assert violation is not None and violation.reason is Reason.NOT_YOUR_TURN
    assert violation.message == "It is player 1's pick, not player 2's."


def test_claim_or_refill_outside_a_destruction_is_wrong_phase() -> None:
    assert playing().validate(Claim(P1, parse_color("O"))).reason is Reason.WRONG_PHASE  # type: ignore[union-attr]
    assert playing().validate(Refill(M1, cards("K07 K08"))).reason is Reason.WRONG_PHASE  # type: ignore[union-attr]


def test_card_named_twice_is_not_in_hand_twice() -> None:
    violation = playing().validate(Discard(P1, cards("R02 R02"), cards("K07 K08")))
    assert violation is not None and violation.reason is Reason.CARD_NOT_IN_HAND
    assert "named twice" in violation.message


def test_card_on_the_table_names_where_it_is() -> None:
    violation = playing().validate(MountainPlay(P1, M2, cards("R01"), None))
    assert violation is not None
    assert violation.message == "R01 is not in player 1's hand: it is in player 2's field of mandala 1."
