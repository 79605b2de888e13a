"""R1 (deck and deal), R2 (seats) and R3 (the first attacker)."""

from __future__ import annotations

import copy
import pickle

import pytest

from games.engine import Card, Deal, Defend, Game, Lead, Rules, Transfer
from games.engine.cards import CARDS
from tests.support.engine_helpers import cards, new


def test_r1_each_card_exists_once_and_parses_back_to_itself():
    assert len(CARDS) == 36
    for card in CARDS:
        assert Card.parse(str(card)) is card
        assert Card(card.rank, card.suit) is card
        assert copy.deepcopy(card) is card and pickle.loads(pickle.dumps(card)) is card


def test_r1_cards_cannot_be_changed():
    with pytest.raises(AttributeError):
        Card.parse("TH").rank = 9


def test_r1_shuffled_deal_gives_six_each_and_the_rest_to_the_talon():
    deal = Deal.shuffled(4, seed=7)
    assert [len(hand) for hand in deal.hands] == [6, 6, 6, 6] and len(deal.talon) == 12
    assert deal.trump == deal.talon[-1].suit and deal.trump_card == deal.talon[-1]
    assert deal.seed == 7 and Game.start(deal).seed == 7


def test_r1_the_same_seed_gives_the_same_deal():
    assert repr(Deal.shuffled(3, 99)) == repr(Deal.shuffled(3, 99))
    assert repr(Deal.shuffled(3, 99)) != repr(Deal.shuffled(3, 100))


@pytest.mark.parametrize(
    "hands, talon, trump",
    [
        (["6S"], "7S", None),  # one player
        (["6S", "7S", "8S", "9S", "TS"], "", "H"),  # five players
        (["6S 7S", "7S"], "", "H"),  # a card twice
        (["6S", "7S"], "8S", "H"),  # the trump is the face-up card's suit
        (["6S", "7S"], "", None),  # no talon and no trump
        (["6S", "7S"], "", "X"),
        (["", "8S", "7S"], "9S TH", None),  # nobody to defend the first round
    ],
)
def test_r1_a_bad_deal_is_refused(hands, talon, trump):
    with pytest.raises(ValueError):
        Game.start(Deal(hands=[cards(h) for h in hands], talon=cards(talon), trump=trump))


@pytest.mark.parametrize("attacker", [-1, 3, 4])
def test_r2_a_forced_attacker_must_be_a_seat_of_the_game(attacker):
    with pytest.raises(ValueError, match="no seat"):
        new(["6S", "7S", "8S"], trump="H", attacker=attacker)


def test_r1_the_trump_card_of_an_end_game_in_a_hand_is_known_there():
    deal = Deal(hands=[cards("6S AH"), cards("7S 8S")], talon=[], trump_card="AH")
    game = Game.start(deal, attacker=0)
    assert game.trump == "H" and game.view(1)["known"][0] == ["AH"]
    assert game.view(1)["trump_card"] == "AH"


def test_r1_a_hand_may_be_empty_while_the_talon_lasts_it_fills_up_after_the_round():
    game = new(["6S 9C", "7S", ""], "8D 9D TD JD QD AD 8C TC JC QC KC KH")
    assert game.in_game == [True, True, True]
    game.apply(0, Lead("6S"), 1.0)
    game.apply(1, Defend("7S", "6S"), 2.0)
    game.tick(10.0)
    assert [len(hand) for hand in game.hands] == [6, 1, 6] and game.round == 2
    assert (game.attacker, game.defender) == (1, 2) and game.known[1] == {Card.parse("KH")}


def test_r2_transfers_and_next_players_skip_finished_seats():
    game = new(["6S", "6C 9D", "7S 8C AD", "6D 9C"], trump="H", attacker=0)
    game.apply(0, Lead("6S"), 1.0)  # seat 0 finishes
    assert game.finished == [[0]]
    game.apply(1, Transfer("6C"), 2.0)
    assert game.defender == 2
    game.apply(2, Defend("7S", "6S"), 3.0)
    game.apply(2, Defend("8C", "6C"), 4.0)
    game.tick(20.0)
    assert (game.attacker, game.defender) == (2, 3)
    assert game.next_seat(3) == 1


def test_r3_the_lowest_trump_leads_whatever_the_other_cards():
    hands = [cards("6S 6C"), cards("AS 8H"), cards("7H 6D")]
    game = Game.start(Deal(hands=hands, talon=cards("KH")))
    assert game.attacker == 2 and game.defender == 0


def test_r3_without_trumps_the_lowest_rank_leads_ties_broken_spades_first():
    hands = [cards("7D 8C"), cards("6C 9S"), cards("6S 7C"), cards("6D AS")]
    game = Game.start(Deal(hands=hands, talon=cards("KH")))
    assert game.attacker == 2


def test_r3_ties_are_broken_in_suit_order_spades_clubs_diamonds_hearts():
    hands = [cards("6H 8C"), cards("6D 9D"), cards("6C 7C")]
    assert Game.start(Deal(hands=hands, talon=cards("KS")), Rules()).attacker == 2


def test_r3_a_forced_attacker_without_cards_hands_the_lead_to_the_next_seat_holding_cards():
    game = new(["6S", "", "7S 8D", "9S"], "TS JH", attacker=1)
    assert (game.attacker, game.defender, game.phase) == (2, 3, "lead")
    assert game.in_game == [True, True, True, True] and game.finished == []
    assert game.legal_actions(2) and game.legal_actions(1) == []


def test_r3_a_forced_attacker_who_finished_with_the_deal_hands_the_lead_on():
    game = new(["", "", "6S", "7S"], trump="H", attacker=0)
    assert game.finished == [[0, 1]] and (game.attacker, game.defender) == (2, 3)
    assert game.view(None)["roles"] == ["finished", "finished", "attacker", "defender"]
