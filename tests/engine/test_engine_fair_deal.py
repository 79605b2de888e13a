"""R1 made checkable: the deal follows from the server seed, the players' seeds and the game."""

from __future__ import annotations

from games.engine import CARDS, deal_salt, fair_deal, fair_deck, seed_commitment

SEED = b"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"


def test_the_fair_deal_matches_the_vector_written_in_the_readme():
    assert (
        seed_commitment(SEED) == "a8ae6e6ee929abea3afcfc5258c8ccd6f85273e0d4626d26c7279f3250f77c8e"
    )
    deal = fair_deal(2, SEED, deal_salt(7, ["a1b2c3", ""]))
    assert [" ".join(map(str, hand)) for hand in deal.hands] == [
        "JS 9S QD JC QS JH",
        "9C AH KC 6D 7H KH",
    ]
    assert str(deal.talon[-1]) == "JD" and deal.trump == "D"
    assert len(deal.talon) == 24


def test_the_message_names_the_version_the_game_and_every_seats_seed_in_order():
    assert deal_salt(7, ["a1b2c3", ""]) == b"durak-deal/1|7|a1b2c3|"


def test_every_card_is_dealt_once_and_any_changed_input_changes_the_deal():
    base = fair_deck(SEED, deal_salt(7, ["a1", "b2"]))
    assert len(base) == 36 and set(base) == set(CARDS)
    assert fair_deck(SEED, deal_salt(7, ["a1", "b3"])) != base
    assert fair_deck(SEED, deal_salt(8, ["a1", "b2"])) != base
    assert fair_deck(SEED.replace(b"0", b"1", 1), deal_salt(7, ["a1", "b2"])) != base
    assert fair_deck(SEED, deal_salt(7, ["a1", "b2"])) == base
