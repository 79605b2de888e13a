"""Properties of whole random games: they end, no card is lost or doubled, views never leak,
what is legal is exactly what ``apply`` accepts, and storing a game changes nothing."""

from __future__ import annotations

import random

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from games.engine import (
    Card,
    Deal,
    Defend,
    Game,
    IllegalAction,
    Lead,
    Pass,
    Take,
    ThrowIn,
    Transfer,
)
from games.engine.cards import CARDS
from tests.support.engine_helpers import copy_of, state

MOST_STEPS = 5000


def cards_in_play(game: Game) -> list[Card]:
    table = [card for pair in game.table for card in pair if card is not None]
    return [card for hand in game.hands for card in hand] + table + game.talon + game.discarded


def check_cards(game: Game) -> None:
    every = cards_in_play(game)
    assert len(every) == len(set(every)) and len(every) + game.set_aside == 36
    for seat in range(game.players):
        assert game.known[seat] <= set(game.hands[seat])


def check_views(game: Game) -> None:
    """Each view shows its own hand, other hands only through "known", and lets a
    card-counting bot tell exactly which cards it cannot see."""
    hands = [{str(card) for card in hand} for hand in game.hands]
    hidden_talon = {str(card) for card in game.talon[:-1]}
    for seat in [*range(game.players), None]:
        view = game.view(seat)
        shown = {code for code in _strings(view) if len(code) == 2 and code[1] in "SCDH"}
        for other in range(game.players):
            if other != seat:
                known = set(view["known"][other])
                assert known <= hands[other] and not (shown & hands[other]) - known
        assert not shown & hidden_talon
        if seat is None:
            continue
        seen = (
            set(view["hand"])
            | set(view["discarded"])
            | {code for pair in view["table"] for code in pair if code}
        )
        seen |= {code for known in view["known"] for code in known}
        if view["talon"] and view["trump_card"] is not None:
            seen.add(view["trump_card"])
        unseen = {str(card) for card in CARDS} - seen
        really_hidden = set().union(*(hands[o] for o in range(game.players) if o != seat))
        really_hidden = (really_hidden - seen) | hidden_talon
        assert really_hidden <= unseen
        assert len(unseen) == len(really_hidden) + view["set_aside"]


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


def candidate_actions(game: Game, seat: int, rng: random.Random) -> list:
    """Actions of every kind, mostly with cards of the seat's hand against the table."""
    card = rng.choice(game.hands[seat] or CARDS) if rng.random() < 0.8 else rng.choice(CARDS)
    attacks = [attack for attack, _ in game.table]
    target = rng.choice(attacks) if attacks and rng.random() < 0.8 else rng.choice(CARDS)
    return [Lead(card), ThrowIn(card), Defend(card, target), Transfer(card), Take(), Pass()]


def check_legal_is_what_apply_accepts(game: Game, rng: random.Random, now: float) -> None:
    seat = rng.randrange(game.players)
    legal = game.legal_actions(seat)
    for action in [*candidate_actions(game, seat, rng), *legal[:2]]:
        trial = copy_of(game)
        trial.tick(now)
        listed = action in trial.legal_actions(seat)
        before = state(trial)
        try:
            trial.apply(seat, action, now)
        except IllegalAction as refused:
            assert not listed, f"{action} is listed but refused: {refused}"
            assert state(trial) == before
        else:
            assert listed, f"{action} accepted but not listed"


def play_randomly(players: int, seed: int, rng: random.Random, check) -> Game:
    return play_on(Game.start(Deal.shuffled(players, seed)), rng, check)


def play_on(game: Game, rng: random.Random, check) -> Game:
    players = game.players
    now = 0.0
    for _ in range(MOST_STEPS):
        if game.phase == "over":
            return game
        check(game, rng, now)
        if rng.random() < 0.05:
            now += rng.choice([1.0, 8.0, 30.0])
            game.tick(now)
            continue
        movers = [seat for seat in range(players) if game.legal_actions(seat)]
        if not movers:
            deadline = game.deadline
            assert deadline is not None, "a seat that waits has a deadline"
            now = deadline
            game.tick(now)
            continue
        seat = rng.choice(movers)
        game.apply(seat, rng.choice(game.legal_actions(seat)), now)
    raise AssertionError(f"the game did not end in {MOST_STEPS} steps")


games = given(
    st.integers(2, 4),
    st.integers(0, 2**32),
    st.integers(0, 2**32).map(random.Random),  # chooses the moves and the pauses
)


@settings(max_examples=150, deadline=None)
@games
def test_every_game_ends_with_all_36_cards_accounted_for(players, seed, rng):
    def check(game, rng, now):
        check_cards(game)

    game = play_randomly(players, seed, rng, check)
    check_cards(game)
    in_game = [seat for seat in range(players) if game.in_game[seat]]
    assert in_game == ([] if game.durak is None else [game.durak])
    groups = [seat for group in game.finished for seat in group]
    assert sorted(groups + in_game) == list(range(players))


@settings(max_examples=30, deadline=None)
@games
def test_views_never_show_a_hidden_card(players, seed, rng):
    play_randomly(players, seed, rng, lambda game, rng, now: check_views(game))


@settings(max_examples=15, deadline=None)
@games
def test_legal_actions_are_exactly_what_apply_accepts(players, seed, rng):
    play_randomly(players, seed, rng, check_legal_is_what_apply_accepts)


@settings(max_examples=30, deadline=None)
@games
def test_a_stored_game_plays_on_exactly_like_the_original(players, seed, rng):
    def check(game, rng, now):
        if rng.random() < 0.2:
            copy = copy_of(game)
            assert copy == game and copy.deadline == game.deadline
            for seat in range(players):
                assert copy.legal_actions(seat) == game.legal_actions(seat)
                assert copy.view(seat) == game.view(seat)

    play_randomly(players, seed, rng, check)


@st.composite
def end_games(draw):
    """A deal from the middle of a game: short hands, a short talon or none, cards gone."""
    players = draw(st.integers(2, 4))
    deck = draw(st.permutations(CARDS))
    sizes = [draw(st.integers(0, 8)) for _ in range(players)]
    talon_size = draw(st.sampled_from([0, 0, 1, 2, 5]))
    hands, rest = [], list(deck)
    for size in sizes:
        hands.append(rest[:size])
        rest = rest[size:]
    talon = rest[:talon_size]
    trump = draw(st.sampled_from("SCDH"))
    try:
        return Game.start(Deal(hands, talon, trump=None if talon else trump))
    except ValueError:
        assume(False)


@settings(max_examples=200, deadline=None)
@given(end_games(), st.integers(0, 2**32).map(random.Random))
def test_end_games_play_out_keeping_every_card_and_hiding_hands(game, rng):
    def check(game, rng, now):
        check_cards(game)
        check_views(game)

    game = play_on(game, rng, check)
    check_cards(game)
    remaining = [seat for seat in range(game.players) if game.in_game[seat]]
    assert remaining == ([] if game.durak is None else [game.durak])
