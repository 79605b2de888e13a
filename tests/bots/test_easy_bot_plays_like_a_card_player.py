"""The easy bot's rules of thumb, each on a position a card player would recognise."""

from __future__ import annotations

import random

from games.bots import choose
from games.engine import Deal, Defend, Game, Lead, Pass, Take, ThrowIn, Transfer

DECK = [rank + suit for rank in "6789TJQKA" for suit in "SCDH"]


def game_of(attacker_hand: str, defender_hand: str, drawn_first: str = "") -> Game:
    """Seat 0 against seat 1, hearts trumps (the nine of hearts at the bottom), the rest of the
    deck in the talon."""
    hands = [attacker_hand.split(), defender_hand.split()]
    dealt = {*hands[0], *hands[1], *drawn_first.split(), "9H"}
    talon = [*drawn_first.split(), *(card for card in DECK if card not in dealt), "9H"]
    return Game.start(Deal(hands=hands, talon=talon), attacker=0)


def easy(game: Game, seat: int) -> object:
    return choose(game.view(seat), game.legal_actions(seat), random.Random(0), "easy")


def test_it_beats_with_the_cheapest_card_that_will_do() -> None:
    game = game_of("6S 7C 8D TS JS QS", "8S KS AS 6H JC QC")
    game.apply(0, Lead("6S"), 1.0)
    assert easy(game, 1) == Defend("8S", "6S")


def test_it_beats_a_plain_card_with_a_plain_ace_rather_than_a_trump() -> None:
    game = game_of("9C 7S 8D TS JS QS", "AC 6H 7D 8S JD KS")
    game.apply(0, Lead("9C"), 1.0)
    assert easy(game, 1) == Defend("AC", "9C")


def test_it_transfers_a_low_card_rather_than_spend_a_higher_one() -> None:
    game = game_of("7S 8D TS JS QS KS", "7C 9S JC QC AC 8H")
    game.apply(0, Lead("7S"), 1.0)
    assert easy(game, 1) == Transfer("7C")


def test_it_takes_a_small_low_attack_early_rather_than_spend_high_trumps() -> None:
    game = game_of("6S 7S 8D TS JS QS", "QH KH 7C 8C 9D TD")
    game.apply(0, Lead("6S"), 1.0)
    assert easy(game, 1) == Take()


def test_it_leads_its_lowest_plain_card_and_keeps_its_trumps() -> None:
    game = game_of("6H 8S 9C TS JS QS", "7C 9S JC QC AC 8H")
    assert easy(game, 0) == Lead("8S")


def test_it_leads_a_pair_of_low_cards_together() -> None:
    game = game_of("8S 8C 9C TS JS 6H", "7C 9S JC QC AC 8H")
    assert easy(game, 0) == Lead(["8S", "8C"])


def test_it_throws_in_a_low_plain_card_and_keeps_a_trump_of_the_same_rank() -> None:
    game = game_of("6S 6C 6H TS JS QS", "8S KS AS 7H JC QC")
    game.apply(0, Lead("6S"), 1.0)
    game.apply(1, Defend("8S", "6S"), 2.0)
    assert easy(game, 0) == ThrowIn("6C")
    game.apply(0, ThrowIn("6C"), 3.0)
    game.apply(1, Defend("7H", "6C"), 4.0)
    assert easy(game, 0) == Pass()


def test_it_remembers_what_the_defender_picked_up_and_leads_a_rank_it_cannot_transfer() -> None:
    game = game_of("7C 7D 8D JS QS KS", "9S TS JC QC AC 8H", "AS")
    game.apply(0, Lead("7C"), 1.0)
    game.apply(1, Take(), 2.0)
    game.tick(20.0)
    assert game.attacker == 0 and game.view(0)["known"][1] == ["7C"]
    assert easy(game, 0) == Lead("8D")
