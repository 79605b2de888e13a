from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from django.test import Client

from games.engine import Game as EngineGame
from games.models import Game
from games.records import verification, viewer
from games.table import play, tables
from tests.games.history_helpers import played, record_of
from tests.support.tables import Clock, open_table, start_when_due

pytestmark = pytest.mark.usefixtures("ledger_audit")


@pytest.fixture
def client(client):
    client.cookies["django_language"] = "en"
    return client


def play_and_watch(game: Game, frozen_clock: Clock) -> list[dict[int | None, Mapping[str, Any]]]:
    """Run the game to its end as the server does, keeping every seat's view of every state
    it went through (and all hands, under None)."""
    seen: list[dict[int | None, Mapping[str, Any]]] = []

    def look() -> None:
        engine = EngineGame.from_dict(game.state)
        views: dict[int | None, Mapping[str, Any]] = {
            seat: engine.view(seat) for seat in range(engine.players)
        }
        views[None] = {**engine.view(None), "hands": [[str(c) for c in h] for h in engine.hands]}
        seen.append(views)

    for _ in range(5000):
        game.refresh_from_db()
        look()
        if game.status != Game.Status.RUNNING:
            return seen
        frozen_clock.past_deadline(game)
        play.tick(game.pk)
    raise AssertionError("the game did not end")


def in_order(wanted: Sequence[Mapping[str, Any]], shown: Sequence[Mapping[str, Any]]) -> bool:
    """Every wanted view appears among the shown ones, in the same order."""
    rest = iter(shown)
    return all(any(view == frame for frame in rest) for view in wanted)


def test_the_replay_shows_every_state_of_the_game_from_every_seat_and_with_all_hands_open(
    anna, frozen_clock
):
    table = open_table(anna, stake=0, seats=3)
    tables.add_bot(table.pk, anna)
    tables.add_bot(table.pk, anna, "strong")
    game = start_when_due(table, frozen_clock)
    seen = play_and_watch(game, frozen_clock)
    record = record_of(game)
    for seat in (0, 1, 2, None):
        frames = viewer.frames(record, seat)
        shown = [step["view"] for step in frames["steps"]]
        assert shown[0] == seen[0][seat] and shown[-1] == seen[-1][seat]
        assert in_order([views[seat] for views in seen], shown)
        assert all("hands" not in view for view in shown) if seat is not None else True
    events = {event["seq"] for event in record["events"]}
    assert len(viewer.frames(record, 0)["log"]) >= len(events) - 1


def test_a_seats_replay_holds_its_own_hand_and_never_a_hidden_card_of_another_seat(anna):
    (game,) = played(anna, players=3)
    record = record_of(game)
    opened = viewer.frames(record, None)["steps"]
    mine = viewer.frames(record, 1)["steps"]
    assert len(opened) == len(mine)
    for open_step, my_step in zip(opened, mine, strict=True):
        everything, view = open_step["view"], my_step["view"]
        assert sorted(view["hand"]) == sorted(everything["hands"][1])
        hidden = {
            card
            for seat in (0, 2)
            for card in everything["hands"][seat]
            if card not in view["known"][seat]
        }
        assert not hidden & set(json.dumps(view).replace('"', " ").replace(",", " ").split())


def test_the_replay_url_answers_for_any_seat_and_refuses_one_that_is_not_there(client, anna):
    (game,) = played(anna)
    client.force_login(anna)
    assert client.get(f"/games/{game.pk}/replay.json?seat=all").json()["seat"] is None
    assert client.get(f"/games/{game.pk}/replay.json?seat=1").json()["seat"] == 1
    refused = client.get(f"/games/{game.pk}/replay.json?seat=7")
    assert refused.status_code == 400 and refused.json()["error"] == "There is no such seat."


def test_an_uploaded_export_is_replayed_once_it_verifies_and_refused_otherwise(client, anna):
    (game,) = played(anna)
    record = record_of(game)
    url = "/replay/frames.json?seat=0"
    shown = client.post(url, record, content_type="application/json")
    assert shown.status_code == 200 and shown.json()["steps"]
    record["seed"] = "0" * 64
    refused = client.post(url, record, content_type="application/json")
    assert refused.status_code == 400 and "does not verify: seed" in refused.json()["error"]
    nonsense = client.post(url, "[]", content_type="application/json")
    assert nonsense.status_code == 400 and "not an exported game" in nonsense.json()["error"]
    assert client.get("/replay/").status_code == 200


def test_one_address_replays_at_most_ten_uploaded_files_a_minute(client, anna):
    (game,) = played(anna)
    record = record_of(game)
    url = "/replay/frames.json?seat=0"
    answers = [client.post(url, record, content_type="application/json") for _ in range(11)]
    assert [a.status_code for a in answers] == [200] * 10 + [429]
    assert "Too many files" in answers[-1].json()["error"]
    elsewhere = Client(REMOTE_ADDR="10.1.2.3")
    assert elsewhere.post(url, record, content_type="application/json").status_code == 200


def test_an_uploaded_file_is_verified_once_however_often_it_comes(client, anna, monkeypatch):
    (game,) = played(anna)
    record = record_of(game)
    checked = []
    check_seed = verification.check_seed

    def counted(record):
        checked.append(record["id"])
        check_seed(record)

    monkeypatch.setattr(verification, "check_seed", counted)
    for seat in ("0", "1", "all", "0"):
        url = f"/replay/frames.json?seat={seat}"
        assert client.post(url, record, content_type="application/json").status_code == 200
    record["seed"] = "0" * 64
    for _ in range(2):
        refused = client.post("/replay/frames.json", record, content_type="application/json")
        assert refused.status_code == 400 and "does not verify: seed" in refused.json()["error"]
    assert len(checked) == 2
