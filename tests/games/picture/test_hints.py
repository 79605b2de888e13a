"""The line above the hand says what the player can do now (games.picture.hints)."""

from __future__ import annotations

from games.engine import Deal, Defend, Lead, Rules
from games.engine import Game as EngineGame
from games.picture.hints import hint


def game(hands: list[str], talon: str = "", attacker: int = 0) -> EngineGame:
    deal = Deal(hands=[h.split() for h in hands], talon=talon.split())
    return EngineGame.start(deal, Rules(), now=0.0, attacker=attacker)


def says(engine: EngineGame, seat: int) -> str:
    return hint(engine.view(seat), engine.legal_actions(seat))


def test_the_attacker_is_told_to_lead():
    engine = game(["9S 7D", "TS 9D"], talon="6H")
    assert says(engine, 0) == "Your lead: play any card."


def test_the_defender_is_told_what_to_beat_and_with_what_to_transfer():
    engine = game(["9S 7D", "TS 9H", "AD 6C"], talon="6H")
    engine.apply(0, Lead(("9S",)), now=1.0)
    assert says(engine, 1) == "Beat 9♠ or transfer with 9♥."


def test_a_defender_who_cannot_transfer_may_beat_or_take():
    engine = game(["9S 7D", "TS 8H"], talon="6D")
    engine.apply(0, Lead(("9S",)), now=1.0)
    assert says(engine, 1) == "Beat 9♠ or take the cards."


def test_a_defender_with_nothing_to_beat_with_is_told_to_take():
    engine = game(["AS 7D", "6C 8C"], talon="6D")
    engine.apply(0, Lead(("AS",)), now=1.0)
    assert says(engine, 1) == "You cannot beat A♠: take the cards."


def test_the_attacker_may_throw_in_a_matching_card_or_pass():
    engine = game(["9S 9D 7C", "TS 8H 6C"], talon="6D")
    engine.apply(0, Lead(("9S",)), now=1.0)
    engine.apply(1, Defend("TS", "9S"), now=2.0)
    assert says(engine, 0) == "Throw in 9♦, or pass."


def test_a_spectator_or_a_waiting_player_is_told_nothing():
    engine = game(["9S 7D", "TS 8H"], talon="6D")
    assert says(engine, 1) == ""
