"""R4 (lead), R5 (beating), R6 (transfer), R7 (throw-in), R8 (take) and R9 (limit)."""

from __future__ import annotations

import pytest

from games.engine import Card, Defend, IllegalAction, Lead, Pass, Take, ThrowIn, Transfer
from tests.support.engine_helpers import hand, new, refuse, state, table

TALON = "QC QD KH"


def two_players():
    return new(["6S 6C 6D 7S 9C TD", "7C 8S 9S JC QS KD"], TALON)


def test_r4_the_attacker_leads_several_cards_of_one_rank():
    game = two_players()
    game.apply(0, Lead(["6S", "6C", "6D"]), 1.0)
    assert table(game) == [("6S", None), ("6C", None), ("6D", None)]
    assert hand(game, 0) == "7S 9C TD" and game.phase == "defend"


def test_r4_only_the_rounds_attacker_leads():
    game = two_players()
    refuse(game, 1, Lead("7C"), 1.0, "R4")


def test_r4_a_lead_needs_cards_of_one_rank_that_the_attacker_holds():
    game = two_players()
    refuse(game, 0, Lead([]), 1.0, "R4")
    refuse(game, 0, Lead(["6S", "7S"]), 1.0, "R4")
    refuse(game, 0, Lead(["6S", "6S"]), 1.0, "R4")


def test_r4_a_lead_of_a_card_not_held_is_refused():
    game = two_players()
    assert Lead("6H") not in game.legal_actions(0)
    before = state(game)
    with pytest.raises(IllegalAction, match="You do not hold 6♥"):
        game.apply(0, Lead("6H"), 1.0)
    assert state(game) == before


def test_refusals_write_cards_as_people_read_them_with_the_ten_as_10():
    game = two_players()
    with pytest.raises(IllegalAction, match="You do not hold 10♣ J♥$"):
        game.apply(0, Lead(["TC", "JH"]), 1.0)
    assert Card.parse("TC").label == "10♣" and Card.parse("6S").label == "6♠"


def test_r4_a_lead_beyond_the_limit_is_refused():
    game = new(["6S 6C 6D 9C", "7C 8S"], TALON)
    assert game.limit == 2
    refuse(game, 0, Lead(["6S", "6C", "6D"]), 1.0, "R9")
    game.apply(0, Lead(["6S", "6C"]), 1.0)


def test_r4_only_single_card_leads_are_listed():
    game = two_players()
    assert {str(a.cards[0]) for a in game.legal_actions(0)} == {"6S", "6C", "6D", "7S", "9C", "TD"}
    assert game.legal_actions(1) == []


def test_r5_the_defender_chooses_the_order_of_beating():
    game = two_players()
    game.apply(0, Lead(["6S", "6C"]), 1.0)
    game.apply(1, Defend("7C", "6C"), 2.0)
    game.apply(1, Defend("8S", "6S"), 3.0)
    assert table(game) == [("6S", "8S"), ("6C", "7C")] and game.phase == "closing"


def test_r5_lists_every_card_and_target_pair_that_beats():
    game = two_players()
    game.apply(0, Lead(["6S", "6C"]), 1.0)
    defends = {(str(a.card), str(a.target)) for a in game.legal_actions(1) if isinstance(a, Defend)}
    assert defends == {("8S", "6S"), ("9S", "6S"), ("QS", "6S"), ("7C", "6C"), ("JC", "6C")}


def test_r5_a_lower_card_another_suit_or_a_beaten_target_is_refused():
    game = two_players()
    game.apply(0, Lead(["6S", "6C"]), 1.0)
    reason = refuse(game, 1, Defend("KD", "6S"), 2.0, "R5")
    assert reason == "K♦ does not beat 6♠: beat it with a higher ♠ or a trump (R5)"
    game.apply(1, Defend("8S", "6S"), 2.0)
    refuse(game, 1, Defend("9S", "6S"), 3.0, "R5")
    refuse(game, 1, Defend("9S", "TD"), 3.0, "R5")
    refuse(game, 0, Defend("7S", "6C"), 3.0, "R5")


def test_r5_a_trump_is_beaten_only_by_a_higher_trump():
    game = new(["7H 9C", "6H 8H AS"], TALON)
    game.apply(0, Lead("7H"), 1.0)
    reason = refuse(game, 1, Defend("AS", "7H"), 2.0, "R5")
    assert "only a higher trump" in reason
    refuse(game, 1, Defend("6H", "7H"), 2.0, "R5")
    game.apply(1, Defend("8H", "7H"), 2.0)


THREE = ["6S 6H 9C 9D TC TD", "6C 7S 8D JC QS KS", "6D 7D 8C 8S AS AC"]


def test_r6_transfers_chain_round_the_table_back_to_the_one_who_led():
    game = new(THREE, TALON)
    game.apply(0, Lead("6S"), 1.0)
    game.apply(1, Transfer("6C"), 2.0)
    game.apply(2, Transfer("6D"), 3.0)
    assert (game.attacker, game.defender) == (0, 0)
    assert game.limit == 5
    game.apply(0, Transfer("6H"), 4.0)
    assert (game.attacker, game.defender) == (0, 1) and len(game.table) == 4
    assert game.limit == 5 and game.phase == "defend"


def test_r6_transfer_with_two_players_bounces_back_and_forth():
    game = new(["6S 6H 9C", "6C 6D 7S 8S"], TALON)
    game.apply(0, Lead("6S"), 1.0)
    game.apply(1, Transfer("6C"), 2.0)
    assert (game.attacker, game.defender, game.limit) == (0, 0, 2)
    game.apply(0, Transfer("6H"), 3.0)
    assert game.defender == 1 and game.limit == 3
    refuse(game, 1, Transfer("6D"), 4.0, "R6")  # seat 0 holds one card for four attacks


def test_r6_the_new_defender_must_hold_enough_cards_for_the_whole_attack():
    game = new(["6S 6H 9C 9D TC TD", "6C 6D 8D JC QS KS", "7D 8C"], TALON)
    game.apply(0, Lead(["6S", "6H"]), 1.0)
    game.apply(2, Pass(), 1.5)
    reason = refuse(game, 1, Transfer("6C"), 2.0, "R6")
    assert reason == (
        "Transfer is not possible: the next player would face 3 cards "
        "but can take on at most 2 (R6, R9)"
    )
    assert not any(isinstance(a, Transfer) for a in game.legal_actions(1))


def test_r6_no_transfer_once_a_card_is_beaten():
    game = new(THREE, TALON)
    game.apply(0, Lead(["6S", "6H"]), 1.0)
    game.apply(1, Defend("7S", "6S"), 2.0)
    reason = refuse(game, 1, Transfer("6C"), 3.0, "R6")
    assert reason == "Transfer is no longer possible: a card has already been beaten (R6)"


def test_r6_a_transfer_needs_the_rank_of_the_attack():
    game = new(THREE, TALON)
    game.apply(0, Lead("6S"), 1.0)
    refuse(game, 1, Transfer("7S"), 2.0, "R6")
    refuse(game, 2, Transfer("6D"), 2.0, "R6")


def test_r6_after_a_transfer_the_previous_defender_attacks_and_passes_are_void():
    game = new(THREE, TALON)
    game.apply(0, Lead("6S"), 1.0)
    game.apply(2, Pass(), 1.5)
    assert game.passed == {2}
    game.apply(1, Transfer("6C"), 2.0)
    assert game.passed == set() and game.defender == 2
    assert Pass() in game.legal_actions(1) and Pass() in game.legal_actions(0)
    game.apply(2, Defend("8S", "6S"), 3.0)
    game.apply(1, ThrowIn("8D"), 4.0)  # the previous defender throws in
    assert table(game)[-1] == ("8D", None)


def test_r6_the_limit_is_recomputed_from_the_new_defenders_hand():
    game = new(["6S 6H 9C 9D TC TD", "6C 7S 8D JC QS KS", "6D 7D 8C 8S"], TALON)
    assert game.limit == 5
    game.apply(0, Lead("6S"), 1.0)
    game.apply(1, Transfer("6C"), 2.0)
    assert game.limit == 4


def test_r7_every_attacker_throws_in_while_the_defender_is_beating():
    game = new(
        [
            "6S 7D 9C 9D TC JC",
            "6C 7C 8D JD KC KD",
            "7S 8S AS AC QS JS",
            "6D 7H TS TD TH 9S",
        ],
        "QD AD KH",
    )
    game.apply(0, Lead("6S"), 1.0)
    game.apply(1, Transfer("6C"), 2.0)
    game.apply(2, Defend("7S", "6S"), 3.0)
    game.apply(0, ThrowIn("7D"), 4.0)  # the one who led
    game.apply(1, ThrowIn("7C"), 5.0)  # the previous defender
    refuse(game, 3, ThrowIn("TS"), 5.5, "R7")  # no ten on the table
    game.apply(3, ThrowIn("6D"), 6.0)  # the player after the defender
    assert len(game.table) == 5 == game.limit
    refuse(game, 3, ThrowIn("7H"), 7.0, "R9")
    assert game.legal_actions(3) == [Pass()]


def test_r7_nothing_is_thrown_in_before_the_lead_nor_by_the_defender():
    game = new(THREE, TALON)
    refuse(game, 1, ThrowIn("6C"), 1.0, "R7")
    game.apply(0, Lead("6S"), 1.0)
    refuse(game, 1, ThrowIn("6C"), 2.0, "R7")
    refuse(game, 2, ThrowIn("7D"), 2.0, "R7")


def test_r8_after_a_take_the_attackers_throw_in_and_the_defender_picks_up_everything():
    game = new(THREE, TALON)
    game.apply(0, Lead("6S"), 1.0)
    game.apply(1, Defend("7S", "6S"), 2.0)
    game.apply(2, ThrowIn("6D"), 3.0)
    game.apply(1, Take(), 4.0)
    assert game.taken and game.phase == "closing" and game.legal_actions(1) == []
    refuse(game, 1, Defend("8D", "6D"), 5.0, "R8")
    refuse(game, 1, Take(), 5.0, "R8")
    game.apply(2, ThrowIn("7D"), 5.0)
    game.tick(100.0)
    assert hand(game, 1) == "6C 6D 6S 7D 7S 8D JC KS QS"
    assert game.view(0)["known"][1] == ["6S", "6D", "7S", "7D"]


def test_r8_there_is_nothing_to_take_once_every_card_is_beaten():
    game = new(THREE, TALON)
    game.apply(0, Lead("6S"), 1.0)
    game.apply(1, Defend("7S", "6S"), 2.0)
    refuse(game, 1, Take(), 3.0, "R8")


def first_round_of_six():
    game = new(["6S 6C 6D 6H 7D 7H", "7S 8S 9S TS JS QS"], "AS AC KH")
    game.apply(0, Lead(["6S", "6C", "6D"]), 1.0)
    game.apply(1, Defend("7S", "6S"), 2.0)
    game.apply(0, ThrowIn("7D"), 3.0)
    game.apply(0, ThrowIn("6H"), 4.0)
    return game


def test_r9_the_first_round_holds_at_most_five_attack_cards():
    game = first_round_of_six()
    assert game.limit == 5 and len(game.table) == 5
    refuse(game, 0, ThrowIn("7H"), 5.0, "R9")


def test_r9_a_take_in_the_first_round_lifts_the_cap_to_six():
    game = first_round_of_six()
    game.apply(1, Take(), 5.0)
    assert game.limit == 6
    game.apply(0, ThrowIn("7H"), 6.0)
    assert len(game.table) == 6 and game.limit == 6


def test_r9_later_rounds_hold_six_but_never_more_than_the_defenders_hand():
    game = new(["6S 9C", "7S 8S 9S TS JS QS AS"], trump="H", attacker=1)
    game.apply(1, Lead("7S"), 1.0)
    game.apply(0, Take(), 2.0)
    game.tick(20.0)
    assert game.round == 2 and (game.attacker, game.defender) == (1, 0)
    assert game.limit == 3  # seat 0 holds 6S 9C 7S after taking
    full = two_players()
    full.apply(0, Lead("6S"), 1.0)
    full.apply(1, Defend("8S", "6S"), 2.0)
    full.tick(20.0)
    assert full.round == 2 and full.limit == 6
