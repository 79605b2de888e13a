"""The load benchmark's person reads the site's own screens: a template laid out anew must
not leave them unable to play their cards (a table then waits out every move timer). And
the benchmark's own arithmetic: what a player feels, the machine's CPU, the sweep's knee,
the bots' levels."""

from __future__ import annotations

import argparse
import asyncio
import random

import pytest

from accounts.models import User
from accounts.services import create_player
from benchmarks import load
from benchmarks.fixtures import table_with_three_bots
from benchmarks.load import Answers, Connection, CpuSample, Crowd, Player
from games import clock
from games.engine import Deal, Lead, Rules
from games.engine import Game as EngineGame
from games.live import broadcast, snapshots
from games.models import Game, Seat, Table
from games.table import play, tables
from tests.support.sockets import move_of


def screen_of_seat_0(engine: EngineGame) -> tuple[str, tuple[int, int]]:
    """Seat 0's screen at a two-seat table against a bot, in the position `engine` holds."""
    anna = create_player("anna", "anna-plays-durak")
    table = tables.create_table(
        anna, name="Load", stake=0, seats=2, move_time=30, bots_allowed=True, private=False
    )
    tables.add_bot(table.pk, anna)
    Table.objects.filter(pk=table.pk).update(starts_at=clock.to_datetime(clock.now()))
    game = play.start(table.pk)
    assert game is not None
    Game.objects.filter(pk=game.pk).update(state=engine.to_dict(), bot_moves={})
    return snapshots.render(table.pk, 0).html, (game.pk, game.version)


@pytest.mark.django_db
def test_the_benchmarks_person_leads_a_card_when_the_screen_lets_them():
    deal = Deal(hands=[["6S", "6C", "9D"], ["7S", "TS", "JC"]], talon=["QD", "KH"])
    html, frame = screen_of_seat_0(EngineGame.start(deal, Rules(), now=clock.now(), attacker=0))
    move = Player(random.Random(0)).read(html, frame)
    assert move is not None and move["action"] == "lead" and move["version"] == frame[1]
    assert move["card"] in ("6S", "6C", "9D")


@pytest.mark.django_db
def test_the_benchmarks_person_beats_the_card_led_against_them():
    deal = Deal(hands=[["8S", "6C", "9D"], ["7S", "TS", "JC"]], talon=["QD", "KH"])
    engine = EngineGame.start(deal, Rules(), now=clock.now(), attacker=1)
    engine.apply(1, Lead("7S"), clock.now())
    html, frame = screen_of_seat_0(engine)
    move = Player(random.Random(0)).read(html, frame)
    assert move == {"action": "defend", "card": "8S", "target": "7S", "version": frame[1]}


@pytest.mark.django_db
def test_the_benchmarks_person_passes_over_a_frame_older_than_one_they_have_seen():
    deal = Deal(hands=[["6S", "6C", "9D"], ["7S", "TS", "JC"]], talon=["QD", "KH"])
    html, (game, version) = screen_of_seat_0(
        EngineGame.start(deal, Rules(), now=clock.now(), attacker=0)
    )
    person = Player(random.Random(0))
    person.newest = (game, version + 1)
    assert person.read(html, (game, version)) is None


@pytest.mark.django_db
def test_the_benchmarks_person_keeps_their_hand_through_the_changes_that_follow(
    monkeypatch, django_capture_on_commit_callbacks
):
    deal = Deal(hands=[["6S", "6C", "9D"], ["7S", "TS", "JC"]], talon=["QD", "KH"])
    html, (game, version) = screen_of_seat_0(
        EngineGame.start(deal, Rules(), now=clock.now(), attacker=0)
    )
    person = Player(random.Random(0))
    move = person.read(html, (game, version))
    assert move is not None and move["action"] == "lead"
    sent: list[list[broadcast.Message]] = []
    monkeypatch.setattr(broadcast, "send_all", sent.append)
    monkeypatch.setattr(broadcast.listeners, "listening", set)
    anna = User.objects.get(username="anna")
    with django_capture_on_commit_callbacks(execute=True):
        play.act(game, anna, move_of(move), version)
    change = next(
        message["html"]["*"]
        for batch in sent
        for group, message in batch
        if group.endswith("-seat-0") and message["type"] == "table.html"
    )
    assert '<section id="game"' not in change
    person.read(change, (game, version + 1))
    assert set(person.hand) == {"6S", "6C", "9D"} - {move["card"]}


# ---------------------------------------------------------------- what a player feels


def test_a_move_waits_until_its_socket_shows_a_later_version_than_it_was_decided_on():
    answers = Answers()
    answers.sent((7, 4), None, at=10.0, wall=1000.0)
    answers.shown((7, 4), False, set(), at=10.05)
    assert answers.waits == []
    answers.shown((7, 5), False, set(), at=10.12)
    assert answers.waits == [(1000.0, pytest.approx(120.0))]
    assert answers.open == []


def test_a_later_game_answers_a_move_on_the_game_before():
    answers = Answers()
    answers.sent((7, 30), None, at=10.0, wall=1000.0)
    answers.shown((8, 1), False, set(), at=10.2)
    assert [waited for _sent, waited in answers.waits] == [pytest.approx(200.0)]


def test_the_waiting_room_answers_the_move_that_ended_the_game():
    answers = Answers()
    answers.sent((7, 30), "6S", at=10.0, wall=1000.0)
    answers.shown(None, True, {"6S"}, at=10.03)
    assert [waited for _sent, waited in answers.waits] == [pytest.approx(30.0)]


def test_a_refused_move_is_left_out_of_what_a_player_feels():
    answers = Answers()
    answers.sent((7, 4), "6S", at=10.0, wall=1000.0)
    answers.refusal()
    answers.shown((7, 5), False, {"6S"}, at=10.1)
    assert answers.waits == [] and answers.open == [] and answers.refused == 1


def test_a_card_move_that_a_bots_version_overtook_and_the_server_refused_is_left_out():
    answers = Answers()
    answers.sent((7, 4), "6S", at=10.0, wall=1000.0)
    answers.shown((7, 5), False, {"6S", "9D"}, at=10.1)
    answers.sent((7, 5), "9D", at=10.2, wall=1000.2)
    answers.refusal()
    answers.shown((7, 6), False, {"6S"}, at=10.3)
    assert answers.waits == [(1000.2, pytest.approx(100.0))]


def test_a_card_move_counts_from_its_send_to_the_first_later_version_once_its_card_left():
    answers = Answers()
    answers.sent((7, 4), "6S", at=10.0, wall=1000.0)
    answers.shown((7, 5), False, {"6S"}, at=10.1)
    answers.shown((7, 6), False, set(), at=10.4)
    assert answers.waits == [(1000.0, pytest.approx(100.0))]


def test_a_refusal_with_no_move_open_changes_nothing():
    answers = Answers()
    answers.refusal()
    assert answers.refused == 0 and answers.waits == []


def test_what_a_player_feels_counts_only_the_moves_sent_in_the_measured_window():
    crowd = Crowd(seconds=10)
    crowd.window = (1000.0, 1010.0)
    answers = Answers()
    person = Connection(table=1, role="player", answers=answers)
    for wall, waited in ((999.0, 5.0), (1001.0, 40.0), (1009.0, 60.0), (1011.0, 900.0)):
        answers.waits.append((wall, waited))
    crowd.connections.append(person)
    assert load.figures(crowd, {}, 1).user_latencies == [40.0, 60.0]


# ---------------------------------------------------------------- the machine's CPU

PROC_STAT = "cpu  36265 35231 11147 55238 633 10 257 68 500 0\ncpu0 17715 13893 4972 32580\n"


def test_the_machines_busy_time_leaves_out_idle_iowait_and_the_guest_time_already_in_user():
    assert load.busy_ticks(PROC_STAT) == 36265 + 35231 + 11147 + 10 + 257 + 68


def test_the_machines_busy_time_is_read_from_the_first_line_only():
    with pytest.raises(ValueError, match="cpu0"):
        load.busy_ticks("cpu0 1 2 3 4 5 6 7 8\n")


def test_a_process_counts_its_user_and_system_time_and_its_waited_childrens():
    stat = "4242 (my (odd) name) S 1 2 3 0 -1 4194304 100 0 0 0 70 30 5 2 20 0 1 0 69882"
    assert load.own_ticks(stat) == 70 + 30 + 5 + 2


def test_the_machines_cpu_over_a_window_leaves_out_the_clients_own(monkeypatch):
    monkeypatch.setattr(load, "CLOCK_TICKS", 100)
    before = CpuSample(machine=10_000, client=500)
    after = CpuSample(machine=10_450, client=620)
    assert load.machine_cpu_seconds(before, after) == pytest.approx(3.3)


def test_the_machines_cpu_is_never_less_than_nothing(monkeypatch):
    monkeypatch.setattr(load, "CLOCK_TICKS", 100)
    before = CpuSample(machine=10_000, client=500)
    assert load.machine_cpu_seconds(before, CpuSample(machine=10_010, client=600)) == 0.0


def test_this_machines_proc_stat_reads():
    sample = load.sample_cpu()
    assert sample.machine > 0 and sample.client > 0


# ---------------------------------------------------------------- the sweep


def point(
    tables: int, actions: float, p99: float, cpu: float, machine: float, playing: int = 0
) -> dict:
    return {
        "tables": tables,
        "actions_per_s": actions,
        "p99_ms": p99,
        "user_p99_ms": p99 * 2,
        "cpu_ms_per_action": cpu,
        "bare_cpu_ms_per_action": 2.0,
        "machine_cpu_ms_per_action": machine,
        "bare_machine_cpu_ms_per_action": 3.0,
        "tables_playing": playing or tables,
        "game_lateness_p99_ms": p99 * 3,
        "errors": 0,
    }


SWEEP = [
    point(25, 30.0, 40.0, 18.0, 22.0),
    point(50, 50.8, 99.9, 19.5, 24.0),
    point(100, 45.1, 709.0, 22.0, 23.9),
    point(150, 33.6, 571.0, 29.2, 33.9),
]


def test_the_knee_is_the_largest_table_count_whose_p99_is_under_100_ms():
    result = load.sweep_summary(SWEEP, server_cores=1)
    assert result["knee_tables"] == 50
    assert result["knee_actions_per_s"] == 50.8
    assert result["knee_actions_per_s_per_server_core"] == 50.8


def test_the_knee_is_the_largest_count_under_100_ms_even_past_a_slower_point():
    bumpy = [point(25, 30.0, 140.0, 18.0, 22.0), point(50, 50.0, 80.0, 19.0, 24.0)]
    assert load.sweep_summary(bumpy, server_cores=1)["knee_tables"] == 50


def test_the_knee_leaves_out_a_point_whose_p99_is_low_because_some_tables_never_played():
    waiting = [point(50, 50.8, 60.0, 19.5, 24.0), point(150, 50.0, 40.0, 20.0, 25.0, playing=80)]
    assert load.sweep_summary(waiting, server_cores=1)["knee_tables"] == 50


def test_the_knee_per_server_core_divides_by_the_server_cores():
    result = load.sweep_summary(SWEEP, server_cores=2)
    assert result["server_cores"] == 2
    assert result["knee_actions_per_s_per_server_core"] == 25.4


def test_the_collapse_check_takes_the_first_point_at_three_times_the_knee():
    collapse = load.sweep_summary(SWEEP, server_cores=1)["collapse"]
    assert collapse == {
        "tables": 150,
        "knee_tables": 50,
        "actions_per_s_of_peak": round(33.6 / 50.8, 2),
        "cpu_per_action_of_knee": round(29.2 / 19.5, 2),
        "machine_cpu_per_action_of_knee": round(33.9 / 24.0, 2),
        "bare_cpu_per_action_of_knee": 1.0,
        "game_lateness_p99_ms": 571.0 * 3,
    }


def test_the_collapse_check_tells_how_far_the_bare_stack_itself_moved_from_the_knee():
    drifted = [*SWEEP[:3], {**SWEEP[3], "bare_cpu_ms_per_action": 3.0}]
    collapse = load.sweep_summary(drifted, server_cores=1)["collapse"]
    assert collapse["bare_cpu_per_action_of_knee"] == 1.5
    assert collapse["cpu_per_action_of_knee"] == round(29.2 / 19.5, 2)


def test_no_collapse_check_when_the_sweep_stops_short_of_three_times_the_knee():
    assert load.sweep_summary(SWEEP[:3], server_cores=1)["collapse"] is None


def test_a_sweep_with_no_point_under_100_ms_has_no_knee():
    result = load.sweep_summary(SWEEP[2:], server_cores=1)
    assert result["knee_tables"] is None and result["knee_actions_per_s"] is None
    assert result["knee_actions_per_s_per_server_core"] is None and result["collapse"] is None


def test_the_sweep_summary_lists_each_points_main_figures_and_the_failed_counts():
    result = load.sweep_summary(SWEEP[:2], server_cores=1, failed=[200])
    assert result["sweep"] == [25, 50] and result["failed"] == [200]
    assert result["peak_actions_per_s"] == 50.8
    assert result["points"][1] == {
        "tables": 50,
        "actions_per_s": 50.8,
        "p99_ms": 99.9,
        "user_p99_ms": 199.8,
        "cpu_ms_per_action": 19.5,
        "bare_cpu_ms_per_action": 2.0,
        "machine_cpu_ms_per_action": 24.0,
        "bare_machine_cpu_ms_per_action": 3.0,
        "tables_playing": 50,
        "game_lateness_p99_ms": 99.9 * 3,
    }


def test_the_server_processes_are_one_embedded_and_two_daphnes_and_the_schedulers_scaled_out():
    assert load.server_processes("embedded", 2) == 1
    assert load.server_processes("scale-out", 2) == 4
    assert load.server_processes("scale-out", 1) == 3


def test_each_point_of_a_sweep_is_a_run_of_the_sweeps_options_at_its_own_table_count():
    options = load.options()
    args = options.parse_args(
        ["--mode", "scale-out", "--sweep", "3,6", "--seconds", "8", "--bots", "easy,strong,easy"]
    )
    one = options.parse_args(load.point_arguments(args, 6))
    assert (one.mode, one.tables, one.seconds, one.sweep) == ("scale-out", 6, 8.0, None)
    assert one.bots == ("easy", "strong", "easy")
    assert (one.database_url, one.redis_url) == (args.database_url, args.redis_url)


def test_the_sweep_names_its_table_counts_in_the_order_to_run_them():
    assert load.table_counts("50,25,100") == [50, 25, 100]


@pytest.mark.parametrize("text", ["25,,50", "25,fifty", "25,0"])
def test_the_sweep_refuses_a_table_count_that_is_not_a_whole_number_of_at_least_one(text):
    with pytest.raises(argparse.ArgumentTypeError, match="table count"):
        load.table_counts(text)


# ---------------------------------------------------------------- the bots' levels


def test_the_bots_option_names_the_level_of_each_of_a_tables_three_bots():
    assert load.bot_levels("easy,strong,easy") == ("easy", "strong", "easy")


def test_the_bots_are_three_easy_ones_unless_the_option_names_others():
    assert load.options().parse_args([]).bots == ("easy", "easy", "easy")


def test_the_bots_option_refuses_an_unknown_level():
    with pytest.raises(argparse.ArgumentTypeError, match="unknown bot level 'hard'"):
        load.bot_levels("easy,hard,easy")


@pytest.mark.parametrize("text", ["strong", "easy,strong", "easy,easy,easy,strong"])
def test_the_bots_option_refuses_other_than_three_levels(text):
    with pytest.raises(argparse.ArgumentTypeError, match="name 3 levels"):
        load.bot_levels(text)


@pytest.mark.django_db
def test_the_benchmarks_table_seats_its_bots_at_the_levels_asked_in_seat_order():
    host = create_player("host", "hosts-plays-durak")
    table = table_with_three_bots(host, "Load", ("easy", "strong", "easy"))
    bots = Seat.objects.filter(table=table, player__isnull=True).order_by("position")
    assert [seat.bot_level for seat in bots] == ["easy", "strong", "easy"]


class HeldSocket:
    """A socket that gives the frames it was handed, then waits until it is closed."""

    def __init__(self, frames: list[str]) -> None:
        self.frames = frames
        self.closed = asyncio.Event()

    def __aiter__(self) -> HeldSocket:
        return self

    async def __anext__(self) -> str:
        if self.frames:
            return self.frames.pop(0)
        await self.closed.wait()
        raise StopAsyncIteration

    async def close(self) -> None:
        self.closed.set()


async def test_a_socket_let_go_stops_listening_and_the_crowd_finishes_with_every_socket_closed():
    crowd = Crowd(1.0)
    leaving, staying = Connection(table=1, role="spectator"), Connection(table=1, role="spectator")
    leaving.sock, staying.sock = HeldSocket(["<p>one</p>"]), HeldSocket([])
    crowd.connections += [leaving, staying]
    listening = [
        asyncio.create_task(crowd.listen(record.sock, record, None)) for record in crowd.connections
    ]
    await asyncio.sleep(0.01)
    crowd.let_go(leaving)
    await asyncio.wait_for(listening[0], 1)
    assert not listening[1].done()
    crowd.tasks.add(listening[1])
    await asyncio.wait_for(crowd.finish(), 1)
    assert staying.sock.closed.is_set() and listening[1].exception() is None


async def test_a_socket_the_server_closes_unasked_is_a_failure():
    crowd = Crowd(1.0)
    record = Connection(table=1, role="player")
    socket = HeldSocket([])
    await socket.close()
    with pytest.raises(ConnectionError):
        await crowd.listen(socket, record, None)


def test_a_repeated_sweep_sums_up_the_middle_run_of_each_table_count_by_cpu_per_action():
    runs = [
        point(80, 120.0, 12.0, 5.3, 6.0),
        point(240, 115.0, 30.0, 7.9, 8.5),
        point(80, 121.0, 14.0, 5.6, 6.2),
        point(240, 118.0, 25.0, 6.2, 6.6),
        point(80, 119.0, 13.0, 5.9, 6.4),
        point(240, 117.0, 28.0, 6.4, 6.9),
    ]
    middle = load.middle_runs(runs)
    assert [(p["tables"], p["cpu_ms_per_action"]) for p in middle] == [(80, 5.6), (240, 6.4)]
    assert middle[1]["actions_per_s"] == 117.0, "one run's figures, not a mix of runs"


def test_the_middle_of_an_even_number_of_runs_is_the_dearer_one():
    runs = [point(80, 120.0, 12.0, 5.3, 6.0), point(80, 121.0, 14.0, 5.6, 6.2)]
    assert load.middle_runs(runs)[0]["cpu_ms_per_action"] == 5.6


def test_a_sweep_runs_once_unless_repeat_says_otherwise():
    assert load.options().parse_args(["--sweep", "80,240"]).repeat == 1
    assert load.options().parse_args(["--sweep", "80,240", "--repeat", "3"]).repeat == 3
