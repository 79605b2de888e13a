from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from games.engine import split_bank
from games.records.export import FORMAT
from games.records.replay import Mismatch, steps
from games.records.verification import verify
from games.table import play, tables
from tests.games.history_helpers import played, record_of
from tests.support.tables import open_table, start_when_due

pytestmark = pytest.mark.usefixtures("ledger_audit")
ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def record(anna):
    (game,) = played(anna, stake=10)
    return record_of(game)


def test_an_export_names_its_format_players_rules_seeds_deal_events_and_result(record):
    assert record["format"] == FORMAT == "durak-game/1"
    assert [p["name"] for p in record["players"]][0] == "anna"
    assert record["players"][1]["bot"] is True and record["players"][1]["level"] == "easy"
    assert record["rules"]["move_time"] == 30 and record["rules"]["stake"] == 10
    assert len(record["seed"]) == 64 and len(record["seed_hash"]) == 64
    assert [len(hand) for hand in record["deal"]["hands"]] == [6, 6]
    assert len(record["deal"]["talon"]) == 24 and record["deal"]["trump"] in "SCDH"
    assert all("at" in event and "seq" in event for event in record["events"])
    assert sum(record["result"]["payouts"]) == 20
    assert record["result"]["outcome"] in ("finished", "stopped")


def test_an_export_verifies(record):
    assert verify(record).startswith(f"game #{record['id']} verified")


def swap_a_card(record):
    hands = record["deal"]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]


def change_the_seed(record):
    record["seed"] = ("1" if record["seed"][0] != "1" else "2") + record["seed"][1:]


def change_the_result(record):
    record["result"]["payouts"][0] += 1


def change_a_move(record):
    event = next(e for e in record["events"] if e["type"] == "lead")
    event["cards"] = ["AS"] if event["cards"] != ["AS"] else ["AH"]


@pytest.mark.parametrize(
    ("tamper", "difference"),
    [
        (swap_a_card, "deal: seat 0 holds"),
        (change_the_seed, "seed: its SHA-256 is"),
        (change_the_result, "result: payouts recorded"),
        (change_a_move, "not verified: event "),
    ],
)
def test_verify_game_refuses_a_tampered_export_naming_the_first_difference(
    record, tamper, difference, tmp_path
):
    tamper(record)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    with pytest.raises(CommandError, match=re.escape(difference)):
        call_command("verify_game", str(path))


def test_verify_game_exits_0_with_one_line_or_1_with_the_difference(anna, tmp_path):
    (game,) = played(anna, stake=10)
    path = tmp_path / "game.json"
    record = record_of(game)
    path.write_text(json.dumps(record))
    command = [sys.executable, "manage.py", "verify_game", str(path)]
    env = {"DJANGO_DEBUG": "1", "PATH": "/usr/bin:/bin", "DJANGO_SECRET_KEY": settings.SECRET_KEY}
    ok = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env)
    assert ok.returncode == 0 and len(ok.stdout.strip().splitlines()) == 1
    change_the_result(record)
    path.write_text(json.dumps(record))
    bad = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env)
    assert bad.returncode == 1 and "result: payouts" in bad.stderr


def test_verify_game_refuses_a_file_that_is_not_a_game(tmp_path):
    path = tmp_path / "game.json"
    path.write_text("[1, 2]")
    with pytest.raises(CommandError, match="not a game record"):
        call_command("verify_game", str(path))
    path.write_text("{")
    with pytest.raises(CommandError, match="is not JSON"):
        call_command("verify_game", str(path))
    with pytest.raises(Mismatch, match="format"):
        verify({"format": "other/1"})


def test_a_stopped_game_exports_every_stake_returned_and_verifies(anna, boris, frozen_clock):
    table = open_table(anna, stake=30)
    tables.join(table.pk, boris)
    game = start_when_due(table, frozen_clock)
    play.abort(game.pk)
    game.refresh_from_db()
    record = record_of(game)
    assert record["result"]["outcome"] == "aborted"
    assert record["result"]["payouts"] == [30, 30]
    assert verify(record)


def test_the_export_url_refuses_a_running_game_and_hides_private_games(
    client, anna, boris, clara, frozen_clock
):
    client.cookies["django_language"] = "en"
    table = open_table(anna, stake=0, private=True)
    tables.join(table.pk, boris, invite_code=table.invite_code)
    game = start_when_due(table, frozen_clock)
    client.force_login(anna)
    running = client.get(f"/games/{game.pk}/export.json")
    assert running.status_code == 409 and b"still running" in running.content
    assert client.get(f"/games/{game.pk}/replay.json?seat=all").status_code == 404
    play.abort(game.pk)
    exported = client.get(f"/games/{game.pk}/export.json")
    assert exported.status_code == 200 and exported.json()["format"] == FORMAT
    assert "attachment" in exported["Content-Disposition"]
    client.force_login(clara)
    assert client.get(f"/games/{game.pk}/export.json").status_code == 404
    clara.is_staff = True
    clara.save()
    assert client.get(f"/games/{game.pk}/export.json").status_code == 200


def the_readme_check() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    after = readme.split("The same check in ten lines of Python")[1]
    return after.split("```python\n")[1].split("```")[0]


def test_the_ten_line_check_in_the_readme_accepts_an_export_and_refuses_a_swapped_card(
    record, tmp_path
):
    check = the_readme_check()
    assert len([line for line in check.splitlines() if line.strip()]) == 10
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    ran = subprocess.run([sys.executable, "-c", check, str(path)], capture_output=True, text=True)
    assert ran.returncode == 0 and ran.stdout.strip() == "fair"
    swap_a_card(record)
    path.write_text(json.dumps(record))
    ran = subprocess.run([sys.executable, "-c", check, str(path)], capture_output=True, text=True)
    assert ran.returncode == 1 and "other hands" in ran.stderr


def refund_a_paid_game(record):
    """A finished game paid out, made to look like a refund."""
    stake = record["rules"]["stake"]
    seed = record["events"].pop()
    last = record["events"][-1]
    record["events"] += [
        {"seq": last["seq"] + 1, "type": "aborted", "at": last["at"], "reason": ""},
        {**seed, "seq": last["seq"] + 2},
    ]
    players = len(record["players"])
    record["result"] = {
        "outcome": "aborted",
        "groups": [],
        "durak": None,
        "places": [None] * players,
        "payouts": [stake] * players,
    }


def raise_the_stake(record):
    record["rules"]["stake"] = 1000
    groups, players = record["result"]["groups"], len(record["players"])
    record["result"]["payouts"] = split_bank(1000 * players, groups, players)


PLAYERS_MOVES = ("lead", "throw_in", "defend", "transfer", "take", "pass")


def replays(record):
    """Whether the record's events replay through the engine, whatever else it claims."""
    try:
        list(steps(record))
    except Mismatch:
        return False
    return True


def shift_a_move(record):
    """A move alone at its moment and followed by another player's move (not by something
    the engine times from it, such as the end of a round), made a little earlier. Not every
    such shift replays: the windows the move opens close earlier too, and the next move may
    then come after its round is over; the first shift that still replays is made."""
    events = record["events"]
    for index in range(1, len(events) - 1):
        before, move, after = events[index - 1 : index + 2]
        if not (
            move["type"] in ("defend", "throw_in")
            and after["type"] in PLAYERS_MOVES
            and before["at"] < move["at"] < after["at"]
        ):
            continue
        shifted = json.loads(json.dumps(record))
        shifted["events"][index]["at"] = (before["at"] + move["at"]) / 2
        if replays(shifted):
            record["events"] = shifted["events"]
            return
    raise AssertionError("no move alone at its moment could be made earlier")


def drop_a_bots_mark(record):
    event = next(e for e in record["events"] if e.get("by") == "bot")
    del event["by"]


def rename_a_player(record):
    record["players"][0]["name"] = "boris"


def make_a_bot_a_person(record):
    record["players"][1]["bot"] = False
    record["players"][1]["level"] = None


def append_a_stop(record):
    seed = record["events"][-1]
    record["events"].append({"seq": seed["seq"] + 1, "type": "stopped", "at": seed["at"]})
    record["events"][-1]["round"] = 3
    record["result"]["outcome"] = "stopped"


def stop_a_game_early(record):
    """A ``stopped`` before the last moves, as if bots alone had played on for ever."""
    events = record["events"]
    over = 1 + next(i for i, e in enumerate(events) if e["type"] == "round" and e["round"] > 1)
    seed = {**events[-1], "seq": events[over]["seq"] + 1, "at": events[over]["at"]}
    stop = {"seq": events[over]["seq"], "type": "stopped", "at": events[over]["at"], "round": 1}
    record["events"] = [*events[:over], stop, seed]
    players = len(record["players"])
    draw = [list(range(players))]
    payouts = split_bank(record["rules"]["stake"] * players, draw, players)
    record["result"] = {"outcome": "stopped", "groups": draw, "durak": None}
    record["result"] |= {"places": [1] * players, "payouts": payouts}


@pytest.mark.parametrize(
    ("forge", "difference"),
    [
        (refund_a_paid_game, "aborted"),
        (raise_the_stake, "signature"),
        (shift_a_move, "signature"),
        (drop_a_bots_mark, "signature"),
        (rename_a_player, "signature"),
        (make_a_bot_a_person, "signature"),
        (append_a_stop, "the last is not the revealed seed"),
        (stop_a_game_early, "a game stops only after 150"),
    ],
)
def test_a_forged_record_does_not_verify(record, forge, difference):
    forge(record)
    with pytest.raises(Mismatch, match=difference):
        verify(record)


def swap_two_moves(record):
    """Two adjacent events of different moments that the engine takes either way round."""
    events = record["events"]
    for index in range(1, len(events) - 2):
        first, second = events[index], events[index + 1]
        if first["at"] == second["at"] or {first["type"], second["type"]} & {"seed", "deal"}:
            continue
        swapped = json.loads(json.dumps(record))
        swapped["events"][index], swapped["events"][index + 1] = second, first
        if replays(swapped):
            return swapped
    return None


def test_events_must_run_in_order_of_seq_and_time(anna):
    for game in played(anna, games=6, players=3):
        swapped = swap_two_moves(record_of(game))
        if swapped is not None:
            break
    assert swapped is not None, "no game had two moves the engine takes either way round"
    with pytest.raises(Mismatch, match="seq"):
        verify(swapped)


def test_a_time_running_backwards_does_not_verify(record):
    event = record["events"][3]
    event["at"] = record["events"][2]["at"] - 1
    with pytest.raises(Mismatch, match="at"):
        verify(record)


def test_an_export_carries_the_sites_signature_over_everything_else(record):
    assert re.fullmatch(r"[0-9a-f]{64}", record["signature"])
    assert "signature" in verify(record)
    unsigned = dict(record)
    del unsigned["signature"]
    with pytest.raises(Mismatch, match="signature"):
        verify(unsigned)


def test_a_signature_that_is_not_hexadecimal_is_refused_not_raised(record):
    record["signature"] = "подпись" + record["signature"][7:]
    with pytest.raises(Mismatch, match="signature"):
        verify(record)
