"""Pairing: a code shown for two minutes, five guesses, a token per phone."""

from __future__ import annotations

from companion.web.pairing import MAX_PHONES, MAX_TRIES, Pairing


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_right_code_gives_a_token_once() -> None:
    clock = Clock()
    pairing = Pairing(clock=clock)
    assert pairing.code() == "" and not pairing.allows(None) and not pairing.allows("")
    assert pairing.ask() == 120
    code = pairing.code()
    assert len(code) == 6 and code.isdigit()
    clock.now = 10
    assert pairing.ask() == 110 and pairing.code() == code  # asking again keeps the code on the panel
    token = pairing.confirm(f" {code} ")
    assert token and pairing.allows(token) and not pairing.allows(token + "x")
    assert pairing.code() == "" and pairing.confirm(code) is None  # used: gone from the panel


def test_a_code_expires_and_wrong_guesses_void_it() -> None:
    clock = Clock()
    pairing = Pairing(clock=clock)
    pairing.ask()
    code = pairing.code()
    clock.now = 121
    assert pairing.code() == "" and pairing.confirm(code) is None
    pairing.ask()
    code = pairing.code()
    wrong = f"{(int(code) + 1) % 10**6:06d}"
    for _ in range(MAX_TRIES):
        assert pairing.confirm(wrong) is None
    assert pairing.code() == "" and pairing.confirm(code) is None


def test_controls_off_never_pair() -> None:
    pairing = Pairing(enabled=False)
    assert pairing.ask() == 0 and pairing.code() == ""


def test_old_phones_are_unpaired_beyond_the_limit() -> None:
    pairing = Pairing()
    tokens = []
    for _ in range(MAX_PHONES + 1):
        pairing.ask()
        token = pairing.confirm(pairing.code())
        assert token
        tokens.append(token)
    assert not pairing.allows(tokens[0]) and all(pairing.allows(t) for t in tokens[1:])
