from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.db import connection, transaction
from django.db.models import F, Model, Sum
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from accounts import ledger
from games import clock, errors
from games.engine import Action, Deal, Rules
from games.engine import Game as EngineGame
from games.models import Game, GameEvent, GamePlayer, Seat, Table
from games.picture import notices
from games.table import play, tables
from tests.support.databases import ON_BOTH_DATABASES
from tests.support.sockets import move_of
from tests.support.tables import deadline_of, open_table, play_out, start_when_due

pytestmark = pytest.mark.usefixtures("ledger_audit")


def set_position(game: Game, hands: list[str], talon: str, attacker: int = 0) -> EngineGame:
    """Replace the dealt cards with an exact position, as a test on paper would."""
    deal = Deal(hands=[h.split() for h in hands], talon=talon.split())
    engine = EngineGame.start(deal, Rules(), now=clock.now(), attacker=attacker)
    game.state = engine.to_dict()
    game.deadline_at = clock.to_datetime(engine.deadline) if engine.deadline else None
    game.bot_moves = {}
    game.save()
    return engine


def move(game: Game, player, seen: int, **fields: object) -> Game:
    """A command as the table socket would receive it, made on the screen of version `seen`."""
    return play.act(game.pk, player, move_of({**fields, "version": seen}), seen)


def paid_out(game: Game) -> int:
    """The chips the game's bank paid out to its seats."""
    return GamePlayer.objects.filter(game=game).aggregate(paid=Sum("payout"))["paid"]


def test_r14_a_whole_four_player_game_with_bots_pays_the_bank_out(anna, frozen_clock):
    table = open_table(anna, stake=100, seats=4)
    for level in ("easy", "easy", "strong"):
        tables.add_bot(table.pk, anna, level)
    game = play_out(start_when_due(table, frozen_clock), frozen_clock)
    assert game.status == Game.Status.FINISHED
    players = list(GamePlayer.objects.filter(game=game))
    assert paid_out(game) == 400
    assert all(p.place is not None for p in players)
    assert sum(p.durak for p in players) <= 1
    assert ledger.bank(game.pk).balance == 0
    assert game.events.filter(type="seed", data__seed=game.seed).exists()
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN


def two_player_game(anna, boris, frozen_clock, hands, talon, attacker=0) -> tuple[Game, EngineGame]:
    table = open_table(anna, stake=10)
    tables.join(table.pk, boris)
    game = start_when_due(table, frozen_clock)
    engine = set_position(game, hands, talon, attacker)
    return game, engine


def test_an_illegal_move_is_refused_with_its_reason_and_changes_nothing(anna, boris, frozen_clock):
    game, _engine = two_player_game(anna, boris, frozen_clock, ["6S 7S 8C", "9S TS JC"], "QD KH")
    before = (game.version, game.state)
    with pytest.raises(errors.GameError, match="R4"):
        move(game, anna, game.version, action="lead", card=["6S", "7S"])
    with pytest.raises(errors.GameError, match="do not hold"):
        move(game, anna, game.version, action="lead", card="9S")
    game.refresh_from_db()
    assert (game.version, game.state) == before


def test_a_move_for_another_seat_is_impossible_the_seat_comes_from_the_session(
    anna, boris, frozen_clock
):
    game, _engine = two_player_game(anna, boris, frozen_clock, ["6S 7S 8C", "9S TS JC"], "QD KH")
    before = game.state
    with pytest.raises(errors.GameError):
        move(game, boris, game.version, action="lead", card="6S")
    game.refresh_from_db()
    assert game.state == before


def lead(game: Game, player, card: str) -> Game:
    game.refresh_from_db()
    return move(game, player, game.version, action="lead", card=card)


@pytest.fixture
def thrown_in_unseen(anna, boris, frozen_clock) -> tuple[Game, int]:
    """Anna leads 6♠, then throws in 6♣ while Boris still looks at the version before it."""
    game, _engine = two_player_game(
        anna, boris, frozen_clock, ["6S 6C 8C 9D", "7S TS JC QC"], "QD KH"
    )
    lead(game, anna, "6S")
    game.refresh_from_db()
    seen = game.version
    move(game, anna, seen, action="throw-in", card="6C")
    return game, seen


def test_a_take_made_on_an_out_of_date_screen_is_refused(boris, thrown_in_unseen):
    game, seen = thrown_in_unseen
    with pytest.raises(errors.StaleCommand, match="changed"):
        move(game, boris, seen, action="take")
    game.refresh_from_db()
    assert not EngineGame.from_dict(game.state).taken


def test_a_stale_defence_that_still_fits_is_applied(boris, thrown_in_unseen):
    game, seen = thrown_in_unseen
    move(game, boris, seen, action="defend", card="7S", target="6S")
    assert game.events.filter(type="defend", seat=1).exists()


def test_a_version_from_the_future_is_refused(anna, boris, frozen_clock):
    game, _engine = two_player_game(
        anna, boris, frozen_clock, ["6S 6C 8C 9D", "7S TS JC QC"], "QD KH"
    )
    with pytest.raises(errors.StaleCommand):
        move(game, anna, 999, action="lead", card="6S")


@ON_BOTH_DATABASES
def test_r15_two_timeouts_in_a_row_make_a_player_away_until_they_act(
    database, anna, boris, frozen_clock
):
    game, engine = two_player_game(
        anna, boris, frozen_clock, ["6S 6C 8C 9D", "7S TS JC QC"], "QD KH"
    )
    frozen_clock.advance(30.01)
    play.tick(game.pk)
    seat = Seat.objects.get(player=anna)
    assert seat.timeouts == 1 and not seat.away
    game.refresh_from_db()
    assert game.events.filter(type="lead", data__auto=True).exists()
    frozen_clock.past_deadline(game, 0.01)
    play.tick(game.pk)
    seat.refresh_from_db()
    assert seat.timeouts == 1, "boris, not anna, was waited on for the defence"


def test_r15_a_player_who_leaves_a_running_game_keeps_the_place_and_payout(
    anna, boris, frozen_clock
):
    table = open_table(anna, stake=100)
    tables.join(table.pk, boris)
    game = start_when_due(table, frozen_clock)
    tables.leave(table.pk, boris)
    assert Seat.objects.get(player=boris).left
    game.refresh_from_db()
    assert game.bot_moves["due"] or game.deadline_at is not None
    game = play_out(game, frozen_clock)
    boris_result = GamePlayer.objects.get(game=game, player=boris)
    assert boris_result.place is not None and boris_result.payout is not None
    assert ledger.balance(boris) == 900 + boris_result.payout
    assert not Seat.objects.filter(player=boris).exists()


def test_the_next_game_starts_when_every_person_pressed_play_again(anna, boris, frozen_clock):
    table = open_table(anna, stake=0, seats=3)
    tables.join(table.pk, boris)
    tables.add_bot(table.pk, anna)
    play_out(start_when_due(table, frozen_clock), frozen_clock)
    table.refresh_from_db()
    tables.play_again(table.pk, anna)
    table.refresh_from_db()
    assert table.starts_at is None
    tables.play_again(table.pk, boris)
    table.refresh_from_db()
    assert table.starts_at is not None
    second = start_when_due(table, frozen_clock)
    assert second.pk != Game.objects.order_by("started_at").first().pk


def test_a_take_made_on_the_screen_of_a_game_that_is_over_never_lands_on_the_next(
    anna, boris, frozen_clock
):
    table = open_table(anna, stake=0)
    tables.join(table.pk, boris)
    first = start_when_due(table, frozen_clock)
    seen = first.version
    play.abort(first.pk)
    for person in (anna, boris):
        tables.play_again(table.pk, person)
    second = start_when_due(table, frozen_clock)
    take = move_of({"action": "take", "version": seen})
    with pytest.raises(errors.StaleCommand, match="This game is over"):
        play.act_at_table(anna, take, seen, first.pk)
    with pytest.raises(errors.StaleCommand):
        play.act_at_table(anna, take, seen, None)
    before = second.version
    second.refresh_from_db()
    assert second.version == before


def test_abort_returns_every_stake(anna, boris, frozen_clock):
    table = open_table(anna, stake=100)
    tables.join(table.pk, boris)
    game = start_when_due(table, frozen_clock)
    play.abort(game.pk, "server maintenance")
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert ledger.balance(anna) == 1000 and ledger.balance(boris) == 1000
    with pytest.raises(errors.GameError):
        play.abort(game.pk)


def test_a_deadline_acts_once_and_never_before_it_is_due(anna, boris, frozen_clock):
    game, _engine = two_player_game(
        anna, boris, frozen_clock, ["6S 6C 8C 9D", "7S TS JC QC"], "QD KH"
    )
    frozen_clock.advance(29.0)
    assert play.tick(game.pk) is False
    frozen_clock.advance(1.01)
    assert play.tick(game.pk) is True
    version = Game.objects.get(pk=game.pk).version
    assert play.tick(game.pk, clock.now()) is False
    assert Game.objects.get(pk=game.pk).version == version


def test_r16_a_bot_moves_between_one_and_a_half_and_three_seconds_after_it_can(anna, frozen_clock):
    table = open_table(anna, stake=0)
    tables.add_bot(table.pk, anna)
    game = start_when_due(table, frozen_clock)
    set_position(game, ["6S 6C 8C 9D", "7S TS JC QC"], "QD KH", attacker=1)
    tables.leave(table.pk, anna)
    game.refresh_from_db()
    dues = [float(at) - clock.now() for at in game.bot_moves["due"].values()]
    assert dues and all(1.5 <= due <= 3.0 for due in dues)
    assert abs(deadline_of(game) - clock.now() - min(dues)) < 0.01


def test_a_refusal_reads_in_the_players_language_and_names_the_rule(anna, boris, frozen_clock):
    game, _engine = two_player_game(anna, boris, frozen_clock, ["6S 7S 8C", "9S TS JC"], "QD KH")
    with translation.override("ru"), pytest.raises(errors.GameError) as refusal:
        move(game, anna, game.version, action="lead", card=["6S", "7S"])
    assert str(refusal.value) == (
        "Заходить несколькими картами можно только одного достоинства (R4)"
    )
    notice = notices.render_notice(str(refusal.value))
    assert '<a href="/rules/#r4">R4</a>' in notice


def test_a_game_among_bots_alone_stops_after_many_rounds_and_pays_as_a_draw(
    anna, frozen_clock, monkeypatch
):
    monkeypatch.setattr(play, "ENDLESS_ROUNDS", 2)
    table = open_table(anna, stake=30, seats=3)
    tables.add_bot(table.pk, anna)
    tables.add_bot(table.pk, anna)
    game = start_when_due(table, frozen_clock)
    tables.leave(table.pk, anna)
    game = play_out(game, frozen_clock)
    assert game.events.filter(type="stopped").exists()
    players = GamePlayer.objects.filter(game=game)
    assert paid_out(game) == 90 and not any(p.durak for p in players)


@pytest.fixture
def bot_to_defend(anna, frozen_clock) -> Game:
    """Anna has led 6♠ against a bot, and the bot's answer is due."""
    table = open_table(anna, stake=0)
    tables.add_bot(table.pk, anna)
    game = start_when_due(table, frozen_clock)
    set_position(game, ["6S 6C 8C 9D", "7S TS JC QC"], "QD KH", attacker=0)
    lead(game, anna, "6S")
    game.refresh_from_db()
    frozen_clock.past_deadline(game, 0.01)
    return game


def on_another_connection(work: Callable[[], object]) -> None:
    """Run `work` on a thread of its own, with its own database connection, and wait for
    it: it cannot finish while this thread holds the game row."""
    failures: list[Exception] = []

    def run() -> None:
        try:
            work()
        except Exception as failure:
            failures.append(failure)
        finally:
            connection.close()

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(timeout=10)
    assert not worker.is_alive(), "the game row stayed locked while the bot decided"
    assert not failures, failures


def lock_the_row(game_id: int) -> None:
    with transaction.atomic():
        Game.objects.select_for_update().get(pk=game_id)


@pytest.mark.django_db(transaction=True)
def test_a_bot_decides_while_another_writer_can_lock_the_game_row(bot_to_defend, monkeypatch):
    game = bot_to_defend
    decided = []
    decide = play.decide

    def decide_while_another_locks(engine, position, level, rng):
        on_another_connection(lambda: lock_the_row(game.pk))
        decided.append(position)
        return decide(engine, position, level, rng)

    monkeypatch.setattr(play, "decide", decide_while_another_locks)
    assert play.tick(game.pk) is True
    assert decided == [1]
    assert Game.objects.get(pk=game.pk).events.filter(data__by="bot").count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_move_made_while_a_bot_decides_voids_its_decision_and_it_decides_again(
    anna, bot_to_defend, monkeypatch
):
    game = bot_to_defend
    cards_seen: list[int] = []
    decisions: list[Action] = []
    decide = play.decide

    def decide_while_anna_throws_in(engine, position, level, rng):
        cards_seen.append(len(engine.table))
        if len(cards_seen) == 1:
            on_another_connection(
                lambda: move(game, anna, game.version, action="throw-in", card="6C")
            )
        decisions.append(decide(engine, position, level, rng))
        return decisions[-1]

    monkeypatch.setattr(play, "decide", decide_while_anna_throws_in)
    assert play.tick(game.pk) is False
    thrown = Game.objects.get(pk=game.pk)
    assert thrown.version == game.version + 1
    assert not thrown.events.filter(data__by="bot").exists()

    assert play.tick(game.pk) is True
    assert cards_seen == [1, 2]
    answered = Game.objects.get(pk=game.pk)
    assert [e.version for e in answered.events.filter(data__by="bot")] == [game.version + 2]
    expected = EngineGame.from_dict(thrown.state)
    expected.apply(1, decisions[-1], clock.now())
    assert answered.state == expected.to_dict()


def written(queries: list[dict[str, str]], statement: str, model: type[Model]) -> int:
    """How many of the captured statements are `statement` ("UPDATE", "INSERT INTO") on
    `model`'s table."""
    start = f'{statement} "{model._meta.db_table}"'
    return sum(1 for query in queries if query["sql"].lstrip().upper().startswith(start.upper()))


def test_a_bots_move_writes_its_row_at_the_version_read_and_its_events_in_one_statement(
    bot_to_defend,
):
    game = bot_to_defend
    with CaptureQueriesContext(connection) as captured:
        assert play.tick(game.pk) is True
    assert written(captured.captured_queries, "UPDATE", Game) == 1
    assert written(captured.captured_queries, "INSERT INTO", GameEvent) == 1
    sqls = [query["sql"].lstrip().upper() for query in captured.captured_queries]
    begun = next(index for index, sql in enumerate(sqls) if sql.startswith("UPDATE"))
    assert not [sql for sql in sqls[begun:] if sql.startswith("SELECT")], "no read to lock it"
    assert Game.objects.get(pk=game.pk).version == game.version + 1


@ON_BOTH_DATABASES
def test_a_tick_on_a_game_another_writer_saved_since_writes_nothing(
    database, bot_to_defend, monkeypatch
):
    game = bot_to_defend
    decide = play.decide

    def decide_while_another_saves(engine, position, level, rng):
        Game.objects.filter(pk=game.pk).update(version=game.version + 1)
        return decide(engine, position, level, rng)

    monkeypatch.setattr(play, "decide", decide_while_another_saves)
    events = game.events.count()
    assert play.tick(game.pk) is False
    after = Game.objects.get(pk=game.pk)
    assert (after.version, after.state, after.event_seq) == (
        game.version + 1,
        game.state,
        game.event_seq,
    )
    assert game.events.count() == events


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_on_postgresql_a_bots_move_is_one_statement_and_no_transaction(bot_to_defend):
    game = bot_to_defend
    with CaptureQueriesContext(connection) as captured:
        assert play.tick(game.pk) is True
    sqls = [query["sql"].lstrip().upper() for query in captured.captured_queries]
    assert [sql for sql in sqls if not sql.startswith("SELECT")] == [
        sql for sql in sqls if sql.startswith("WITH SAVED AS (UPDATE")
    ]
    assert len([sql for sql in sqls if sql.startswith("WITH")]) == 1
    after = Game.objects.get(pk=game.pk)
    assert after.version == game.version + 1
    assert after.events.filter(version=after.version, data__by="bot").count() == 1


def another_writer_saves_on_load(monkeypatch, times: int) -> list[int]:
    """The first `times` reads of a game by the writer are followed at once by another
    writer's version of it; the versions each read was made at."""
    reads: list[int] = []
    load = play.load

    def load_while_another_saves(game_id: int, **options: object) -> play.Loaded:
        loaded = load(game_id, **options)  # type: ignore[arg-type]
        reads.append(loaded.row.version)
        if len(reads) <= times:
            Game.objects.filter(pk=game_id).update(version=F("version") + 1)
        return loaded

    monkeypatch.setattr(play, "load", load_while_another_saves)
    return reads


@ON_BOTH_DATABASES
def test_a_persons_move_on_a_game_another_writer_saved_meanwhile_is_made_on_the_game_read_again(
    database, anna, boris, frozen_clock, monkeypatch
):
    game, _engine = two_player_game(
        anna, boris, frozen_clock, ["6S 6C 8C 9D", "7S TS JC QC"], "QD KH"
    )
    reads = another_writer_saves_on_load(monkeypatch, times=1)
    move(game, anna, game.version, action="lead", card="6S")
    assert len(reads) == 2
    game.refresh_from_db()
    assert game.version == reads[-1] + 1
    assert game.events.filter(type="lead", seat=0, version=game.version).count() == 1


@ON_BOTH_DATABASES
def test_a_persons_move_on_a_game_other_writers_keep_moving_on_is_refused_and_writes_nothing(
    database, anna, boris, frozen_clock, monkeypatch
):
    game, _engine = two_player_game(
        anna, boris, frozen_clock, ["6S 6C 8C 9D", "7S TS JC QC"], "QD KH"
    )
    state, events = game.state, game.events.count()
    reads = another_writer_saves_on_load(monkeypatch, times=play.MOVE_ATTEMPTS)
    with pytest.raises(errors.StaleCommand, match="changed"):
        move(game, anna, game.version, action="lead", card="6S")
    assert len(reads) == play.MOVE_ATTEMPTS
    game.refresh_from_db()
    assert (game.state, game.events.count()) == (state, events)


@ON_BOTH_DATABASES
def test_r15_a_player_who_was_away_is_back_with_their_move(database, anna, boris, frozen_clock):
    game, _engine = two_player_game(
        anna, boris, frozen_clock, ["6S 6C 8C 9D", "7S TS JC QC"], "QD KH"
    )
    Seat.objects.filter(player=anna).update(away=True, timeouts=2)
    move(game, anna, game.version, action="lead", card="6S")
    seat = Seat.objects.get(player=anna)
    assert (seat.away, seat.timeouts, seat.left) == (False, 0, False)
    assert game.events.filter(type="lead", seat=0).exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_on_postgresql_a_persons_move_is_one_statement_and_no_transaction(
    anna, boris, frozen_clock
):
    game, _engine = two_player_game(
        anna, boris, frozen_clock, ["6S 6C 8C 9D", "7S TS JC QC"], "QD KH"
    )

    def no_transaction(*args: object, **kwargs: object) -> object:
        raise AssertionError("a person's move opened a transaction")

    with CaptureQueriesContext(connection) as captured, pytest.MonkeyPatch.context() as patch:
        patch.setattr(transaction, "atomic", no_transaction)
        move(game, anna, game.version, action="lead", card="6S")
    sqls = [query["sql"].lstrip().upper() for query in captured.captured_queries]
    written = [sql for sql in sqls if not sql.startswith("SELECT")]
    assert len(written) == 1 and written[0].startswith("WITH SAVED AS (UPDATE")
    game.refresh_from_db()
    assert game.events.filter(type="lead", seat=0, version=game.version).count() == 1
